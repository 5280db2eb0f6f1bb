// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine table lookup and the psync engine: pread(2)/pwrite(2), one
 * request at a time, completed inside submit.
 */
#include "engine.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>


static int psync_init(struct io_engine *e)
{
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
	.flags = IO_ENGINE_SYNC,
	.max_depth = 1,
	.init = psync_init,
	.submit = psync_submit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};

static const struct io_engine_ops *const engines[] = {
	&io_engine_psync,
	&io_engine_libaio,
};

const struct io_engine_ops *io_engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

int io_engine_probe(const struct io_engine_ops *ops)
{
	return ops->probe ? ops->probe() : 0;
}

int io_engine_init(struct io_engine *e, const struct io_engine_ops *ops,
		   unsigned depth)
{
	memset(e, 0, sizeof(*e));
	if (!depth || (ops->max_depth && depth > ops->max_depth) ||
	    ((ops->flags & IO_ENGINE_SYNC) && depth > 1))
		return -EINVAL;
	e->ops = ops;
	e->depth = depth;
	return ops->init(e);
}

void io_engine_release(struct io_engine *e)
{
	if (e->ops)
		e->ops->cleanup(e);
	memset(e, 0, sizeof(*e));
}
