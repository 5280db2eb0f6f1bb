// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page's bar charts (inline SVG, one per test) and latency tables
 * (percentiles of the merged histograms).  Written through html_emit.h; ids
 * made from test names go through h_slug().
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/histogram.h"
#include "report/write/html_emit.h"
#include "report/model/record_util.h"
#include "lib/textcols.h"

#define CHART_W 580
#define CHART_LABEL 250
#define CHART_ROW 20
/* Pixels a character of an 11 px label may take (generous) */
#define CHART_CH 6.8

/* The value after bar g of test t: "52,157 * (stdio)". */
static void value_label(const struct compare *c, size_t t, size_t g,
			char *buf, size_t len)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	char v[64];

	report_fmt_value(v, sizeof(v), s->mean, c->tests[t].unit);
	snprintf(buf, len, "%s%s%s", v,
		 s->marks & (CMP_LOW_PRECISION | CMP_CACHED) ? " *" : "",
		 c->tests[t].per_char && s->mode &&
		 strcmp(s->mode, "syscall") ? " (stdio)" : "");
}

/*
 * One bar: its title (the name in full), label (the short name, cut at
 * its end only where it must be), rectangle, whisker and value; bars
 * scaled so that max takes room pixels.
 */
static void bar(struct page *p, size_t t, size_t g, double max, int y,
		double room)
{
	const struct compare *c = p->c;
	const struct cmp_stat *s = &c->groups[g].stats[t];
	FILE *f = p->f;
	char *name = compare_group_chart_name(c, g, (size_t)((CHART_LABEL -
					      8) / CHART_CH));
	char *full = compare_group_label(c, g, !compare_common_virt(c)), buf[96];

	value_label(c, t, g, buf, sizeof(buf));
	h_open(f, "g", NULL);
	h_open(f, "title", NULL);
	h_textf(f, "[%zu] %s: %s", g + 1, full, buf);
	h_close(f, "title");
	h_start(f, "text");
	h_attr(f, "class", "label");
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
	h_attrf(f, "width", "%.1f", s->mean / max * room);
	h_attrf(f, "height", "%d", CHART_ROW - 5);
	h_attrf(f, "data-group", "%zu", g + 1);
	h_end(f, 1);
	if (s->n > 1 && s->sd > 0) {
		h_start(f, "line");
		h_attr(f, "class", "sd");
		h_attrf(f, "x1", "%.1f",
			CHART_LABEL + (s->mean - s->sd) / max * room);
		h_attrf(f, "y1", "%d", y + 9);
		h_attrf(f, "x2", "%.1f",
			CHART_LABEL + (s->mean + s->sd) / max * room);
		h_attrf(f, "y2", "%d", y + 9);
		h_end(f, 1);
	}
	h_start(f, "text");
	h_attr(f, "class", "value");
	h_attrf(f, "x", "%.1f",
		CHART_LABEL + (s->mean + s->sd) / max * room + 4);
	h_attrf(f, "y", "%d", y + 13);
	h_end(f, 0);
	h_text(f, buf);
	h_close(f, "text");
	h_close(f, "g");
	h_lit(f, "\n");
	free(name);
	free(full);
}

/* Rows (configurations with a figure of t), the largest mean + sd, and
 * the pixels the widest value label takes. */
static size_t chart_rows(const struct compare *c, size_t t, double *max,
			 double *vw)
{
	size_t g, rows = 0;
	char buf[96];

	*max = *vw = 0;
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_stat *s = &c->groups[g].stats[t];

		if (!s->n)
			continue;
		rows++;
		if (s->mean + s->sd > *max)
			*max = s->mean + s->sd;
		value_label(c, t, g, buf, sizeof(buf));
		if (text_cols(buf) * CHART_CH > *vw)
			*vw = text_cols(buf) * CHART_CH;
	}
	return rows;
}

