/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CLOCK_H
#define CLYDE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of the whole process: all its threads (getrusage RUSAGE_SELF). */
struct cpu_usage {
	uint64_t user_ns;
	uint64_t sys_ns;
};

void cpu_usage_now(struct cpu_usage *u);

/*
 * (user + sys between a and b) / elapsed_s * 100: percent of one CPU, as
 * bonnie++ counts it.  0 when elapsed_s <= 0.
 */
double cpu_percent(const struct cpu_usage *a, const struct cpu_usage *b,
		   double elapsed_s);

#endif
