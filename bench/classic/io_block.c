// SPDX-License-Identifier: GPL-2.0-only
/*
 * Block write, rewrite and block read: the whole -s file in blocks of the
 * chunk size, with O_DIRECT under --direct (buffers and sizes aligned as
 * the file requires; a last partial block that the alignment forbids is
 * done buffered).  Every block is unique data: block write hands the
 * pool's window for each block to write(2) after stamping its sectors
 * (fsops/datagen.h: three words per 4 KiB, less than bonnie++'s one byte
 * changed per chunk costs in a copy-free loop), so the timed loop holds no
 * data generation and no copy.  Rewrite changes one byte per chunk, as
 * bonnie++ does.  Writes end with fsync + close inside the timed period;
 * reads start evicted.  One clock read per block: a block's latency runs
 * from the end of the one before (the loop's own few instructions are in
 * it, nothing else).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"
#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "fsops/file.h"

static size_t block_len(uint64_t total, uint64_t off, size_t io)
{
	return total - off < io ? (size_t)(total - off) : io;
}

/* O_DIRECT reads must ask for a multiple of the alignment; at the end of
 * the file they return what there is. */
static size_t read_len(const struct bench_ctx *ctx, size_t len)
{
	if (ctx->direct && ctx->align.offset)
		return round_up(len, ctx->align.offset);
	return len;
}

/* The pool's window is used as it is unless O_DIRECT needs more
 * alignment than the offset gives it: then a copy (before the clock). */
static const void *direct_ok(const struct bench_ctx *ctx, const void *p,
			     void *buf, size_t n)
{
	if (ctx->direct && ctx->align.mem > 1 &&
	    (uintptr_t)p % ctx->align.mem) {
		memcpy(buf, p, n);
		return buf;
	}
	return p;
}

/*
 * What a block test holds open around its timed loop.  The loops take fd
 * and buf into locals: ph's address goes to the helpers, so its fields
 * would be reloaded after every call in the loop.
 */
struct block_phase {
	struct measure m;	/* the timed period */
	struct io_probe probe;	/* fd -1 without one (block write) */
	void *buf;		/* ctx->io_size bytes, aligned for O_DIRECT */
	int fd;			/* the test file, O_DIRECT under --direct */
	int sync;		/* opened for writing: fsync before close */
};

/*
 * Before the timed period: check the block size; for a read phase
 * (probe), evict the file and record its residency (io_probe_begin); open
 * the file with flags and allocate the block buffer.  0, or a negative
 * errno with res failed and nothing left open.
 */
static int block_begin(const struct bench_ctx *ctx, int flags, int probe,
		       struct block_phase *ph, struct result *res)
{
	int err;

	ph->probe.fd = -1;
	if (!probe)
		res->residency = -1;
	err = io_check_block_size(ctx, res);
	if (err)
		return err;
	if (probe) {
		err = io_probe_begin(ctx, (off_t)ctx->cfg->file_size,
				     &ph->probe, res);
		if (err)
			return err;
	}
	ph->fd = io_open(ctx, flags, ctx->direct, res);
	if (ph->fd < 0) {
		io_probe_end(ctx, &ph->probe, 0, res);
		return ph->fd;
	}
	ph->buf = io_buffer(ctx, ctx->io_size);
	ph->sync = (flags & O_ACCMODE) != O_RDONLY;
	return 0;
}

/*
 * After the loop, still inside the timed period: free the buffer; when the
 * loop ended with err, close the file and fail res with what (io_fail);
 * else close it (after an fsync when it was opened for writing: part of
 * the test, as bonnie++'s block tests end with theirs), end the
 * timed period and finish res: ops blocks, the file once over the elapsed
 * time (bonnie++'s rate, rewrite included).  The probe ends in every case,
 * checking for an ignored O_DIRECT only after a complete phase.  0 or a
 * negative errno.
 */
static int block_end(const struct bench_ctx *ctx, struct block_phase *ph,
		     int err, const char *what, uint64_t ops,
		     struct result *res)
{
	uint64_t total = ctx->cfg->file_size;

	free(ph->buf);
	if (err) {
		close(ph->fd);
		io_probe_end(ctx, &ph->probe, 0, res);
		return io_fail(ctx, res, err, what);
	}
	err = ph->sync ? io_sync_close(ctx, ph->fd, res)
		       : io_close(ctx, ph->fd, res);
	if (err) {
		io_probe_end(ctx, &ph->probe, 0, res);
		return err;
	}
	measure_end(&ph->m, res);
	io_probe_end(ctx, &ph->probe, 1, res);
	io_result_kib(res, ops, total, total);
	return 0;
}

