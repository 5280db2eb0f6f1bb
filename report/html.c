// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML report: one self-contained page, polyglot HTML5 that a strict
 * XML parser accepts (every element closed, every attribute quoted, every
 * string from an input escaped, nothing that XML forbids).  The page
 * comes from templates (templates/ compiled in, or --template DIR) with
 * @TITLE@, @CSS@, @SCRIPT@, @GENERATOR@ and @BODY@ filled in.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bonnie_fmt.h"
#include "templates.h"
#include "../lib/xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

/* --- escaping --- */

/* Length of a valid UTF-8 sequence at s that XML allows, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* Text or attribute value: & < > " ' escaped, invalid bytes as U+FFFD. */
static void esc(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n;

	while (*s) {
		switch (*s) {
		case '&': fputs("&amp;", f); s++; continue;
		case '<': fputs("&lt;", f); s++; continue;
		case '>': fputs("&gt;", f); s++; continue;
		case '"': fputs("&quot;", f); s++; continue;
		case '\'': fputs("&#39;", f); s++; continue;
		case '\t': case '\n': putc(*s++, f); continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (!n) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
}

__attribute__((format(printf, 2, 3)))
static void escf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	esc(f, s ? s : "");
	free(s);
}

/* --- numbers --- */

void report_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "seeks/s") && v < 1000)
		snprintf(buf, len, "%.1f", v);
	else if (v < 10 && v != floor(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

void report_fmt_us(char *buf, size_t len, uint64_t ns)
{
	double us = (double)ns / 1000.0;

	if (us < 10)
		snprintf(buf, len, "%.2f", us);
	else if (us < 1000)
		snprintf(buf, len, "%.1f", us);
	else
		snprintf(buf, len, "%.0f", us);
}

static void colour(FILE *f, double rank)
{
	if (rank < 0)
		return;
	/* red (worst) through yellow to green (best), light enough to read */
	fprintf(f, " style=\"background-color:hsl(%.0f,70%%,78%%)\"",
		rank * 120.0);
}

/* --- marks --- */

static void mark(FILE *f, const char *text, const char *title)
{
	fputs("<span class=\"mark\" title=\"", f);
	esc(f, title);
	fputs("\">", f);
	esc(f, text);
	fputs("</span>", f);
}

static void marks(FILE *f, unsigned m)
{
	if (m & CMP_LOW_PRECISION)
		mark(f, "*", "low precision: a run was shorter than 0.5 s");
	if (m & CMP_CACHED)
		mark(f, "c", "cached: a read started with the file mostly in "
		     "the page cache");
	if (m & CMP_DIRECT_IGNORED)
		mark(f, "d", "O_DIRECT asked, the page cache filled anyway");
}

/* Whether test t's per-char modes differ between configurations. */
static int modes_differ(const struct compare *c, size_t t)
{
	size_t g;

	if (!c->tests[t].per_char)
		return 0;
	for (g = 1; g < c->ngroups; g++)
		if (!compare_same_mode(c, 0, g, t))
			return 1;
	return 0;
}

static void mode_mark(FILE *f, const struct compare *c, size_t g, size_t t)
{
	const char *mode = c->groups[g].stats[t].mode;

	if (!c->tests[t].per_char || !mode)
		return;
	if (!strcmp(mode, "stdio"))
		mark(f, "stdio", "per-char through stdio getc/putc (bonnie++ "
		     "1.03): not comparable with one-byte syscalls");
	else if (!strcmp(mode, "mixed"))
		mark(f, "mixed", "per-char runs of different modes");
	else if (modes_differ(c, t))
		mark(f, "syscall", "per-char as one-byte read(2)/write(2) "
		     "(bonnie++ 2.00, clyde): not comparable with stdio");
}

/* --- the parts of the page --- */

struct page {
	const struct compare *c;
	const struct report_opts *o;
	FILE *f;
	double *vals;		/* scratch [ngroups] */
	size_t *ns;
	const char **cls;
};

static double rank_of(struct page *p, size_t t, size_t g, int cpu)
{
	const struct compare *c = p->c;
	size_t k;

	for (k = 0; k < c->ngroups; k++) {
		const struct cmp_stat *s = &c->groups[k].stats[t];

		p->vals[k] = cpu ? s->cpu : s->mean;
		p->ns[k] = s->n;
		p->cls[k] = c->tests[t].per_char ? s->mode : NULL;
	}
	return compare_rank(p->vals, p->ns, p->cls, c->ngroups, g, !cpu);
}

static void group_cell(struct page *p, size_t g)
{
	char *name = compare_group_name(p->c, g);

	fprintf(p->f, "<td class=\"cfg\"><a href=\"#cfg%zu\">", g + 1);
	esc(p->f, name);
	fputs("</a>", p->f);
	if (g == p->c->baseline)
		fputs(" <small>(baseline)</small>", p->f);
	fputs("</td>", p->f);
	free(name);
}

static void value_cells(struct page *p, size_t g, size_t t, int with_cpu)
{
	const struct compare *c = p->c;
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const char *test = c->tests[t].name;
	char buf[64];
	double ratio;

	if (!s->n) {
		fprintf(p->f, "<td class=\"none\" data-test=\"%s\" "
			"data-group=\"%zu\"", test, g + 1);
		if (s->too_fast)
			fputs(" title=\"bonnie++ could not time it: under "
			      "0.5 s\">+++++", p->f);
		else
			fputs(">", p->f);
		fputs("</td>", p->f);
		if (with_cpu)
			fprintf(p->f, "<td class=\"none\" data-test=\"%s_cpu\" "
				"data-group=\"%zu\">%s</td>", test, g + 1,
				s->too_fast ? "+++" : "");
		return;
	}
	report_fmt_value(buf, sizeof(buf), s->mean, c->tests[t].unit);
	fprintf(p->f, "<td class=\"num\" data-test=\"%s\" data-group=\"%zu\" "
		"data-v=\"%.10g\"", test, g + 1, s->mean);
	colour(p->f, rank_of(p, t, g, 0));
	fprintf(p->f, ">%s", buf);
	marks(p->f, s->marks);
	mode_mark(p->f, c, g, t);
	if (s->n > 1) {
		report_fmt_value(buf, sizeof(buf), s->sd, c->tests[t].unit);
		fprintf(p->f, "<span class=\"sd\">&#177;%s</span>"
			"<span class=\"n\">n=%zu</span>", buf, s->n);
	}
	ratio = compare_ratio(c, g, t);
	if (!isnan(ratio) && g != c->baseline)
		fprintf(p->f, "<span class=\"ratio\" data-ratio=\"%.4f\">"
			"&#215;%.2f</span>", ratio, ratio);
	else if (g != c->baseline && c->groups[c->baseline].stats[t].n &&
		 !compare_same_mode(c, g, c->baseline, t))
		fputs("<span class=\"ratio\">no ratio: other per-char "
		      "mode</span>", p->f);
	fputs("</td>", p->f);
	if (with_cpu) {
		fprintf(p->f, "<td class=\"num\" data-test=\"%s_cpu\" "
			"data-group=\"%zu\" data-v=\"%.10g\"", test, g + 1,
			s->cpu);
		colour(p->f, rank_of(p, t, g, 1));
		fprintf(p->f, ">%.0f</td>", s->cpu);
	}
}

static size_t test_of(const struct compare *c, const char *name)
{
	size_t t;

	for (t = 0; t < c->ntests; t++)
		if (!strcmp(c->tests[t].name, name))
			break;
	return t;
}

static void size_cell(struct page *p, size_t g)
{
	const struct cmp_group *grp = &p->c->groups[g];
	const char *fs = compare_attr(grp, PARAM_FILE_SIZE);
	const char *nf = compare_attr(grp, PARAM_NUM_FILES);
	char buf[32];

	fputs("<td class=\"num\">", p->f);
	if (fs) {
		bonnie_file_size(buf, sizeof(buf), strtoll(fs, NULL, 10));
		esc(p->f, buf);
	}
	fputs("</td><td class=\"num\">", p->f);
	if (nf) {
		bonnie_num_files(buf, sizeof(buf), strtoll(nf, NULL, 10));
		esc(p->f, buf);
	}
	fputs("</td>", p->f);
}

static void bonnie_table(struct page *p)
{
	static const char *const sub[] = {
		"Per Chr", "Block", "Rewrite", "Per Chr", "Block", "Seeks",
		"Create", "Read", "Delete", "Create", "Read", "Delete",
	};
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t g, i;

	fputs("<h2 id=\"bonnie\">bonnie++ tests</h2>\n"
	      "<p class=\"note\">Mean of the runs of each configuration "
	      "(&#177; sample standard deviation and count when repeated), "
	      "CPU in % of one core; &#215; is the ratio to the baseline. "
	      "Colours rank each column from best (green) to worst (red); "
	      "CPU ranks lower as better; per-char figures of different "
	      "modes are never ranked together.</p>\n"
	      "<table id=\"bonnie-table\"><thead>\n<tr><th rowspan=\"3\">"
	      "Configuration</th><th rowspan=\"3\">Size</th>"
	      "<th rowspan=\"3\">Files</th>"
	      "<th colspan=\"6\">Sequential Output</th>"
	      "<th colspan=\"4\">Sequential Input</th>"
	      "<th colspan=\"2\" rowspan=\"2\">Random Seeks</th>"
	      "<th colspan=\"6\">Sequential Create</th>"
	      "<th colspan=\"6\">Random Create</th></tr>\n<tr>", f);
	for (i = 0; i < 12; i++)
		if (i != 5)
			fprintf(f, "<th colspan=\"2\">%s</th>", sub[i]);
	fputs("</tr>\n<tr>", f);
	for (i = 0; i < 12; i++)
		fprintf(f, "<th>%s</th><th>%%CP</th>", i < 5 ? "K/sec" :
			"/sec");
	fputs("</tr>\n</thead><tbody>\n", f);
	for (g = 0; g < c->ngroups; g++) {
		fprintf(f, "<tr id=\"row%zu\"%s>", g + 1,
			g == c->baseline ? " class=\"baseline\"" : "");
		group_cell(p, g);
		size_cell(p, g);
		for (i = 0; i < BONNIE_NIO; i++)
			value_cells(p, g, test_of(c, bonnie_io_tests[i]), 1);
		for (i = 0; i < BONNIE_NFILE; i++)
			value_cells(p, g, test_of(c, bonnie_file_tests[i]), 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void other_table(struct page *p)
{
	const struct compare *c = p->c;
	size_t g, t;

	if (c->ntests <= 12)
		return;
	fputs("<h2 id=\"other\">Other tests</h2>\n<table id=\"other-table\">"
	      "<thead><tr><th>Configuration</th>", p->f);
	for (t = 12; t < c->ntests; t++) {
		fputs("<th colspan=\"2\">", p->f);
		esc(p->f, c->tests[t].title);
		fputs(" (", p->f);
		esc(p->f, c->tests[t].unit);
		fputs(")</th>", p->f);
	}
	fputs("</tr></thead><tbody>\n", p->f);
	for (g = 0; g < c->ngroups; g++) {
		fprintf(p->f, "<tr%s>", g == c->baseline ?
			" class=\"baseline\"" : "");
		group_cell(p, g);
		for (t = 12; t < c->ntests; t++)
			value_cells(p, g, t, 1);
		fputs("</tr>\n", p->f);
	}
	fputs("</tbody></table>\n", p->f);
}

static void configurations(struct page *p)
{
	const struct compare *c = p->c;
	size_t g, i, r;

	fputs("<h2 id=\"configurations\">Configurations</h2>\n"
	      "<p class=\"note\">Runs that agree on everything but time and "
	      "seed are one configuration; shown here is what differs "
	      "between configurations.</p>\n"
	      "<table id=\"config-table\"><thead><tr><th>#</th>"
	      "<th>Label</th><th>Runs</th><th>What differs</th>"
	      "<th>Sources</th></tr></thead><tbody>\n", p->f);
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		fprintf(p->f, "<tr id=\"cfg%zu\"%s><td class=\"num\">%zu</td>"
			"<td class=\"cfg\">", g + 1, g == c->baseline ?
			" class=\"baseline\"" : "", g + 1);
		esc(p->f, grp->label ? grp->label : "(no label)");
		if (g == c->baseline)
			fputs(" <small>(baseline)</small>", p->f);
		fprintf(p->f, "</td><td class=\"num\">%zu</td><td>",
			grp->nruns);
		for (i = 0; i < c->ndiffer; i++) {
			const char *v = compare_attr(grp, c->differ[i]);

			if (!v || !strcmp(c->differ[i], "label"))
				continue;
			fputs("<code>", p->f);
			esc(p->f, c->differ[i]);
			fputs("=", p->f);
			esc(p->f, v);
			fputs("</code> ", p->f);
		}
		fputs("</td><td>", p->f);
		for (r = 0; r < grp->nruns; r++) {
			const struct record *rec = c->recs[grp->runs[r]];

			fprintf(p->f, "<a href=\"#run%zu\">", grp->runs[r] + 1);
			esc(p->f, rec->source ? rec->source : "(this run)");
			fputs("</a> ", p->f);
		}
		fputs("</td></tr>\n", p->f);
	}
	fputs("</tbody></table>\n", p->f);
}

#define CHART_W 520
#define CHART_LABEL 190
#define CHART_BAR 250
#define CHART_ROW 20

static void chart(struct page *p, size_t t)
{
	const struct compare *c = p->c;
	double max = 0;
	size_t g, rows = 0;
	FILE *f = p->f;
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
	fprintf(f, "<div class=\"chart\" id=\"chart-%s\"><h3>", c->tests[t].name);
	esc(f, c->tests[t].title);
	fputs(" (", f);
	esc(f, c->tests[t].unit);
	fprintf(f, ")</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%zu\" role=\"img\">\n", CHART_W,
		rows * CHART_ROW + 8);
	y = 4;
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_stat *s = &c->groups[g].stats[t];
		char *name, buf[64];
		double w;

		if (!s->n)
			continue;
		name = compare_group_name(c, g);
		if (strlen(name) > 30)
			strcpy(name + 27, "...");
		w = s->mean / max * CHART_BAR;
		fputs("<g><title>", f);
		esc(f, name);
		report_fmt_value(buf, sizeof(buf), s->mean, c->tests[t].unit);
		fprintf(f, ": %s</title>", buf);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			CHART_LABEL - 4, y + 13);
		esc(f, name);
		fprintf(f, "</text><rect class=\"bar%s\" x=\"%d\" y=\"%d\" "
			"width=\"%.1f\" height=\"%d\" data-group=\"%zu\"/>",
			g == c->baseline ? " base" : "", CHART_LABEL, y + 2, w,
			CHART_ROW - 5, g + 1);
		if (s->n > 1 && s->sd > 0)
			fprintf(f, "<line class=\"sd\" x1=\"%.1f\" y1=\"%d\" "
				"x2=\"%.1f\" y2=\"%d\"/>",
				CHART_LABEL + (s->mean - s->sd) / max * CHART_BAR,
				y + 9,
				CHART_LABEL + (s->mean + s->sd) / max * CHART_BAR,
				y + 9);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s%s%s</text></g>\n",
			CHART_LABEL + (s->mean + s->sd) / max * CHART_BAR + 4,
			y + 13, buf,
			s->marks & (CMP_LOW_PRECISION | CMP_CACHED) ? " *" : "",
			c->tests[t].per_char && s->mode &&
			strcmp(s->mode, "syscall") ? " (stdio)" : "");
		free(name);
		y += CHART_ROW;
	}
	if (c->groups[c->baseline].stats[t].n) {
		double x = CHART_LABEL + c->groups[c->baseline].stats[t].mean /
				max * CHART_BAR;

		fprintf(f, "<line class=\"baseline\" x1=\"%.1f\" y1=\"0\" "
			"x2=\"%.1f\" y2=\"%zu\"/>\n", x, x,
			rows * CHART_ROW + 8);
	}
	fputs("</svg></div>\n", f);
}

static void charts(struct page *p)
{
	size_t t;

	fputs("<h2 id=\"charts\">Charts</h2>\n<p class=\"note\">One bar per "
	      "configuration (the baseline in orange, its value the dashed "
	      "line), whiskers &#177; one standard deviation; * low "
	      "precision or cached.</p>\n<div class=\"charts\">\n", p->f);
	for (t = 0; t < p->c->ntests; t++)
		chart(p, t);
	fputs("</div>\n", p->f);
}

static void lat_cell(struct page *p, size_t t, size_t g, int col,
		     uint64_t v, int have)
{
	const struct compare *c = p->c;
	char buf[32];
	double rank;
	size_t k;

	if (!have) {
		fputs("<td class=\"none\">&#8212;</td>", p->f);
		return;
	}
	for (k = 0; k < c->ngroups; k++) {
		const struct cmp_stat *s = &c->groups[k].stats[t];
		const struct histogram *h = &s->lat;
		static const double pct[] = { 50, 90, 99, 99.9 };
		int max_only = !!(s->marks & CMP_MAX_ONLY);

		p->ns[k] = h->count && (col == 4 || !max_only);
		p->cls[k] = NULL;
		if (!p->ns[k])
			continue;
		p->vals[k] = col == 4 ? (double)h->max :
			     col < 0 ? hist_mean(h) :
			     (double)hist_percentile(h, pct[col]);
	}
	rank = compare_rank(p->vals, p->ns, p->cls, c->ngroups, g, 0);
	report_fmt_us(buf, sizeof(buf), v);
	fprintf(p->f, "<td class=\"num\" data-v=\"%.3f\"",
		(double)v / 1000.0);
	colour(p->f, rank);
	fprintf(p->f, ">%s</td>", buf);
}

static void latency(struct page *p)
{
	const struct compare *c = p->c;
	size_t t, g;

	fputs("<h2 id=\"latency\">Latency</h2>\n<p class=\"note\">Per "
	      "operation, in microseconds, from the runs' histograms merged "
	      "(never averaged).  bonnie++ lines keep only the maximum.  "
	      "Lower is better.</p>\n", p->f);
	for (t = 0; t < c->ntests; t++) {
		int any = 0;

		for (g = 0; g < c->ngroups; g++)
			any |= c->groups[g].stats[t].lat.count > 0;
		if (!any)
			continue;
		fprintf(p->f, "<h3>");
		esc(p->f, c->tests[t].title);
		fprintf(p->f, "</h3>\n<table class=\"latency\" "
			"id=\"lat-%s\"><thead><tr><th>Configuration</th>"
			"<th class=\"sortable\">samples</th>"
			"<th class=\"sortable\">mean</th>"
			"<th class=\"sortable\">p50</th>"
			"<th class=\"sortable\">p90</th>"
			"<th class=\"sortable\">p99</th>"
			"<th class=\"sortable\">p99.9</th>"
			"<th class=\"sortable\">max</th></tr></thead><tbody>\n",
			c->tests[t].name);
		for (g = 0; g < c->ngroups; g++) {
			const struct cmp_stat *s = &c->groups[g].stats[t];
			const struct histogram *h = &s->lat;
			int full = h->count && !(s->marks & CMP_MAX_ONLY);

			if (!h->count)
				continue;
			fputs("<tr>", p->f);
			group_cell(p, g);
			if (full)
				fprintf(p->f, "<td class=\"num\" data-v=\"%"
					PRIu64 "\">%" PRIu64 "</td>", h->count,
					h->count);
			else
				fputs("<td class=\"none\">max only</td>",
				      p->f);
			lat_cell(p, t, g, -1, (uint64_t)hist_mean(h), full);
			lat_cell(p, t, g, 0, hist_percentile(h, 50), full);
			lat_cell(p, t, g, 1, hist_percentile(h, 90), full);
			lat_cell(p, t, g, 2, hist_percentile(h, 99), full);
			lat_cell(p, t, g, 3, hist_percentile(h, 99.9), full);
			lat_cell(p, t, g, 4, h->max, 1);
			fputs("</tr>\n", p->f);
		}
		fputs("</tbody></table>\n", p->f);
	}
}

static void runs(struct page *p)
{
	const struct compare *c = p->c;
	size_t r, t;

	fputs("<h2 id=\"runs\">Runs</h2>\n<table id=\"runs-table\"><thead>"
	      "<tr><th class=\"sortable\">Run</th>"
	      "<th class=\"sortable\">Config</th><th>Label</th>"
	      "<th>Start</th><th>Source</th>", p->f);
	for (t = 0; t < c->ntests; t++) {
		fputs("<th class=\"sortable\">", p->f);
		esc(p->f, c->tests[t].title);
		fputs("</th>", p->f);
	}
	fputs("</tr></thead><tbody>\n", p->f);
	for (r = 0; r < c->nrecs; r++) {
		const struct record *rec = c->recs[r];

		fprintf(p->f, "<tr><td class=\"num\" data-v=\"%zu\">%zu</td>"
			"<td class=\"num\" data-v=\"%zu\">%zu</td><td>",
			r + 1, r + 1, c->run_group[r] + 1,
			c->run_group[r] + 1);
		esc(p->f, rec->label);
		fputs("</td><td>", p->f);
		esc(p->f, rec->start);
		fputs("</td><td>", p->f);
		esc(p->f, rec->source ? rec->source : "");
		fputs("</td>", p->f);
		for (t = 0; t < c->ntests; t++) {
			const struct result *res = compare_result(c, r, t);
			char buf[64];

			if (!res || res->status != RESULT_OK) {
				fprintf(p->f, "<td class=\"none\">%s</td>",
					res && res->status == RESULT_SKIPPED &&
					(res->flags & RESULT_LOW_PRECISION) ?
					"+++++" : res && res->status ==
					RESULT_FAILED ? "failed" : "");
				continue;
			}
			report_fmt_value(buf, sizeof(buf), res->value,
					 res->unit);
			fprintf(p->f, "<td class=\"num\" data-v=\"%.10g\">%s",
				res->value, buf);
			marks(p->f, (res->flags & RESULT_LOW_PRECISION ?
				     CMP_LOW_PRECISION : 0) |
				    (res->flags & RESULT_CACHED ? CMP_CACHED : 0));
			fputs("</td>", p->f);
		}
		fputs("</tr>\n", p->f);
	}
	fputs("</tbody></table>\n", p->f);
}

static void dl_item(FILE *f, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	fputs("<dt>", f);
	esc(f, key);
	fputs("</dt><dd>", f);
	esc(f, value);
	fputs("</dd>", f);
}

static void dl_u64(FILE *f, const char *key, uint64_t v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	dl_item(f, key, buf);
}

/* The device stack and the host's virtualisation, generically. */
static void stack_items(FILE *f, const struct record *rec)
{
	const struct record_stack *st = rec->target.stack;
	const struct record_virt *v = rec->host.virt;
	char key[160];
	size_t i, k;

	if (v) {
		dl_item(f, "virtualisation", v->vm > 0 ? "guest" :
			v->vm == 0 ? "none seen" : "unknown");
		dl_item(f, "hypervisor", v->hypervisor);
		dl_item(f, "emulation", v->emulation);
		dl_item(f, "virt evidence", v->evidence);
	}
	if (!st)
		return;
	for (i = 0; i < st->nfs; i++) {
		snprintf(key, sizeof(key), "fs %s", st->fs[i].key);
		dl_item(f, key, st->fs[i].value);
	}
	for (i = 0; i < st->ndevs; i++) {
		const struct record_device *d = &st->devs[i];
		char *what;

		snprintf(key, sizeof(key), "device %zu", i);
		if (d->parent >= 0)
			what = xasprintf("%s %s (under device %d)",
					 d->kind ? d->kind : "?",
					 d->name ? d->name : "?", d->parent);
		else
			what = xasprintf("%s %s", d->kind ? d->kind : "?",
					 d->name ? d->name : "?");
		dl_item(f, key, what);
		free(what);
		for (k = 0; k < d->nfields; k++) {
			snprintf(key, sizeof(key), "device %zu %s", i,
				 d->fields[k].key);
			dl_item(f, key, d->fields[k].value);
		}
	}
}

static void environment(struct page *p)
{
	const struct compare *c = p->c;
	size_t r, i;

	fputs("<h2 id=\"environment\">Environment of each run</h2>\n", p->f);
	for (r = 0; r < c->nrecs; r++) {
		const struct record *rec = c->recs[r];
		char key[80];

		fprintf(p->f, "<details id=\"run%zu\"%s><summary>Run %zu: ",
			r + 1, r == 0 ? " open=\"open\"" : "", r + 1);
		esc(p->f, rec->label ? rec->label : "(no label)");
		fputs(" &#8212; ", p->f);
		esc(p->f, rec->source ? rec->source : "this run");
		fputs("</summary>\n<dl class=\"env\">", p->f);
		dl_item(p->f, "tool", rec->tool);
		dl_item(p->f, "version", rec->version);
		dl_item(p->f, "source", rec->source);
		dl_item(p->f, "start", rec->start);
		dl_item(p->f, "end", rec->end);
		if (rec->repetition > 0) {
			snprintf(key, sizeof(key), "%d", rec->repetition);
			dl_item(p->f, "repetition", key);
		}
		dl_item(p->f, "host", rec->host.hostname);
		dl_item(p->f, "kernel", rec->host.kernel);
		dl_item(p->f, "cpu", rec->host.cpu_model);
		if (rec->host.cores > 0)
			dl_u64(p->f, "cores", (uint64_t)rec->host.cores);
		dl_u64(p->f, "ram bytes", rec->host.ram);
		dl_item(p->f, "target path", rec->target.path);
		dl_item(p->f, "mount point", rec->target.mountpoint);
		dl_item(p->f, "fs type", rec->target.fstype);
		dl_item(p->f, "device", rec->target.source);
		dl_item(p->f, "mount options", rec->target.vfs_options);
		dl_item(p->f, "fs options", rec->target.fs_options);
		dl_u64(p->f, "fs block size", rec->target.block_size);
		dl_u64(p->f, "fs bytes", rec->target.total_bytes);
		dl_u64(p->f, "free bytes", rec->target.free_bytes);
		stack_items(p->f, rec);
		for (i = 0; i < rec->ntags; i++) {
			snprintf(key, sizeof(key), "tag %s", rec->tags[i].key);
			dl_item(p->f, key, rec->tags[i].value);
		}
		for (i = 0; i < rec->nparams; i++) {
			snprintf(key, sizeof(key), "param %s",
				 rec->params[i].key);
			dl_item(p->f, key, rec->params[i].value);
		}
		for (i = 0; i < rec->nwarnings; i++)
			dl_item(p->f, "warning", rec->warnings[i]);
		for (i = 0; i < rec->nresults; i++) {
			const struct result *res = &rec->results[i];

			if (!res->reason)
				continue;
			snprintf(key, sizeof(key), "%s", res->name);
			dl_item(p->f, key, res->reason);
		}
		fputs("</dl></details>\n", p->f);
	}
}

static void header(struct page *p)
{
	const struct compare *c = p->c;
	const struct report_opts *o = p->o;
	char *base = compare_group_name(c, c->baseline);
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(p->f, "<p class=\"meta\">%zu runs in %zu configurations; "
		"generated %s by clyde %s.  Baseline: <b>", c->nrecs,
		c->ngroups, when, CLYDE_VERSION);
	esc(p->f, base);
	fputs("</b>.</p>\n", p->f);
	free(base);
	if (o->ninputs) {
		fputs("<p class=\"meta\">Inputs: ", p->f);
		for (i = 0; i < o->ninputs; i++) {
			fputs("<code>", p->f);
			esc(p->f, o->inputs[i]);
			fputs("</code> ", p->f);
		}
		fputs("</p>\n", p->f);
	}
	fputs("<p class=\"meta\">Marks: <b>*</b> low precision (under "
	      "0.5 s), <b>c</b> read from the page cache, <b>d</b> O_DIRECT "
	      "ignored, <b>+++++</b> bonnie++ could not time it, "
	      "<b>stdio</b>/<b>syscall</b> per-char mode where modes "
	      "differ.  Throughput in KiB/s.</p>\n"
	      "<p class=\"meta\"><a href=\"#configurations\">Configurations"
	      "</a> &#183; <a href=\"#bonnie\">bonnie++ tests</a> &#183; "
	      "<a href=\"#charts\">Charts</a> &#183; <a href=\"#latency\">"
	      "Latency</a> &#183; <a href=\"#runs\">Runs</a> &#183; "
	      "<a href=\"#environment\">Environment</a></p>\n", p->f);
	if (o->nwarnings) {
		fputs("<h2 id=\"warnings\">Input warnings</h2>\n"
		      "<ul class=\"warnings\">\n", p->f);
		for (i = 0; i < o->nwarnings; i++) {
			fputs("<li>", p->f);
			esc(p->f, o->warnings[i]);
			fputs("</li>\n", p->f);
		}
		fputs("</ul>\n", p->f);
	}
}

/* --- templates --- */

static char *load_template(const struct report_opts *o, const char *name,
			   char *err, size_t errlen)
{
	const char *text;
	size_t len;

	if (o->template_dir) {
		char *path = xasprintf("%s/%s", o->template_dir, name);
		FILE *f = fopen(path, "r");

		if (f) {
			char *buf = NULL;
			size_t alloc = 0, n = 0, got;

			do {
				xgrow((void **)&buf, &alloc, n + 4097, 1);
				got = fread(buf + n, 1, alloc - n - 1, f);
				n += got;
			} while (got);
			buf[n] = '\0';
			if (ferror(f)) {
				snprintf(err, errlen, "cannot read '%s': %s",
					 path, strerror(errno));
				fclose(f);
				free(path);
				free(buf);
				return NULL;
			}
			fclose(f);
			free(path);
			return buf;
		}
		if (errno != ENOENT) {
			snprintf(err, errlen, "cannot open '%s': %s", path,
				 strerror(errno));
			free(path);
			return NULL;
		}
		free(path);
	}
	text = template_builtin(name, &len);
	if (!text) {
		snprintf(err, errlen, "no built-in template '%s'", name);
		return NULL;
	}
	return xstrdup(text);
}

int report_write_html(const struct compare *c, const struct report_opts *o,
		      FILE *out, char *err, size_t errlen)
{
	struct page p = { .c = c, .o = o };
	char *tpl, *css, *js, *body = NULL, *s;
	size_t blen = 0;
	int rc = 0;

	tpl = load_template(o, "report.html", err, errlen);
	css = tpl ? load_template(o, "report.css", err, errlen) : NULL;
	js = css ? load_template(o, "report.js", err, errlen) : NULL;
	if (!js) {
		free(tpl);
		free(css);
		return -1;
	}
	p.f = open_memstream(&body, &blen);
	if (!p.f) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	p.vals = xcalloc(c->ngroups, sizeof(*p.vals));
	p.ns = xcalloc(c->ngroups, sizeof(*p.ns));
	p.cls = xcalloc(c->ngroups, sizeof(*p.cls));
	header(&p);
	configurations(&p);
	bonnie_table(&p);
	other_table(&p);
	charts(&p);
	latency(&p);
	runs(&p);
	environment(&p);
	free(p.vals);
	free(p.ns);
	free(p.cls);
	if (fclose(p.f) == EOF) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	for (s = tpl; *s; s++) {
		if (*s == '@') {
			static const char *const keys[] = {
				"@TITLE@", "@CSS@", "@SCRIPT@", "@GENERATOR@",
				"@BODY@",
			};
			size_t k;

			for (k = 0; k < 5; k++)
				if (!strncmp(s, keys[k], strlen(keys[k])))
					break;
			if (k < 5) {
				if (k == 0)
					esc(out, o->title);
				else if (k == 1)
					fputs(css, out);
				else if (k == 2)
					fputs(js, out);
				else if (k == 3)
					escf(out, "clyde %s", CLYDE_VERSION);
				else
					fwrite(body, 1, blen, out);
				s += strlen(keys[k]) - 1;
				continue;
			}
		}
		putc(*s, out);
	}
	if (fflush(out) == EOF || ferror(out)) {
		snprintf(err, errlen, "cannot write the page: %s",
			 strerror(errno));
		rc = -1;
	}
out:
	free(body);
	free(tpl);
	free(css);
	free(js);
	return rc;
}
