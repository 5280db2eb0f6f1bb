// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names of a comparison's figures, the list of them and their values
 * per run; figures_parse.c reads the names back.  See figures.h.
 */
#include "report/analyze/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/analyze/compare_matrix.h"
#include "report/model/histogram.h"
#include "report/model/matrix.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"

void fig_cell_of(const struct matrix_cell *mc, int pt, struct fig_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->bs = mc->bs;
	c->threads = mc->threads;
	c->qd = mc->qd;
	c->random = !!mc->random;
	c->read_pct = mc->read_pct;
	c->hit_area = mc->hit_area;
	c->hit_pct = mc->hit_area ? mc->hit_pct : 0;
	c->curve_pct = pt >= 0 && (size_t)pt < mc->ncurve ?
		       mc->curve[pt].pct : 0;
}

int fig_cell_same_cell(const struct fig_cell *a, const struct fig_cell *b)
{
	return a->bs == b->bs && a->threads == b->threads && a->qd == b->qd &&
	       a->random == b->random && a->read_pct == b->read_pct &&
	       a->hit_area == b->hit_area && a->hit_pct == b->hit_pct;
}

void fig_cell_name(char *buf, size_t len, const struct fig_cell *c)
{
	char bs[24], prof[16], hit[48] = "", curve[24] = "";

	matrix_size_name(bs, sizeof(bs), c->bs);
	matrix_profile_name(prof, sizeof(prof), c->read_pct);
	if (c->hit_area) {
		char a[24];

		matrix_size_name(a, sizeof(a), c->hit_area);
		snprintf(hit, sizeof(hit), " hit %s %u%%", a, c->hit_pct);
	}
	if (c->curve_pct)
		snprintf(curve, sizeof(curve), " curve %u%%", c->curve_pct);
	snprintf(buf, len, "%s %u thr qd %u %s %s%s%s", bs, c->threads, c->qd,
		 c->random ? "Random" : "Seq", prof, hit, curve);
}

static const char *stat_name(int lat)
{
	static const char *const n[HIST_SUMMARY_N] = {
		[HIST_S_MEAN] = "mean", [HIST_S_MIN] = "min",
		[HIST_S_P50] = "p50", [HIST_S_P90] = "p90",
		[HIST_S_P99] = "p99", [HIST_S_P99_9] = "p99.9",
		[HIST_S_MAX] = "max",
	};

	return lat >= 0 && lat < HIST_SUMMARY_N && n[lat] ? n[lat] : "?";
}

void fig_what_name(char *buf, size_t len, const struct fig_id *f,
		   const struct compare *c)
{
	switch (f->kind) {
	case FIG_TEST:
		snprintf(buf, len, "%s", c->tests[f->test].title);
		break;
	case FIG_IOPS:
		snprintf(buf, len, "IO/s");
		break;
	case FIG_MBPS:
		snprintf(buf, len, "MB/s");
		break;
	case FIG_CPU:
		snprintf(buf, len, "CPU %%");
		break;
	default:
		snprintf(buf, len, "%s %s ms", stat_name(f->lat),
			 f->kind == FIG_READ ? "read" : "write");
		break;
	}
}

void fig_name(char *buf, size_t len, const struct fig_id *f,
	      const struct compare *c)
{
	char cell[96], what[64];

	fig_what_name(what, sizeof(what), f, c);
	if (f->kind == FIG_TEST) {
		snprintf(buf, len, "%s", what);
		return;
	}
	fig_cell_name(cell, sizeof(cell), &f->cell);
	snprintf(buf, len, "%s %s", cell, what);
}

const char *fig_unit(const struct fig_id *f, const struct compare *c)
{
	switch (f->kind) {
	case FIG_TEST: return c->tests[f->test].unit;
	case FIG_IOPS: return "IO/s";
	case FIG_MBPS: return "MiB/s";
	case FIG_CPU: return "%";
	default: return "ms";
	}
}

