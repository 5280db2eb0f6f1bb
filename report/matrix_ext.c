// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parts of the matrix section beside the cells' own figures: the
 * prefill, several targets (each named with its device stack, and a row
 * per target in each cell) and the steady-state check of each cell.  The
 * model here; the JSON in json_matrix_ext.c.
 */
#include "matrix_ext.h"

#include <stdlib.h>
#include <string.h>

#include "target_rec.h"
#include "../lib/xalloc.h"

void matrix_cell_targets(struct matrix_cell *c, size_t n)
{
	size_t i;

	free(c->targets);
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

struct record_target *matrix_add_target(struct record_matrix *m)
{
	struct record_target *t;

	m->targets = xrealloc(m->targets, (m->ntargets + 1) *
			      sizeof(*m->targets));
	t = &m->targets[m->ntargets++];
	memset(t, 0, sizeof(*t));
	return t;
}

static void target_release(struct record_target *t)
{
	free(t->path);
	free(t->mountpoint);
	free(t->fstype);
	free(t->source);
	free(t->vfs_options);
	free(t->fs_options);
	record_stack_free(t->stack);
}

void matrix_ext_free(struct record_matrix *m)
{
	size_t i;

	for (i = 0; i < m->ntargets; i++)
		target_release(&m->targets[i]);
	free(m->targets);
	for (i = 0; i < m->ncells; i++)
		free(m->cells[i].targets);
	free(m->steady);
	free(m->profile);
}
