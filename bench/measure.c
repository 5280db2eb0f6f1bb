// SPDX-License-Identifier: GPL-2.0-only
/* Timing a phase, and the one way a test reports its failure. */
#include "bench/measure.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "fsops/clock.h"

static void (*measure_gate)(void *arg);
static void *measure_gate_arg;

void measure_set_gate(void (*gate)(void *arg), void *arg)
{
	measure_gate = gate;
	measure_gate_arg = arg;
}

void measure_begin(struct measure *m)
{
	struct cpu_usage u;

	if (measure_gate)
		measure_gate(measure_gate_arg);

	cpu_usage_now(&u);
	m->cpu_ns = u.user_ns + u.sys_ns;
	/* a stop before the timed span is not in it */
	clock_stopped();
	m->start_ns = clock_ns();
}

double measure_end(const struct measure *m, struct result *res)
{
	uint64_t end = clock_ns();
	struct cpu_usage a = { .user_ns = m->cpu_ns, .sys_ns = 0 }, b;
	double elapsed;

	cpu_usage_now(&b);
	elapsed = (double)(end - m->start_ns) / 1e9;
	res->elapsed = elapsed;
	res->cpu = cpu_percent(&a, &b, elapsed);
	if (elapsed < RESULT_MIN_ELAPSED)
		res->flags |= RESULT_LOW_PRECISION;
	if (clock_stopped())
		res->flags |= RESULT_STOPPED;
	return elapsed;
}

int bench_fail(struct result *res, int err, const char *what,
	       const char *path)
{
	if (err > 0)
		err = -err;
	if (!err)
		err = -EIO;
	if (err == -EINTR)
		bench_interrupted(res, 0);
	else if (path)
		result_set_status(res, RESULT_FAILED, "%s '%s': %s", what,
				  path, strerror(-err));
	else
		result_set_status(res, RESULT_FAILED, "%s: %s", what,
				  strerror(-err));
	return err;
}

const char *bench_signal_name(int sig)
{
	return reason_signal_name(sig);
}

void bench_interrupted_text(char *buf, size_t len, int sig)
{
	result_reason_word(buf, len, REASON_INTERRUPTED, sig, NULL);
}

void bench_interrupted(struct result *res, int sig)
{
	result_set_reason(res, RESULT_SKIPPED, REASON_INTERRUPTED, sig, NULL);
}

int bench_was_interrupted(const struct result *res)
{
	return res->status == RESULT_SKIPPED &&
	       res->reason_kind == REASON_INTERRUPTED;
}
