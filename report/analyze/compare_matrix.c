// SPDX-License-Identifier: GPL-2.0-only
/* The matrix tables of a comparison; see compare_matrix.h. */
#include "report/analyze/compare_matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/figures.h"
#include "report/model/matrix.h"
#include "lib/xalloc.h"

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

void cmpm_cell_id(const struct cmpm_table *t, size_t k, struct fig_cell *id)
{
	memset(id, 0, sizeof(*id));
	id->bs = t->bs;
	id->threads = t->threads;
	id->qd = t->qd;
	id->random = t->cells[k].random;
	id->read_pct = t->cells[k].read_pct;
	id->hit_area = t->cells[k].hit_area;
	id->hit_pct = t->cells[k].hit_pct;
}

static void add_cell(struct cmpm_table *t, const struct matrix_cell *c)
{
	struct fig_cell id, have;
	size_t i;

	fig_cell_of(c, -1, &id);
	for (i = 0; i < t->ncells; i++) {
		cmpm_cell_id(t, i, &have);
		if (fig_cell_same_cell(&have, &id))
			break;
	}
	if (i == t->ncells) {
		t->cells = xrealloc(t->cells, (i + 1) * sizeof(*t->cells));
		t->cells[i].random = id.random;
		t->cells[i].read_pct = id.read_pct;
		t->cells[i].hit_area = id.hit_area;
		t->cells[i].hit_pct = id.hit_pct;
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

/* The runs' values of each figure of a cell, for their summaries. */
struct cmpm_vals {
	double *v[CMPM_NFIGS];
	size_t n[CMPM_NFIGS];
};

static void vals_add(struct cmpm_vals *a, int k, double v)
{
	if (isnan(v))
		return;
	a->v[k] = xrealloc(a->v[k], (a->n[k] + 1) * sizeof(*a->v[k]));
	a->v[k][a->n[k]++] = v;
}

/* Summarise the values into f->sum and f's means, and free them. */
static void vals_summarise(struct cmpm_vals *a, struct cmpm_fig *f)
{
	int k;

	for (k = 0; k < CMPM_NFIGS; k++) {
		stats_summarise(a->v[k], a->n[k], &f->sum[k]);
		free(a->v[k]);
	}
	f->iops = f->sum[CMPM_IOPS].mean;
	f->mbps = f->sum[CMPM_MBPS].mean;
	f->read_ms = f->sum[CMPM_READ_MS].mean;
	f->write_ms = f->sum[CMPM_WRITE_MS].mean;
}

/* Figures of the cell (pt < 0) or curve point pt of cell, 0 when none. */
static int cell_figures(const struct matrix_cell *cell, int pt,
			struct matrix_figures *fig)
{
	if (pt < 0)
		matrix_cell_figures(cell, fig);
	else if ((size_t)pt < cell->ncurve)
		matrix_point_figures(cell, &cell->curve[pt], fig);
	else
		return 0;
	return 1;
}

int cmpm_group_has(const struct compare *c, const struct cmpm_table *t,
		   size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	size_t r, i;

	/* the cells table_of puts in t */
	for (r = 0; r < grp->nruns; r++) {
		const struct record_matrix *mx = c->recs[grp->runs[r]]->matrix;

		for (i = 0; mx && i < mx->ncells; i++)
			if (mx->cells[i].bs == t->bs &&
			    mx->cells[i].threads == t->threads &&
			    mx->cells[i].qd == t->qd)
				return 1;
	}
	return 0;
}

void cmpm_diff(const struct compare *c, const struct cmpm_fig *f,
	       const struct cmpm_fig *base, int fig, struct stats_diff *d)
{
	stats_difference(&f->sum[fig], &base->sum[fig], c->noise_band, d);
}

void cmpm_figures(const struct compare *c, const struct cmpm_table *t,
		  size_t k, size_t g, int pt, struct cmpm_fig *f)
{
	const struct cmp_group *grp = &c->groups[g];
	double s_cpu = 0, s_target = 0;
	size_t r, i;
	int low = 0;
	struct histogram *rl = xmalloc(sizeof(*rl)), *wl = xmalloc(sizeof(*wl));
	struct matrix_figures first;
	struct fig_cell want;
	struct cmpm_vals vals;

	cmpm_cell_id(t, k, &want);
	memset(f, 0, sizeof(*f));
	memset(&first, 0, sizeof(first));
	memset(&vals, 0, sizeof(vals));
	hist_init(rl);
	hist_init(wl);
	for (r = 0; r < grp->nruns; r++) {
		const struct record_matrix *mx = c->recs[grp->runs[r]]->matrix;

		for (i = 0; mx && i < mx->ncells; i++) {
			const struct matrix_cell *cell = &mx->cells[i];
			struct matrix_figures fig;
			struct fig_cell id;

			fig_cell_of(cell, -1, &id);
			if (!fig_cell_same_cell(&id, &want) ||
			    !cell_figures(cell, pt, &fig))
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
			low |= fig.low_precision;
			s_cpu += isnan(fig.cpu) ? 0 : fig.cpu;
			vals_add(&vals, CMPM_IOPS, fig.iops);
			vals_add(&vals, CMPM_MBPS, fig.mbps);
			vals_add(&vals, CMPM_READ_MS, fig.rlat[HIST_S_MEAN]);
			vals_add(&vals, CMPM_WRITE_MS, fig.wlat[HIST_S_MEAN]);
		}
	}
	vals_summarise(&vals, f);
	f->cpu = f->n ? s_cpu / (double)f->n : NAN;
	f->fig = first;
	/* a mean with a run of too few I/Os in it is marked as that run */
	f->fig.low_precision = low;
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
	hist_release(rl);
	hist_release(wl);
	free(rl);
	free(wl);
}
