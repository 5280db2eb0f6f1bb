/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_AGGREGATE_H
#define CLYDE_AGGREGATE_H

/*
 * One aggregation of several workers' results (forked workers of `clyde
 * run` and `clyde matrix`, MPI ranks): a row per worker, the span from the
 * first worker's first operation to the last one's last, the total work,
 * the CPU of all of them over that span, and the first failure.  What
 * each command merges besides (latency histograms, residency, hits) it
 * does in the merge callback, once per measured worker.
 */

#include <stdint.h>

#include "bench/parallel/workers.h"
#include "report/model/record.h"

/* aggregate_workers() flags */
#define AGG_FROM_BARRIER 0x1u	/* MPI: times count from the shared barrier
				   (span from 0: mdtest's, as the clocks of
				   different hosts are not comparable) */
#define AGG_NOT_OK_FAILS 0x2u	/* any status but ok fails the worker */

struct aggregate {
	double elapsed;		/* the span, s; 0 when nothing measured */
	double work;		/* sum of each worker's value x its elapsed */
	double cpu;		/* % of the span, all workers */
	uint64_t ops, bytes;	/* summed */
	unsigned measured;	/* workers with figures */
	int first_fail;		/* the first failed worker, or -1 */
};

/*
 * Aggregate the n slots into rows (its worker rows are added: host and
 * dir of worker k are hosts[k] and dirs[k], or host and dir when those
 * arrays are NULL) and out.  merge(k, slot, arg) is called for every
 * measured worker (NULL: none).  release: the monotonic time of the
 * release, the rows' times count from it.
 */
void aggregate_workers(struct result *rows, const struct worker_slot *slots,
		       unsigned n, uint64_t release, const char *const *hosts,
		       const char *host, const char *const *dirs,
		       const char *dir, unsigned flags,
		       void (*merge)(unsigned k, const struct worker_slot *s,
				     void *arg),
		       void *arg, struct aggregate *out);

/* Add each line of a worker's warnings to rec once, naming the worker. */
void aggregate_warnings(struct record *rec, unsigned idx, const char *text);

#endif
