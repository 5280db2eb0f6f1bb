// SPDX-License-Identifier: GPL-2.0-only
/*
 * The chart seed 000's author drew conclusions from ("as the block size
 * and thread count go up, so does performance, up to a point"; RAID 10
 * against DRAID6): per matrix cell (pattern and profile), IO/s and mean
 * response time against block size and against threads, a line per
 * configuration and value of the other (its end labelled "16 thr" or
 * "1M"), on log scales, since IO/s span decades from 8K to 1M.  Drawn
 * with the line-chart helpers of html_curves.c, through the emitter.
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/compare_matrix.h"
#include "report/write/html_emit.h"
#include "report/model/matrix.h"
#include "lib/xalloc.h"

#define W 300
#define ML 56
#define MR 52
#define MT 10
#define PH 130

/* The shapes of the matrix: its block sizes, thread counts and depths. */
struct shapes {
	uint64_t v[3][32];	/* DIM_BS, DIM_THR, DIM_QD; ascending */
	size_t n[3];
};

enum { DIM_BS, DIM_THR, DIM_QD };

/* One chart: a figure (IO/s or response time) against a dimension. */
struct mchart {
	const struct compare *c;
	const struct cmpm *m;
	const struct shapes *s;
	const struct cmpm_cell *cell;
	int dim;		/* DIM_BS or DIM_THR: the x axis */
	int ms;			/* response time, else IO/s */
	double lo, hi;		/* log10 of the y axis' ends */
};

static void add_value(struct shapes *s, int d, uint64_t v)
{
	size_t i, j;

	for (i = 0; i < s->n[d] && s->v[d][i] < v; i++)
		;
	if ((i < s->n[d] && s->v[d][i] == v) || s->n[d] == 32)
		return;
	for (j = s->n[d]; j > i; j--)
		s->v[d][j] = s->v[d][j - 1];
	s->v[d][i] = v;
	s->n[d]++;
}

/* The name of value i of dimension d: "8K", "16". */
static void dim_name(char *buf, size_t len, const struct shapes *s, int d,
		     size_t i)
{
	if (d == DIM_BS)
		matrix_size_name(buf, len, s->v[DIM_BS][i]);
	else
		snprintf(buf, len, "%" PRIu64, s->v[d][i]);
}

/* The value at dimension x's value xv and the other's ov, depth qd. */
static int value(const struct mchart *ch, size_t g, uint64_t xv, uint64_t ov,
		 uint64_t qd, double *v)
{
	uint64_t bs = ch->dim == DIM_BS ? xv : ov;
	uint64_t thr = ch->dim == DIM_BS ? ov : xv;
	size_t ti, k;

	for (ti = 0; ti < ch->m->ntables; ti++) {
		const struct cmpm_table *t = &ch->m->tables[ti];

		if (t->bs != bs || t->threads != thr || t->qd != qd)
			continue;
		for (k = 0; k < t->ncells; k++) {
			const struct cmpm_cell *a = &t->cells[k];
			struct cmpm_fig fg;

			if (a->random != ch->cell->random ||
			    a->read_pct != ch->cell->read_pct ||
			    a->hit_area != ch->cell->hit_area ||
			    a->hit_pct != ch->cell->hit_pct)
				continue;
			cmpm_figures(ch->c, t, k, g, -1, &fg);
			if (!fg.n)
				return 0;
			*v = ch->ms ? html_response_ms(&fg.fig, a->read_pct) :
				      fg.fig.iops;
			return *v > 0;
		}
	}
	return 0;
}

static double px_x(const struct mchart *ch, size_t i)
{
	size_t n = ch->s->n[ch->dim];

	return ML + 10 + (W - ML - MR - 20) * (double)i / (double)(n - 1);
}

static double px_y(const struct mchart *ch, double v)
{
	return MT + PH - PH * (log10(v) - ch->lo) / (ch->hi - ch->lo);
}

/* The y axis' decades over every value of the chart; 0 when none. */
static int range(struct mchart *ch)
{
	int other = ch->dim == DIM_BS ? DIM_THR : DIM_BS, any = 0;
	const struct shapes *s = ch->s;
	double lo = INFINITY, hi = -INFINITY, v;
	size_t i, x, o, q;

	for (i = 0; i < ch->m->ngroups; i++)
		for (x = 0; x < s->n[ch->dim]; x++)
			for (o = 0; o < s->n[other]; o++)
				for (q = 0; q < s->n[DIM_QD]; q++)
					if (value(ch, ch->m->groups[i],
						  s->v[ch->dim][x],
						  s->v[other][o],
						  s->v[DIM_QD][q], &v)) {
						lo = fmin(lo, v);
						hi = fmax(hi, v);
						any = 1;
					}
	if (!any)
		return 0;
	ch->lo = floor(log10(lo));
	ch->hi = ceil(log10(hi));
	if (ch->hi <= ch->lo)
		ch->hi = ch->lo + 1;
	return 1;
}

