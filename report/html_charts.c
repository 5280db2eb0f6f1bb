// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page's bar charts (inline SVG, one per test) and latency tables
 * (percentiles of the merged histograms).  Written through hout.h; ids
 * made from test names go through h_slug().
 */
#include "html_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "hout.h"
#include "record_util.h"

#define CHART_W 580
#define CHART_LABEL 250
#define CHART_BAR 250
#define CHART_ROW 20

/* One bar: its title, label, rectangle, whisker and value. */
static void bar(struct page *p, size_t t, size_t g, double max, int y)
{
	const struct compare *c = p->c;
	const struct cmp_stat *s = &c->groups[g].stats[t];
	FILE *f = p->f;
	char *name = compare_group_short(c, g, 30), buf[64];
	double w = s->mean / max * CHART_BAR;

	report_fmt_value(buf, sizeof(buf), s->mean, c->tests[t].unit);
	h_open(f, "g", NULL);
	h_open(f, "title", NULL);
	h_textf(f, "%s: %s", name, buf);
	h_close(f, "title");
	h_start(f, "text");
	h_attrf(f, "x", "%d", CHART_LABEL - 4);
	h_attrf(f, "y", "%d", y + 13);
	h_attr(f, "text-anchor", "end");
	h_end(f, 0);
	h_text(f, name);
	h_close(f, "text");
	h_start(f, "rect");
	h_attr(f, "class", g == c->baseline ? "bar base" : "bar");
	h_attrf(f, "x", "%d", CHART_LABEL);
	h_attrf(f, "y", "%d", y + 2);
	h_attrf(f, "width", "%.1f", w);
	h_attrf(f, "height", "%d", CHART_ROW - 5);
	h_attrf(f, "data-group", "%zu", g + 1);
	h_end(f, 1);
	if (s->n > 1 && s->sd > 0) {
		h_start(f, "line");
		h_attr(f, "class", "sd");
		h_attrf(f, "x1", "%.1f",
			CHART_LABEL + (s->mean - s->sd) / max * CHART_BAR);
		h_attrf(f, "y1", "%d", y + 9);
		h_attrf(f, "x2", "%.1f",
			CHART_LABEL + (s->mean + s->sd) / max * CHART_BAR);
		h_attrf(f, "y2", "%d", y + 9);
		h_end(f, 1);
	}
	h_start(f, "text");
	h_attrf(f, "x", "%.1f",
		CHART_LABEL + (s->mean + s->sd) / max * CHART_BAR + 4);
	h_attrf(f, "y", "%d", y + 13);
	h_end(f, 0);
	h_textf(f, "%s%s%s", buf,
		s->marks & (CMP_LOW_PRECISION | CMP_CACHED) ? " *" : "",
		c->tests[t].per_char && s->mode &&
		strcmp(s->mode, "syscall") ? " (stdio)" : "");
	h_close(f, "text");
	h_close(f, "g");
	h_lit(f, "\n");
	free(name);
}

static void chart(struct page *p, size_t t)
{
	const struct compare *c = p->c;
	double max = 0;
	size_t g, rows = 0;
	FILE *f = p->f;
	char *id;
	int y;

	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_stat *s = &c->groups[g].stats[t];

		if (s->n) {
			rows++;
			if (s->mean + s->sd > max)
				max = s->mean + s->sd;
		}
	}
	if (!rows || max <= 0)
		return;
	id = h_slug("chart-", c->tests[t].name);
	h_open(f, "div", "class", "chart", "id", id, NULL);
	free(id);
	h_open(f, "h3", NULL);
	h_textf(f, "%s (%s)", c->tests[t].title, c->tests[t].unit);
	h_close(f, "h3");
	h_lit(f, "\n");
	h_start(f, "svg");
	h_attr(f, "xmlns", "http://www.w3.org/2000/svg");
	h_attrf(f, "width", "%d", CHART_W);
	h_attrf(f, "height", "%zu", rows * CHART_ROW + 8);
	h_attr(f, "role", "img");
	h_end(f, 0);
	h_lit(f, "\n");
	y = 4;
	for (g = 0; g < c->ngroups; g++) {
		if (!c->groups[g].stats[t].n)
			continue;
		bar(p, t, g, max, y);
		y += CHART_ROW;
	}
	if (c->groups[c->baseline].stats[t].n) {
		double x = CHART_LABEL + c->groups[c->baseline].stats[t].mean /
				max * CHART_BAR;

		h_start(f, "line");
		h_attr(f, "class", "baseline");
		h_attrf(f, "x1", "%.1f", x);
		h_attr(f, "y1", "0");
		h_attrf(f, "x2", "%.1f", x);
		h_attrf(f, "y2", "%zu", rows * CHART_ROW + 8);
		h_end(f, 1);
		h_lit(f, "\n");
	}
	h_lit(f, "</svg></div>\n");
}

