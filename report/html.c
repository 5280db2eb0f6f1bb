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
#include "record_util.h"
#include "cmpmatrix.h"
#include "matrix.h"
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
	s = record_vasprintf(fmt, ap);
	va_end(ap);
	esc(f, s);
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
	int has_bonnie;		/* some run has a bonnie++ result */
	int has_matrix;		/* some run has matrix tables */
	int has_charts;		/* some test has a figure to draw */
	int has_latency;	/* some test has a histogram */
};

/* The first of the tests after the bonnie++ ones (compare adds those first). */
#define OTHER_TESTS (BONNIE_NIO + BONNIE_NFILE)

/* Whether a run of configuration g has a result of a test in [t0, t1). */
static int group_has(const struct compare *c, size_t g, size_t t0, size_t t1)
{
	const struct cmp_group *grp = &c->groups[g];
	size_t r, t;

	for (r = 0; r < grp->nruns; r++)
		for (t = t0; t < t1 && t < c->ntests; t++) {
			const struct result *res =
				compare_result(c, grp->runs[r], t);

			if (res && res->status != RESULT_NOT_RUN)
				return 1;
		}
	return 0;
}

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

/* The VM mark of a configuration or run, styled; nothing when none. */
static void vm_mark(FILE *f, const char *mark)
{
	if (!mark)
		return;
	fputs(" <span class=\"vm\" title=\"measured inside a virtual "
	      "machine or on an emulated CPU: not the storage's own "
	      "speed\">[", f);
	esc(f, mark);
	fputs("]</span>", f);
}

