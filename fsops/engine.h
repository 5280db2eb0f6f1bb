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

struct io_engine_ops {
	const char *name;
	unsigned flags;
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

/* 0 or -errno (-EINVAL: a sync engine asked for depth > 1). */
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
