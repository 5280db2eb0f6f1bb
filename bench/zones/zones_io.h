/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ZONES_IO_H
#define CLYDE_ZONES_IO_H

/*
 * One sweep of `clyde zones` (internal to bench/zones*.c): the target
 * from offset 0 to the end in bs-sized I/Os, qd in flight through an
 * engine of the table, every zone's figures finished as soon as all of
 * its I/Os are done.  Nothing allocates, formats or prints inside the
 * loop; the clock is read once per submitted and once per reaped batch.
 *
 * A zone's time runs from the moment the zone before it was done (for
 * the first, the first submit) to the completion of its own last I/O, so
 * the zones' times add up to the sweep's and the queue stays full across
 * zone boundaries.  A failed I/O (an error, a short transfer) is counted
 * in its zone with its offset and the sweep goes on; ENOSPC on a write,
 * or a failed submit, ends it; so does *stop (a signal): the zone under
 * way is then left out, the zones done are kept.
 */

#include <signal.h>
#include <stdint.h>

#include "fsops/datagen.h"
#include "fsops/engine.h"
#include "report/model/zones.h"

struct zones_io {
	int fd;
	const struct io_engine_ops *ops;
	unsigned qd;
	uint64_t bs, size, zone;	/* size: bytes swept */
	void *bufs;			/* qd x bs, aligned for O_DIRECT */
	struct datagen *dg;		/* the data of writes */
	volatile sig_atomic_t *stop;
	uint64_t done;			/* I/Os completed: the progress
					 * display reads it */
};

/* What ended a sweep early (zones_sweep() returns it). */
enum zones_end {
	ZONES_DONE = 0,		/* every zone swept (some may have errors) */
	ZONES_NOSPACE,		/* a write found no space (ENOSPC) */
	ZONES_STOPPED,		/* *stop was set */
	ZONES_FAILED,		/* the engine failed (setup, submit, reap) */
};

/*
 * Sweep io's target, writing (gen: the data's generation) or reading;
 * with s, every zone done is appended to it and s's elapsed, bytes and
 * latency histogram are set (s NULL: a fill, nothing measured).  A write
 * sweep ends with fdatasync, inside its time.  *why gets a message for
 * anything but ZONES_DONE (static storage in the caller: len bytes).
 */
enum zones_end zones_sweep(struct zones_io *io, int write, uint32_t gen,
			   struct zones_sweep *s, char *why, size_t len);

#endif
