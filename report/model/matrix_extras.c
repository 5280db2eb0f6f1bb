// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parts of the matrix section beside the cells' own figures: the
 * prefill, several targets (a row per target in each cell; the targets
 * themselves are the record's, record.h) and the steady-state check of
 * each cell.  The model here; the JSON in json_matrix_extras.c.
 */
#include "report/model/matrix_extras.h"

#include <stdlib.h>
#include <string.h>

#include "report/model/target_rec.h"
#include "lib/xalloc.h"

/* Free c's target rows and what they own. */
static void matrix_targets_release(struct matrix_cell *c)
{
	size_t i;

	for (i = 0; i < c->ntargets; i++) {
		hist_release(&c->targets[i].rlat);
		hist_release(&c->targets[i].wlat);
	}
	free(c->targets);
	c->targets = NULL;
	c->ntargets = 0;
}

void matrix_cell_targets(struct matrix_cell *c, size_t n)
{
	size_t i;

	matrix_targets_release(c);
	c->targets = n ? xcalloc(n, sizeof(*c->targets)) : NULL;
	c->ntargets = n;
	for (i = 0; i < n; i++) {
		hist_init(&c->targets[i].rlat);
		hist_init(&c->targets[i].wlat);
	}
}

void matrix_targets_rates(struct matrix_cell *c)
{
	size_t i;

	for (i = 0; i < c->ntargets; i++) {
		struct matrix_target_row *t = &c->targets[i];
		uint64_t ops = t->rlat.count + t->wlat.count;

		t->iops = c->elapsed > 0 ? (double)ops / c->elapsed : 0;
		t->mbps = t->iops * (double)c->bs / (1024.0 * 1024.0);
	}
}

void matrix_ext_free(struct record_matrix *m)
{
	size_t i;

	for (i = 0; i < m->ncells; i++)
		matrix_targets_release(&m->cells[i]);
	record_str_free(m->steady);
	record_str_free(m->profile);
	record_str_free(m->direct_ignored);
}
