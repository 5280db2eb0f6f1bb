// SPDX-License-Identifier: GPL-2.0-only
/*
 * The six I/O tests of the classic suite (bench/classic/io_char.c, io_block.c,
 * seeks.c), run by hand on a scratch directory with small sizes: what they
 * measure, what they write, eviction before reads, --direct on a disk
 * filesystem and on tmpfs, and a stop request.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "fsops/clock.h"
#include "fsops/file.h"
#include "fsops/target.h"
#include "lib/xalloc.h"
#include "report/model/record.h"

extern const struct bench_test bench_putc, bench_put_block, bench_rewrite,
	bench_getc, bench_get_block, bench_seeks;

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define FILE_SIZE (16 * MiB)
#define CHAR_SIZE (1 * MiB)
#define CHUNK 8192u
#define SEEKS 2000u
#define SEEKERS 5u

#define DISK_DIR "/var/tmp"
#define TMPFS_DIR "/dev/shm"

enum { PUTC, PUT_BLOCK, REWRITE, GETC, GET_BLOCK, SEEKS_T, NTESTS };

static const struct bench_test *const six[NTESTS] = {
	&bench_putc, &bench_put_block, &bench_rewrite,
	&bench_getc, &bench_get_block, &bench_seeks,
};

/* A scratch directory, a configuration and a context as the suite makes. */
struct env {
	char *dir;
	struct bench_config cfg;
	struct bench_ctx ctx;
	volatile sig_atomic_t stop;
	struct result res[NTESTS];
};

static char *fstype_of(const char *path)
{
	struct fs_target t;
	char err[256];
	char *type;

	memset(&t, 0, sizeof(t));
	if (fs_target_detect(path, &t, err, sizeof(err)))
		return NULL;
	type = xstrdup_or_null(t.fstype);
	fs_target_release(&t);
	return type;
}

static int is_disk_fs(const char *fstype)
{
	static const char *const disk[] = {
		"ext2", "ext3", "ext4", "xfs", "btrfs", "jfs", "reiserfs",
		"f2fs",
	};
	size_t i;

	for (i = 0; fstype && i < sizeof(disk) / sizeof(disk[0]); i++)
		if (!strcmp(fstype, disk[i]))
			return 1;
	return 0;
}

static int env_setup(void **state)
{
	struct env *e = xcalloc(1, sizeof(*e));
	size_t i;

	e->cfg.file_size = FILE_SIZE;
	e->cfg.chunk_size = CHUNK;
	e->cfg.seeks = SEEKS;
	e->cfg.seekers = SEEKERS;
	e->cfg.char_size = CHAR_SIZE;
	e->cfg.char_io = CHAR_IO_SYSCALL;
	e->cfg.repeats = 1;
	e->ctx.cfg = &e->cfg;
	e->ctx.dirfd = -1;
	e->ctx.io_size = CHUNK;
	e->ctx.seed = 2001;
	e->ctx.stop = &e->stop;
	e->ctx.rec = record_new();
	for (i = 0; i < NTESTS; i++)
		e->res[i].residency = -1;
	*state = e;
	return 0;
}

/* Remove what the test made: the files in the scratch directory and it. */
static int env_teardown(void **state)
{
	struct env *e = *state;
	size_t i;

	if (e->dir) {
		DIR *d = opendir(e->dir);
		struct dirent *de;

		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		if (d)
			closedir(d);
		rmdir(e->dir);
	}
	if (e->ctx.dirfd >= 0)
		close(e->ctx.dirfd);
	for (i = 0; i < NTESTS; i++)
		free(e->res[i].reason);
	record_free(e->ctx.rec);
	free(e->ctx.path);
	free(e->dir);
	free(e);
	return 0;
}

/* Make the scratch directory under base: 0, or skip-worthy -errno. */
static int env_dir(struct env *e, const char *base)
{
	char *tmpl = xasprintf("%s/clyde-t2001-XXXXXX", base);

	if (!mkdtemp(tmpl)) {
		int err = -errno;

		free(tmpl);
		return err;
	}
	e->dir = tmpl;
	e->ctx.dir = tmpl;
	e->ctx.dirfd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	e->ctx.path = xasprintf("%s/Bonnie.%d", tmpl, (int)getpid());
	return e->ctx.dirfd < 0 ? -errno : 0;
}

/*
 * Turn on direct I/O as the suite does: the alignment the test file
 * reports.  0, or the negative errno of dio_alignment (the file cannot do
 * direct I/O).
 */
