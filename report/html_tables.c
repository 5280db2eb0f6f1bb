// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page's tables of figures: configurations, the bonnie++ table, the
 * other tests, the runs; and the pieces the other sections share (marks,
 * colours, the configuration cell).  Written through hout.h only.
 */
#include "html_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hout.h"
#include "../lib/xalloc.h"

/* --- shared pieces --- */

void html_colour(FILE *f, double rank)
{
	if (rank < 0)
		return;
	/* red (worst) through yellow to green (best), light enough to read */
	h_attrf(f, "style", "background-color:hsl(%.0f,70%%,78%%)",
		rank * 120.0);
}

void html_mark(FILE *f, const char *text, const char *title)
{
	h_open(f, "span", "class", "mark", "title", title, NULL);
	h_text(f, text);
	h_close(f, "span");
}

void html_marks(FILE *f, unsigned m)
{
	if (m & CMP_LOW_PRECISION)
		html_mark(f, "*", "low precision: a run was shorter than 0.5 s");
	if (m & CMP_CACHED)
		html_mark(f, "c", "cached: a read started with the file mostly "
			  "in the page cache");
	if (m & CMP_DIRECT_IGNORED)
		html_mark(f, "d", "O_DIRECT asked, the page cache filled anyway");
	if (m & CMP_NOISY)
		html_mark(f, "N", "noisy: the 95 % interval of the repeats is "
			  "wider than 5 % of the mean");
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
		html_mark(f, "stdio", "per-char through stdio getc/putc "
			  "(bonnie++ 1.03): not comparable with one-byte "
			  "syscalls");
	else if (!strcmp(mode, "mixed"))
		html_mark(f, "mixed", "per-char runs of different modes");
	else if (modes_differ(c, t))
		html_mark(f, "syscall", "per-char as one-byte read(2)/write(2) "
			  "(bonnie++ 2.00, clyde): not comparable with stdio");
}

int html_group_has(const struct compare *c, size_t g, size_t t0, size_t t1)
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

void html_vm_mark(FILE *f, const char *mark)
{
	if (!mark)
		return;
	h_lit(f, " ");
	h_open(f, "span", "class", "vm", "title", "measured inside a virtual "
	       "machine or on an emulated CPU: not the storage's own speed",
	       NULL);
	h_textf(f, "[%s]", mark);
	h_close(f, "span");
}

void html_run_mark(FILE *f, const struct record *rec)
{
	char *mark = compare_virt_mark(rec);

	html_vm_mark(f, mark);
	free(mark);
}

static void baseline_note(FILE *f)
{
	h_lit(f, " ");
	h_elem(f, "small", "(baseline)");
}

void html_group_cell(struct page *p, size_t g)
{
	char *name = compare_group_label(p->c, g, 0);

	h_open(p->f, "td", "class", "cfg", NULL);
	h_start(p->f, "a");
	h_attrf(p->f, "href", "#cfg%zu", g + 1);
	h_end(p->f, 0);
	h_text(p->f, name);
	h_close(p->f, "a");
	html_vm_mark(p->f, compare_group_virt(p->c, g));
	if (g == p->c->baseline)
		baseline_note(p->f);
	h_close(p->f, "td");
	free(name);
}

/* <td class="cls" data-test="test[suffix]" data-group="g+1" (left open). */
static void cell_start(FILE *f, const char *cls, const char *test,
		       const char *suffix, size_t g)
{
	h_start(f, "td");
	h_attr(f, "class", cls);
	h_attrf(f, "data-test", "%s%s", test, suffix);
	h_attrf(f, "data-group", "%zu", g + 1);
}

static void ratio_span(FILE *f, double ratio)
{
	h_start(f, "span");
	h_attr(f, "class", "ratio");
	h_attrf(f, "data-ratio", "%.4f", ratio);
	h_end(f, 0);
	h_lit(f, "&#215;");
	h_textf(f, "%.2f", ratio);
	h_close(f, "span");
}