int html_chart_has(const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++)
		if (c->groups[g].stats[t].n &&
		    c->groups[g].stats[t].mean + c->groups[g].stats[t].sd > 0)
			return 1;
	return 0;
}

int html_latency_has(const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++)
		if (c->groups[g].stats[t].lat.count)
			return 1;
	return 0;
}

void html_charts(struct page *p)
{
	size_t t;

	if (!p->has_charts)
		return;
	h_lit(p->f, "<h2 id=\"charts\">Charts</h2>\n<p class=\"note\">One bar "
	      "per configuration (the baseline in orange, its value the "
	      "dashed line), whiskers &#177; one standard deviation; * low "
	      "precision or cached.</p>\n<div class=\"charts\">\n");
	for (t = 0; t < p->c->ntests; t++)
		chart(p, t);
	h_lit(p->f, "</div>\n");
}

/* Figure k of the summary (hist_summary_label) of test t, configuration g. */
static void lat_cell(struct page *p, size_t t, size_t g, int k, int have)
{
	const struct compare *c = p->c;
	struct hist_summary sum;
	char buf[32];
	double rank;
	size_t i;

	if (!have) {
		h_lit(p->f, "<td class=\"none\">&#8212;</td>");
		return;
	}
	for (i = 0; i < c->ngroups; i++) {
		const struct cmp_stat *s = &c->groups[i].stats[t];
		int max_only = !!(s->marks & CMP_MAX_ONLY);

		hist_summarize(&s->lat, &sum);
		p->ns[i] = sum.count && (k == HIST_S_MAX || !max_only);
		p->cls[i] = NULL;
		if (p->ns[i])
			p->vals[i] = sum.v[k];
	}
	rank = compare_rank(p->vals, p->ns, p->cls, c->ngroups, g, 0);
	hist_summarize(&c->groups[g].stats[t].lat, &sum);
	report_fmt_us(buf, sizeof(buf), record_u64(sum.v[k]));
	h_start(p->f, "td");
	h_attr(p->f, "class", "num");
	h_attrf(p->f, "data-v", "%.3f", (double)record_u64(sum.v[k]) / 1000.0);
	html_colour(p->f, rank);
	h_end(p->f, 0);
	h_text(p->f, buf);
	h_close(p->f, "td");
}

static void lat_row(struct page *p, size_t t, size_t g)
{
	const struct cmp_stat *s = &p->c->groups[g].stats[t];
	const struct histogram *h = &s->lat;
	int full = h->count && !(s->marks & CMP_MAX_ONLY);
	FILE *f = p->f;
	int k;

	h_open(f, "tr", NULL);
	html_group_cell(p, g);
	if (full) {
		h_start(f, "td");
		h_attr(f, "class", "num");
		h_attrf(f, "data-v", "%" PRIu64, h->count);
		h_end(f, 0);
		h_textf(f, "%" PRIu64, h->count);
		h_close(f, "td");
	} else {
		h_lit(f, "<td class=\"none\">max only</td>");
	}
	for (k = 0; k < HIST_SUMMARY_N; k++)
		lat_cell(p, t, g, k, full || k == HIST_S_MAX);
	h_lit(f, "</tr>\n");
}

void html_latency(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t t, g;
	char *id;
	int k;

	if (!p->has_latency)
		return;
	h_lit(f, "<h2 id=\"latency\">Latency</h2>\n<p class=\"note\">Per "
	      "operation, in microseconds, from the runs' histograms merged "
	      "(never averaged).  bonnie++ lines keep only the maximum.  "
	      "Lower is better.</p>\n");
	for (t = 0; t < c->ntests; t++) {
		if (!html_latency_has(c, t))
			continue;
		h_elem(f, "h3", c->tests[t].title);
		h_lit(f, "\n");
		id = h_slug("lat-", c->tests[t].name);
		h_open(f, "table", "class", "latency", "id", id, NULL);
		free(id);
		h_lit(f, "<thead><tr><th>Configuration</th>"
		      "<th class=\"sortable\">samples</th>");
		for (k = 0; k < HIST_SUMMARY_N; k++) {
			h_open(f, "th", "class", "sortable", NULL);
			h_text(f, hist_summary_label[k]);
			h_close(f, "th");
		}
		h_lit(f, "</tr></thead><tbody>\n");
		for (g = 0; g < c->ngroups; g++)
			if (c->groups[g].stats[t].lat.count)
				lat_row(p, t, g);
		h_lit(f, "</tbody></table>\n");
	}
}
