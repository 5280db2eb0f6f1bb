/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_COPIES_H
#define CLYDE_COPIES_H

/*
 * Concurrent copies: separately started copies of a benchmark that ran at
 * the same time on one setup are one run of N processes, not N repeats.
 * Records are summed as copies only on evidence that they ran together,
 * never by default:
 *
 * - clyde records of -y s copies (param sync "semaphores": each copy
 *   waited for the others before every test) of one host, label and file
 *   size whose runs (start..end) overlap;
 * - with a --concurrent-window SECONDS the user gives (the user's word
 *   that lines of one label started within SECONDS ran together):
 *   bonnie++ 1.96+ lines by their seed field, time(NULL) unless -z was
 *   given.  Lines of equal seeds are -x repeats of one process and never
 *   summed with each other (the k-th line of each seed goes with the k-th
 *   of the others); clyde's own CSV lines carry a random seed and are
 *   never summed.
 *
 * (The clients of one fio client/server output are summed by the fio
 * importer; -c N, several -d and MPI ranks are one record already.)
 * Summed: rates and CPU, latency histograms merged, each copy a worker
 * row, params "concurrency" N and "copies" "separately timed", and a
 * warning saying why.  Each copy timed itself, so the sum is not total
 * work over a shared wall time.
 */

#include <stddef.h>

#include "report/model/record.h"

/*
 * Merge the copies among recs[0..n) in place (merged records freed, the
 * array compacted, order kept).  window <= 0: only the -y s copies.
 * Returns the new count.
 */
size_t copies_merge(struct record **recs, size_t n, double window);

/*
 * Whether the seeds of the bonnie++ lines among recs[0..n) fall in tight
 * clusters far apart (every gap between distinct seeds within
 * COPIES_TIGHT s or at least COPIES_FAR s, one cluster of two seeds at
 * least), as copies started together would: 1 with a one-line
 * description ending in the --concurrent-window that would sum them in
 * buf, else 0.
 */
int copies_seed_hint(struct record *const *recs, size_t n, char *buf,
		     size_t len);

#define COPIES_TIGHT 10.0
#define COPIES_FAR 300.0

#endif
