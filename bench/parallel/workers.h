/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_WORKERS_H
#define CLYDE_WORKERS_H

/*
 * Forked workers run in step, one step (test) at a time.
 *
 * The parent owns the barrier: it releases step s to every worker at once
 * (a futex on a word in shared memory, no spinning), then waits until each
 * worker has either put its result for s into its slot in shared memory or
 * died (pidfds; a poll with a short timeout where pidfds are missing).  A
 * dead worker therefore cannot hang the others: the parent notices, and
 * the others leave at the next barrier.  Workers never
 * wait on each other, only on the parent, and leave when it is gone.
 *
 * Each step has two barriers: the release lets every worker prepare (open
 * its files, evict the cache...), the gate lets them start timing, once
 * all are prepared, so their first operations start together.
 *
 *	parent				worker i (worker_fn)
 *	workers_start()	-- fork -->	workers_wait(w, s)
 *	workers_release(w, s) -- wake -> prepare step s
 *	workers_start_timing(w, s) <--	workers_gate(w, i, s)
 *			-- wake -->	run and time step s
 *	workers_collect(w, s)	<--	workers_done(w, i, s, ...)
 *	read workers_slot(w, i)
 *	workers_reap(w), workers_finish(w)
 */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "report/model/record.h"

#define WORKER_REASON_MAX 256
#define WORKER_WARN_MAX 1024

enum worker_state {
	WORKER_RUNNING = 0,	/* no result for the step yet */
	WORKER_DONE,		/* result is in the slot */
	WORKER_DEAD,		/* died before its result: see reason */
};

/* What a worker hands the parent for one step (in shared memory). */
struct worker_slot {
	pid_t pid;
	enum worker_state state;
	unsigned done_step;	/* step + 1 of the result in res */
	unsigned arrived_step;	/* step + 1 when it waits at the gate */
	uint64_t gate_ns;	/* when it left the gate (CLOCK_MONOTONIC) */
	uint64_t first_ns;	/* its first operation's start (monotonic) */
	uint64_t last_ns;	/* its last operation's end */
	struct result res;	/* its pointers (name, reason, workers...)
				 * are NULL, lat empty: its samples are in
				 * lat below */
	struct hist_dense lat;	/* res's latency (a pointer would not do) */
	char reason[WORKER_REASON_MAX];	/* res failed: why */
	char warnings[WORKER_WARN_MAX];	/* new warnings, one a line */
	char file[256];		/* its big test file's name in its run
				   directory (workers_set_dir), for a
				   second signal */
};

struct workers;

/*
 * The worker's life: called in the child with its index; its return value
 * is the child's exit status.  It must wait for every step it takes part
 * in with workers_wait() and report it with workers_done().
 */
typedef int (*worker_fn)(struct workers *w, unsigned idx, void *arg);

/*
 * Map the shared memory and fork n workers running fn(w, i, arg).  NULL
 * and a message in err when the memory, a pipe or a fork fails (workers
 * already started are stopped and reaped).  The children ignore SIGINT,
 * SIGTERM and SIGHUP: the parent tells them to stop.
 */
struct workers *workers_start(unsigned n, worker_fn fn, void *arg, char *err,
			      size_t errlen);

/* The flag the workers' tests poll to stop after their current operation. */
volatile sig_atomic_t *workers_stop_flag(struct workers *w);

/*
 * The --stonewall flag the workers share: the first worker whose phase has
 * run long enough sets it, and every worker ends that phase at its next
 * operation.  workers_release() clears it for each step.
 */
volatile sig_atomic_t *workers_wall_flag(struct workers *w);

/* Worker: block until step is released (0) or the run is aborted (-1). */
int workers_wait(struct workers *w, unsigned step);

/*
 * Worker: prepared for step, wait until every worker is (0), or the run is
 * aborted or the parent gone (-1).  Sets the slot's gate_ns.
 */
int workers_gate(struct workers *w, unsigned idx, unsigned step);

/*
 * Worker: hand over the result of step (res->reason and the warnings of
 * wrec from index nwarn_from on are copied) and tell the parent.
 */
void workers_done(struct workers *w, unsigned idx, unsigned step,
		  const struct result *res, uint64_t first_ns, uint64_t last_ns,
		  const struct record *wrec, size_t nwarn_from);

/*
 * Fill a slot with a result (what workers_done() hands over; also used to
 * send results over MPI).
 */
void worker_slot_fill(struct worker_slot *s, const struct result *res,
		      uint64_t first_ns, uint64_t last_ns,
		      const struct record *wrec, size_t nwarn_from);

/*
 * Worker: the name of its big test file in its run directory, for
 * workers_emergency() (a name longer than the slot holds is not set).
 */
void workers_set_file(struct workers *w, unsigned idx, const char *name);

/*
 * Parent: worker idx's run directory, open (the caller keeps dirfd open
 * until workers_finish()), for workers_emergency(): its file is unlinked
 * in that descriptor, never by path, so that the directory swapped for a
 * symlink cannot make clyde delete elsewhere.
 */
void workers_set_dir(struct workers *w, unsigned idx, int dirfd);

/* Parent: release step to every live worker (they prepare it). */
void workers_release(struct workers *w, unsigned step);

/*
 * Parent: wait until every worker is at the gate of step (or finished or
 * died without reaching it), then let them start timing together.
 * Returns that moment (CLOCK_MONOTONIC ns).  sig as for workers_collect().
 */
uint64_t workers_start_timing(struct workers *w, unsigned step,
			      volatile sig_atomic_t *sig);

/*
 * Parent: wait until every worker has finished step or died.  When *sig
 * becomes nonzero meanwhile (a signal handler), the workers are told to
 * stop after their current operation and the wait goes on.  Returns the
 * number of workers that died during the step.
 */
unsigned workers_collect(struct workers *w, unsigned step,
			 volatile sig_atomic_t *sig);

/* Parent: worker idx's slot (valid until workers_finish()). */
const struct worker_slot *workers_slot(const struct workers *w, unsigned idx);

/*
 * Parent: abort and wait for every worker to exit (a second signal's
 * workers_emergency() may still kill them meanwhile).  Returns 0 when
 * every worker exited with status 0, else 1.  The slots stay readable.
 */
int workers_reap(struct workers *w);

/*
 * Parent: abort, reap every worker (workers_reap) and free everything.  Returns 0 when
 * every worker exited with status 0, else 1.
 */
int workers_finish(struct workers *w);

/*
 * Parent, async-signal-safe (for a second SIGINT): kill every worker with
 * SIGKILL and unlink their big test files (in the run directories of
 * workers_set_dir(); a worker without one keeps its file, which the
 * cleanup removes).
 */
void workers_emergency(struct workers *w);

#endif
