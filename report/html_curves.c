// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rate curves of the page (vdbench's curve, seed 001): per cell with
 * curve points, a table per configuration of target %, target IO/s,
 * achieved IO/s, read and write mean and p99 (ms), "not reached" when a
 * point achieved less than 95 % of its target, and an inline SVG chart
 * of response time against IO/s, a line per configuration.  Written
 * through the emitter (hout.h) only.
 */
#include "html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpmatrix.h"
#include "hout.h"
#include "matrix.h"
#include "../lib/xalloc.h"

static const char *const colours[] = {
	"#4a7fb5", "#e0902a", "#3a9a5b", "#b03a2e", "#7a5aa6", "#8c6d31",
	"#d45f9e", "#555555",
};

/* The response time of a point: reads and writes weighted by the mix. */
static double response_ms(const struct matrix_figures *f, unsigned pct)
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
		html_fig_td(f, fg.n ? fg.fig.iops : NAN, matrix_fmt_iops);
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

#define W 520
#define H 280
#define ML 60
#define MR 150
#define MT 12
#define MB 40

/* Response time (y, ms) against achieved IO/s (x), a line per config. */
static void chart(struct page *p, const struct cmpm *m,
		  const struct cmpm_table *t, size_t k, const char *title)
{
	FILE *f = p->f;
	double xmax = 0, ymax = 0;
	size_t i, pt, lines = 0;
	unsigned pct = t->cells[k].read_pct;

	for (i = 0; i < m->ngroups; i++)
		for (pt = 0; pt < t->npts; pt++) {
			struct cmpm_fig fg;

			cmpm_figures(p->c, t, k, m->groups[i], (int)pt, &fg);
			if (!fg.n)
				continue;
			xmax = fmax(xmax, fg.fig.iops);
			ymax = fmax(ymax, response_ms(&fg.fig, pct));
		}
	if (!(xmax > 0) || !(ymax > 0))
		return;
	h_start(f, "svg");
	h_attr(f, "xmlns", "http://www.w3.org/2000/svg");
	h_attr(f, "class", "curve");
	h_attrf(f, "width", "%d", W);
	h_attrf(f, "height", "%d", H);
	h_attr(f, "role", "img");
	h_end(f, 0);
	h_open(f, "title", NULL);
	h_textf(f, "Response time against IO/s: %s", title);
	h_close(f, "title");
	/* axes */
	h_start(f, "line");
	h_attrf(f, "x1", "%d", ML);
	h_attrf(f, "y1", "%d", H - MB);
	h_attrf(f, "x2", "%d", W - MR);
	h_attrf(f, "y2", "%d", H - MB);
	h_attr(f, "stroke", "#222");
	h_end(f, 1);
	h_start(f, "line");
	h_attrf(f, "x1", "%d", ML);
	h_attrf(f, "y1", "%d", MT);
	h_attrf(f, "x2", "%d", ML);
	h_attrf(f, "y2", "%d", H - MB);
	h_attr(f, "stroke", "#222");
	h_end(f, 1);
	for (i = 0; i <= 4; i++) {
		char buf[32];
		double xv = xmax * (double)i / 4, yv = ymax * (double)i / 4;
		double x = ML + (W - ML - MR) * (double)i / 4;
		double y = H - MB - (H - MB - MT) * (double)i / 4;

		matrix_fmt_iops(buf, sizeof(buf), xv);
		h_start(f, "text");
		h_attrf(f, "x", "%.1f", x);
		h_attrf(f, "y", "%d", H - MB + 14);
		h_attr(f, "text-anchor", "middle");
		h_end(f, 0);
		h_text(f, buf);
		h_close(f, "text");
		h_start(f, "text");
		h_attrf(f, "x", "%d", ML - 4);
		h_attrf(f, "y", "%.1f", y + 4);
		h_attr(f, "text-anchor", "end");
		h_end(f, 0);
		h_textf(f, "%.3g", yv);
		h_close(f, "text");
	}
	h_start(f, "text");
	h_attrf(f, "x", "%d", (W - MR + ML) / 2);
	h_attrf(f, "y", "%d", H - 6);
	h_attr(f, "text-anchor", "middle");
	h_end(f, 0);
	h_text(f, "achieved IO/s");
	h_close(f, "text");
	h_start(f, "text");
	h_attr(f, "x", "12");
	h_attrf(f, "y", "%d", (H - MB + MT) / 2);
	h_attrf(f, "transform", "rotate(-90 12 %d)", (H - MB + MT) / 2);
	h_attr(f, "text-anchor", "middle");
	h_end(f, 0);
	h_text(f, "response time (ms)");
	h_close(f, "text");
	for (i = 0; i < m->ngroups; i++) {
		const char *col = colours[i % (sizeof(colours) /
					       sizeof(colours[0]))];
		char *pts = xstrdup(""), *n, *name;
		size_t np = 0;

		for (pt = 0; pt < t->npts; pt++) {
			struct cmpm_fig fg;
			double x, y;

			cmpm_figures(p->c, t, k, m->groups[i], (int)pt, &fg);
			if (!fg.n)
				continue;
			x = ML + (W - ML - MR) * fg.fig.iops / xmax;
			y = H - MB - (H - MB - MT) *
			    response_ms(&fg.fig, pct) / ymax;
			n = xasprintf("%s%s%.1f,%.1f", pts, np ? " " : "", x,
				      y);
			free(pts);
			pts = n;
			np++;
			h_start(f, "circle");
			h_attrf(f, "cx", "%.1f", x);
			h_attrf(f, "cy", "%.1f", y);
			h_attr(f, "r", "3");
			h_attr(f, "fill", col);
			h_attrf(f, "data-group", "%zu", m->groups[i] + 1);
			h_attrf(f, "data-pct", "%u", t->pcts[pt]);
			h_end(f, 0);
			h_open(f, "title", NULL);
			h_textf(f, "%u %%: %.0f IO/s at %.3g ms", t->pcts[pt],
				fg.fig.iops, response_ms(&fg.fig, pct));
			h_close(f, "title");
			h_close(f, "circle");
		}
		if (!np) {
			free(pts);
			continue;
		}
		h_start(f, "polyline");
		h_attr(f, "points", pts);
		h_attr(f, "fill", "none");
		h_attr(f, "stroke", col);
		h_attrf(f, "data-group", "%zu", m->groups[i] + 1);
		h_end(f, 1);
		free(pts);
		name = compare_group_short(p->c, m->groups[i], 22);
		h_start(f, "text");
		h_attrf(f, "x", "%d", W - MR + 8);
		h_attrf(f, "y", "%zu", MT + 10 + 14 * lines);
		h_attr(f, "fill", col);
		h_end(f, 0);
		h_textf(f, "[%zu] ", m->groups[i] + 1);
		h_text(f, name);
		h_close(f, "text");
		free(name);
		lines++;
	}
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
		char title[128], prof[16];

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
			h_open(p->f, "h3", NULL);
			h_textf(p->f, "%s, %s %s", title,
				matrix_pattern_name(t->cells[k].random), prof);
			h_close(p->f, "h3");
			chart(p, &m, t, k, title);
			for (i = 0; i < m.ngroups; i++)
				curve_table(p, t, k, m.groups[i]);
		}
	}
	cmpm_release(&m);
}
