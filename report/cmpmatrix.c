// SPDX-License-Identifier: GPL-2.0-only
/* The matrix tables of a comparison; see cmpmatrix.h. */
#include "cmpmatrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "../lib/xalloc.h"

static struct cmpm_table *table_of(struct cmpm *m,
				   const struct matrix_cell *c)
{
	struct cmpm_table *t;
	size_t i;

	for (i = 0; i < m->ntables; i++) {
		t = &m->tables[i];
		if (t->bs == c->bs && t->threads == c->threads &&
		    t->qd == c->qd)
			return t;
	}
	m->tables = xrealloc(m->tables, (m->ntables + 1) * sizeof(*t));
	t = &m->tables[m->ntables++];
	memset(t, 0, sizeof(*t));
	t->bs = c->bs;
	t->threads = c->threads;
	t->qd = c->qd;
	return t;
}

static void add_cell(struct cmpm_table *t, const struct matrix_cell *c)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		if (t->cells[i].random == !!c->random &&
		    t->cells[i].read_pct == c->read_pct)
			break;
	if (i == t->ncells) {
		t->cells = xrealloc(t->cells, (i + 1) * sizeof(*t->cells));
		t->cells[i].random = !!c->random;
		t->cells[i].read_pct = c->read_pct;
		t->ncells++;
	}
	for (i = t->npts; i < c->ncurve; i++) {
		t->pcts = xrealloc(t->pcts, (i + 1) * sizeof(*t->pcts));
		t->pcts[i] = c->curve[i].pct;
		t->npts = i + 1;
	}
}

void cmpm_build(struct cmpm *m, const struct compare *c)
{
	size_t g, r, i;

	memset(m, 0, sizeof(*m));
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		int has = 0;

		for (r = 0; r < grp->nruns; r++) {
			const struct record_matrix *mx =
				c->recs[grp->runs[r]]->matrix;

			for (i = 0; mx && i < mx->ncells; i++)
				add_cell(table_of(m, &mx->cells[i]),
					 &mx->cells[i]);
			has |= mx != NULL;
		}
		if (!has)
			continue;
		m->groups = xrealloc(m->groups, (m->ngroups + 1) *
				     sizeof(*m->groups));
		m->groups[m->ngroups++] = g;
	}
	m->baseline = m->ngroups ? m->groups[0] : 0;
	for (i = 0; i < m->ngroups; i++)
		if (m->groups[i] == c->baseline)
			m->baseline = c->baseline;
}

void cmpm_release(struct cmpm *m)
{
	size_t i;

	for (i = 0; i < m->ntables; i++) {
		free(m->tables[i].cells);
		free(m->tables[i].pcts);
	}
	free(m->tables);
	free(m->groups);
	memset(m, 0, sizeof(*m));
}

static void acc(double *sum, size_t *n, double v)
{
	if (isnan(v))
		return;
	*sum += v;
	(*n)++;
}

void cmpm_figures(const struct compare *c, const struct cmpm_table *t,
		  size_t k, size_t g, int pt, struct cmpm_fig *f)
{
	const struct cmp_group *grp = &c->groups[g];
	double s_iops = 0, s_mbps = 0, s_r = 0, s_w = 0, s_cpu = 0;
	double s_target = 0;
	size_t n_r = 0, n_w = 0, r, i;
	struct histogram *rl = xmalloc(sizeof(*rl)), *wl = xmalloc(sizeof(*wl));
	struct matrix_figures first;

	memset(f, 0, sizeof(*f));
	memset(&first, 0, sizeof(first));
	hist_init(rl);
	hist_init(wl);
	for (r = 0; r < grp->nruns; r++) {
		const struct record_matrix *mx = c->recs[grp->runs[r]]->matrix;

		for (i = 0; mx && i < mx->ncells; i++) {
			const struct matrix_cell *cell = &mx->cells[i];
			struct matrix_figures fig;

			if (cell->bs != t->bs || cell->threads != t->threads ||
			    cell->qd != t->qd ||
			    !!cell->random != t->cells[k].random ||
			    cell->read_pct != t->cells[k].read_pct)
				continue;
			if (pt < 0)
				matrix_cell_figures(cell, &fig);
			else if ((size_t)pt < cell->ncurve)
				matrix_point_figures(cell, &cell->curve[pt],
						     &fig);
			else
				continue;
			if (!f->status || (!f->n && !strcmp(fig.status, "ok")))
				f->status = fig.status;
			if (!f->n)
				first = fig;
			if (strcmp(fig.status, "ok") || isnan(fig.iops))
				continue;
			hist_merge(rl, pt < 0 ? &cell->rlat :
				   &cell->curve[pt].rlat);
			hist_merge(wl, pt < 0 ? &cell->wlat :
				   &cell->curve[pt].wlat);
			if (pt >= 0)
				s_target += cell->curve[pt].target_iops;
			f->n++;
			s_iops += fig.iops;
			s_mbps += fig.mbps;
			s_cpu += isnan(fig.cpu) ? 0 : fig.cpu;
			acc(&s_r, &n_r, fig.rlat[HIST_S_MEAN]);
			acc(&s_w, &n_w, fig.wlat[HIST_S_MEAN]);
		}
	}
	f->iops = f->n ? s_iops / (double)f->n : NAN;
	f->mbps = f->n ? s_mbps / (double)f->n : NAN;
	f->cpu = f->n ? s_cpu / (double)f->n : NAN;
	f->read_ms = n_r ? s_r / (double)n_r : NAN;
	f->write_ms = n_w ? s_w / (double)n_w : NAN;
	f->fig = first;
	if (f->n > 1) {
		f->fig.iops = f->iops;
		f->fig.mbps = f->mbps;
		f->fig.cpu = f->cpu;
		f->fig.target_iops = s_target / (double)f->n;
		f->fig.reached = f->fig.target_iops > 0 ?
				 f->iops >= MATRIX_REACHED *
				 f->fig.target_iops : -1;
		matrix_lat_ms(rl, NULL, f->fig.rlat);
		matrix_lat_ms(wl, NULL, f->fig.wlat);
	}
	free(rl);
	free(wl);
}

void cmpm_title(char *buf, size_t len, const struct cmpm_table *t)
{
	struct matrix_cell cell;
	struct matrix_figures fig;

	memset(&cell, 0, sizeof(cell));
	cell.bs = t->bs;
	hist_init(&cell.rlat);
	hist_init(&cell.wlat);
	matrix_cell_figures(&cell, &fig);
	snprintf(buf, len, "%s blocks, %u thread%s, queue depth %u", fig.bs,
		 t->threads, t->threads == 1 ? "" : "s", t->qd);
}