static int env_direct(struct env *e)
{
	int fd = open(e->ctx.path, O_CREAT | O_WRONLY, 0600), ret;

	assert_true(fd >= 0);
	ret = dio_alignment(fd, &e->ctx.align);
	close(fd);
	unlink(e->ctx.path);
	if (ret)
		return ret;
	print_message("# direct alignment: mem %zu offset %zu (%s)\n",
		      e->ctx.align.mem, e->ctx.align.offset,
		      e->ctx.align.from_statx ? "statx" : "fallback");
	assert_int_equal(e->ctx.io_size % e->ctx.align.offset, 0);
	e->ctx.direct = 1;
	return 0;
}

static void disk_env(struct env *e)
{
	char *type = fstype_of(DISK_DIR);
	int ret;

	if (!is_disk_fs(type)) {
		char why[256];

		snprintf(why, sizeof(why), "%s is on '%s', not a disk filesystem",
			 DISK_DIR, type ? type : "?");
		free(type);
		skip_because(why);
	}
	free(type);
	ret = env_dir(e, DISK_DIR);
	if (ret)
		SKIP("cannot make a directory in %s: %s", DISK_DIR,
		     strerror(-ret));
}

static int run(struct env *e, int t)
{
	struct result *res = &e->res[t];

	free(res->reason);
	memset(res, 0, sizeof(*res));
	res->name = (char *)six[t]->def->name;	/* read only */
	hist_init(&res->lat);
	res->residency = -1;
	return six[t]->run(&e->ctx, res);
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* What every successful result must hold. */
static void check_ok(const struct env *e, int t, int ret, uint64_t ops,
		     uint64_t bytes)
{
	const struct result *res = &e->res[t];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	print_message("# %-9s %10.1f %s cpu %5.1f%% ops %llu bytes %llu "
		      "elapsed %.3f s residency %.3f flags %#x p50 %llu ns "
		      "max %llu ns%s%s\n",
		      six[t]->def->name, res->value, six[t]->def->unit, res->cpu,
		      (unsigned long long)res->ops,
		      (unsigned long long)res->bytes, res->elapsed,
		      res->residency, res->flags,
		      (unsigned long long)hist_percentile(&res->lat, 50),
		      (unsigned long long)res->lat.max,
		      res->reason ? " reason: " : "",
		      res->reason ? res->reason : "");
	assert_int_equal(ret, 0);
	assert_int_equal(res->status, RESULT_OK);
	assert_null(res->reason);
	assert_int_equal(res->ops, ops);
	if (bytes)
		assert_int_equal(res->bytes, bytes);
	assert_int_equal(res->lat.count, res->ops);
	assert_true(res->lat.min > 0);
	assert_true(res->elapsed > 0);
	assert_true(res->value > 0);
	if (res->bytes && strcmp(six[t]->def->name, "seeks"))
		assert_true(fabs(res->value - (double)res->bytes / 1024.0 /
				 res->elapsed) < 1e-6 * res->value);
	/* process-wide CPU, counted once: never above all CPUs busy */
	assert_true(res->cpu >= 0 && res->cpu <= 100.0 * (double)ncpu + 5);
	if (six[t]->flags & BENCH_READ)
		assert_true(res->residency >= 0 && res->residency <= 1);
	else
		assert_true(res->residency < 0);
}

static off_t file_size(const struct env *e)
{
	struct stat st;

	assert_int_equal(stat(e->ctx.path, &st), 0);
	return st.st_size;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * No two 4 KiB blocks of the file are equal (what a deduplicating array
 * would look for), and none is all zeros.  Returns block 0's hash.
 */
static uint64_t check_unique(const struct env *e, uint64_t size)
{
	size_t bs = 4096, i, nblocks = (size_t)(size / bs);
	unsigned char *buf = xmalloc(bs), *zero = xcalloc(1, bs);
	uint64_t *h = xmalloc(nblocks * sizeof(*h)), first;
	int fd = open(e->ctx.path, O_RDONLY);

	assert_true(fd >= 0);
	for (i = 0; i < nblocks; i++) {
		assert_int_equal(pread_full(fd, buf, bs, (off_t)(i * bs)),
				 (ssize_t)bs);
		assert_memory_not_equal(buf, zero, bs);
		h[i] = fnv1a(buf, bs);
	}
	close(fd);
	first = h[0];
	qsort(h, nblocks, sizeof(*h), cmp_u64);
	for (i = 1; i < nblocks; i++)
		assert_true(h[i] != h[i - 1]);
	free(h);
	free(zero);
	free(buf);
	return first;
}

static void read_block(const struct env *e, off_t off, void *buf, size_t n)
{
	int fd = open(e->ctx.path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread_full(fd, buf, n, off), (ssize_t)n);
	close(fd);
}

static void bench_fail_messages(void **state)
{
	struct result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(bench_fail(&res, -ENOSPC, "write",
				    "/mnt/x/clyde.123/Bonnie.123"), -ENOSPC);
	assert_int_equal(res.status, RESULT_FAILED);
	assert_string_equal(res.reason, "write '/mnt/x/clyde.123/Bonnie.123': "
			    "No space left on device");
	/* a stop is no failure of the target: skipped */
	assert_int_equal(bench_fail(&res, -EINTR, "read", "/x"), -EINTR);
	assert_int_equal(res.status, RESULT_SKIPPED);
	assert_string_equal(res.reason, "interrupted");
	assert_int_equal(bench_fail(&res, -EIO, "fsync", "/x"), -EIO);
	assert_int_equal(res.status, RESULT_FAILED);
	assert_string_equal(res.reason, "fsync '/x': Input/output error");
	free(res.reason);
}

/* This process's CPU time in ns: another clock than measure's getrusage. */
static uint64_t process_cpu_ns(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * A phase that spins until it has had 50 ms of CPU: however busy the
 * machine (the spin may get a small share of a CPU), it lasted at least
 * that, it is low precision exactly when shorter than RESULT_MIN_ELAPSED,
 * and its CPU % is what this process had over it, as measured around it.
 */
static void measure_phase(void **state)
{
	const uint64_t spin_ns = 50 * 1000 * 1000;
	struct measure m;
	struct result res;
	uint64_t w0, c0, c1, w1;
	volatile uint64_t spin = 0;
	double elapsed, outer, cpu;

	(void)state;
	memset(&res, 0, sizeof(res));
	w0 = clock_ns();
	c0 = process_cpu_ns();
	measure_begin(&m);
	while (process_cpu_ns() - c0 < spin_ns)
		spin++;
	elapsed = measure_end(&m, &res);
	c1 = process_cpu_ns();
	w1 = clock_ns();
	outer = (double)(w1 - w0) / 1e9;
	cpu = (double)(c1 - c0) / 1e9;
	print_message("# 50 ms of CPU: elapsed %.4f s (%.4f s around it), cpu %.1f%%\n",
		      res.elapsed, outer, res.cpu);
	assert_true(elapsed == res.elapsed);
	/* one thread: wall time is at least its CPU time (less the few us
	 * spent between c0 and measure_begin) */
	assert_true(res.elapsed >= 0.049 && res.elapsed <= outer);
	assert_true(!!(res.flags & RESULT_LOW_PRECISION) ==
		    (res.elapsed < RESULT_MIN_ELAPSED));
	/* the spin's CPU over at most the outer span, at most all the CPU
	 * measured around it (getrusage rounds to microseconds) */
	assert_true(res.cpu >= 100.0 * 0.049 / outer);
	assert_true(res.cpu <= 100.0 * (cpu + 1e-5) / res.elapsed);
	assert_true(res.cpu <= 101);
}

/*
 * The record's warnings other than caveats about the machine below the
 * file system (a VM's virtual disk, a write-back cache: t2104 checks
 * those), which depend on where the test runs.  They come after the
 * per-char warning, which putc gives first.
 */
static size_t own_warnings(const struct record *rec)
{
	size_t i, n = 0;

	for (i = 0; i < rec->nwarnings; i++)
		n += !strstr(rec->warnings[i], "not evictable");
	return n;
}

/* The six in bonnie++'s order, buffered, per-char through write(2). */
static void six_buffered(void **state)
{
	struct env *e = *state;
	unsigned char *b0 = xmalloc(CHUNK), *b1 = xmalloc(CHUNK);
	unsigned char *a0 = xmalloc(CHUNK);
	uint64_t h0;
	int t;

	disk_env(e);
	check_ok(e, PUTC, run(e, PUTC), div_up(CHAR_SIZE, CHUNK), CHAR_SIZE);
	assert_int_equal(file_size(e), CHAR_SIZE);

	check_ok(e, PUT_BLOCK, run(e, PUT_BLOCK), FILE_SIZE / CHUNK,
		 FILE_SIZE);
	assert_int_equal(file_size(e), FILE_SIZE);
	h0 = check_unique(e, FILE_SIZE);
	read_block(e, 0, b0, CHUNK);
	read_block(e, CHUNK, b1, CHUNK);
	assert_memory_not_equal(b0, b1, CHUNK);

	check_ok(e, REWRITE, run(e, REWRITE), FILE_SIZE / CHUNK, FILE_SIZE);
	assert_int_equal(file_size(e), FILE_SIZE);
	/* rewritten: changed, and still unique */
	read_block(e, 0, a0, CHUNK);
	assert_memory_not_equal(a0, b0, CHUNK);
	assert_true(check_unique(e, FILE_SIZE) != h0);

	check_ok(e, GETC, run(e, GETC), div_up(CHAR_SIZE, CHUNK), CHAR_SIZE);
	assert_true(e->res[GETC].residency < 0.1);

	check_ok(e, GET_BLOCK, run(e, GET_BLOCK), FILE_SIZE / CHUNK,
		 FILE_SIZE);
	/* evicted before reading: a disk read, not a cache read */
	assert_true(e->res[GET_BLOCK].residency < 0.1);
	assert_false(e->res[GET_BLOCK].flags & RESULT_CACHED);

	check_ok(e, SEEKS_T, run(e, SEEKS_T), SEEKS, 0);
	assert_true(e->res[SEEKS_T].residency < 0.1);
	/* reads plus about one update in ten */
	assert_true(e->res[SEEKS_T].bytes > SEEKS * CHUNK * 105 / 100 &&
		    e->res[SEEKS_T].bytes < SEEKS * CHUNK * 115 / 100);
	assert_true(fabs(e->res[SEEKS_T].value - SEEKS /
			 e->res[SEEKS_T].elapsed) < 1e-6 *
		    e->res[SEEKS_T].value);
	assert_int_equal(file_size(e), FILE_SIZE);

	/* nothing was flagged as direct: it was not asked */
	for (t = 0; t < NTESTS; t++)
		assert_false(e->res[t].flags & RESULT_DIRECT_IGNORED);
	assert_int_equal(own_warnings(e->ctx.rec), 0);
	free(a0);
	free(b1);
	free(b0);
}

/* --direct on a disk filesystem: honoured, and per-char says it is not. */
static void six_direct(void **state)
{
	struct env *e = *state;
	int ret, t;

	disk_env(e);
	ret = env_direct(e);
	if (ret)
		SKIP("%s refuses direct I/O: %s", DISK_DIR, strerror(-ret));
	e->cfg.char_io = CHAR_IO_STDIO;

	check_ok(e, PUTC, run(e, PUTC), div_up(CHAR_SIZE, CHUNK), CHAR_SIZE);
	check_ok(e, PUT_BLOCK, run(e, PUT_BLOCK), FILE_SIZE / CHUNK,
		 FILE_SIZE);
	assert_int_equal(file_size(e), FILE_SIZE);
	check_unique(e, FILE_SIZE);
	check_ok(e, REWRITE, run(e, REWRITE), FILE_SIZE / CHUNK, FILE_SIZE);
	check_ok(e, GETC, run(e, GETC), div_up(CHAR_SIZE, CHUNK), CHAR_SIZE);
	check_ok(e, GET_BLOCK, run(e, GET_BLOCK), FILE_SIZE / CHUNK,
		 FILE_SIZE);
	assert_true(e->res[GET_BLOCK].residency < 0.1);
	check_ok(e, SEEKS_T, run(e, SEEKS_T), SEEKS, 0);
	for (t = 0; t < NTESTS; t++)
		assert_false(e->res[t].flags & RESULT_DIRECT_IGNORED);

	/* the per-char tests stayed buffered, and the record says so once */
	assert_int_equal(own_warnings(e->ctx.rec), 1);
	assert_non_null(strstr(e->ctx.rec->warnings[0], "per-char"));
	assert_non_null(strstr(e->ctx.rec->warnings[0], "buffered"));
}

/* A file that does not end on a block boundary, under --direct: the last
 * partial block is written and read all the same. */
static void direct_partial_block(void **state)
{
	struct env *e = *state;
	uint64_t size = FILE_SIZE / 4 + 3000;
	uint64_t blocks = div_up(size, CHUNK);
	int ret;

	disk_env(e);
	ret = env_direct(e);
	if (ret)
		SKIP("%s refuses direct I/O: %s", DISK_DIR, strerror(-ret));
	e->cfg.file_size = size;
	e->cfg.seeks = 200;
	check_ok(e, PUT_BLOCK, run(e, PUT_BLOCK), blocks, size);
	assert_int_equal(file_size(e), size);
	check_unique(e, size);
	check_ok(e, REWRITE, run(e, REWRITE), blocks, size);
	assert_int_equal(file_size(e), size);
	check_ok(e, GET_BLOCK, run(e, GET_BLOCK), blocks, size);
	check_ok(e, SEEKS_T, run(e, SEEKS_T), 200, 0);
	assert_false(e->res[GET_BLOCK].flags & RESULT_DIRECT_IGNORED);
}

/* tmpfs: either it refuses direct I/O or the results say it ignored it. */
static void direct_tmpfs(void **state)
{
	struct env *e = *state;
	char *type = fstype_of(TMPFS_DIR);
	int ret;

	if (!type || strcmp(type, "tmpfs")) {
		free(type);
		SKIP("%s is not tmpfs", TMPFS_DIR);
	}
	free(type);
	ret = env_dir(e, TMPFS_DIR);
	if (ret)
		SKIP("cannot make a directory in %s: %s", TMPFS_DIR,
		     strerror(-ret));
	e->cfg.file_size = FILE_SIZE / 4;
	ret = env_direct(e);
	if (ret) {
		print_message("# tmpfs refuses direct I/O: %s\n",
			      strerror(-ret));
		assert_int_equal(ret, -EINVAL);
		return;
	}
	ret = run(e, PUT_BLOCK);
	if (ret == -EINVAL) {
		/* an older kernel: tmpfs cannot open O_DIRECT */
		print_message("# %s\n", e->res[PUT_BLOCK].reason);
		assert_int_equal(e->res[PUT_BLOCK].status, RESULT_FAILED);
		assert_non_null(strstr(e->res[PUT_BLOCK].reason,
				       e->ctx.path));
		return;
	}
	check_ok(e, PUT_BLOCK, ret, FILE_SIZE / 4 / CHUNK, FILE_SIZE / 4);
	check_ok(e, GET_BLOCK, run(e, GET_BLOCK), FILE_SIZE / 4 / CHUNK,
		 FILE_SIZE / 4);
	/* tmpfs cannot evict, and its "direct" reads are cache reads */
	assert_true(e->res[GET_BLOCK].flags & RESULT_CACHED);
	assert_true(e->res[GET_BLOCK].flags & RESULT_DIRECT_IGNORED);
	check_ok(e, REWRITE, run(e, REWRITE), FILE_SIZE / 4 / CHUNK,
		 FILE_SIZE / 4);
	assert_true(e->res[REWRITE].flags & RESULT_DIRECT_IGNORED);
}

/* A stop request seen by every test: interrupted, not a result. */
static void stop_requested(void **state)
{
	static const int order[] = {
		GETC, GET_BLOCK, SEEKS_T, REWRITE, PUTC, PUT_BLOCK,
	};
	struct env *e = *state;
	size_t i;

	disk_env(e);
	e->cfg.file_size = FILE_SIZE / 4;
	check_ok(e, PUT_BLOCK, run(e, PUT_BLOCK), FILE_SIZE / 4 / CHUNK,
		 FILE_SIZE / 4);
	e->stop = 1;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int t = order[i];
		int ret = run(e, t);

		print_message("# %s: %d %s\n", six[t]->def->name, ret,
			      e->res[t].reason ? e->res[t].reason : "");
		assert_int_equal(ret, -EINTR);
		assert_int_equal(e->res[t].status, RESULT_SKIPPED);
		assert_string_equal(e->res[t].reason, "interrupted");
		assert_int_equal(e->res[t].lat.count, 0);
	}
}

/* A missing file is an error naming the test's file. */
static void missing_file(void **state)
{
	struct env *e = *state;
	int ret;

	disk_env(e);
	ret = run(e, GET_BLOCK);
	assert_int_equal(ret, -ENOENT);
	assert_int_equal(e->res[GET_BLOCK].status, RESULT_FAILED);
	assert_non_null(strstr(e->res[GET_BLOCK].reason, e->ctx.path));
	assert_non_null(strstr(e->res[GET_BLOCK].reason,
			       "No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench_fail_messages),
		cmocka_unit_test(measure_phase),
		cmocka_unit_test_setup_teardown(six_buffered, env_setup,
						env_teardown),
		cmocka_unit_test_setup_teardown(six_direct, env_setup,
						env_teardown),
		cmocka_unit_test_setup_teardown(direct_partial_block,
						env_setup, env_teardown),
		cmocka_unit_test_setup_teardown(direct_tmpfs, env_setup,
						env_teardown),
		cmocka_unit_test_setup_teardown(stop_requested, env_setup,
						env_teardown),
		cmocka_unit_test_setup_teardown(missing_file, env_setup,
						env_teardown),
	};

	return tap_run_group_tests(tests);
}