static void group_cell(struct page *p, size_t g)
{
	char *name = compare_group_label(p->c, g, 0);

	fprintf(p->f, "<td class=\"cfg\"><a href=\"#cfg%zu\">", g + 1);
	esc(p->f, name);
	fputs("</a>", p->f);
	vm_mark(p->f, compare_group_virt(p->c, g));
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

	if (!p->has_bonnie)
		return;
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
		if (!group_has(c, g, 0, OTHER_TESTS))
			continue;
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

	if (c->ntests <= OTHER_TESTS)
		return;
	fputs("<h2 id=\"other\">Other tests</h2>\n<table id=\"other-table\">"
	      "<thead><tr><th>Configuration</th>", p->f);
	for (t = OTHER_TESTS; t < c->ntests; t++) {
		fputs("<th colspan=\"2\">", p->f);
		esc(p->f, c->tests[t].title);
		fputs(" (", p->f);
		esc(p->f, c->tests[t].unit);
		fputs(")</th>", p->f);
	}
	fputs("</tr></thead><tbody>\n", p->f);
	for (g = 0; g < c->ngroups; g++) {
		if (!group_has(c, g, OTHER_TESTS, c->ntests))
			continue;
		fprintf(p->f, "<tr%s>", g == c->baseline ?
			" class=\"baseline\"" : "");
		group_cell(p, g);
		for (t = OTHER_TESTS; t < c->ntests; t++)
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
	      "<th>Label</th><th>Runs</th><th>Workers</th>"
	      "<th>What differs</th>"
	      "<th>Sources</th></tr></thead><tbody>\n", p->f);
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		fprintf(p->f, "<tr id=\"cfg%zu\"%s><td class=\"num\">%zu</td>"
			"<td class=\"cfg\">", g + 1, g == c->baseline ?
			" class=\"baseline\"" : "", g + 1);
		esc(p->f, grp->label ? grp->label : "(no label)");
		vm_mark(p->f, compare_group_virt(c, g));
		if (g == c->baseline)
			fputs(" <small>(baseline)</small>", p->f);
		fprintf(p->f, "</td><td class=\"num\">%zu</td>"
			"<td class=\"num\" data-workers=\"%zu\">%zu</td><td>",
			grp->nruns, compare_group_workers(c, g),
			compare_group_workers(c, g));
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

/* --- the matrix tables (clyde matrix records), XDISK layout --- */

static const char *const mx_rows[] = { "IO/s", "MB/s", "Read (ms)",
				       "Write (ms)" };
static const char *const mx_keys[] = { "iops", "mbps", "read_ms",
				       "write_ms" };

static double mx_val(const struct cmpm_fig *f, int row)
{
	return row == 0 ? f->iops : row == 1 ? f->mbps :
	       row == 2 ? f->read_ms : f->write_ms;
}

/* One row of a table: a cell per (matrix cell, configuration). */
static void mx_row(struct page *p, const struct cmpm *m,
		   const struct cmpm_table *t, int pt, int row)
{
	const struct compare *c = p->c;
	struct cmpm_fig *figs, base;
	size_t k, i, ng = m->ngroups;
	char label[48];

	if (pt < 0)
		snprintf(label, sizeof(label), "%s", mx_rows[row]);
	else
		snprintf(label, sizeof(label), "%u%% %s", t->pcts[pt],
			 mx_rows[row]);
	fprintf(p->f, "<tr%s><th>%s</th>", pt < 0 ? "" : " class=\"curve\"",
		label);
	figs = xcalloc(ng, sizeof(*figs));
	for (k = 0; k < t->ncells; k++) {
		for (i = 0; i < ng; i++) {
			cmpm_figures(c, t, k, m->groups[i], pt, &figs[i]);
			p->vals[i] = mx_val(&figs[i], row);
			p->ns[i] = !isnan(p->vals[i]);
		}
		cmpm_figures(c, t, k, m->baseline, pt, &base);
		for (i = 0; i < ng; i++) {
			double v = p->vals[i], b = mx_val(&base, row);
			size_t g = m->groups[i];

			fprintf(p->f, "<td data-mx=\"%" PRIu64 ":%u:%u:%s:%u\" "
				"data-row=\"%s\" data-group=\"%zu\"",
				t->bs, t->threads, t->qd,
				t->cells[k].random ? "random" : "seq",
				t->cells[k].read_pct, mx_keys[row], g + 1);
			if (pt >= 0)
				fprintf(p->f, " data-pt=\"%u\"", t->pcts[pt]);
			if (isnan(v)) {
				fprintf(p->f, " class=\"none\">%s</td>",
					row == 0 && figs[i].status &&
					strcmp(figs[i].status, "ok") ?
					figs[i].status : "&#8212;");
				continue;
			}
			fprintf(p->f, " class=\"num\" data-v=\"%.10g\"", v);
			colour(p->f, compare_rank(p->vals, p->ns, NULL, ng, i,
						  row < 2));
			fprintf(p->f, row == 0 ? ">%.0f" : row == 1 ? ">%.2f" :
				">%.3f", v);
			if (figs[i].n > 1)
				fprintf(p->f, "<span class=\"n\">n=%zu</span>",
					figs[i].n);
			if (g != m->baseline && !isnan(b) && b > 0)
				fprintf(p->f, "<span class=\"ratio\" "
					"data-ratio=\"%.4f\">&#215;%.2f</span>",
					v / b, v / b);
			fputs("</td>", p->f);
		}
	}
	free(figs);
	fputs("</tr>\n", p->f);
}

static void matrix_tables(struct page *p)
{
	const struct compare *c = p->c;
	struct cmpm m;
	size_t ti, k, i, r;
	int row, pt;

	cmpm_build(&m, c);
	if (!m.ntables) {
		cmpm_release(&m);
		return;
	}
	fputs("<h2 id=\"matrix\">Matrix (XDISK layout)</h2>\n"
	      "<p class=\"note\">clyde matrix: per block size and thread "
	      "count, a column per cell and configuration (mean of its runs); "
	      "MB/s is MiB/s, latencies are means in ms; &#215; is the ratio "
	      "to the baseline configuration <b>", p->f);
	{
		char *name = compare_group_name(c, m.baseline);

		esc(p->f, name);
		free(name);
	}
	fputs("</b>.  Colours rank the configurations of each cell; rows "
	      "with a percentage are the rate curve (the cell rerun at that "
	      "% of its maximum IO/s).</p>\n", p->f);
	for (ti = 0; ti < m.ntables; ti++) {
		const struct cmpm_table *t = &m.tables[ti];
		char title[96];

		cmpm_title(title, sizeof(title), t);
		fputs("<h3>", p->f);
		esc(p->f, title);
		fprintf(p->f, "</h3>\n<table class=\"matrix\" "
			"id=\"mx-%" PRIu64 "-%u-%u\"><thead>\n"
			"<tr><th>Pattern</th>", t->bs, t->threads, t->qd);
		for (k = 0; k < t->ncells; k++)
			fprintf(p->f, "<th colspan=\"%zu\">%s</th>", m.ngroups,
				t->cells[k].random ? "Random" : "Seq");
		fputs("</tr>\n<tr><th>Profile</th>", p->f);
		for (k = 0; k < t->ncells; k++) {
			char prof[32];

			matrix_profile_name(prof, sizeof(prof),
					    t->cells[k].read_pct);
			fprintf(p->f, "<th colspan=\"%zu\">%s</th>", m.ngroups,
				prof);
		}
		fputs("</tr>\n", p->f);
		if (m.ngroups > 1 || c->ngroups > 1) {
			fputs("<tr><th>Configuration</th>", p->f);
			for (k = 0; k < t->ncells; k++)
				for (i = 0; i < m.ngroups; i++) {
					char *name = compare_group_label(c,
							m.groups[i], 0);

					fprintf(p->f, "<th class=\"cfg\"%s>"
						"<a href=\"#cfg%zu\">",
						m.groups[i] == m.baseline ?
						" data-baseline=\"1\"" : "",
						m.groups[i] + 1);
					esc(p->f, name);
					fputs("</a>", p->f);
					vm_mark(p->f, compare_group_virt(c,
							m.groups[i]));
					fputs("</th>", p->f);
					free(name);
				}
			fputs("</tr>\n", p->f);
		}
		fputs("</thead><tbody>\n", p->f);
		for (row = 0; row < 4; row++)
			mx_row(p, &m, t, -1, row);
		for (pt = 0; pt < (int)t->npts; pt++)
			for (row = 0; row < 4; row++)
				if (row != 1)
					mx_row(p, &m, t, pt, row);
		fputs("</tbody></table>\n", p->f);
	}
	for (r = 0; r < c->nrecs; r++) {
		const struct record_matrix *mx = c->recs[r]->matrix;

		if (mx && mx->error) {
			fprintf(p->f, "<p class=\"note\">Run %zu failed: ",
				r + 1);
			esc(p->f, mx->error);
			fputs("</p>\n", p->f);
		}
		for (i = 0; mx && i < mx->ncells; i++)
			if (mx->cells[i].reason) {
				fprintf(p->f, "<p class=\"note\">Run %zu, "
					"cell %zu: ", r + 1, i + 1);
				esc(p->f, mx->cells[i].reason);
				fputs("</p>\n", p->f);
			}
	}
	cmpm_release(&m);
}

#define CHART_W 580
#define CHART_LABEL 250
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
		name = compare_group_short(c, g, 30);
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

/* Whether test t has a figure in some configuration (a bar to draw). */
static int chart_has(const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++)
		if (c->groups[g].stats[t].n &&
		    c->groups[g].stats[t].mean + c->groups[g].stats[t].sd > 0)
			return 1;
	return 0;
}

