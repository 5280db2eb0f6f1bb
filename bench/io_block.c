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

#include "bench.h"
#include "ioutil.h"
#include "../fsops/clock.h"
#include "../fsops/datagen.h"
#include "../fsops/file.h"

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

static int run_put_block(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	uint64_t total = cfg->file_size, off, ops = 0, t0, t1;
	size_t n, io = ctx->io_size;
	const char *what = "write";
	struct datagen g;
	struct measure m;
	const void *p;
	void *buf;
	int fd, err = 0;

	res->residency = -1;
	err = io_check_block_size(ctx, res);
	if (err)
		return err;
	fd = io_open(ctx, O_CREAT | O_TRUNC | O_WRONLY, ctx->direct, res);
	if (fd < 0)
		return fd;
	buf = io_buffer(ctx, io);
	datagen_init(&g, ctx->seed, io);

	measure_begin(&m);
	t0 = m.start_ns;
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
		t1 = clock_ns();
		hist_add(&res->lat, t1 - t0);
		t0 = t1;
		ops++;
	}
	datagen_release(&g);
	free(buf);
	if (err) {
		close(fd);
		return io_fail(ctx, res, err, what);
	}
	err = io_sync_close(ctx, fd, res);
	if (err)
		return err;
	measure_end(&m, res);
	io_result_kib(res, ops, total, total);
	return 0;
}

static int run_rewrite(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	uint64_t total = cfg->file_size, off, ops = 0, t0, t1;
	size_t n, io = ctx->io_size;
	const char *what = "rewrite";
	struct io_probe probe;
	struct measure m;
	unsigned char *buf;
	ssize_t r;
	int fd, err;

	err = io_check_block_size(ctx, res);
	if (err)
		return err;
	err = io_probe_begin(ctx, (off_t)total, &probe, res);
	if (err)
		return err;
	fd = io_open(ctx, O_RDWR, ctx->direct, res);
	if (fd < 0) {
		io_probe_end(ctx, &probe, 0, res);
		return fd;
	}
	buf = io_buffer(ctx, io);

	measure_begin(&m);
	t0 = m.start_ns;
	for (off = 0; off < total; off += n) {
		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = block_len(total, off, io);
		r = read_full(fd, buf, read_len(ctx, n));
		if (r < 0) {
			err = (int)r;
			what = "read";
			break;
		}
		if ((size_t)r < n) {
			err = io_short_read(ctx, res);
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
		t1 = clock_ns();
		hist_add(&res->lat, t1 - t0);
		t0 = t1;
		ops++;
	}
	free(buf);
	if (err) {
		close(fd);
		io_probe_end(ctx, &probe, 0, res);
		return io_fail(ctx, res, err, what);
	}
	err = io_sync_close(ctx, fd, res);
	if (err) {
		io_probe_end(ctx, &probe, 0, res);
		return err;
	}
	measure_end(&m, res);
	io_probe_end(ctx, &probe, 1, res);
	/* bonnie++'s rewrite rate: the file once over the elapsed time */
	io_result_kib(res, ops, total, total);
	return 0;
}

static int run_get_block(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	uint64_t total = cfg->file_size, off, ops = 0, t0, t1;
	size_t n, io = ctx->io_size;
	struct io_probe probe;
	struct measure m;
	void *buf;
	ssize_t r;
	int fd, err;

	err = io_check_block_size(ctx, res);
	if (err)
		return err;
	err = io_probe_begin(ctx, (off_t)total, &probe, res);
	if (err)
		return err;
	fd = io_open(ctx, O_RDONLY, ctx->direct, res);
	if (fd < 0) {
		io_probe_end(ctx, &probe, 0, res);
		return fd;
	}
	buf = io_buffer(ctx, io);

	measure_begin(&m);
	t0 = m.start_ns;
	for (off = 0; off < total; off += n) {
		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = block_len(total, off, io);
		r = read_full(fd, buf, read_len(ctx, n));
		if (r < 0) {
			err = (int)r;
			break;
		}
		if ((size_t)r < n) {
			err = io_short_read(ctx, res);
			break;
		}
		t1 = clock_ns();
		hist_add(&res->lat, t1 - t0);
		t0 = t1;
		ops++;
	}
	free(buf);
	if (err) {
		close(fd);
		io_probe_end(ctx, &probe, 0, res);
		return io_fail(ctx, res, err, "read");
	}
	err = io_close(ctx, fd, res);
	if (err) {
		io_probe_end(ctx, &probe, 0, res);
		return err;
	}
	measure_end(&m, res);
	io_probe_end(ctx, &probe, 1, res);
	io_result_kib(res, ops, total, total);
	return 0;
}

const struct bench_test bench_put_block = {
	.name = "put_block",
	.title = "Block write",
	.unit = "KiB/s",
	.flags = BENCH_IO,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_put_block,
};

const struct bench_test bench_rewrite = {
	.name = "rewrite",
	.title = "Rewrite",
	.unit = "KiB/s",
	.flags = BENCH_IO | BENCH_READ,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_rewrite,
};

const struct bench_test bench_get_block = {
	.name = "get_block",
	.title = "Block read",
	.unit = "KiB/s",
	.flags = BENCH_IO | BENCH_READ,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_get_block,
};
