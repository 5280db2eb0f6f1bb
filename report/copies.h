/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_COPIES_H
#define CLYDE_COPIES_H

/*
 * Concurrent copies (`clyde report --concurrent-window SECONDS`):
 * separately started copies of a benchmark run at once on one setup are
 * one run of N processes, not N repeats.  bonnie++ lines (their start is
 * the time-based seed field of 1.96 and later; 1.03 lines carry no time
 * and are never merged) and clyde records of `-y s` copies (param sync
 * "semaphores", start time) with the same label, tool and file size whose
 * start times lie within the window of the first become one record:
 * rates and CPU summed, latency histograms merged, each copy a worker
 * row, params "concurrency" N and "copies" "separately timed", and a
 * warning saying so.  Each copy timed itself, so the sum is not total
 * work over a shared wall time.
 */

#include <stddef.h>

#include "record.h"

#define COPIES_WINDOW_DEFAULT 5.0

/*
 * Merge the copies among recs[0..n) in place (merged records freed, the
 * array compacted, order kept).  window <= 0 does nothing.  Returns the
 * new count.
 */
size_t copies_merge(struct record **recs, size_t n, double window);

/* The start of a record in seconds since the epoch, or -1 (see above). */
double copies_start(const struct record *rec);

#endif
