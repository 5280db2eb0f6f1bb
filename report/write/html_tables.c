// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page's tables of figures: configurations, the bonnie++ table, the
 * other tests, the runs; and the pieces the other sections share (marks,
 * colours, the configuration cell).  Written through html_emit.h only.
 */
#include "report/write/html_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/write/html_emit.h"
#include "lib/xalloc.h"

/* --- shared pieces --- */

void html_mark(FILE *f, const char *text, const char *title)
{
	h_open(f, "span", "class", "mark", "title", title, NULL);
	h_text(f, text);
	h_close(f, "span");
}

/* The marks of the CMP_* flags in m. */
static void html_marks(FILE *f, unsigned m)
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
	if (m & CMP_STOPPED)
		html_mark(f, "stopped", "stopped: " RECORD_STOPPED_TEXT);
}

/* --- differences to the baseline: colour and mark only where there is one --- */

const char *html_diff_class(const struct stats_diff *d, int higher_better,
			    int num)
{
	int better = (d->sign > 0) == !!higher_better;

	if (d->verdict != STATS_DIFFERENT)
		return num ? "num" : NULL;
	if (num)
		return better ? "num better" : "num worse";
	return better ? "better" : "worse";
}

void html_diff_attr(FILE *f, const struct stats_diff *d)
{
	if (d->verdict == STATS_UNTESTED)
		return;
	h_attr(f, "data-diff", d->verdict == STATS_SAME ? "same" :
	       d->sign > 0 ? "higher" : "lower");
}

void html_diff_mark(FILE *f, const struct stats_diff *d)
{
	char words[128];

	if (d->verdict != STATS_DIFFERENT)
		return;
	compare_diff_words(d, words, sizeof(words));
	h_start(f, "span");
	h_attr(f, "class", "diff");
	h_attrf(f, "title", "against the baseline: %s", words);
	h_end(f, 0);
	if (d->sign > 0)
		h_lit(f, "&#9650;");
	else
		h_lit(f, "&#9660;");
	h_close(f, "span");
}

/* Whether a run of c has a test that was stopped and continued. */
static int any_stopped(const struct compare *c)
{
	size_t r, i;

	for (r = 0; r < c->nrecs; r++)
		for (i = 0; i < c->recs[r]->nresults; i++)
			if (c->recs[r]->results[i].status == RESULT_OK &&
			    (c->recs[r]->results[i].flags & RESULT_STOPPED))
				return 1;
	return 0;
}

/*
 * What the colours and marks of the tables mean and by which rule, once
 * on the page (the text report's legend says the same): above the first
 * table of figures, which every later one refers to.
 */
