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

/*
 * Job-control stops.  SIGSTOP or SIGTSTP freeze the process, SIGCONT
 * resumes it, and the monotonic clock runs on: a test timed across a
 * stop counts the time the process stood still.  clock_stops_watch()
 * blocks SIGCONT in the calling thread (call it before any thread or
 * worker starts: they inherit the mask).  SIGCONT resumes a process
 * whether or not it is blocked; blocked, it stays pending, with no
 * handler to interrupt a system call, until clock_stopped() takes it.
 */
void clock_stops_watch(void);

/*
 * Was the process resumed by SIGCONT (after a stop) since the last call
 * (or since clock_stops_watch())?  Takes the pending SIGCONT: 1 or 0.
 * Call it before a timed span to forget earlier stops, after it to learn
 * of one inside.  Pending signals are per process (or worker process).
 */
int clock_stopped(void);

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
