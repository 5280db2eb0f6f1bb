/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BENCH_H
#define CLYDE_BENCH_H

/*
 * A test of the classic suite.  Each family (bench/io_char.c,
 * bench/io_block.c, bench/seeks.c, bench/files.c) exports one
 * `const struct bench_test` per test; bench/tests.c lists them all, in run
 * order, in one array.  Adding a test touches its own file and that array.
 */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "../fsops/file.h"
#include "../report/record.h"

struct files_state;

/* What a test runs against: one worker's directory and shared state. */
struct bench_ctx {
	const struct bench_config *cfg;
	char *dir;			/* the run's own new directory */
	int dirfd;			/* open on dir */
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
#define BENCH_IO	0x1u	/* needs -s > 0 */
#define BENCH_CHAR	0x2u	/* per-char: also needs -f > 0 */
#define BENCH_FILES	0x4u	/* needs -n > 0 */
#define BENCH_READ	0x8u	/* reads: evict and measure residency first;
				   only these have a residency */

/* bench_test.count: what the test's operations count toward (progress) */
enum bench_count {
	BENCH_COUNT_NONE = 0,	/* no known total */
	BENCH_COUNT_CHAR,	/* per-char size / chunk: one per chunk */
	BENCH_COUNT_CHUNKS,	/* file size / chunk */
	BENCH_COUNT_FILES,	/* -n files */
};

/* bench_test.after: what the runner does once the test is over */
#define BENCH_AFTER_UNLINK_IO	0x1u	/* the I/O tests' file is done with */

struct bench_test {
	const char *name;	/* bonnie++ CSV stem: "put_block" */
	const char *title;	/* "Block write" */
	const char *unit;	/* "KiB/s", "seeks/s", "files/s" */
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
 * (bench/files.c); NULL is fine.  Frees memory and closes descriptors only:
 * files left by an unfinished family go with the run's directory.
 */
void files_state_free(struct files_state *st);

extern const struct bench_test *const bench_tests[];
extern const size_t bench_ntests;

/* Whether t runs with cfg (-s 0, -f alone, -n 0 leave tests out). */
int bench_test_applies(const struct bench_test *t,
		       const struct bench_config *cfg);

/* The operations t does with cfg, for progress (0: unknown). */
uint64_t bench_test_ops(const struct bench_test *t,
			const struct bench_config *cfg);

/* Timing a phase: CLOCK_MONOTONIC and process CPU time. */
struct measure {
	uint64_t start_ns;
	uint64_t cpu_ns;
};

void measure_begin(struct measure *m);

/*
 * A gate every measure_begin() of this process passes first (NULL: none).
 * Workers in step (bench/workers.c) wait there for each other, so that
 * all of them start timing after their own preparation, together.
 */
void measure_set_gate(void (*gate)(void *arg), void *arg);
/*
 * End the phase: sets res->elapsed, res->cpu, and RESULT_LOW_PRECISION when
 * shorter than RESULT_MIN_ELAPSED.  Returns elapsed seconds.
 */
double measure_end(const struct measure *m, struct result *res);

/*
 * Fail res with "<what> '<path>': <strerror(-err)>" and return err.  -EINTR
 * (the test saw *ctx->stop) is not a failure of the target: res is then
 * skipped, "interrupted" (bench_interrupted()).
 */
int bench_fail(struct result *res, int err, const char *what,
	       const char *path);

/*
 * A test cut short by a stop request (a signal) is skipped, not failed: a
 * report counting failures must not count a Ctrl-C as the device's.  The
 * reason is "interrupted by signal 2 (SIGINT)" when the signal is known
 * (sig), else "interrupted" (a forked worker is told only to stop; the
 * parent names the signal when it aggregates).
 */
#define BENCH_INTERRUPTED "interrupted"
void bench_interrupted(struct result *res, int sig);
/* That reason, into buf. */
void bench_interrupted_text(char *buf, size_t len, int sig);

/* Whether a result of this status and reason is one bench_interrupted()
 * made. */
int bench_was_interrupted(enum result_status status, const char *reason);

/* "SIGINT", "SIGTERM", "SIGHUP" (the signals clyde stops on), else
 * "a signal". */
const char *bench_signal_name(int sig);

#endif
