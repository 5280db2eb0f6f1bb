// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-char write and per-char read: -f bytes, one byte per write(2) or
 * read(2) as bonnie++ 2.00 does, or stdio putc/getc as bonnie++ 1.03 did
 * (--char-io=stdio).  Two clock reads per byte would cost more than the
 * byte, so latency is timed per chunk (-s ...:chunk bytes).  One-byte
 * O_DIRECT transfers are impossible: these tests stay buffered under
 * --direct, and say so in the record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"
#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "lib/xalloc.h"

static const char buffered_warning[] =
	"per-char tests use buffered I/O: one-byte O_DIRECT transfers are impossible";

static size_t char_chunk(const struct bench_ctx *ctx)
{
	return ctx->cfg->chunk_size ? (size_t)ctx->cfg->chunk_size
				    : ctx->io_size;
}

/* After write(2) of one byte returned w != 1: 0 if a retry after EINTR
 * wrote it, else a negative errno (a write of nothing is ENOSPC). */
static int __attribute__((noinline))
byte_write_error(int fd, const unsigned char *p, ssize_t w)
{
	while (w < 0 && errno == EINTR)
		w = write(fd, p, 1);
	if (w == 1)
		return 0;
	return w == 0 ? -ENOSPC : -errno;
}

/* After read(2) of one byte returned r != 1: 0 if a retry after EINTR
 * read it, 1 at end of file, else a negative errno. */
static int __attribute__((noinline))
byte_read_error(int fd, unsigned char *p, ssize_t r)
{
	while (r < 0 && errno == EINTR)
		r = read(fd, p, 1);
	if (r == 1)
		return 0;
	return r == 0 ? 1 : -errno;
}

/* The test file, buffered whatever --direct says (and the record says so). */
static int char_open(const struct bench_ctx *ctx, int flags,
		     struct result *res)
{
	if (ctx->direct)
		io_warn_once(ctx, buffered_warning);
	return io_open(ctx, flags, 0, res);
}

/*
 * --char-io=stdio: *fp a stream on fd in mode.  0, or a negative errno
 * with fd closed and res failed.
 */
static int char_stream(const struct bench_ctx *ctx, int fd, const char *mode,
		       FILE **fp, struct result *res)
{
	int err;

	*fp = fdopen(fd, mode);
	if (*fp)
		return 0;
	err = -errno;
	close(fd);
	return bench_fail(res, err, "open", ctx->path);
}

static int put_syscall(int fd, const unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ssize_t w = write(fd, buf + i, 1);

		if (w != 1) {
			int err = byte_write_error(fd, buf + i, w);

			if (err)
				return err;
		}
	}
	return 0;
}

static int put_stdio(FILE *fp, const unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (putc(buf[i], fp) == EOF)
			return errno ? -errno : -EIO;
	return 0;
}

/* 0, 1 at end of file, or a negative errno. */
static int get_syscall(int fd, unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ssize_t r = read(fd, buf + i, 1);

		if (r != 1) {
			int err = byte_read_error(fd, buf + i, r);

			if (err)
				return err;
		}
	}
	return 0;
}

static int get_stdio(FILE *fp, unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int c = getc(fp);

		if (c == EOF)
			return ferror(fp) ? (errno ? -errno : -EIO) : 1;
		buf[i] = (unsigned char)c;
	}
	return 0;
}

static int run_putc(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	int stdio = cfg->char_io == CHAR_IO_STDIO;
	size_t n, chunk = char_chunk(ctx);
	uint64_t total = cfg->char_size, off, ops = 0, t0;
	struct datagen g;
	struct measure m;
	FILE *fp = NULL;
	int fd, err = 0;

	res->residency = -1;
	fd = char_open(ctx, O_CREAT | O_TRUNC | O_WRONLY, res);
	if (fd < 0)
		return fd;
	if (stdio) {
		err = char_stream(ctx, fd, "w", &fp, res);
		if (err)
			return err;
	}
	datagen_init(&g, ctx->seed, chunk);

	measure_begin(&m);
	t0 = m.start_ns;
	for (off = 0; off < total; off += n) {
		const unsigned char *p;

		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = total - off < chunk ? (size_t)(total - off) : chunk;
		/* the chunk's stamps only; the bytes go one by one */
		p = datagen_block(&g, n, IO_STREAM_CHAR, 0, off);
		err = stdio ? put_stdio(fp, p, n) : put_syscall(fd, p, n);
		if (err)
			break;
		io_lap(&res->lat, &t0);
		ops++;
	}
	datagen_release(&g);

	if (stdio) {
		const char *what = "write";

		if (!err && fflush(fp))
			err = -errno;
		if (!err && fsync(fileno(fp))) {
			err = -errno;
			what = "fsync";
		}
		if (fclose(fp) && !err) {
			err = -errno;
			what = "close";
		}
		if (err)
			return bench_fail(res, err, what, ctx->path);
	} else if (err) {
		close(fd);
		return bench_fail(res, err, "write", ctx->path);
	} else {
		err = io_sync_close(ctx, fd, res);
		if (err)
			return err;
	}
	measure_end(&m, res);
	io_result_kib(res, ops, total, total);
	return 0;
}

static int run_getc(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	int stdio = cfg->char_io == CHAR_IO_STDIO;
	size_t n, chunk = char_chunk(ctx);
	uint64_t total = cfg->char_size, off, ops = 0, t0;
	struct io_probe probe;
	struct measure m;
	unsigned char *buf;
	struct stat st;
	FILE *fp = NULL;
	int fd, err = 0;

	fd = char_open(ctx, O_RDONLY, res);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return bench_fail(res, err, "stat", ctx->path);
	}
	/* -f larger than -s: read the whole file once. */
	if ((uint64_t)st.st_size < total)
		total = (uint64_t)st.st_size;
	err = io_probe_begin(ctx, (off_t)total, &probe, res);
	if (err) {
		close(fd);
		return err;
	}
	if (stdio) {
		err = char_stream(ctx, fd, "r", &fp, res);
		if (err) {
			io_probe_end(ctx, &probe, 0, res);
			return err;
		}
	}
	buf = xmalloc(chunk);

	measure_begin(&m);
	t0 = m.start_ns;
	for (off = 0; off < total; off += n) {
		if (*ctx->stop) {
			err = -EINTR;
			break;
		}
		n = total - off < chunk ? (size_t)(total - off) : chunk;
		err = stdio ? get_stdio(fp, buf, n) : get_syscall(fd, buf, n);
		if (err)
			break;
		io_lap(&res->lat, &t0);
		ops++;
	}
	free(buf);

	if (err) {
		if (fp)
			fclose(fp);
		else
			close(fd);
		io_probe_end(ctx, &probe, 0, res);
		if (err == 1)
			return io_short_read(ctx, res);
		return bench_fail(res, err, "read", ctx->path);
	}
	if (fp ? fclose(fp) : close(fd)) {
		err = -errno;
		io_probe_end(ctx, &probe, 0, res);
		return bench_fail(res, err, "close", ctx->path);
	}
	measure_end(&m, res);
	io_probe_end(ctx, &probe, 0, res);
	io_result_kib(res, ops, total, total);
	return 0;
}

const struct bench_test bench_putc = {
	.def = &bonnie_tests[BONNIE_PUTC],
	.flags = BENCH_IO,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_putc,
};

const struct bench_test bench_getc = {
	.def = &bonnie_tests[BONNIE_GETC],
	.flags = BENCH_IO | BENCH_READ,
	.count = BENCH_COUNT_CHUNKS,
	.run = run_getc,
};
