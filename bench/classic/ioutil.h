/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_IOUTIL_H
#define CLYDE_IOUTIL_H

/*
 * What the I/O tests (io_char.c, io_block.c, seeks.c) share: opening the
 * test file, aligned buffers, the eviction and residency bracket around a
 * read phase, and their error messages.  Internal to bench/.  Every
 * function that can fail has already failed res (bench_fail) when it
 * returns a negative errno.
 */

#include <stddef.h>
#include <sys/types.h>

#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "fsops/clock.h"
#include "report/model/histogram.h"

/* datagen streams of the I/O tests: each writer has its own data. */
#define IO_STREAM_CHAR	1
#define IO_STREAM_BLOCK	2

/* The test file's name in the run directory: ctx->path's last part. */
const char *io_file_name(const struct bench_ctx *ctx);

/*
 * Open the test file with flags (plus O_CLOEXEC and O_NOFOLLOW, and
 * O_DIRECT when direct), relative to ctx->dirfd, mode 0600 when creating.  The fd, or a negative errno with res failed
 * as "create '<path>': ..." or "open '<path>': ...".
 */
int io_open(const struct bench_ctx *ctx, int flags, int direct,
	    struct result *res);

/*
 * Check the bulk block size: nonzero, and a multiple of the O_DIRECT
 * offset alignment when ctx->direct.  0 or -EINVAL with res failed.
 */
int io_check_block_size(const struct bench_ctx *ctx, struct result *res);

/* A buffer of size bytes aligned for O_DIRECT (and at least a page). */
void *io_buffer(const struct bench_ctx *ctx, size_t size);

/*
 * Leave O_DIRECT for the file's last partial block, whose length the
 * alignment does not allow: a no-op unless direct and len unaligned.  0 or
 * a negative errno (res failed).
 */
int io_tail_buffered(const struct bench_ctx *ctx, int fd, size_t len,
		     struct result *res);

/* fsync and close fd; 0 or a negative errno (res failed).  fd is closed
 * in every case. */
int io_sync_close(const struct bench_ctx *ctx, int fd, struct result *res);

/* close fd; 0 or a negative errno (res failed). */
int io_close(const struct bench_ctx *ctx, int fd, struct result *res);

/*
 * End a failed phase: fail res with "<what> '<path>': <strerror>" (or
 * skip it "interrupted" for -EINTR) unless an io_* helper failed it
 * already.
 * Returns err.
 */
int io_fail(const struct bench_ctx *ctx, struct result *res, int err,
	    const char *what);

/* A read that found the end of the file too early: -EIO, res failed with
 * "read '<path>': unexpected end of file". */
int io_short_read(const struct bench_ctx *ctx, struct result *res);

/*
 * The bracket around a read phase.  begin: a buffered read-only fd on the
 * file, sync and evict the first len bytes, res->residency = fraction
 * still resident, RESULT_CACHED if more than RESULT_CACHED_FRACTION.
 * end (after the timed period): when direct was asked and check_direct,
 * RESULT_DIRECT_IGNORED if the phase left more than RESULT_CACHED_FRACTION
 * of the file in the page cache; closes the fd.  A residency that cannot
 * be measured is -1 and flags nothing.
 */
struct io_probe {
	int fd;
	off_t len;
};

int io_probe_begin(const struct bench_ctx *ctx, off_t len, struct io_probe *p,
		   struct result *res);
void io_probe_end(const struct bench_ctx *ctx, struct io_probe *p,
		  int check_direct, struct result *res);

/* Add the warning msg to ctx->rec unless it is there already. */
void io_warn_once(const struct bench_ctx *ctx, const char *msg);

/* Finish a throughput result: ops, bytes, value in KiB/s of rate_bytes
 * over res->elapsed, status OK. */
void io_result_kib(struct result *res, uint64_t ops, uint64_t bytes,
		   uint64_t rate_bytes);

/*
 * The end of one operation of a timed loop: one clock read, the latency
 * since *t0 (the end of the operation before, or the start of the timed
 * period) into h, and *t0 moved on to now.  Inline: the loop holds no
 * call for it.
 */
static inline void io_lap(struct histogram *h, uint64_t *t0)
{
	uint64_t t1 = clock_ns();

	hist_add(h, t1 - *t0);
	*t0 = t1;
}

#endif
