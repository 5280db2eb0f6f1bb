/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ENGINE_H
#define CLYDE_ENGINE_H

/*
 * I/O engines, fio-style: each engine is one `struct io_engine_ops` table
 * (psync and null in engine.c, libaio in aio.c, io_uring in uring.c); the
 * caller asks the table's flags and fields, never the engine's name.  A
 * caller owns a fixed set of requests (one per queue slot, each with its
 * own buffer), submits some, and reaps completions; nothing allocates
 * after io_engine_init().
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

struct io_req {
	void *buf;
	uint64_t off;
	uint64_t start_ns;	/* the caller's, for latency */
	long res;		/* bytes done, or -errno */
	int fd;
	unsigned len;
	unsigned slot;		/* 0..depth-1, fixed */
	unsigned char write;
	/*
	 * Registered resources (IO_ENGINE_REGISTER engines): the index of
	 * fd in io_engine_setup.fds and of the region holding buf in
	 * io_engine_setup.mem, or -1 (the engine uses fd and buf as they
	 * are).  Others ignore them.
	 */
	short file_index;
	short buf_index;
};

struct io_engine;

#define IO_ENGINE_SYNC 0x1u	/* completes inside submit; depth 1 */
#define IO_ENGINE_NOKERNEL 0x2u	/* completes without touching the kernel */
#define IO_ENGINE_REGISTER 0x4u	/* registers files and buffers */
#define IO_ENGINE_SQPOLL 0x8u	/* can submit through a kernel thread */
#define IO_ENGINE_HIPRI 0x10u	/* can poll for completions */

/* io_engine_setup.flags */
#define IO_SETUP_SQPOLL 0x1u	/* a kernel thread polls the submissions */
#define IO_SETUP_HIPRI 0x2u	/* poll the device for completions */

/* What an engine may set up beside its queue (all optional). */
struct io_engine_setup {
	const int *fds;			/* files to register */
	unsigned nfds;
	const struct iovec *mem;	/* buffers to register */
	unsigned nmem;
	unsigned flags;			/* IO_SETUP_* */
};

/*
 * An inline fast path that bench/ may compile in place of the ops calls
 * when it knows the engine (no function pointer per I/O or per batch).
 */
enum io_engine_fast {
	IO_FAST_NONE = 0,
	IO_FAST_NULL,		/* engine.h: io_null_complete() */
	IO_FAST_URING,		/* uring.h */
};

/*
 * One engine, fio's struct ioengine_ops style: what it can do is data
 * here (flags, max_depth, probe, caveats), so callers never compare names.
 */
struct io_engine_ops {
	const char *name;
	const char *help;	/* one line for --help and the man page */
	unsigned flags;
	unsigned max_depth;	/* requests in flight at most; 0: no limit */
	enum io_engine_fast fast;
	/*
	 * Can the kernel run this engine here (with setup flags)?  0, or
	 * -errno (e.g. -EAGAIN when fs.aio-max-nr is exhausted, -EPERM
	 * when io_uring is disabled).  NULL: always.
	 */
	int (*probe)(unsigned flags);
	/* A caveat for the record with buffered (not O_DIRECT) files, or
	 * NULL. */
	const char *buffered_caveat;
	/* What the figures of this engine are whatever the files: NULL for
	 * an engine whose I/O reaches the storage. */
	const char *caveat;
	/* set up for depth requests in flight: 0 or -errno */
	int (*init)(struct io_engine *e, const struct io_engine_setup *setup);
	/* start n requests: 0 when all are started, or -errno */
	int (*submit)(struct io_engine *e, struct io_req **reqs, unsigned n);
	/*
	 * Wait for min..max completions into done[]: the count or -errno.
	 * timeout (relative; NULL: wait as long as it takes) bounds the
	 * wait, so a rate-limited caller can issue on time without
	 * spinning; fewer than min (even 0) are returned when it expires.
	 */
	int (*reap)(struct io_engine *e, unsigned min, struct io_req **done,
		    unsigned max, const struct timespec *timeout);
	void (*cleanup)(struct io_engine *e);
};

struct io_engine {
	const struct io_engine_ops *ops;
	unsigned depth;
	void *priv;
};

extern const struct io_engine_ops io_engine_psync;
extern const struct io_engine_ops io_engine_libaio;
extern const struct io_engine_ops io_engine_uring;
extern const struct io_engine_ops io_engine_null;

/* The engine called name, or NULL. */
const struct io_engine_ops *io_engine_find(const char *name);

/* The engines, in the order --help lists them; *n gets the count. */
const struct io_engine_ops *const *io_engine_list(size_t *n);

/* ops->probe(flags) when it has one, else 0. */
int io_engine_probe(const struct io_engine_ops *ops, unsigned flags);

/*
 * The default engine: io_uring when the kernel lets us set up a ring
 * (not disabled by kernel.io_uring_disabled or a seccomp policy), else
 * libaio.  When it falls back, *why (if not NULL) gets a static note
 * saying why ("io_uring unavailable (Operation not permitted); libaio").
 */
const struct io_engine_ops *io_engine_default(const char **why);

/* 0 or -errno (-EINVAL: depth 0 or above the engine's max_depth, or a
 * setup flag the engine cannot do).  setup may be NULL. */
int io_engine_init(struct io_engine *e, const struct io_engine_ops *ops,
		   unsigned depth, const struct io_engine_setup *setup);
void io_engine_release(struct io_engine *e);

static inline int io_engine_submit(struct io_engine *e, struct io_req **reqs,
				   unsigned n)
{
	return e->ops->submit(e, reqs, n);
}

static inline int io_engine_reap(struct io_engine *e, unsigned min,
				 struct io_req **done, unsigned max,
				 const struct timespec *timeout)
{
	return e->ops->reap(e, min, done, max, timeout);
}

/*
 * The null engine's whole work, inline: every request done in full at
 * once, nothing sent to the kernel.  done[] gets reqs[]; returns n.
 */
static inline unsigned io_null_complete(struct io_req **reqs, unsigned n,
					struct io_req **done)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		reqs[i]->res = (long)reqs[i]->len;
		done[i] = reqs[i];
	}
	return n;
}

#endif
