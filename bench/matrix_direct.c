// SPDX-License-Identifier: GPL-2.0-only
/*
 * Did O_DIRECT go around the page cache?  A memory filesystem (tmpfs
 * accepts O_DIRECT since Linux 6.6, and buffers it) never reaches a
 * device; elsewhere the files' page-cache residency before and after the
 * cells (mincore, as `clyde run --direct` checks each phase) shows a
 * filesystem that took O_DIRECT and cached anyway.  Either way the run is
 * marked (matrix.direct_ignored) and the record and the text say so once.
 */
#include "matrix_run.h"

#include <string.h>

#include "../fsops/cache.h"
#include "../fsops/target.h"
#include "../lib/xalloc.h"
#include "../report/record.h"

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
