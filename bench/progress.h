/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_PROGRESS_H
#define CLYDE_PROGRESS_H

/*
 * Progress on a terminal: the test or cell running, how far it is and an
 * estimate of the time left, on stderr, redrawn in place ("\r", clear to
 * the end of the line) about four times a second by a ticker thread.
 *
 * The hot loops do nothing for it: the ticker reads a counter they update
 * anyway, such as the op count of the test's latency histogram
 * (struct histogram.count, one increment per operation), with a relaxed
 * atomic load; a stale value only makes the display a tick late.  A phase
 * without a counter shows the time elapsed, or, given its expected
 * duration (a timed matrix cell), the fraction of that.
 *
 * One display per process.  Every function is a no-op unless
 * progress_start() found stderr to be a terminal and quiet zero, so
 * callers need no conditions.  The ticker blocks every signal (they go to
 * the threads that handle them) and never exits or allocates.  Not for
 * processes forked while it runs: fork between progress_pause() and
 * progress_resume(), and only the process that started it may call
 * these.
 */

#include <stdint.h>


/* Start the display when stderr is a terminal and !quiet. */
void progress_start(int quiet);

/*
 * A new phase, shown from now until the next phase, progress_idle() or
 * progress_stop().  label is copied.  step of nsteps (1-based; nsteps 0:
 * not shown).  counter: operations done, read by the ticker (NULL: none),
 * out of total (0: unknown).  seconds: the phase's expected duration
 * (0: unknown); with nsteps, the steps left are assumed as long, for the
 * estimate of the time left in all.
 */
void progress_phase(const char *label, unsigned step, unsigned nsteps,
		    const uint64_t *counter, uint64_t total, double seconds);

/* No phase: clear the line (before printing a message, or between
 * phases). */
void progress_idle(void);

/*
 * Before a fork: end the ticker thread, the phase and the line kept, so
 * that the caller's is the only thread (a child forked while another
 * runs may block for good in a lock that thread held, as ASan's
 * allocator did under `clyde matrix -c 2`).  Until progress_resume()
 * the display is still, its calls no-ops (in the children for good).
 */
void progress_pause(void);

/* After the fork: the ticker again, if progress_pause() ended it. */
void progress_resume(void);

/* Clear the line and end the ticker. */
void progress_stop(void);

#endif
