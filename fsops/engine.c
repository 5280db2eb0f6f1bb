// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine table, its lookup and default, and the two engines without a
 * queue of their own: psync (pread(2)/pwrite(2), one request at a time,
 * completed inside submit) and null (every request done at once, nothing
 * sent to the kernel: what is left is clyde's own cost per I/O).
 */
#include "fsops/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"

static int psync_init(struct io_engine *e, const struct io_engine_setup *s)
{
	(void)s;
	e->priv = NULL;
	return 0;
}

static int psync_submit(struct io_engine *e, struct io_req **reqs,
			unsigned n)
{
	struct io_req *r = reqs[0];
	ssize_t rc;

	if (n != 1)
		return -EINVAL;
	do {
		if (r->write)
			rc = pwrite(r->fd, r->buf, r->len, (off_t)r->off);
		else
			rc = pread(r->fd, r->buf, r->len, (off_t)r->off);
	} while (rc < 0 && errno == EINTR);
	r->res = rc < 0 ? -errno : (long)rc;
	e->priv = r;
	return 0;
}

static int psync_reap(struct io_engine *e, unsigned min, struct io_req **done,
		      unsigned max, const struct timespec *timeout)
{
	/* nothing is ever pending */
	(void)min, (void)max, (void)timeout;
	if (!e->priv)
		return 0;
	done[0] = e->priv;
	e->priv = NULL;
	return 1;
}

static void psync_cleanup(struct io_engine *e)
{
	e->priv = NULL;
}

const struct io_engine_ops io_engine_psync = {
	.name = "psync",
	.help = "pread/pwrite, one I/O at a time",
	.flags = IO_ENGINE_SYNC,
	.max_depth = 1,
	.init = psync_init,
	.submit = psync_submit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};

/* null: the requests submitted and not reaped yet, in order */
struct null_priv {
	struct io_req **done;
	unsigned n;
};

static int null_init(struct io_engine *e, const struct io_engine_setup *s)
{
	struct null_priv *p = xcalloc(1, sizeof(*p));

	(void)s;
	p->done = xcalloc(e->depth, sizeof(*p->done));
	e->priv = p;
	return 0;
}

static int null_submit(struct io_engine *e, struct io_req **reqs, unsigned n)
{
	struct null_priv *p = e->priv;

	if (p->n + n > e->depth)
		return -EINVAL;
	io_null_complete(reqs, n, p->done + p->n);
	p->n += n;
	return 0;
}

static int null_reap(struct io_engine *e, unsigned min, struct io_req **done,
		     unsigned max, const struct timespec *timeout)
{
	struct null_priv *p = e->priv;
	unsigned n = p->n < max ? p->n : max;

	(void)min, (void)timeout;
	memcpy(done, p->done, n * sizeof(*done));
	memmove(p->done, p->done + n, (p->n - n) * sizeof(*done));
	p->n -= n;
	return (int)n;
}

static void null_cleanup(struct io_engine *e)
{
	struct null_priv *p = e->priv;

	if (!p)
		return;
	free(p->done);
	free(p);
	e->priv = NULL;
}

const struct io_engine_ops io_engine_null = {
	.name = "null",
	.help = "completes every I/O at once without the kernel: clyde's "
		"own cost",
	.flags = IO_ENGINE_NOKERNEL,
	.fast = IO_FAST_NULL,
	.caveat = "--engine null: no I/O reaches the kernel or the storage; "
		  "the figures are clyde's own cost per I/O, not the "
		  "storage's",
	.init = null_init,
	.submit = null_submit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};

static const struct io_engine_ops *const engines[] = {
	&io_engine_uring,
	&io_engine_libaio,
	&io_engine_psync,
	&io_engine_null,
};

const struct io_engine_ops *const *io_engine_list(size_t *n)
{
	*n = sizeof(engines) / sizeof(engines[0]);
	return engines;
}

const struct io_engine_ops *io_engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

int io_engine_probe(const struct io_engine_ops *ops, unsigned flags)
{
	return ops->probe ? ops->probe(flags) : 0;
}

const struct io_engine_ops *io_engine_default(const char **why)
{
	static char note[128];
	int rc = io_engine_probe(&io_engine_uring, 0);

	if (why)
		*why = NULL;
	if (!rc)
		return &io_engine_uring;
	if (why) {
		snprintf(note, sizeof(note), "io_uring unavailable (%s); "
			 "the default engine is libaio", strerror(-rc));
		*why = note;
	}
	return &io_engine_libaio;
}

int io_engine_init(struct io_engine *e, const struct io_engine_ops *ops,
		   unsigned depth, const struct io_engine_setup *setup)
{
	static const struct io_engine_setup none;
	unsigned flags;

	memset(e, 0, sizeof(*e));
	if (!setup)
		setup = &none;
	flags = setup->flags;
	if (!depth || (ops->max_depth && depth > ops->max_depth) ||
	    ((ops->flags & IO_ENGINE_SYNC) && depth > 1) ||
	    ((flags & IO_SETUP_SQPOLL) && !(ops->flags & IO_ENGINE_SQPOLL)) ||
	    ((flags & IO_SETUP_HIPRI) && !(ops->flags & IO_ENGINE_HIPRI)))
		return -EINVAL;
	e->ops = ops;
	e->depth = depth;
	return ops->init(e, setup);
}

void io_engine_release(struct io_engine *e)
{
	if (e->ops)
		e->ops->cleanup(e);
	memset(e, 0, sizeof(*e));
}