static void chart(struct page *p, size_t t)
{
	const struct compare *c = p->c;
	double max, vw, room;
	size_t g, rows = chart_rows(c, t, &max, &vw);
	FILE *f = p->f;
	char *id;
	int y;

	if (!rows || max <= 0)
		return;
	/* the bars give way to the values: none is cut at the svg's edge */
	room = CHART_W - CHART_LABEL - 8 - vw;
	room = room < 120 ? 120 : room;
	id = h_slug("chart-", c->tests[t].name);
	h_open(f, "div", "class", "chart", "id", id, NULL);
	free(id);
	h_open(f, "h3", NULL);
	h_textf(f, "%s (%s)", c->tests[t].title, c->tests[t].unit);
	h_close(f, "h3");
	h_lit(f, "\n");
	h_start(f, "svg");
	h_attr(f, "xmlns", "http://www.w3.org/2000/svg");
	h_attrf(f, "width", "%.0f", CHART_LABEL + room + 8 + vw);
	h_attrf(f, "height", "%zu", rows * CHART_ROW + 8);
	h_attr(f, "role", "img");
	h_end(f, 0);
	h_lit(f, "\n");
	y = 4;
	for (g = 0; g < c->ngroups; g++) {
		if (!c->groups[g].stats[t].n)
			continue;
		bar(p, t, g, max, y, room);
		y += CHART_ROW;
	}
	if (c->groups[c->baseline].stats[t].n) {
		double x = CHART_LABEL + c->groups[c->baseline].stats[t].mean /
				max * room;

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

/*
 * The bars' names in full, under the note, when a bar's label does not
 * say all of it (a label cut, or what tells configurations apart).
 */
static void chart_names(struct page *p)
{
	const struct compare *c = p->c;
	size_t g, more = 0;
	char *full, *label;

	for (g = 0; g < c->ngroups; g++) {
		full = compare_group_label(c, g, !compare_common_virt(c));
		label = compare_group_chart_name(c, g, (size_t)-1 / 2);
		more += strcmp(strchr(label, ' ') + 1, full) != 0;
		free(full);
		free(label);
	}
	if (!more)
		return;
	h_lit(p->f, "<ul class=\"chart-names\" id=\"chart-names\">\n");
	for (g = 0; g < c->ngroups; g++) {
		full = compare_group_label(c, g, !compare_common_virt(c));
		h_open(p->f, "li", NULL);
		h_textf(p->f, "[%zu] %s", g + 1, full);
		h_close(p->f, "li");
		h_lit(p->f, "\n");
		free(full);
	}
	h_lit(p->f, "</ul>\n");
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
	      "precision or cached.  Bars are named [N] and the label, N the "
	      "configuration's number in the list above.</p>\n");
	chart_names(p);
	h_lit(p->f, "<div class=\"charts\">\n");
	for (t = 0; t < p->c->ntests; t++)
		chart(p, t);
	h_lit(p->f, "</div>\n");
}

/*
 * Figure k of the summary (hist_summary_label) of test t, configuration g:
 * never coloured, since a percentile from one run or from merged
 * histograms has no test of difference here (issue 21: no colour for
 * noise).
 */
static void lat_cell(struct page *p, size_t t, size_t g, int k, int have)
{
	struct hist_summary sum;
	char buf[32];

	if (have)
		cmp_lat_summary(&p->c->groups[g].stats[t], &sum);
	if (!have || isnan(sum.v[k])) {
		h_lit(p->f, "<td class=\"none\">&#8212;</td>");
		return;
	}
	report_fmt_us(buf, sizeof(buf), record_u64(sum.v[k]));
	h_start(p->f, "td");
	h_attr(p->f, "class", "num");
	h_attrf(p->f, "data-v", "%.3f", (double)record_u64(sum.v[k]) / 1000.0);
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
	if (full && (s->marks & CMP_LAT_MERGED)) {
		h_start(f, "td");
		h_attr(f, "class", "num");
		h_attrf(f, "data-v", "%" PRIu64, h->count);
		h_attr(f, "title", "percentiles from the merged histograms of "
		       "runs that each gave their own");
		h_end(f, 0);
		h_textf(f, "%" PRIu64 " \xe2\x80\xa0", h->count);
		h_close(f, "td");
	} else if (full) {
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
	      "operation, in microseconds: a tool's own figures where one "
	      "run gave them (fio's listed percentiles), else from the runs' "
	      "histograms merged (never averaged; marked &#8224; where the "
	      "runs each gave their own).  bonnie++ lines keep only the "
	      "maximum.  Lower is better; no colour, since these figures carry "
	      "no test of a difference.</p>\n");
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
