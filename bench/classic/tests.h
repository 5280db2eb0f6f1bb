/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BENCH_H
#define CLYDE_BENCH_H

/*
 * A test of the classic suite.  Each family (bench/classic/io_char.c,
 * bench/classic/io_block.c, bench/classic/seeks.c, bench/classic/files.c) exports one
 * `const struct bench_test` per test; bench/classic/tests.c lists them all, in run
 * order, in one array.  What a test is called, its title, unit and whether
 * it is per-char are bonnie++'s, stated once in report/model/bonnie.c's
 * table (the readers and writers of its CSV use the same): a test points
 * at its entry.
 */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/classic/config.h"
#include "bench/rundir.h"
#include "fsops/file.h"
#include "report/model/bonnie.h"
#include "report/model/record.h"

struct files_state;

/* What a test runs against: one worker's directory and shared state. */
struct bench_ctx {
	const struct bench_config *cfg;
	char *dir;			/* the run's own directory (shown) */
	int dirfd;			/* open on it: all is made through it */
	struct rundir own;		/* the directory made (none in a
					 * worker): removed on close */
	char *path;			/* the I/O tests' file: dir/Bonnie.<pid> */
	int direct;			/* cfg->direct and the file allows it */
	struct dio_align align;		/* valid when direct */
	size_t io_size;			/* block size of bulk I/O (chunk) */
	uint64_t seed;			/* data and choice seed of this run */
	volatile sig_atomic_t *stop;	/* nonzero: stop after this operation */
	/*
	 * --stonewall: set by the first worker whose file phase has run
	 * cfg->stonewall seconds; every worker sharing it ends that phase
	 * at its next operation (not a failure).  NULL: no stonewall.
	 */
	volatile sig_atomic_t *wall;
	struct record *rec;		/* for warnings only */
	struct files_state *files;	/* between create, stat and delete */
};

/* bench_test.flags */
#define BENCH_IO	0x1u	/* needs -s > 0 (a per-char one -f > 0 too) */
#define BENCH_FILES	0x4u	/* needs -n > 0 */
#define BENCH_READ	0x8u	/* reads: evict and measure residency first;
				   only these have a residency */

/* bench_test.count: what the test's operations count toward (progress) */
enum bench_count {
	BENCH_COUNT_NONE = 0,	/* no known total */
	BENCH_COUNT_CHUNKS,	/* file size / chunk (per-char size / chunk
				   for a per-char test: one per chunk) */
	BENCH_COUNT_FILES,	/* -n files */
};

/* bench_test.after: what the runner does once the test is over */
#define BENCH_AFTER_UNLINK_IO	0x1u	/* the I/O tests' file is done with */

struct bench_test {
	const struct bonnie_test *def;	/* name, title, unit, per-char:
					   &bonnie_tests[BONNIE_...] */
	unsigned flags;
	enum bench_count count;	/* what progress counts toward */
	unsigned after;		/* BENCH_AFTER_* */
	/*
	 * Run the test and fill res: value, cpu, ops, bytes, elapsed, lat,
	 * flags, residency (set by the test for BENCH_READ tests).  Return 0,
	 * or a negative errno after result_set_status(res, RESULT_FAILED,
	 * "<what> '<file>': <strerror>") naming the file.  -EINTR when
	 * *ctx->stop was seen.
	 */
	int (*run)(struct bench_ctx *ctx, struct result *res);
};

/*
 * Release what the file tests keep between create, stat and delete
 * (bench/classic/files.c); NULL is fine.  Frees memory and closes descriptors only:
 * files left by an unfinished family go with the run's directory.
 */
void files_state_free(struct files_state *st);

extern const struct bench_test *const bench_tests[];
extern const size_t bench_ntests;

/* Whether t runs with cfg (-s 0, -f alone, -n 0 leave tests out). */
int bench_test_applies(const struct bench_test *t,
		       const struct bench_config *cfg);

/* A result for t in rec, named, titled and in the unit of t's entry. */
struct result *bench_test_result(const struct bench_test *t,
				 struct record *rec);

/* The operations t does with cfg, for progress (0: unknown). */
uint64_t bench_test_ops(const struct bench_test *t,
			const struct bench_config *cfg);

#endif