/* Whether test t has a latency histogram in some configuration. */
static int latency_has(const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++)
		if (c->groups[g].stats[t].lat.count)
			return 1;
	return 0;
}

static void charts(struct page *p)
{
	size_t t;

	if (!p->has_charts)
		return;
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

	if (!p->has_latency)
		return;
	fputs("<h2 id=\"latency\">Latency</h2>\n<p class=\"note\">Per "
	      "operation, in microseconds, from the runs' histograms merged "
	      "(never averaged).  bonnie++ lines keep only the maximum.  "
	      "Lower is better.</p>\n", p->f);
	for (t = 0; t < c->ntests; t++) {
		if (!latency_has(c, t))
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

static void run_mark(FILE *f, const struct record *rec)
{
	char *mark = compare_virt_mark(rec);

	vm_mark(f, mark);
	free(mark);
}

/* Whether some run has a result of test t (else no column for it). */
static int runs_have(const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++)
		if (group_has(c, g, t, t + 1))
			return 1;
	return 0;
}

static void runs(struct page *p)
{
	const struct compare *c = p->c;
	size_t r, t;
	char *cols = xcalloc(c->ntests + 1, 1);

	fputs("<h2 id=\"runs\">Runs</h2>\n<table id=\"runs-table\"><thead>"
	      "<tr><th class=\"sortable\">Run</th>"
	      "<th class=\"sortable\">Config</th><th>Label</th>"
	      "<th>Start</th><th>Source</th>", p->f);
	for (t = 0; t < c->ntests; t++) {
		cols[t] = runs_have(c, t);
		if (!cols[t])
			continue;
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
		run_mark(p->f, rec);
		fputs("</td><td>", p->f);
		esc(p->f, rec->start);
		fputs("</td><td>", p->f);
		esc(p->f, rec->source ? rec->source : "");
		fputs("</td>", p->f);
		for (t = 0; t < c->ntests; t++) {
			const struct result *res = compare_result(c, r, t);
			char buf[64];

			if (!cols[t])
				continue;
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
	free(cols);
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

/* Each worker's rate per test (clyde -c N, several -d, MPI ranks). */
static void worker_table(FILE *f, const struct record *rec, size_t r)
{
	size_t i, w, most = 0;

	for (i = 0; i < rec->nresults; i++)
		if (rec->results[i].nworkers > most)
			most = rec->results[i].nworkers;
	if (!most)
		return;
	fprintf(f, "<table class=\"workers\" id=\"workers%zu\"><caption>"
		"Per worker (%zu workers started together; aggregate first)"
		"</caption><thead><tr><th>Test</th><th>Unit</th>"
		"<th>All</th>", r + 1, most);
	for (w = 0; w < most; w++)
		fprintf(f, "<th>#%zu</th>", w);
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];
		char buf[64];

		if (!res->nworkers)
			continue;
		fprintf(f, "<tr data-test=\"%s\"><td>", res->name);
		esc(f, res->title[0] ? res->title : res->name);
		fputs("</td><td>", f);
		esc(f, res->unit);
		report_fmt_value(buf, sizeof(buf), res->value, res->unit);
		fprintf(f, "</td><td class=\"num\" data-v=\"%.10g\">%s</td>",
			res->value, res->status == RESULT_OK ? buf : "");
		for (w = 0; w < most; w++) {
			const struct worker_row *row = NULL;
			size_t k;

			for (k = 0; k < res->nworkers; k++)
				if (res->workers[k].worker == (int)w)
					row = &res->workers[k];
			if (!row || row->status != RESULT_OK) {
				fputs("<td class=\"none\"", f);
				if (row && row->reason) {
					fputs(" title=\"", f);
					esc(f, row->reason);
					fputs("\"", f);
				}
				fprintf(f, ">%s</td>", row ? "failed" : "");
				continue;
			}
			report_fmt_value(buf, sizeof(buf), row->value,
					 res->unit);
			fprintf(f, "<td class=\"num\" data-worker=\"%zu\" "
				"data-v=\"%.10g\" title=\"", w, row->value);
			escf(f, "%s %s, %.0f%% CPU, %.3f s",
			     row->host ? row->host : "", row->dir ? row->dir : "",
			     row->cpu, row->elapsed);
			fprintf(f, "\">%s</td>", buf);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
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
		run_mark(p->f, rec);
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
		fputs("</dl>\n", p->f);
		worker_table(p->f, rec, r);
		fputs("</details>\n", p->f);
	}
}

/* Which of the optional sections the page has (for them and the nav). */
static void sections(struct page *p)
{
	const struct compare *c = p->c;
	struct cmpm m;
	size_t g, t;

	for (g = 0; g < c->ngroups; g++)
		p->has_bonnie |= group_has(c, g, 0, OTHER_TESTS);
	for (t = 0; t < c->ntests; t++) {
		p->has_charts |= chart_has(c, t);
		p->has_latency |= latency_has(c, t);
	}
	cmpm_build(&m, c);
	p->has_matrix = m.ntables > 0;
	cmpm_release(&m);
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
	fprintf(p->f, "<p class=\"meta\">%zu run%s in %zu configuration%s; "
		"generated %s by clyde %s.  Baseline: <b>", c->nrecs,
		c->nrecs == 1 ? "" : "s", c->ngroups,
		c->ngroups == 1 ? "" : "s", when, CLYDE_VERSION);
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
	      "</a> &#183; ", p->f);
	if (p->has_bonnie)
		fputs("<a href=\"#bonnie\">bonnie++ tests</a> &#183; ", p->f);
	if (c->ntests > OTHER_TESTS)
		fputs("<a href=\"#other\">Other tests</a> &#183; ", p->f);
	if (p->has_matrix)
		fputs("<a href=\"#matrix\">Matrix</a> &#183; ", p->f);
	if (p->has_charts)
		fputs("<a href=\"#charts\">Charts</a> &#183; ", p->f);
	if (p->has_latency)
		fputs("<a href=\"#latency\">Latency</a> &#183; ", p->f);
	fputs("<a href=\"#runs\">Runs</a> &#183; "
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
	sections(&p);
	header(&p);
	configurations(&p);
	bonnie_table(&p);
	other_table(&p);
	matrix_tables(&p);
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
