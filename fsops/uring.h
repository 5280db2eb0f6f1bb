/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_URING_H
#define CLYDE_URING_H

/*
 * The io_uring engine (liburing).  Its ops table is io_engine_uring in
 * engine.h; this header is its inline fast path (IO_FAST_URING), which a
 * loop that knows its engine compiles in instead of the ops calls: a
 * batch of requests becomes submission queue entries and one
 * io_uring_submit() (none at all with --sqpoll while the kernel thread is
 * awake), and completions are taken from the completion ring in user
 * space; the kernel is entered to wait only when the ring is empty.
 * Files and buffers registered at init are used as fixed ones
 * (io_req.file_index, io_req.buf_index).
 */

#include <errno.h>
#include <liburing.h>
#include <stddef.h>

#include "fsops/engine.h"

/*
 * Can fd's device do polled completions (--hipri)?  0 when its block
 * queue polls (queue/io_poll is 1), else -EOPNOTSUPP with the reason in
 * err (tmpfs, a loop device, a disk without poll queues).
 */
int uring_poll_check(int fd, char *err, size_t errlen);

struct uring_priv {
	struct io_uring ring;
	unsigned setup;		/* IO_SETUP_* */
	int fixed_files;	/* files registered */
	int fixed_bufs;		/* buffers registered */
};

static inline void uring_prep(const struct uring_priv *p,
			      struct io_uring_sqe *sqe, struct io_req *r)
{
	int fd = r->fd;
	int fixed = p->fixed_files && r->file_index >= 0;

	if (fixed)
		fd = r->file_index;
	if (p->fixed_bufs && r->buf_index >= 0) {
		if (r->write)
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len,
						  r->off, r->buf_index);
		else
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len,
						 r->off, r->buf_index);
	} else if (r->write) {
		io_uring_prep_write(sqe, fd, r->buf, r->len, r->off);
	} else {
		io_uring_prep_read(sqe, fd, r->buf, r->len, r->off);
	}
	if (fixed)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, r);
}

/*
 * Start n requests (n <= depth - in flight): 0 or -errno.  With wait, and
 * no completion in the ring yet, the same system call also waits for one,
 * so that the reap after it finds it without another.
 */
static inline int uring_submit(struct uring_priv *p, struct io_req **reqs,
			       unsigned n, int wait)
{
	unsigned i;
	int rc;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe;

		while (!(sqe = io_uring_get_sqe(&p->ring))) {
			/* SQPOLL: the kernel thread may post completions
			 * before it moves the ring's head past their
			 * entries; wait for it */
			if (!(p->setup & IO_SETUP_SQPOLL))
				return -EBUSY;	/* more than depth */
			rc = io_uring_sqring_wait(&p->ring);
			if (rc < 0 && rc != -EINTR)
				return rc;
		}
		uring_prep(p, sqe, reqs[i]);
	}
	if (p->setup & IO_SETUP_SQPOLL) {
		/* published once flushed; the count io_uring_submit()
		 * returns is what the kernel thread has not taken yet */
		do
			rc = io_uring_submit(&p->ring);
		while (rc == -EINTR);
		return rc < 0 ? rc : 0;
	}
	if (wait && !io_uring_cq_ready(&p->ring)) {
		do
			rc = io_uring_submit_and_wait(&p->ring, 1);
		while (rc == -EINTR);
		if (rc < 0)
			return rc;
		i = (unsigned)rc;
		if (i == n)
			return 0;
	} else {
		i = 0;
	}
	while (i < n) {
		rc = io_uring_submit(&p->ring);
		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return rc;
		if (rc == 0)
			return -EAGAIN;
		i += (unsigned)rc;
	}
	return 0;
}

/*
 * Up to max completions into done[]: those in the ring, without a system
 * call; when there are none and min > 0, wait for one (at most timeout
 * when not NULL).  The count or -errno.
 */
static inline int uring_reap(struct uring_priv *p, unsigned min,
			     struct io_req **done, unsigned max,
			     const struct timespec *timeout)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int rc;

	if (!io_uring_cq_ready(&p->ring)) {
		if (min && timeout) {
			struct __kernel_timespec kts;

			kts.tv_sec = timeout->tv_sec;
			kts.tv_nsec = timeout->tv_nsec;
			do
				rc = io_uring_wait_cqe_timeout(&p->ring, &cqe,
							       &kts);
			while (rc == -EINTR);
			if (rc == -ETIME)
				return 0;
		} else if (min && (p->setup & IO_SETUP_SQPOLL)) {
			/* wait in slices, nudging the kernel thread between
			 * them (a flush that wakes it if it sleeps) */
			struct __kernel_timespec kts = { 0, 50000000 };

			for (;;) {
				rc = io_uring_wait_cqe_timeout(&p->ring, &cqe,
							       &kts);
				if (rc != -ETIME && rc != -EINTR)
					break;
				io_uring_submit(&p->ring);
			}
		} else if (min) {
			do
				rc = io_uring_wait_cqe(&p->ring, &cqe);
			while (rc == -EINTR);
		} else if (p->setup & IO_SETUP_HIPRI) {
			/* polled: only entering the kernel finds them */
			rc = io_uring_peek_cqe(&p->ring, &cqe);
			if (rc == -EAGAIN)
				return 0;
		} else {
			return 0;
		}
		if (rc < 0)
			return rc;
	}
	io_uring_for_each_cqe(&p->ring, head, cqe) {
		struct io_req *r;

		if (n == max)
			break;
		r = io_uring_cqe_get_data(cqe);
		r->res = cqe->res;
		done[n++] = r;
	}
	io_uring_cq_advance(&p->ring, n);
	return (int)n;
}

#endif