int fig_higher_better(const struct fig_id *f)
{
	return f->kind == FIG_TEST || f->kind == FIG_IOPS ||
	       f->kind == FIG_MBPS;
}

double fig_response_ms(const struct matrix_figures *f, unsigned read_pct,
		       int lat)
{
	double r = f->rlat[lat], w = f->wlat[lat];

	if (isnan(r))
		return w;
	if (isnan(w))
		return r;
	if (lat != HIST_S_MEAN)
		return r > w ? r : w;
	return (r * read_pct + w * (100 - read_pct)) / 100.0;
}

static void add(struct fig_list *l, const struct fig_id *f)
{
	*(struct fig_id *)record_append(&l->v, &l->n, sizeof(*l->v)) = *f;
}

/* A cell's (or point's) figures: the XDISK ones first. */
static void add_cell(struct fig_list *l, const struct fig_cell *cell)
{
	struct fig_id f = { .cell = *cell };
	int rd = cell->read_pct > 0, wr = cell->read_pct < 100, k;

	f.kind = FIG_IOPS;
	add(l, &f);
	f.kind = FIG_MBPS;
	add(l, &f);
	f.lat = HIST_S_MEAN;
	f.kind = FIG_READ;
	if (rd)
		add(l, &f);
	f.kind = FIG_WRITE;
	if (wr)
		add(l, &f);
	f.kind = FIG_CPU;
	add(l, &f);
	for (f.kind = FIG_READ; f.kind <= FIG_WRITE; f.kind++) {
		if (f.kind == FIG_READ ? !rd : !wr)
			continue;
		for (k = 0; k < HIST_SUMMARY_N; k++) {
			f.lat = k;
			if (k != HIST_S_MEAN)
				add(l, &f);
		}
	}
}

/* The % of every curve point some run has of cell, first seen first. */
static size_t cell_points(const struct compare *c, const struct fig_cell *cell,
			  unsigned **pcts)
{
	size_t r, i, k, j, n = 0;

	*pcts = NULL;
	for (r = 0; r < c->nrecs; r++) {
		const struct record_matrix *mx = c->recs[r]->matrix;

		for (i = 0; mx && i < mx->ncells; i++) {
			struct fig_cell fc;

			fig_cell_of(&mx->cells[i], -1, &fc);
			if (!fig_cell_same_cell(&fc, cell))
				continue;
			for (k = 0; k < mx->cells[i].ncurve; k++) {
				unsigned pct = mx->cells[i].curve[k].pct;

				for (j = 0; j < n && (*pcts)[j] != pct; j++)
					;
				if (j == n)
					*(unsigned *)record_append(pcts, &n,
						sizeof(**pcts)) = pct;
			}
		}
	}
	return n;
}

void fig_list_build(struct fig_list *l, const struct compare *c)
{
	struct cmpm m;
	size_t t, g, k, p, np;

	memset(l, 0, sizeof(*l));
	for (t = 0; t < c->ntests; t++) {
		struct fig_id f = { .kind = FIG_TEST, .test = t };
		int any = 0;

		for (g = 0; g < c->ngroups; g++)
			any |= c->groups[g].stats[t].n ||
			       c->groups[g].stats[t].too_fast;
		if (any)
			add(l, &f);
	}
	cmpm_build(&m, c);
	for (t = 0; t < m.ntables; t++)
		for (k = 0; k < m.tables[t].ncells; k++) {
			struct fig_cell cell;
			unsigned *pcts;

			cmpm_cell_id(&m.tables[t], k, &cell);
			add_cell(l, &cell);
			np = cell_points(c, &cell, &pcts);
			for (p = 0; p < np; p++) {
				cell.curve_pct = pcts[p];
				add_cell(l, &cell);
			}
			free(pcts);
		}
	cmpm_release(&m);
}