static void ticks(FILE *f, const struct mchart *ch)
{
	char buf[32];
	size_t i;
	int d;

	for (i = 0; i < ch->s->n[ch->dim]; i++) {
		dim_name(buf, sizeof(buf), ch->s, ch->dim, i);
		html_svg_text(f, px_x(ch, i), MT + PH + 14, "middle", buf);
	}
	for (d = (int)ch->lo; d <= (int)ch->hi; d++) {
		double y = px_y(ch, pow(10, d));

		if (ch->ms || d < 3)
			snprintf(buf, sizeof(buf), "%g", pow(10, d));
		else	/* 1K, 10K, 100K, 1M: a short label for a decade */
			snprintf(buf, sizeof(buf), "%g%c", pow(10, d % 3),
				 "KMGT"[d / 3 - 1 < 4 ? d / 3 - 1 : 3]);
		html_svg_text(f, ML - 4, y + 4, "end", buf);
		h_start(f, "line");
		h_attr(f, "class", "grid");
		h_attrf(f, "x1", "%d", ML);
		h_attrf(f, "y1", "%.1f", y);
		h_attrf(f, "x2", "%d", W - MR);
		h_attrf(f, "y2", "%.1f", y);
		h_end(f, 1);
	}
}

/* The points of a line, each with its value in a title. */
static void dots(FILE *f, const struct mchart *ch, size_t i, uint64_t ov,
		 uint64_t qd, const char *lab)
{
	size_t g = ch->m->groups[i], x;
	char buf[32], xn[24];
	double v;

	for (x = 0; x < ch->s->n[ch->dim]; x++) {
		const char *tag;

		if (!value(ch, g, ch->s->v[ch->dim][x], ov, qd, &v))
			continue;
		tag = html_marker_start(f, HM_DOT, px_x(ch, x), px_y(ch, v),
					html_line_colour(i));
		h_end(f, 0);
		if (ch->ms)
			snprintf(buf, sizeof(buf), "%.3g ms", v);
		else
			matrix_fmt_iops(buf, sizeof(buf), v);
		dim_name(xn, sizeof(xn), ch->s, ch->dim, x);
		h_open(f, "title", NULL);
		h_textf(f, "[%zu] %s, %s %s: %s%s", g + 1, lab,
			ch->dim == DIM_BS ? "block size" : "threads", xn, buf,
			ch->ms ? "" : " IO/s");
		h_close(f, "title");
		h_close(f, tag);
	}
}

/* The line of configuration i at the other dimension's ov, depth qd. */
static void series(FILE *f, const struct mchart *ch, size_t i, uint64_t ov,
		   uint64_t qd, const char *dash)
{
	size_t g = ch->m->groups[i], x, np = 0;
	char *pts = xstrdup(""), *n, lab[48], name[24];
	double v, lx = 0, ly = 0;

	for (x = 0; x < ch->s->n[ch->dim]; x++) {
		if (!value(ch, g, ch->s->v[ch->dim][x], ov, qd, &v))
			continue;
		lx = px_x(ch, x);
		ly = px_y(ch, v);
		n = xasprintf("%s%s%.1f,%.1f", pts, np++ ? " " : "", lx, ly);
		free(pts);
		pts = n;
	}
	if (np) {
		h_start(f, "polyline");
		h_attr(f, "points", pts);
		h_attr(f, "fill", "none");
		h_attr(f, "stroke", html_line_colour(i));
		if (dash)
			h_attr(f, "stroke-dasharray", dash);
		h_attrf(f, "data-group", "%zu", g + 1);
		h_end(f, 1);
		if (ch->dim == DIM_BS)
			snprintf(name, sizeof(name), "%" PRIu64 " thr", ov);
		else
			matrix_size_name(name, sizeof(name), ov);
		if (qd > 1)
			snprintf(lab, sizeof(lab), "%s qd%" PRIu64, name, qd);
		else
			snprintf(lab, sizeof(lab), "%s", name);
		h_start(f, "text");
		h_attrf(f, "x", "%.1f", lx + 4);
		h_attrf(f, "y", "%.1f", ly + 4);
		h_attr(f, "fill", html_line_colour(i));
		h_end(f, 0);
		h_text(f, lab);
		h_close(f, "text");
		dots(f, ch, i, ov, qd, lab);
	}
	free(pts);
}

