// SPDX-License-Identifier: GPL-2.0-only
/*
 * The io_uring engine: one ring per engine (per thread) of depth entries,
 * the thread's files and buffers registered, optional SQPOLL (a kernel
 * thread takes the submissions) and IOPOLL (--hipri: completions polled
 * from the device).  The fast path is inline in uring.h.
 */
#include "fsops/uring.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fsops/sysroot.h"
#include "lib/xalloc.h"

/* idle time of the SQPOLL thread before it sleeps, ms */
#define SQPOLL_IDLE_MS 100

static unsigned ring_flags(unsigned setup)
{
	unsigned f = 0;

	if (setup & IO_SETUP_SQPOLL)
		f |= IORING_SETUP_SQPOLL;
	if (setup & IO_SETUP_HIPRI)
		f |= IORING_SETUP_IOPOLL;
	return f;
}

/* A ring for depth entries with setup's flags; the kernel may refuse
 * the optional hints (older than 6.0), so try without them. */
static int ring_init(struct io_uring *ring, unsigned depth, unsigned setup)
{
	struct io_uring_params par;
	int rc;

	memset(&par, 0, sizeof(par));
	par.flags = ring_flags(setup);
	if (setup & IO_SETUP_SQPOLL)
		par.sq_thread_idle = SQPOLL_IDLE_MS;
	else
		/* completions wait for our next entry instead of an IPI;
		 * we enter the kernel for every batch anyway */
		par.flags |= IORING_SETUP_COOP_TASKRUN |
			     IORING_SETUP_SINGLE_ISSUER;
	rc = io_uring_queue_init_params(depth, ring, &par);
	if (rc == -EINVAL && !(setup & IO_SETUP_SQPOLL)) {
		memset(&par, 0, sizeof(par));
		par.flags = ring_flags(setup);
		rc = io_uring_queue_init_params(depth, ring, &par);
	}
	return rc;
}

static int uring_probe(unsigned setup)
{
	struct io_uring ring;
	int rc = ring_init(&ring, 1, setup);

	if (rc < 0)
		return rc;
	io_uring_queue_exit(&ring);
	return 0;
}

static int uring_init(struct io_engine *e, const struct io_engine_setup *s)
{
	struct uring_priv *p = xcalloc(1, sizeof(*p));
	int rc;

	rc = ring_init(&p->ring, e->depth, s->flags);
	if (rc < 0) {
		free(p);
		return rc;
	}
	p->setup = s->flags;
	if (s->nfds && !io_uring_register_files(&p->ring, s->fds, s->nfds))
		p->fixed_files = 1;
	/* registering pins the pages: RLIMIT_MEMLOCK may refuse, and then
	 * the buffers are used as they are */
	if (s->nmem && !io_uring_register_buffers(&p->ring, s->mem, s->nmem))
		p->fixed_bufs = 1;
	e->priv = p;
	return 0;
}

static int uring_submit_op(struct io_engine *e, struct io_req **reqs,
			   unsigned n)
{
	return uring_submit(e->priv, reqs, n, 0);
}

static int uring_reap_op(struct io_engine *e, unsigned min,
			 struct io_req **done, unsigned max,
			 const struct timespec *timeout)
{
	return uring_reap(e->priv, min, done, max, timeout);
}

static void uring_cleanup(struct io_engine *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	/* the ring's teardown is asynchronous: drop the registered files
	 * now, so that the file system is not busy after we return (an
	 * umount right after clyde would fail) */
	if (p->fixed_files)
		io_uring_unregister_files(&p->ring);
	if (p->fixed_bufs)
		io_uring_unregister_buffers(&p->ring);
	io_uring_queue_exit(&p->ring);
	free(p);
	e->priv = NULL;
}

const struct io_engine_ops io_engine_uring = {
	.name = "io_uring",
	.help = "io_uring: batched, registered files and buffers, "
		"--sqpoll, --hipri",
	.flags = IO_ENGINE_REGISTER | IO_ENGINE_SQPOLL | IO_ENGINE_HIPRI,
	.max_depth = 4096,
	.fast = IO_FAST_URING,
	.probe = uring_probe,
	.buffered_caveat = NULL,
	.init = uring_init,
	.submit = uring_submit_op,
	.reap = uring_reap_op,
	.cleanup = uring_cleanup,
};

int uring_poll_check(int fd, char *err, size_t errlen)
{
	char path[256], *v;
	struct stat st;
	dev_t dev;

	if (fstat(fd, &st))
		return -errno;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!major(dev)) {
		snprintf(err, errlen, "not on a block device (polled "
			 "completions need one whose queue polls)");
		return -EOPNOTSUPP;
	}
	/* a partition has no queue/ of its own: its disk's, one up */
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/queue/io_poll",
		 sysfs_root(), major(dev), minor(dev));
	v = sysfs_read_str(path);
	if (!v) {
		snprintf(path, sizeof(path),
			 "%s/dev/block/%u:%u/../queue/io_poll", sysfs_root(),
			 major(dev), minor(dev));
		v = sysfs_read_str(path);
	}
	if (v && !strcmp(v, "1")) {
		free(v);
		return 0;
	}
	snprintf(err, errlen, "the device %u:%u does not poll (%s is %s)",
		 major(dev), minor(dev), "queue/io_poll", v ? v : "missing");
	free(v);
	return -EOPNOTSUPP;
}
