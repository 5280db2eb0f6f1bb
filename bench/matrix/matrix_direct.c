// SPDX-License-Identifier: GPL-2.0-only
/*
 * Did O_DIRECT go around the page cache?  A memory filesystem (tmpfs
 * accepts O_DIRECT since Linux 6.6, and buffers it) never reaches a
 * device; elsewhere the files' page-cache residency before and after the
 * cells (mincore, as `clyde run --direct` checks each phase) shows a
 * filesystem that took O_DIRECT and cached anyway.  Either way the run is
 * marked (matrix.direct_ignored) and the record and the text say so once.
 */
#include "bench/matrix/matrix_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsops/cache.h"
#include "fsops/target.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "report/model/record.h"

static int memory_fs(const char *fstype)
{
	static const char *const mem[] = { "tmpfs", "ramfs", "devtmpfs",
					   "hugetlbfs" };
	size_t i;

	for (i = 0; fstype && i < sizeof(mem) / sizeof(mem[0]); i++)
		if (!strcmp(fstype, mem[i]))
			return 1;
	return 0;
}

double matrix_resident(const struct matrix_run *r)
{
	double sum = 0;
	unsigned i;

	if (!r->fds || !r->nfiles || !r->file_size)
		return -1;
	for (i = 0; i < r->nfiles; i++) {
		double f = r->fds[i] < 0 ? -1 :
			   cache_residency(r->fds[i], (off_t)r->file_size);

		if (f < 0)
			return -1;
		sum += f;
	}
	return sum / r->nfiles;
}

void matrix_check_direct(const struct matrix_run *runs, unsigned n,
			 const struct fs_target *targets,
			 const double *before, struct record *rec)
{
	struct record_matrix *m = rec->matrix;
	unsigned i;

	if (!m || !m->direct || m->direct_ignored)
		return;
	for (i = 0; i < n && !m->direct_ignored; i++) {
		double after;

		if (runs[i].kind != TARGET_DEVICE &&
		    memory_fs(targets[i].fstype)) {
			m->direct_ignored = xasprintf("-d %u is on %s, a "
						      "memory filesystem",
						      i + 1,
						      targets[i].fstype);
			break;
		}
		after = before && before[i] >= 0 ? matrix_resident(&runs[i]) :
			-1;
		if (after >= 0 && after - before[i] > RESULT_CACHED_FRACTION)
			m->direct_ignored = xasprintf(
				"-d %u's files went %.0f %% to %.0f %% into the "
				"page cache", i + 1, before[i] * 100,
				after * 100);
	}
	if (m->direct_ignored)
		record_warn(rec, "O_DIRECT not honoured: %s; the figures are "
			    "memory (page cache) speed, not the device's",
			    m->direct_ignored);
}

/*
 * A cell whose threads did fewer than MATRIX_MIN_IOS I/Os each gives no
 * rate worth the name: a thread the scheduler (or a stall) kept from its
 * first I/O until past the planned end still does one I/O, and the cell's
 * span runs from the gate to that completion (1 write in 1.26 s).  Said
 * on stderr and in the record, once per such cell.
 */
/* Flag x (a cell's or a point's low_precision) and warn when ios I/Os of
 * cell c are too few; what names the cell (and point). */
static void check_one(struct record *rec, const struct matrix_cell *c,
		      uint64_t ios, double elapsed, int *flag,
		      const char *what)
{
	char *msg;

	*flag = matrix_low_precision(ios, c->threads);
	if (!*flag)
		return;
	msg = xasprintf("%s (bs %" PRIu64 ", %u threads, %s, %u%% read): %"
			PRIu64 " I/Os in %.2f s, fewer than %u per thread: "
			"low precision, not a rate", what, c->bs, c->threads,
			c->random ? "random" : "seq", c->read_pct, ios,
			elapsed, MATRIX_MIN_IOS);
	diag_warning("%s", msg);
	record_warn(rec, "%s", msg);
	free(msg);
}

void matrix_check_precision(struct record *rec)
{
	struct record_matrix *m = rec->matrix;
	size_t i, k;
	char what[64];

	for (i = 0; m && i < m->ncells; i++) {
		struct matrix_cell *c = &m->cells[i];

		snprintf(what, sizeof(what), "matrix cell %zu", i + 1);
		if (c->status == RESULT_OK)
			check_one(rec, c, c->rlat.count + c->wlat.count,
				  c->elapsed, &c->low_precision, what);
		for (k = 0; k < c->ncurve; k++) {
			struct matrix_point *p = &c->curve[k];

			if (p->status != RESULT_OK)
				continue;
			snprintf(what, sizeof(what), "matrix cell %zu curve "
				 "point %u%%", i + 1, p->pct);
			check_one(rec, c, p->rlat.count + p->wlat.count,
				  p->elapsed, &p->low_precision, what);
		}
	}
}