static void chart(FILE *f, struct mchart *ch, const char *cellname)
{
	static const char *const dashes[] = { NULL, "5 3", "2 2", "8 3 2 3" };
	const struct html_plot pl = { ML, MT, W - ML - MR, PH };
	int other = ch->dim == DIM_BS ? DIM_THR : DIM_BS;
	const char *xt = ch->dim == DIM_BS ? "block size" : "threads";
	const char *yt = ch->ms ? "response time (ms)" : "IO/s";
	size_t i, o, q;
	char *title;

	if (ch->s->n[ch->dim] < 2 || !range(ch))
		return;
	title = xasprintf("%s against %s: %s", yt, xt, cellname);
	html_svg_open(f, "mxchart", W, MT + PH + 40, title);
	free(title);
	ticks(f, ch);
	html_svg_axes(f, &pl, xt, yt);
	for (i = 0; i < ch->m->ngroups; i++)
		for (o = 0; o < ch->s->n[other]; o++)
			for (q = 0; q < ch->s->n[DIM_QD]; q++)
				series(f, ch, i, ch->s->v[other][o],
				       ch->s->v[DIM_QD][q],
				       dashes[(ch->s->n[other] - 1 - o) % 4]);
	h_close(f, "svg");
	h_lit(f, "\n");
}

/* The colours' legend, once above the charts. */
static void legend(FILE *f, const struct compare *c, const struct cmpm *m)
{
	struct html_key *k = xcalloc(m->ngroups, sizeof(*k));
	size_t i;
	int h;

	for (i = 0; i < m->ngroups; i++) {
		k[i].marker = HM_DOT;
		k[i].line = 1;
		k[i].colour = html_line_colour(i);
		k[i].text = html_key_name(c, m->groups[i]);
		k[i].group = m->groups[i] + 1;
	}
	h = html_legend(NULL, 0, 0, 900, k, m->ngroups);
	html_svg_open(f, "mxlegend", 920, h + 6, "Configurations");
	html_legend(f, 4, 4, 900, k, m->ngroups);
	h_close(f, "svg");
	h_lit(f, "\n");
	for (i = 0; i < m->ngroups; i++)
		free((char *)k[i].text);
	free(k);
}

/* The same cell: by its fields (memcmp would read the struct's padding,
 * never written: a cell was drawn again, or not, from run to run). */
static int same_cell(const struct cmpm_cell *a, const struct cmpm_cell *b)
{
	return a->random == b->random && a->read_pct == b->read_pct &&
	       a->hit_area == b->hit_area && a->hit_pct == b->hit_pct;
}

/* Each cell of the matrix once, in first-seen order, and its charts. */
static void cells(struct page *p, const struct cmpm *m, struct shapes *s)
{
	size_t ti, k, j, d;

	for (ti = 0; ti < m->ntables; ti++)
		for (k = 0; k < m->tables[ti].ncells; k++) {
			const struct cmpm_cell *a = &m->tables[ti].cells[k];
			struct mchart ch = { p->c, m, s, a, 0, 0, 0, 0 };
			char prof[16], *name;
			int seen = 0;

			for (j = 0; j < ti && !seen; j++)
				for (d = 0; d < m->tables[j].ncells; d++)
					seen |= same_cell(&m->tables[j].cells[d],
							  a);
			if (seen)
				continue;
			matrix_profile_name(prof, sizeof(prof), a->read_pct);
			name = xasprintf("%s %s%s", matrix_pattern_name(a->random),
					 prof, a->hit_area ? ", hit area" : "");
			h_open(p->f, "div", "class", "chart mxcell", NULL);
			h_elem(p->f, "h4", name);
			for (ch.ms = 0; ch.ms < 2; ch.ms++)
				for (ch.dim = DIM_BS; ch.dim <= DIM_THR;
				     ch.dim++)
					chart(p->f, &ch, name);
			h_lit(p->f, "</div>\n");
			free(name);
		}
}

void html_matrix_chart(struct page *p, const struct cmpm *m)
{
	struct shapes s;
	size_t ti;

	memset(&s, 0, sizeof(s));
	for (ti = 0; ti < m->ntables; ti++) {
		add_value(&s, DIM_BS, m->tables[ti].bs);
		add_value(&s, DIM_THR, m->tables[ti].threads);
		add_value(&s, DIM_QD, m->tables[ti].qd);
	}
	if (s.n[DIM_BS] < 2 && s.n[DIM_THR] < 2)
		return;
	h_lit(p->f, "<h3 id=\"matrix-chart\">IO/s and response time against "
	      "block size and threads</h3>\n<p class=\"note\">Per cell, a "
	      "line per configuration (its colour) and thread count (against "
	      "block size) or block size (against threads), named at its "
	      "end; log scales.  Response time: the mean of reads and writes "
	      "weighted by the mix.</p>\n");
	legend(p->f, p->c, m);
	h_lit(p->f, "<div class=\"charts\">\n");
	cells(p, m, &s);
	h_lit(p->f, "</div>\n");
}