void fig_list_release(struct fig_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int fig_select(const struct fig_list *all, const struct compare *c,
	       const char *name, struct fig_list *out, char *err,
	       size_t errlen)
{
	struct fig_sel sel;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < all->n; i++) {
		const struct fig_id *f = &all->v[i];

		if (f->kind == FIG_TEST &&
		    (!strcmp(name, c->tests[f->test].name) ||
		     !strcasecmp(name, c->tests[f->test].title))) {
			add(out, f);
			return 0;
		}
	}
	for (i = 0; i < c->ntests; i++)
		if (!strcmp(name, c->tests[i].name) ||
		    !strcasecmp(name, c->tests[i].title))
			return 0;	/* a test without a figure */
	/* a name as --list-figures prints it: that figure alone (a cell
	 * without a hit area, not the same shape's cells with one) */
	for (i = 0; i < all->n; i++) {
		char full[192];

		if (all->v[i].kind == FIG_TEST)
			continue;
		fig_name(full, sizeof(full), &all->v[i], c);
		if (!strcasecmp(full, name)) {
			add(out, &all->v[i]);
			return 0;
		}
	}
	if (fig_parse(name, &sel, err, errlen))
		return -1;
	for (i = 0; i < all->n; i++) {
		const struct fig_id *f = &all->v[i];

		if (!fig_sel_matches(&sel, f))
			continue;
		/* a cell without a figure word: what XDISK prints */
		if (!(sel.has & FIGS_FIGURE) && f->kind != FIG_IOPS &&
		    f->kind != FIG_MBPS && !((f->kind == FIG_READ ||
					      f->kind == FIG_WRITE) &&
					     f->lat == HIST_S_MEAN))
			continue;
		add(out, f);
	}
	return 0;
}

/* The matrix figures of f in run r's record, or NULL status. */
static double cell_value(const struct record *rec, const struct fig_id *f)
{
	const struct record_matrix *mx = rec->matrix;
	struct matrix_figures mf;
	size_t i, k;

	for (i = 0; mx && i < mx->ncells; i++) {
		const struct matrix_cell *mc = &mx->cells[i];
		struct fig_cell fc;

		fig_cell_of(mc, -1, &fc);
		if (!fig_cell_same_cell(&fc, &f->cell))
			continue;
		if (!f->cell.curve_pct) {
			matrix_cell_figures(mc, &mf);
		} else {
			for (k = 0; k < mc->ncurve &&
			     mc->curve[k].pct != f->cell.curve_pct; k++)
				;
			if (k == mc->ncurve)
				continue;
			matrix_point_figures(mc, &mc->curve[k], &mf);
		}
		if (strcmp(mf.status, "ok"))
			return NAN;
		switch (f->kind) {
		case FIG_IOPS: return mf.iops;
		case FIG_MBPS: return mf.mbps;
		case FIG_CPU: return mf.cpu;
		case FIG_READ: return mf.rlat[f->lat];
		case FIG_WRITE: return mf.wlat[f->lat];
		default: return NAN;
		}
	}
	return NAN;
}

double fig_run_value(const struct compare *c, size_t r,
		     const struct fig_id *f, int *too_fast)
{
	const struct result *res;

	if (too_fast)
		*too_fast = 0;
	if (f->kind != FIG_TEST)
		return cell_value(c->recs[r], f);
	res = compare_result(c, r, f->test);
	if (!res)
		return NAN;
	if (res->status == RESULT_SKIPPED &&
	    (res->flags & RESULT_LOW_PRECISION) && too_fast)
		*too_fast = 1;
	return res->status == RESULT_OK ? res->value : NAN;
}

void fig_group_summary(const struct compare *c, size_t g,
		       const struct fig_id *f, struct stats_summary *s)
{
	const struct cmp_group *grp = &c->groups[g];
	double *v = xcalloc(grp->nruns + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < grp->nruns; i++) {
		double x = fig_run_value(c, grp->runs[i], f, NULL);

		if (!isnan(x))
			v[n++] = x;
	}
	stats_summarise(v, n, s);
	free(v);
}
