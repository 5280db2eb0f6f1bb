/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_SUITE_H
#define CLYDE_SUITE_H

/*
 * The suite runner of `clyde run`: one loop over the test table for every
 * way of running it.  A single process is the one-worker case; forked
 * workers (bench/classic/suite_workers.c) and MPI ranks (bench/classic/suite_mpi.c) run the
 * same loop with their own way of running one test on everyone and
 * aggregating it.  Opening and closing a worker's test context and running
 * one test exist once, here.
 */

#include <signal.h>
#include <stddef.h>

#include "bench/classic/tests.h"

/*
 * Open a worker's context in rundir (made by the caller, open on
 * rundirfd, or when rundirfd is -1 a new marked clyde.XXXXXX under it,
 * whose path is ctx->dir): its descriptor and its I/O file's name.  0, or
 * -1 with a message in err (ctx can still be closed).
 */
int suite_ctx_open(struct bench_ctx *ctx, const struct bench_config *cfg,
		   const char *rundir, int rundirfd, uint64_t seed,
		   volatile sig_atomic_t *stop, volatile sig_atomic_t *wall,
		   const struct dio_align *align, struct record *rec,
		   char *err, size_t errlen);

/* Close ctx and remove the directory it made with everything in it. */
void suite_ctx_close(struct bench_ctx *ctx);

/*
 * Run test t in ctx into res and do what the test table says runs after
 * it.  res ends ok, failed (with a reason) or, when a stop cut it short,
 * skipped "interrupted by signal N (SIGx)" (plain "interrupted" in a
 * forked worker, which does not know the signal).  0, or -1 when it did
 * not complete.
 */
int suite_run_test(struct bench_ctx *ctx, const struct bench_test *t,
		   struct result *res);

/* How one test is run on every worker of a run, and how they agree. */
struct suite_backend {
	/*
	 * Whether to stop before test i: local is this process's view (a
	 * signal, an earlier failure); MPI makes every rank agree.
	 */
	int (*stopped)(void *arg, int local);
	/*
	 * Run test i on every worker and fill res (the run's result: the
	 * aggregate).  0, or -1 when it failed (the message printed).
	 */
	int (*run)(void *arg, size_t i, const struct bench_test *t,
		   struct result *res);
	int counts;	/* res->lat.count grows as it runs (progress) */
};

/*
 * One pass of the suite: every test of the table that applies, in order,
 * each one's result added to rec (not reached ones skipped with the
 * reason).  0, or EXIT_FAILED when a test failed or a signal stopped it.
 */
int suite_loop(const struct bench_config *cfg, struct record *rec,
	       const struct suite_backend *b, void *arg);

/* The single-process pass in a new directory under dir. */
int suite_run_single(const struct bench_config *cfg, const char *dir,
		     const struct dio_align *align, struct record *rec);

/* Forked workers in step (-c N, several -d): bench/classic/suite_workers.c. */
int suite_run_workers(const struct bench_config *cfg,
		      const struct dio_align *align, const char *host,
		      struct record *rec);

/* This MPI rank's pass, in step with the others: bench/classic/suite_mpi.c. */
int suite_run_mpi(const struct bench_config *cfg,
		  const struct dio_align *align, const char *host,
		  struct record *rec, int rank, int size);

/* Workers of the run: -c per directory, one set per -d. */
unsigned suite_nworkers(const struct bench_config *cfg);

/*
 * The second signal's cleanup (async-signal-safe): remove every file the
 * run is working on (its own big file, every worker's), so that cleaning
 * up goes fast.  See cmd_install_signals().
 */
void suite_second_signal(void);

/* The I/O file of this process's context (NULL: none), for
 * suite_second_signal(). */
void suite_set_signal_file(const struct bench_ctx *ctx);

struct workers;
/* The workers of the run (NULL: none), for suite_second_signal(). */
void suite_set_signal_workers(struct workers *w);

struct worker_slot;
/*
 * The run's result of one test from n workers' slots: the rows, and the
 * aggregate (total work over the span, CPU, merged latency, residency).
 * 0, or -1 when a worker failed (res failed naming the first; every
 * failure printed) or, none failing, a signal cut some short (res
 * skipped "interrupted by signal N (SIGx)", said once).
 */
int suite_aggregate(struct result *res, const struct worker_slot *slots,
		    unsigned n, uint64_t release, const char *const *dirs,
		    const char *const *hosts, unsigned agg_flags,
		    struct record *rec);

#endif