/*
 * Read the block at the file position, n bytes of it asked in read_len:
 * 0, a negative errno, or io_short_read()'s -EIO (res failed) when the
 * file ends before n.  Always inlined: the timed loops that call it hold
 * no call of it.
 */
static inline __attribute__((always_inline)) int
read_block(const struct bench_ctx *ctx, int fd, void *buf, size_t n,
	   struct result *res)
{
	ssize_t r = read_full(fd, buf, read_len(ctx, n));

	if (r < 0)
		return (int)r;
	if ((size_t)r < n)
		return io_short_read(ctx, res);
	return 0;
}

static int run_put_block(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	uint64_t total = cfg->file_size, off, ops = 0, t0;
	size_t n, io = ctx->io_size;
	const char *what = "write";
	struct block_phase ph;
	struct datagen g;
	const void *p;
	void *buf;
	int fd, err;

	err = block_begin(ctx, O_CREAT | O_TRUNC | O_WRONLY, 0, &ph, res);
	if (err)
		return err;
	fd = ph.fd;
	buf = ph.buf;
	datagen_init(&g, ctx->seed, io);

	measure_begin(&ph.m);
	t0 = ph.m.start_ns;
	for (off = 0; off < total; off += n) {
		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = block_len(total, off, io);
		p = direct_ok(ctx, datagen_block(&g, n, IO_STREAM_BLOCK, 0, off),
			      buf, n);
		if (n < io) {
			err = io_tail_buffered(ctx, fd, n, res);
			if (err)
				break;
		}
		err = write_full(fd, p, n);
		/* --fsync-writes; -b leaves block writes alone (bonnie++) */
		if (!err && cfg->fsync_writes && fsync(fd)) {
			err = -errno;
			what = "fsync";
		}
		if (err)
			break;
		io_lap(&res->lat, &t0);
		ops++;
	}
	datagen_release(&g);
	return block_end(ctx, &ph, err, what, ops, res);
}

static int run_rewrite(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	uint64_t total = cfg->file_size, off, ops = 0, t0;
	size_t n, io = ctx->io_size;
	const char *what = "rewrite";
	struct block_phase ph;
	unsigned char *buf;
	int fd, err;

	err = block_begin(ctx, O_RDWR, 1, &ph, res);
	if (err)
		return err;
	fd = ph.fd;
	buf = ph.buf;

	measure_begin(&ph.m);
	t0 = ph.m.start_ns;
	for (off = 0; off < total; off += n) {
		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = block_len(total, off, io);
		err = read_block(ctx, fd, buf, n, res);
		if (err) {
			what = "read";
			break;
		}
		/* dirty it: one byte changes, the block stays unique */
		buf[(off / io) % n] ^= 0xa5;
		if (lseek(fd, (off_t)off, SEEK_SET) < 0) {
			err = -errno;
			what = "seek";
			break;
		}
		if (n < io) {
			err = io_tail_buffered(ctx, fd, n, res);
			if (err)
				break;
		}
		err = write_full(fd, buf, n);
		if (err) {
			what = "write";
			break;
		}
		if (ctx->cfg->fsync_writes && fsync(fd)) {
			err = -errno;
			what = "fsync";
			break;
		}
		io_lap(&res->lat, &t0);
		ops++;
	}
	return block_end(ctx, &ph, err, what, ops, res);
}

static int run_get_block(struct bench_ctx *ctx, struct result *res)
{
	uint64_t total = ctx->cfg->file_size, off, ops = 0, t0;
	size_t n, io = ctx->io_size;
	struct block_phase ph;
	void *buf;
	int fd, err;

	err = block_begin(ctx, O_RDONLY, 1, &ph, res);
	if (err)
		return err;
	fd = ph.fd;
	buf = ph.buf;

	measure_begin(&ph.m);
	t0 = ph.m.start_ns;
	for (off = 0; off < total; off += n) {
		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = block_len(total, off, io);
		err = read_block(ctx, fd, buf, n, res);
		if (err)
			break;
		io_lap(&res->lat, &t0);
		ops++;
	}
	return block_end(ctx, &ph, err, "read", ops, res);
}

const struct bench_test bench_put_block = {
	.def = &bonnie_tests[BONNIE_PUT_BLOCK],
	.flags = BENCH_IO,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_put_block,
};

const struct bench_test bench_rewrite = {
	.def = &bonnie_tests[BONNIE_REWRITE],
	.flags = BENCH_IO | BENCH_READ,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_rewrite,
};

const struct bench_test bench_get_block = {
	.def = &bonnie_tests[BONNIE_GET_BLOCK],
	.flags = BENCH_IO | BENCH_READ,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_get_block,
};
