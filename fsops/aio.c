// SPDX-License-Identifier: GPL-2.0-only
/*
 * The libaio engine: one AIO context per engine (per thread), one iocb per
 * request slot, batched io_submit and io_getevents.
 */
#include "fsops/engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

struct aio_priv {
	io_context_t ctx;
	struct iocb *iocbs;		/* by slot */
	struct iocb **ptrs;		/* submit batch */
	struct io_event *events;
};

static int aio_probe(unsigned flags)
{
	io_context_t ctx = 0;
	int rc;

	(void)flags;
	rc = io_setup(1, &ctx);

	if (rc < 0)
		return rc;
	io_destroy(ctx);
	return 0;
}

static int aio_init(struct io_engine *e, const struct io_engine_setup *s)
{
	struct aio_priv *p = xcalloc(1, sizeof(*p));
	int rc;

	(void)s;
	rc = io_setup((int)e->depth, &p->ctx);
	if (rc < 0) {
		free(p);
		return rc;
	}
	p->iocbs = xcalloc(e->depth, sizeof(*p->iocbs));
	p->ptrs = xcalloc(e->depth, sizeof(*p->ptrs));
	p->events = xcalloc(e->depth, sizeof(*p->events));
	e->priv = p;
	return 0;
}

static int aio_submit(struct io_engine *e, struct io_req **reqs, unsigned n)
{
	struct aio_priv *p = e->priv;
	unsigned i, done = 0;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct iocb *cb = &p->iocbs[r->slot];

		if (r->write)
			io_prep_pwrite(cb, r->fd, r->buf, r->len,
				       (long long)r->off);
		else
			io_prep_pread(cb, r->fd, r->buf, r->len,
				      (long long)r->off);
		cb->data = r;
		p->ptrs[i] = cb;
	}
	while (done < n) {
		int rc = io_submit(p->ctx, (long)(n - done), p->ptrs + done);

		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return rc;
		if (rc == 0)
			return -EAGAIN;
		done += (unsigned)rc;
	}
	return 0;
}

static int aio_reap(struct io_engine *e, unsigned min, struct io_req **done,
		    unsigned max, const struct timespec *timeout)
{
	struct timespec ts;

	struct aio_priv *p = e->priv;
	int rc, i;

	if (max > e->depth)
		max = e->depth;
	do {
		/* io_getevents may update the timeout: give it a copy */
		if (timeout)
			ts = *timeout;
		rc = io_getevents(p->ctx, (long)min, (long)max, p->events,
				  timeout ? &ts : NULL);
	} while (rc == -EINTR);
	if (rc < 0)
		return rc;
	for (i = 0; i < rc; i++) {
		struct io_req *r = p->events[i].data;

		r->res = (long)p->events[i].res;
		done[i] = r;
	}
	return rc;
}

static void aio_cleanup(struct io_engine *e)
{
	struct aio_priv *p = e->priv;

	if (!p)
		return;
	io_destroy(p->ctx);
	free(p->iocbs);
	free(p->ptrs);
	free(p->events);
	free(p);
	e->priv = NULL;
}

const struct io_engine_ops io_engine_libaio = {
	.name = "libaio",
	.help = "Linux native AIO (io_submit), --qd per thread",
	.flags = 0,
	.probe = aio_probe,
	.buffered_caveat = "libaio on buffered files blocks in io_submit; "
			   "the queue depth is not honoured",
	.init = aio_init,
	.submit = aio_submit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
