/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ENGINE_H
#define CLYDE_ENGINE_H

/*
 * I/O engines, fio-style: each engine is one `struct io_engine_ops` table
 * (psync here in engine.c, libaio in aio.c); the caller asks the table's
 * flags, never the engine's name.  A caller owns a fixed set of requests
 * (one per queue slot, each with its own buffer), submits some, and reaps
 * completions; nothing allocates after io_engine_init().
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
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
};

struct io_engine;

#define IO_ENGINE_SYNC 0x1u	/* completes inside submit; depth 1 */

/*
 * One engine, fio's struct ioengine_ops style: what it can do is data
 * here (flags, max_depth, probe, caveats), so callers never compare names.
 */
struct io_engine_ops {
	const char *name;
	unsigned flags;
	unsigned max_depth;	/* requests in flight at most; 0: no limit */
	/*
	 * Can the kernel run this engine here?  0, or -errno (e.g. -EAGAIN
	 * when fs.aio-max-nr is exhausted).  NULL: always.
	 */
	int (*probe)(void);
	/* A caveat for the record with buffered (not O_DIRECT) files, or
	 * NULL. */
	const char *buffered_caveat;
	/* set up for depth requests in flight: 0 or -errno */
	int (*init)(struct io_engine *e);
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

/* The engine called name, or NULL. */
const struct io_engine_ops *io_engine_find(const char *name);

/* ops->probe() when it has one, else 0. */
int io_engine_probe(const struct io_engine_ops *ops);

/* 0 or -errno (-EINVAL: depth 0 or above the engine's max_depth). */
int io_engine_init(struct io_engine *e, const struct io_engine_ops *ops,
		   unsigned depth);
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

#endif
