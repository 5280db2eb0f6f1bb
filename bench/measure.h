/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_MEASURE_H
#define CLYDE_MEASURE_H

/*
 * What every command's measuring shares (bench/measure.c): timing a phase,
 * failing a result, and the one wording of a result a signal cut short.
 */

#include <stddef.h>
#include <stdint.h>

#include "report/model/record.h"

/* Timing a phase: CLOCK_MONOTONIC and process CPU time. */
struct measure {
	uint64_t start_ns;
	uint64_t cpu_ns;
};

void measure_begin(struct measure *m);

/*
 * A gate every measure_begin() of this process passes first (NULL: none).
 * Workers in step (bench/parallel/workers.c) wait there for each other, so that
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
void bench_interrupted(struct result *res, int sig);
/* That reason, into buf (result_reason_word, REASON_INTERRUPTED). */
void bench_interrupted_text(char *buf, size_t len, int sig);

/* Whether res is one bench_interrupted() made (skipped, interrupted). */
int bench_was_interrupted(const struct result *res);

/* "SIGINT", "SIGTERM", "SIGHUP" (the signals clyde stops on), else
 * "a signal". */
const char *bench_signal_name(int sig);

#endif