static void diff_legend(struct page *p)
{
	FILE *f = p->f;

	h_lit(f, "<p class=\"note\" id=\"diff-legend\">Colours and marks "
	      "in the tables of the tests, the repeat statistics and the "
	      "matrix: a figure is coloured only where it "
	      "differs from the baseline configuration's, <span class=\""
	      "better\">green</span> where it is better, <span class=\"worse"
	      "\">red</span> where it is worse (higher is better for rates, "
	      "lower for CPU and response times), and marked &#9650; higher "
	      "or &#9660; lower.  The rule: Welch's t-test at 95 % where both "
	      "configurations have two or more runs; where one has a single "
	      "run, only a difference beyond the ");
	h_textf(f, "+-%g %%", 100 * p->c->noise_band);
	h_lit(f, " noise band (--noise-band).  A difference within the noise "
	      "band, or not significant, is neither coloured nor marked.");
	if (any_stopped(p->c)) {
		h_lit(f, "  <span class=\"mark\">stopped</span>: ");
		h_text(f, RECORD_STOPPED_TEXT);
		h_lit(f, ".");
	}
	h_lit(f, "</p>\n");
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
	else if (c->tests[t].modes_differ)
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

/* The VM mark of a configuration or run, styled; nothing when NULL. */
static void html_vm_mark(FILE *f, const char *mark)
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

void html_vm_group(struct page *p, size_t g)
{
	if (!compare_common_virt(p->c))
		html_vm_mark(p->f, compare_group_virt(p->c, g));
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
	html_vm_group(p, g);
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
	struct stats_diff d;
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
	compare_diff(c, g, t, &d);
	cell_start(f, html_diff_class(&d, 1, 1), test, "", g);
	h_attrf(f, "data-v", "%.10g", s->mean);
	html_diff_attr(f, &d);
	h_end(f, 0);
	h_text(f, buf);
	html_diff_mark(f, &d);
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
		compare_diff_cpu(c, g, t, &d);
		cell_start(f, html_diff_class(&d, 0, 1), test, "_cpu", g);
		h_attrf(f, "data-v", "%.10g", s->cpu);
		html_diff_attr(f, &d);
		h_end(f, 0);
		h_textf(f, "%.0f", s->cpu);
		html_diff_mark(f, &d);
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

/* The file size (files 0) or the number of files of a configuration. */
static void size_cell(struct page *p, size_t g, int files)
{
	const struct cmp_group *grp = &p->c->groups[g];
	const char *v = compare_attr(grp, files ? PARAM_NUM_FILES :
						  PARAM_FILE_SIZE);
	char buf[32];

	h_open(p->f, "td", "class", "num", NULL);
	if (v && files)
		bonnie_num_files(buf, sizeof(buf), strtoll(v, NULL, 10));
	else if (v)
		bonnie_file_size(buf, sizeof(buf), strtoll(v, NULL, 10));
	if (v)
		h_text(p->f, buf);
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

/* The second and third header rows of one half, sub[i0..i1). */
static void bonnie_subheads(FILE *f, size_t i0, size_t i1)
{
	size_t i;

	for (i = i0; i < i1; i++) {
		if (i == BONNIE_SEEKS)	/* a heading two rows high */
			continue;
		h_open(f, "th", "colspan", "2", NULL);
		h_text(f, bonnie_tests[i].head);
		h_close(f, "th");
	}
	h_lit(f, "</tr>\n<tr>");
	for (i = i0; i < i1; i++) {
		h_elem(f, "th", i < 5 ? "K/sec" : "/sec");
		h_elem(f, "th", "%CP");
	}
	h_lit(f, "</tr>\n</thead><tbody>\n");
}

/*
 * One half of the bonnie++ table, wrapped as bon_csv2html's layout does
 * so that each fits 1400 px: the I/O tests (files 0), then the file tests.
 */
static void bonnie_half(struct page *p, int files)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t g, i;

	if (!files)
		h_lit(f, "<table id=\"bonnie-table\"><thead>\n<tr>"
		      "<th rowspan=\"3\">Configuration</th>"
		      "<th rowspan=\"3\">Size</th>"
		      "<th colspan=\"6\">Sequential Output</th>"
		      "<th colspan=\"4\">Sequential Input</th>"
		      "<th colspan=\"2\" rowspan=\"2\">Random Seeks</th>"
		      "</tr>\n<tr>");
	else
		h_lit(f, "<table id=\"bonnie-files-table\"><thead>\n<tr>"
		      "<th rowspan=\"3\">Configuration</th>"
		      "<th rowspan=\"3\">Files</th>"
		      "<th colspan=\"6\">Sequential Create</th>"
		      "<th colspan=\"6\">Random Create</th></tr>\n<tr>");
	bonnie_subheads(f, files ? 6 : 0, files ? 12 : 6);
	for (g = 0; g < c->ngroups; g++) {
		if (!html_group_has(c, g, 0, OTHER_TESTS))
			continue;
		row_open(p, g, !files);
		html_group_cell(p, g);
		size_cell(p, g, files);
		for (i = files ? BONNIE_NIO : 0;
		     i < (files ? BONNIE_NTESTS : BONNIE_NIO); i++)
			value_cells(p, g, test_of(c, bonnie_tests[i].name), 1);
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

void html_bonnie_table(struct page *p)
{
	if (!p->has_bonnie)
		return;
	h_lit(p->f, "<h2 id=\"bonnie\">bonnie++ tests</h2>\n"
	      "<p class=\"note\">Mean of the runs of each configuration "
	      "(&#177; sample standard deviation and count when repeated), "
	      "CPU in % of one core; &#215; is the ratio to the baseline. "
	      "Colours and marks <a href=\"#diff-legend\">only where a "
	      "figure differs from the baseline's</a>; per-char figures of "
	      "different modes are never compared.  The file tests follow "
	      "the I/O tests in a table of their own.</p>\n");
	bonnie_half(p, 0);
	bonnie_half(p, 1);
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
	      "between configurations.</p>\n");
	if (compare_common_virt(c)) {
		h_open(f, "p", "class", "note", "id", "vm-all", NULL);
		h_lit(f, "Every configuration");
		html_vm_mark(f, compare_common_virt(c));
		h_lit(f, ": measured in a virtual machine or on an emulated "
		      "CPU, not the storage's own speed (the tables below "
		      "leave the mark out).</p>\n");
	}
	h_lit(f,
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
		html_vm_group(p, g);
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
	if (p->has_bonnie || p->has_matrix || c->ntests > OTHER_TESTS)
		diff_legend(p);
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
		   (res->flags & RESULT_CACHED ? CMP_CACHED : 0) |
		   (res->flags & RESULT_STOPPED ? CMP_STOPPED : 0));
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