static void value_cells(struct page *p, size_t g, size_t t, int with_cpu)
{
	const struct compare *c = p->c;
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const char *test = c->tests[t].name;
	FILE *f = p->f;
	char buf[64];
	double ratio;

	if (!s->n) {
		cell_start(f, "none", test, "", g);
		if (s->too_fast)
			h_attr(f, "title", "bonnie++ could not time it: under "
			       "0.5 s");
		h_end(f, 0);
		if (s->too_fast)
			h_lit(f, "+++++");
		h_close(f, "td");
		if (with_cpu) {
			cell_start(f, "none", test, "_cpu", g);
			h_end(f, 0);
			if (s->too_fast)
				h_lit(f, "+++");
			h_close(f, "td");
		}
		return;
	}
	report_fmt_value(buf, sizeof(buf), s->mean, c->tests[t].unit);
	cell_start(f, "num", test, "", g);
	h_attrf(f, "data-v", "%.10g", s->mean);
	html_colour(f, rank_of(p, t, g, 0));
	h_end(f, 0);
	h_text(f, buf);
	html_marks(f, s->marks);
	mode_mark(f, c, g, t);
	if (s->n > 1) {
		report_fmt_value(buf, sizeof(buf), s->sd, c->tests[t].unit);
		h_open(f, "span", "class", "sd", NULL);
		h_lit(f, "&#177;");
		h_text(f, buf);
		h_close(f, "span");
		h_open(f, "span", "class", "n", NULL);
		h_textf(f, "n=%zu", s->n);
		h_close(f, "span");
	}
	ratio = compare_ratio(c, g, t);
	if (!isnan(ratio) && g != c->baseline) {
		ratio_span(f, ratio);
	} else if (g != c->baseline && c->groups[c->baseline].stats[t].n &&
		   !compare_same_mode(c, g, c->baseline, t)) {
		h_open(f, "span", "class", "ratio", NULL);
		h_text(f, "no ratio: other per-char mode");
		h_close(f, "span");
	}
	h_close(f, "td");
	if (with_cpu) {
		cell_start(f, "num", test, "_cpu", g);
		h_attrf(f, "data-v", "%.10g", s->cpu);
		html_colour(f, rank_of(p, t, g, 1));
		h_end(f, 0);
		h_textf(f, "%.0f", s->cpu);
		h_close(f, "td");
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

	h_open(p->f, "td", "class", "num", NULL);
	if (fs) {
		bonnie_file_size(buf, sizeof(buf), strtoll(fs, NULL, 10));
		h_text(p->f, buf);
	}
	h_close(p->f, "td");
	h_open(p->f, "td", "class", "num", NULL);
	if (nf) {
		bonnie_num_files(buf, sizeof(buf), strtoll(nf, NULL, 10));
		h_text(p->f, buf);
	}
	h_close(p->f, "td");
}

/* <tr id="rowN" class="baseline"> (id and class optional). */
static void row_open(struct page *p, size_t g, int with_id)
{
	h_start(p->f, "tr");
	if (with_id)
		h_attrf(p->f, "id", "row%zu", g + 1);
	if (g == p->c->baseline)
		h_attr(p->f, "class", "baseline");
	h_end(p->f, 0);
}

void html_bonnie_table(struct page *p)
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
	h_lit(f, "<h2 id=\"bonnie\">bonnie++ tests</h2>\n"
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
	      "<th colspan=\"6\">Random Create</th></tr>\n<tr>");
	for (i = 0; i < 12; i++) {
		if (i == 5)
			continue;
		h_open(f, "th", "colspan", "2", NULL);
		h_text(f, sub[i]);
		h_close(f, "th");
	}
	h_lit(f, "</tr>\n<tr>");
	for (i = 0; i < 12; i++) {
		h_elem(f, "th", i < 5 ? "K/sec" : "/sec");
		h_elem(f, "th", "%CP");
	}
	h_lit(f, "</tr>\n</thead><tbody>\n");
	for (g = 0; g < c->ngroups; g++) {
		if (!html_group_has(c, g, 0, OTHER_TESTS))
			continue;
		row_open(p, g, 1);
		html_group_cell(p, g);
		size_cell(p, g);
		for (i = 0; i < BONNIE_NIO; i++)
			value_cells(p, g, test_of(c, bonnie_io_tests[i]), 1);
		for (i = 0; i < BONNIE_NFILE; i++)
			value_cells(p, g, test_of(c, bonnie_file_tests[i]), 1);
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

void html_other_table(struct page *p)
{
	const struct compare *c = p->c;
	size_t g, t;

	if (c->ntests <= OTHER_TESTS)
		return;
	h_lit(p->f, "<h2 id=\"other\">Other tests</h2>\n"
	      "<table id=\"other-table\"><thead><tr><th>Configuration</th>");
	for (t = OTHER_TESTS; t < c->ntests; t++) {
		h_open(p->f, "th", "colspan", "2", NULL);
		h_textf(p->f, "%s (%s)", c->tests[t].title, c->tests[t].unit);
		h_close(p->f, "th");
	}
	h_lit(p->f, "</tr></thead><tbody>\n");
	for (g = 0; g < c->ngroups; g++) {
		if (!html_group_has(c, g, OTHER_TESTS, c->ntests))
			continue;
		row_open(p, g, 0);
		html_group_cell(p, g);
		for (t = OTHER_TESTS; t < c->ntests; t++)
			value_cells(p, g, t, 1);
		h_lit(p->f, "</tr>\n");
	}
	h_lit(p->f, "</tbody></table>\n");
}

void html_configurations(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t g, i, r, w;

	h_lit(f, "<h2 id=\"configurations\">Configurations</h2>\n"
	      "<p class=\"note\">Runs that agree on everything but time and "
	      "seed are one configuration; shown here is what differs "
	      "between configurations.</p>\n"
	      "<table id=\"config-table\"><thead><tr><th>#</th>"
	      "<th>Label</th><th>Runs</th><th>Workers</th>"
	      "<th>What differs</th>"
	      "<th>Sources</th></tr></thead><tbody>\n");
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		h_start(f, "tr");
		h_attrf(f, "id", "cfg%zu", g + 1);
		if (g == c->baseline)
			h_attr(f, "class", "baseline");
		h_end(f, 0);
		h_open(f, "td", "class", "num", NULL);
		h_textf(f, "%zu", g + 1);
		h_close(f, "td");
		h_open(f, "td", "class", "cfg", NULL);
		h_text(f, grp->label ? grp->label : "(no label)");
		html_vm_mark(f, compare_group_virt(c, g));
		if (g == c->baseline)
			baseline_note(f);
		h_close(f, "td");
		h_open(f, "td", "class", "num", NULL);
		h_textf(f, "%zu", grp->nruns);
		h_close(f, "td");
		w = compare_group_workers(c, g);
		h_start(f, "td");
		h_attr(f, "class", "num");
		h_attrf(f, "data-workers", "%zu", w);
		h_end(f, 0);
		h_textf(f, "%zu", w);
		h_close(f, "td");
		h_open(f, "td", NULL);
		for (i = 0; i < c->ndiffer; i++) {
			const char *v = compare_attr(grp, c->differ[i]);

			if (!v || !strcmp(c->differ[i], "label"))
				continue;
			h_open(f, "code", NULL);
			h_textf(f, "%s=%s", c->differ[i], v);
			h_close(f, "code");
			h_lit(f, " ");
		}
		h_close(f, "td");
		h_open(f, "td", NULL);
		for (r = 0; r < grp->nruns; r++) {
			const struct record *rec = c->recs[grp->runs[r]];

			h_start(f, "a");
			h_attrf(f, "href", "#run%zu", grp->runs[r] + 1);
			h_end(f, 0);
			h_text(f, rec->source ? rec->source : "(this run)");
			h_close(f, "a");
			h_lit(f, " ");
		}
		h_close(f, "td");
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

/* Whether some run has a result of test t (else no column for it). */
static int runs_have(const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++)
		if (html_group_has(c, g, t, t + 1))
			return 1;
	return 0;
}

static void run_cell(FILE *f, const struct result *res)
{
	char buf[64];

	if (!res || res->status != RESULT_OK) {
		h_open(f, "td", "class", "none", NULL);
		if (res && res->status == RESULT_SKIPPED &&
		    (res->flags & RESULT_LOW_PRECISION))
			h_lit(f, "+++++");
		else if (res && res->status == RESULT_FAILED)
			h_lit(f, "failed");
		h_close(f, "td");
		return;
	}
	report_fmt_value(buf, sizeof(buf), res->value, res->unit);
	h_start(f, "td");
	h_attr(f, "class", "num");
	h_attrf(f, "data-v", "%.10g", res->value);
	h_end(f, 0);
	h_text(f, buf);
	html_marks(f, (res->flags & RESULT_LOW_PRECISION ?
		       CMP_LOW_PRECISION : 0) |
		   (res->flags & RESULT_CACHED ? CMP_CACHED : 0));
	h_close(f, "td");
}

static void num_cell(FILE *f, size_t v)
{
	h_start(f, "td");
	h_attr(f, "class", "num");
	h_attrf(f, "data-v", "%zu", v);
	h_end(f, 0);
	h_textf(f, "%zu", v);
	h_close(f, "td");
}

void html_runs(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t r, t;
	char *cols = xcalloc(c->ntests + 1, 1);

	h_lit(f, "<h2 id=\"runs\">Runs</h2>\n<table id=\"runs-table\"><thead>"
	      "<tr><th class=\"sortable\">Run</th>"
	      "<th class=\"sortable\">Config</th><th>Label</th>"
	      "<th>Start</th><th>Source</th>");
	for (t = 0; t < c->ntests; t++) {
		cols[t] = runs_have(c, t);
		if (!cols[t])
			continue;
		h_open(f, "th", "class", "sortable", NULL);
		h_text(f, c->tests[t].title);
		h_close(f, "th");
	}
	h_lit(f, "</tr></thead><tbody>\n");
	for (r = 0; r < c->nrecs; r++) {
		const struct record *rec = c->recs[r];

		h_open(f, "tr", NULL);
		num_cell(f, r + 1);
		num_cell(f, c->run_group[r] + 1);
		h_open(f, "td", NULL);
		h_text(f, rec->label);
		html_run_mark(f, rec);
		h_close(f, "td");
		h_elem(f, "td", rec->start);
		h_elem(f, "td", rec->source ? rec->source : "");
		for (t = 0; t < c->ntests; t++)
			if (cols[t])
				run_cell(f, compare_result(c, r, t));
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
	free(cols);
}
