// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rate curves of the page (vdbench's curve, seed 001): per cell with
 * curve points, a table per configuration of target %, target IO/s,
 * achieved IO/s, read and write mean and p99 (ms), "not reached" when a
 * point achieved less than 95 % of its target, and an inline SVG chart
 * of response time against IO/s, a line per configuration.  Written
 * through the emitter (html_emit.h) only.
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/compare_matrix.h"
#include "report/write/html_emit.h"
#include "report/model/matrix.h"
#include "lib/textcols.h"
#include "lib/xalloc.h"

static const char *const colours[] = {
	"#4a7fb5", "#e0902a", "#3a9a5b", "#b03a2e", "#7a5aa6", "#8c6d31",
	"#d45f9e", "#555555",
};

/* Reads and writes weighted by the mix (html_internal.h). */
double html_response_ms(const struct matrix_figures *f, unsigned pct)
{
	double r = f->rlat[HIST_S_MEAN], w = f->wlat[HIST_S_MEAN];

	if (isnan(r))
		return w;
	if (isnan(w))
		return r;
	return (r * pct + w * (100 - pct)) / 100.0;
}

static void curve_table(struct page *p, const struct cmpm_table *t, size_t k,
			size_t g)
{
	FILE *f = p->f;
	size_t pt;

	h_lit(f, "<table class=\"curve\"><thead><tr><th>Configuration</th>"
	      "<th>Target %</th><th>Target IO/s</th><th>Achieved IO/s</th>"
	      "<th>Read (ms)</th><th>Read p99 (ms)</th><th>Write (ms)</th>"
	      "<th>Write p99 (ms)</th><th></th></tr></thead><tbody>\n");
	for (pt = 0; pt < t->npts; pt++) {
		struct cmpm_fig fg;
		int i;

		cmpm_figures(p->c, t, k, g, (int)pt, &fg);
		if (!fg.status)
			continue;
		h_start(f, "tr");
		h_attrf(f, "data-pct", "%u", t->pcts[pt]);
		if (fg.fig.reached == 0)
			h_attr(f, "class", "short");
		h_end(f, 0);
		html_group_cell(p, g);
		h_open(f, "td", "class", "num", NULL);
		h_textf(f, "%u", t->pcts[pt]);
		h_close(f, "td");
		html_fig_td(f, fg.fig.target_iops, matrix_fmt_iops);
		html_fig_td_low(f, fg.n ? fg.fig.iops : NAN, matrix_fmt_iops,
				fg.fig.low_precision);
		for (i = 0; i < 2; i++) {	/* reads, then writes */
			const double *v = i ? fg.fig.wlat : fg.fig.rlat;

			html_fig_td(f, fg.n ? v[HIST_S_MEAN] : NAN,
				    matrix_fmt_ms);
			html_fig_td(f, fg.n ? v[HIST_S_P99] : NAN,
				    matrix_fmt_ms);
		}
		h_open(f, "td", NULL);
		if (!fg.n)
			h_text(f, fg.status);
		else if (fg.fig.reached == 0)
			h_text(f, "not reached");
		else if (fg.fig.reached == 1)
			h_text(f, "ok");
		h_close(f, "td");
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

/* --- line charts: shared with html_matrix_chart.c --- */

const char *html_line_colour(size_t i)
{
	return colours[i % (sizeof(colours) / sizeof(colours[0]))];
}

void html_svg_open(FILE *f, const char *cls, int w, int h, const char *title)
{
	h_start(f, "svg");
	h_attr(f, "xmlns", "http://www.w3.org/2000/svg");
	h_attr(f, "class", cls);
	h_attrf(f, "width", "%d", w);
	h_attrf(f, "height", "%d", h);
	h_attr(f, "role", "img");
	h_end(f, 0);
	h_open(f, "title", NULL);
	h_text(f, title);
	h_close(f, "title");
}

void html_svg_text(FILE *f, double x, double y, const char *anchor,
		   const char *text)
{
	h_start(f, "text");
	h_attrf(f, "x", "%.1f", x);
	h_attrf(f, "y", "%.1f", y);
	if (anchor)
		h_attr(f, "text-anchor", anchor);
	h_end(f, 0);
	h_text(f, text);
	h_close(f, "text");
}

static void svg_line(FILE *f, double x1, double y1, double x2, double y2)
{
	h_start(f, "line");
	h_attrf(f, "x1", "%.1f", x1);
	h_attrf(f, "y1", "%.1f", y1);
	h_attrf(f, "x2", "%.1f", x2);
	h_attrf(f, "y2", "%.1f", y2);
	h_attr(f, "stroke", "#222");
	h_end(f, 1);
}

void html_svg_axes(FILE *f, const struct html_plot *pl, const char *xtitle,
		   const char *ytitle)
{
	int yb = pl->top + pl->h, ym = pl->top + pl->h / 2;

	svg_line(f, pl->left, yb, pl->left + pl->w, yb);
	svg_line(f, pl->left, pl->top, pl->left, yb);
	html_svg_text(f, pl->left + pl->w / 2.0, yb + 30, "middle", xtitle);
	h_start(f, "text");
	h_attr(f, "x", "12");
	h_attrf(f, "y", "%d", ym);
	h_attrf(f, "transform", "rotate(-90 12 %d)", ym);
	h_attr(f, "text-anchor", "middle");
	h_end(f, 0);
	h_text(f, ytitle);
	h_close(f, "text");
}

const char *html_marker_start(FILE *f, enum html_marker k, double x, double y,
			      const char *col)
{
	if (k == HM_SHORT) {	/* a triangle pointing down: fell short */
		h_start(f, "polygon");
		h_attrf(f, "points", "%.1f,%.1f %.1f,%.1f %.1f,%.1f", x - 5,
			y - 4, x + 5, y - 4, x, y + 5);
		h_attr(f, "fill", col);
		h_attr(f, "stroke", "#222");
		return "polygon";
	}
	if (k == HM_SQUARE) {
		h_start(f, "rect");
		h_attrf(f, "x", "%.1f", x - 3.5);
		h_attrf(f, "y", "%.1f", y - 3.5);
		h_attr(f, "width", "7");
		h_attr(f, "height", "7");
		h_attr(f, "fill", col);
		return "rect";
	}
	h_start(f, "circle");
	h_attrf(f, "cx", "%.1f", x);
	h_attrf(f, "cy", "%.1f", y);
	h_attr(f, "r", k == HM_MAX ? "5" : "3");
	h_attr(f, "fill", k == HM_MAX ? "none" : col);
	if (k == HM_MAX)
		h_attr(f, "stroke", col);
	return "circle";
}

/* Pixels a character of the legend may take (11 px text, generous). */
#define KEY_CH 6.8
#define KEY_LINE 14

/*
 * Text's lines in at most cols columns, broken after a space or a '-'
 * (a word longer than a line is broken where the line ends): each
 * line's byte length in len[], their count returned.
 */
static size_t wrap_lines(const char *s, size_t cols, size_t *len, size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		size_t b = text_bytes_of_cols(s, cols), cut = b, i;

		if (s[b]) {
			for (i = b; i > 0; i--)
				if (s[i - 1] == ' ' || s[i - 1] == '-')
					break;
			cut = i ? i : b;
		}
		if (!cut)
			cut = 1;
		len[n++] = cut;
		s += cut;
		while (*s == ' ')
			s++, len[n - 1]++;
	}
	return n;
}

int html_legend(FILE *f, int x, int y, int width,
		const struct html_key *k, size_t n)
{
	size_t i, cols = (size_t)((width - 22) / KEY_CH);
	int h = 0;

	for (i = 0; i < n; i++) {
		size_t len[16], nl = wrap_lines(k[i].text, cols, len, 16), l;
		const char *s = k[i].text;
		int ky = y + h;

		h += (int)nl * KEY_LINE + 2;
		if (!f)
			continue;
		h_start(f, "g");
		h_attr(f, "class", "key");
		if (k[i].group)
			h_attrf(f, "data-group", "%zu", k[i].group);
		h_end(f, 0);
		if (k[i].line) {
			h_start(f, "line");
			h_attrf(f, "x1", "%d", x);
			h_attrf(f, "y1", "%d", ky + 6);
			h_attrf(f, "x2", "%d", x + 16);
			h_attrf(f, "y2", "%d", ky + 6);
			h_attr(f, "stroke", k[i].colour);
			if (k[i].dash)
				h_attr(f, "stroke-dasharray", k[i].dash);
			h_end(f, 1);
		}
		html_marker_start(f, k[i].marker, x + 8, ky + 6, k[i].colour);
		h_end(f, 1);
		h_start(f, "text");
		h_attrf(f, "y", "%d", ky + 10);
		h_end(f, 0);
		for (l = 0; l < nl; s += len[l], l++) {
			char *t = xasprintf("%.*s", (int)len[l], s);

			h_start(f, "tspan");
			h_attrf(f, "x", "%d", x + 22);
			if (l)
				h_attrf(f, "dy", "%d", KEY_LINE);
			h_end(f, 0);
			h_text(f, t);
			h_close(f, "tspan");
			free(t);
		}
		h_close(f, "text");
		h_close(f, "g");
	}
	return h;
}

char *html_key_name(const struct compare *c, size_t g)
{
	char *name = compare_group_label(c, g, !compare_common_virt(c));
	char *n = xasprintf("[%zu] %s", g + 1, name);

	free(name);
	return n;
}

/* --- the response-time chart --- */

#define W 560
#define ML 60
#define MR 40
#define MT 12
#define PH 220

/* Response time (y, ms) against achieved IO/s (x), a line per config. */
struct cpoint {
	double x, y, iops, ms;
	int pt;			/* index of the curve point, -1 uncapped */
	int shortfall;		/* the point fell short of its target */
};

static int by_iops(const void *a, const void *b)
{
	const struct cpoint *p = a, *q = b;

	return (p->iops > q->iops) - (p->iops < q->iops);
}

/*
 * One point's marker: the uncapped maximum a larger open circle, a
 * point that fell short of its target a triangle pointing down.
 */
static void chart_dot(FILE *f, const struct cmpm_table *t,
		      const struct cpoint *c, size_t g, const char *col)
{
	const char *tag = html_marker_start(f, c->pt < 0 ? HM_MAX :
					    c->shortfall ? HM_SHORT : HM_DOT,
					    c->x, c->y, col);

	h_attrf(f, "data-group", "%zu", g + 1);
	if (c->pt < 0)
		h_attr(f, "data-pct", "max");
	else
		h_attrf(f, "data-pct", "%u", t->pcts[c->pt]);
	if (c->shortfall)
		h_attr(f, "class", "short");
	h_end(f, 0);
	h_open(f, "title", NULL);
	if (c->pt < 0)
		h_textf(f, "uncapped maximum: %.0f IO/s at %.3g ms", c->iops,
			c->ms);
	else
		h_textf(f, "%u %%: %.0f IO/s at %.3g ms%s", t->pcts[c->pt],
			c->iops, c->ms, c->shortfall ?
			", target not reached" : "");
	h_close(f, "title");
	h_close(f, tag);
}

/*
 * The points of configuration g, the uncapped maximum among them, drawn
 * and joined in order of achieved IO/s (not of target, which zig-zags
 * where a target falls short); *pts the polyline's points.
 */
static size_t chart_points(struct page *p, const struct cmpm_table *t,
			   size_t k, size_t g, const char *col, double xmax,
			   double ymax, char **pts)
{
	struct cpoint *cp = xcalloc(t->npts + 1, sizeof(*cp));
	unsigned pct = t->cells[k].read_pct;
	size_t pt, np = 0;
	char *n;

	for (pt = 0; pt <= t->npts; pt++) {
		struct cmpm_fig fg;
		int ix = pt == t->npts ? -1 : (int)pt;

		cmpm_figures(p->c, t, k, g, ix, &fg);
		if (!fg.n || !(fg.fig.iops >= 0) ||
		    isnan(html_response_ms(&fg.fig, pct)))
			continue;
		cp[np].pt = ix;
		cp[np].shortfall = ix >= 0 && fg.fig.reached == 0;
		cp[np].iops = fg.fig.iops;
		cp[np].ms = html_response_ms(&fg.fig, pct);
		cp[np].x = ML + (W - ML - MR) * cp[np].iops / xmax;
		cp[np].y = MT + PH - PH * cp[np].ms / ymax;
		np++;
	}
	qsort(cp, np, sizeof(*cp), by_iops);
	*pts = xstrdup("");
	for (pt = 0; pt < np; pt++) {
		n = xasprintf("%s%s%.1f,%.1f", *pts, pt ? " " : "", cp[pt].x,
			      cp[pt].y);
		free(*pts);
		*pts = n;
	}
	h_start(p->f, "polyline");
	h_attr(p->f, "points", *pts);
	h_attr(p->f, "fill", "none");
	h_attr(p->f, "stroke", col);
	h_attrf(p->f, "data-group", "%zu", g + 1);
	h_end(p->f, 1);
	for (pt = 0; pt < np; pt++)
		chart_dot(p->f, t, &cp[pt], g, col);
	free(cp);
	return np;
}

/*
 * The largest IO/s and response time of cell k over every configuration
 * (the axes' ends); *shortfall whether a point fell short of its target.
 */
static void chart_range(struct page *p, const struct cmpm *m,
			const struct cmpm_table *t, size_t k, double *xmax,
			double *ymax, int *shortfall)
{
	unsigned pct = t->cells[k].read_pct;
	size_t i, pt;

	*xmax = *ymax = 0;
	*shortfall = 0;
	for (i = 0; i < m->ngroups; i++)
		for (pt = 0; pt <= t->npts; pt++) {
			struct cmpm_fig fg;

			cmpm_figures(p->c, t, k, m->groups[i],
				     pt == t->npts ? -1 : (int)pt, &fg);
			if (!fg.n)
				continue;
			*xmax = fmax(*xmax, fg.fig.iops);
			*ymax = fmax(*ymax, html_response_ms(&fg.fig, pct));
			*shortfall |= pt < t->npts && fg.fig.reached == 0;
		}
}

/* Whether configuration g has cell k or a point of its curve. */
static int has_cell(const struct compare *c, const struct cmpm_table *t,
		    size_t k, size_t g)
{
	size_t pt;

	for (pt = 0; pt <= t->npts; pt++) {
		struct cmpm_fig fg;

		cmpm_figures(c, t, k, g, pt == t->npts ? -1 : (int)pt, &fg);
		if (fg.status)
			return 1;
	}
	return 0;
}

/* The legend: a line per configuration that has the cell, then what the
 * markers mean. */
static struct html_key *chart_keys(const struct compare *c,
				   const struct cmpm *m,
				   const struct cmpm_table *t, size_t cell,
				   int shortfall, size_t *n)
{
	struct html_key *k = xcalloc(m->ngroups + 2, sizeof(*k));
	size_t i, j = 0;

	for (i = 0; i < m->ngroups; i++) {
		if (!has_cell(c, t, cell, m->groups[i]))
			continue;
		k[j].marker = HM_DOT;
		k[j].line = 1;
		k[j].colour = html_line_colour(i);
		k[j].text = html_key_name(c, m->groups[i]);
		k[j++].group = m->groups[i] + 1;
	}
	i = j;
	k[i].marker = HM_MAX;
	k[i].colour = "#555";
	k[i++].text = xstrdup("uncapped maximum (the cell at full rate)");
	if (shortfall) {
		k[i].marker = HM_SHORT;
		k[i].colour = "#fff";
		k[i++].text = xstrdup("target not reached (under 95 % of it)");
	}
	*n = i;
	return k;
}

static void chart_ticks(FILE *f, double xmax, double ymax)
{
	int i;

	for (i = 0; i <= 4; i++) {
		char buf[32];

		matrix_fmt_iops(buf, sizeof(buf), xmax * i / 4);
		html_svg_text(f, ML + (W - ML - MR) * i / 4.0, MT + PH + 14,
			      "middle", buf);
		snprintf(buf, sizeof(buf), "%.3g", ymax * i / 4);
		html_svg_text(f, ML - 4, MT + PH - PH * i / 4.0 + 4, "end",
			      buf);
	}
}

static void chart(struct page *p, const struct cmpm *m,
		  const struct cmpm_table *t, size_t k, const char *title)
{
	const struct html_plot pl = { ML, MT, W - ML - MR, PH };
	FILE *f = p->f;
	double xmax, ymax;
	size_t i, nk;
	int shortfall, lh;
	struct html_key *keys;
	char *t2;

	chart_range(p, m, t, k, &xmax, &ymax, &shortfall);
	if (!(xmax > 0) || !(ymax > 0))
		return;
	keys = chart_keys(p->c, m, t, k, shortfall, &nk);
	lh = html_legend(NULL, 0, 0, W - ML, keys, nk);
	t2 = xasprintf("Response time against IO/s: %s", title);
	html_svg_open(f, "curve", W, MT + PH + 44 + lh, t2);
	free(t2);
	html_svg_axes(f, &pl, "achieved IO/s", "response time (ms)");
	chart_ticks(f, xmax, ymax);
	for (i = 0; i < m->ngroups; i++) {
		char *pts;

		chart_points(p, t, k, m->groups[i], html_line_colour(i), xmax,
			     ymax, &pts);
		free(pts);
	}
	html_legend(f, ML, MT + PH + 40, W - ML, keys, nk);
	for (i = 0; i < nk; i++)
		free((char *)keys[i].text);
	free(keys);
	h_close(f, "svg");
	h_lit(f, "\n");
}

void html_curves(struct page *p)
{
	struct cmpm m;
	size_t ti, k, i;
	int head = 0;

	cmpm_build(&m, p->c);
	for (ti = 0; ti < m.ntables; ti++) {
		const struct cmpm_table *t = &m.tables[ti];
		char title[128], prof[16], hit[48];

		if (!t->npts)
			continue;
		for (k = 0; k < t->ncells; k++) {
			int any = 0;

			for (i = 0; i < m.ngroups && !any; i++) {
				struct cmpm_fig fg;

				cmpm_figures(p->c, t, k, m.groups[i], 0, &fg);
				any = fg.status != NULL;
			}
			if (!any)
				continue;
			if (!head++)
				h_lit(p->f, "<h2 id=\"curves\">Rate curves</h2>"
				      "\n<p class=\"note\">Each cell rerun at a "
				      "share of its maximum IO/s; <b>not "
				      "reached</b>: it achieved less than 95 % "
				      "of the target.  The chart: mean "
				      "response time (reads and writes "
				      "weighted by the mix) against achieved "
				      "IO/s.</p>\n");
			matrix_table_title(title, sizeof(title), t->bs,
					   t->threads, t->qd);
			matrix_profile_name(prof, sizeof(prof),
					    t->cells[k].read_pct);
			matrix_hit_name(hit, sizeof(hit), t->cells[k].hit_area,
					t->cells[k].hit_pct);
			h_open(p->f, "h3", NULL);
			h_textf(p->f, "%s, %s %s%s", title,
				matrix_pattern_name(t->cells[k].random), prof,
				hit[0] ? ", " : "");
			h_text(p->f, hit);
			h_close(p->f, "h3");
			chart(p, &m, t, k, title);
			/* a configuration without the cell: no table */
			for (i = 0; i < m.ngroups; i++)
				if (has_cell(p->c, t, k, m.groups[i]))
					curve_table(p, t, k, m.groups[i]);
		}
	}
	if (head && html_mx_any_low(p->c))
		html_mx_low_note(p->f);
	cmpm_release(&m);
}
