// SPDX-License-Identifier: GPL-2.0-only
/*
 * The comparison sections of the page that go beyond the tables: the
 * --criteria verdict table (first on the page), the regression watch,
 * the pivot by dimensions, each configuration's dimensions with inferred
 * values marked, and the repeat statistics (95 % intervals, cv, noisy,
 * Welch's verdict).  Written through the emitter (html_emit.h) only.
 */
#include "report/write/html_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/criteria.h"
#include "report/write/html_emit.h"
#include "report/analyze/pivot.h"
#include "report/analyze/regress.h"
#include "lib/xalloc.h"

static void num_cell(FILE *f, double v, const char *unit)
{
	char buf[48];

	if (isnan(v)) {
		h_lit(f, "<td class=\"none\">&#8212;</td>");
		return;
	}
	report_fmt_value(buf, sizeof(buf), v, unit);
	h_start(f, "td");
	h_attr(f, "class", "num");
	h_attrf(f, "data-v", "%.10g", v);
	h_end(f, 0);
	h_text(f, buf);
	h_close(f, "td");
}

void html_verdicts(struct page *p)
{
	const struct crit_verdicts *v = p->o->verdicts;
	FILE *f = p->f;
	size_t i;

	if (!v)
		return;
	h_open(f, "h2", "id", "verdict", NULL);
	h_textf(f, "Verdict: %s", crit_verdicts_failed(v) ? "FAIL" : "PASS");
	h_close(f, "h2");
	h_open(f, "p", "class", "meta", NULL);
	h_textf(f, "%zu of %zu checks failed", v->nfail, v->n);
	if (v->ninconclusive)
		h_textf(f, ", %zu inconclusive%s", v->ninconclusive,
			v->allow_inconclusive ? " (allowed by "
			"--allow-inconclusive)" : " (an inconclusive check "
			"fails the qualification: the data do not show the "
			"bound met)");
	h_text(f, "; criteria ");
	h_elem(f, "code", p->o->criteria);
	h_lit(f, ".  Failures first, then inconclusive checks, then passes."
	      "</p>\n<table class=\"verdict\" id=\"verdict-table\">"
	      "<thead><tr><th>Configuration</th><th>Figure</th><th>Check"
	      "</th><th>Bound</th><th>Measured</th><th>Verdict</th>"
	      "<th>How</th></tr></thead><tbody>\n");
	for (i = 0; i < v->n; i++) {
		const struct crit_verdict *x = &v->v[i];
		const char *cls = x->outcome == CRIT_PASS ? "pass" :
				  x->outcome == CRIT_FAIL ? "fail" :
				  "inconclusive";

		h_open(f, "tr", "class", cls, "data-verdict", cls, NULL);
		if (x->group == CRIT_NO_GROUP)
			h_lit(f, "<td class=\"none\">no configuration has it"
			      "</td>");
		else
			html_group_cell(p, x->group);
		h_elem(f, "td", x->figure);
		h_open(f, "td", NULL);
		h_elem(f, "code", x->key);
		h_close(f, "td");
		h_elem(f, "td", x->bound_shown);
		h_open(f, "td", "class", "num", NULL);
		h_text(f, x->measured);
		h_close(f, "td");
		h_open(f, "td", "class", cls, NULL);
		h_text(f, crit_outcome_word(x->outcome));
		h_close(f, "td");
		h_elem(f, "td", x->note);
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

void html_regress(struct page *p)
{
	const struct regress *r = p->o->regress;
	FILE *f = p->f;
	size_t i;

	if (!r)
		return;
	h_lit(f, "<h2 id=\"regression\">Regression watch</h2>\n");
	h_open(f, "p", "class", "meta", NULL);
	h_textf(f, "%zu significant change%s in %zu compared figures "
		"against ", r->nsig, r->nsig == 1 ? "" : "s", r->n);
	h_elem(f, "code", p->o->baseline_file);
	h_textf(f, " (Welch's t-test at 95 %%; where a side has a single run, "
		"a change only beyond the +-%g %% noise band); %zu "
		"configuration%s not in it.  Significant changes first.",
		100 * r->new->noise_band, r->unmatched,
		r->unmatched == 1 ? "" : "s");
	h_lit(f, "</p>\n<table id=\"regression-table\"><thead><tr>"
	      "<th>Configuration</th><th>Test</th><th>Baseline</th>"
	      "<th>Now</th><th>Ratio</th><th>Verdict</th></tr></thead>"
	      "<tbody>\n");
	for (i = 0; i < r->n; i++) {
		const struct regress_item *it = &r->v[i];
		const char *unit = fig_unit(&it->fig, r->new);
		char name[192];
		const char *word = it->d.verdict == STATS_DIFFERENT ?
				   (it->d.sign > 0 ? "up" : "down") :
				   it->d.verdict == STATS_SAME ? "same" :
				   "untested";

		h_open(f, "tr", "data-verdict", word, NULL);
		html_group_cell(p, it->g_new);
		fig_name(name, sizeof(name), &it->fig, r->new);
		h_elem(f, "td", name);
		num_cell(f, it->old_mean, unit);
		num_cell(f, it->new_mean, unit);
		h_open(f, "td", "class", "num", NULL);
		if (!isnan(it->ratio))
			h_textf(f, "%.2f", it->ratio);
		h_close(f, "td");
		h_start(f, "td");
		h_attr(f, "class", html_diff_class(&it->d, it->higher_better,
						  0));
		h_end(f, 0);
		h_text(f, word);
		h_close(f, "td");
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

/* " [a]" .. " [z]", then " [27]": the mark of class k, as in the text */
static void class_mark(FILE *f, size_t k)
{
	if (k < 26)
		h_textf(f, " [%c]", (int)('a' + k));
	else
		h_textf(f, " [%zu]", k + 1);
}

/* The pivot's row r of class k (PIVOT_ALL: one class) of figure fg. */
static void pivot_row(struct page *p, const struct fig_id *fg,
		      const struct pivot_classes *cls, size_t r, size_t k)
{
	const struct pivot *pv = p->o->pivot;
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t d, col;

	h_lit(f, "<tr>");
	for (d = 0; d < pv->rows.ndims; d++) {
		h_open(f, "th", "data-dim", pv->rows.dims[d], "data-value",
		       pv->rows.keys[r][d], NULL);
		h_text(f, pv->rows.keys[r][d]);
		if (k != PIVOT_ALL && d + 1 == pv->rows.ndims)
			class_mark(f, k);
		h_close(f, "th");
	}
	for (col = 0; col < pv->cols.nkeys; col++) {
		struct pivot_cell cell;
		char buf[48];

		pivot_cell(pv, c, r, col, fg, cls, k, &cell);
		if (!cell.sum.n) {
			h_open(f, "td", "class", "none", NULL);
			if (cell.too_fast)
				h_lit(f, "+++++");
			h_close(f, "td");
			continue;
		}
		report_fmt_value(buf, sizeof(buf), cell.sum.mean,
				 fig_unit(fg, c));
		h_start(f, "td");
		h_attr(f, "class", "num");
		h_attrf(f, "data-v", "%.10g", cell.sum.mean);
		h_attrf(f, "data-n", "%zu", cell.sum.n);
		h_end(f, 0);
		h_text(f, buf);
		if (cell.sum.noisy)
			html_mark(f, "N", "noisy: 95 % interval wider than 5 % "
				  "of the mean");
		if (cell.nconfigs > 1)
			html_mark(f, "+", "several configurations pooled");
		h_close(f, "td");
	}
	h_lit(f, "<td></td></tr>\n");
}

static void pivot_head(struct page *p)
{
	const struct pivot *pv = p->o->pivot;
	FILE *f = p->f;
	size_t d, r, k;

	h_lit(f, "<thead>");
	for (d = 0; d < pv->cols.ndims; d++) {
		h_lit(f, "<tr>");
		for (r = 0; r < pv->rows.ndims; r++) {
			h_open(f, "th", NULL);
			if (d + 1 == pv->cols.ndims)
				h_text(f, pv->rows.dims[r]);
			h_close(f, "th");
		}
		for (k = 0; k < pv->cols.nkeys; k++) {
			h_open(f, "th", "data-dim", pv->cols.dims[d],
			       "data-value", pv->cols.keys[k][d], NULL);
			h_text(f, pv->cols.keys[k][d]);
			h_close(f, "th");
		}
		h_open(f, "th", "class", "dim", NULL);
		h_text(f, pv->cols.dims[d]);
		h_close(f, "th");
		h_lit(f, "</tr>");
	}
	h_lit(f, "</thead><tbody>\n");
}

static void pivot_figure(struct page *p, const struct fig_id *fg)
{
	const struct pivot *pv = p->o->pivot;
	struct pivot_classes cls;
	char name[160];
	FILE *f = p->f;
	size_t r, k;

	pivot_classes(p->c, fg, &cls);
	fig_name(name, sizeof(name), fg, p->c);
	h_open(f, "h3", NULL);
	h_textf(f, "%s (%s)", name, fig_unit(fg, p->c));
	h_close(f, "h3");
	h_start(f, "table");
	h_attr(f, "class", "pivot");
	h_attr(f, "data-test", fg->kind == FIG_TEST ?
	       p->c->tests[fg->test].name : name);
	h_end(f, 0);
	pivot_head(p);
	for (r = 0; r < pv->rows.nkeys; r++)
		for (k = 0; k < cls.n; k++)
			if (cls.n == 1)
				pivot_row(p, fg, NULL, r, PIVOT_ALL);
			else if (pivot_row_has(pv, p->c, r, fg, &cls, k))
				pivot_row(p, fg, &cls, r, k);
	h_lit(f, "</tbody></table>\n");
	if (cls.n > 1) {
		h_lit(f, "<p class=\"note\">Not pooled: runs that differ in "
		      "what they measured.");
		for (k = 0; k < cls.n; k++) {
			class_mark(f, k);
			h_lit(f, " ");
			h_text(f, cls.name[k]);
			h_text(f, k + 1 < cls.n ? ";" : ".");
		}
		h_lit(f, "</p>\n");
	}
	pivot_classes_release(&cls);
}

void html_pivot(struct page *p)
{
	const struct pivot *pv = p->o->pivot;
	size_t i;

	if (!pv)
		return;
	h_lit(p->f, "<h2 id=\"pivot\">Pivot</h2>\n<p class=\"note\">Each "
	      "cell: the mean of the comparable runs of the configurations "
	      "with those dimensions; + several configurations pooled, N "
	      "noisy.  Rows and columns carry their dimensions as data-* "
	      "attributes for sorting and filtering.</p>\n");
	for (i = 0; i < pv->figs.n; i++)
		pivot_figure(p, &pv->figs.v[i]);
}

void html_dims(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t g, i, any = 0;

	for (g = 0; g < c->ngroups; g++)
		any += c->groups[g].dims.n;
	if (!any)
		return;
	h_lit(f, "<h2 id=\"dimensions\">Dimensions</h2>\n<p class=\"note\">"
	      "Tags, detected facts and what the label says (<span "
	      "class=\"inferred\">inferred</span>"
	      ", by the rules in clyde(1) or --label-pattern).</p>\n"
	      "<table id=\"dims-table\"><thead><tr><th>Configuration</th>"
	      "<th>Dimensions</th></tr></thead><tbody>\n");
	for (g = 0; g < c->ngroups; g++) {
		const struct dims *d = &c->groups[g].dims;

		h_lit(f, "<tr>");
		html_group_cell(p, g);
		h_open(f, "td", NULL);
		for (i = 0; i < d->n; i++) {
			h_open(f, "span", "class", "dim", "data-dim",
			       d->v[i].key, "data-value", d->v[i].value,
			       "data-source", dims_source_name(d->v[i].source),
			       NULL);
			h_textf(f, "%s%s=%s", i ? " " : "", d->v[i].key,
				d->v[i].value);
			if (d->v[i].source == DIM_INFERRED)
				h_lit(f, " <span class=\"inferred\">"
				      "(inferred)</span>");
			h_close(f, "span");
		}
		h_close(f, "td");
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

/* The 95 % interval of s (or why none) in a cell, its bounds as data. */
static void ci_cell(FILE *f, const struct stats_summary *s, const char *unit)
{
	char range[96];

	report_fmt_ci(range, sizeof(range), s, unit);
	h_start(f, "td");
	h_attr(f, "class", stats_has_interval(s) ? "num" : "none");
	if (stats_has_interval(s)) {
		h_attrf(f, "data-lo", "%.10g", s->ci_lo);
		h_attrf(f, "data-hi", "%.10g", s->ci_hi);
	}
	h_end(f, 0);
	h_text(f, range);
	if (s->noisy)
		html_mark(f, "noisy", "the 95 % interval reaches beyond 5 % "
			  "of the mean");
	h_close(f, "td");
}

/* The ratio to the baseline, with its 95 % interval when both have one. */
static void ratio_cell(FILE *f, const struct compare *c, size_t g, size_t t)
{
	const struct cmp_stat *b = &c->groups[c->baseline].stats[t];
	double ratio = compare_ratio(c, g, t);
	struct stats_ratio r;

	h_open(f, "td", "class", "num", NULL);
	if (g == c->baseline) {
		h_text(f, "base");
	} else if (!isnan(ratio)) {
		h_textf(f, "%.2f", ratio);
		stats_ratio_ci(&c->groups[g].stats[t].sum, &b->sum, &r);
		if (r.ok && compare_same_mode(c, g, c->baseline, t))
			h_textf(f, " (%.2f..%.2f)", r.lo, r.hi);
	}
	h_close(f, "td");
}

/* The statistics row of configuration g and test t (it has a figure). */
static void stats_row(struct page *p, size_t g, size_t t)
{
	const struct compare *c = p->c;
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const char *unit = c->tests[t].unit;
	FILE *f = p->f;
	struct stats_diff d;
	char words[128];

	compare_diff(c, g, t, &d);
	h_start(f, "tr");
	h_attr(f, "data-test", c->tests[t].name);
	if (s->sum.noisy)
		h_attr(f, "class", "noisy");
	h_end(f, 0);
	h_elem(f, "td", c->tests[t].title);
	html_group_cell(p, g);
	h_open(f, "td", "class", "num", NULL);
	h_textf(f, "%zu", s->n);
	h_close(f, "td");
	num_cell(f, s->mean, unit);
	if (s->n < 2) {
		h_lit(f, "<td colspan=\"3\" class=\"none\">single run</td>");
	} else {
		num_cell(f, s->sum.sd, unit);
		ci_cell(f, &s->sum, unit);
		h_open(f, "td", "class", "num", NULL);
		h_textf(f, "%.1f %%", 100 * s->sum.cv);
		h_close(f, "td");
	}
	ratio_cell(f, c, g, t);
	/* coloured as the tables are: only a difference */
	h_start(f, "td");
	h_attr(f, "class", html_diff_class(&d, 1, 0));
	html_diff_attr(f, &d);
	h_end(f, 0);
	if (g != c->baseline) {
		compare_diff_words(&d, words, sizeof(words));
		h_text(f, words);
	}
	h_close(f, "td");
	h_lit(f, "</tr>\n");
}

void html_stats(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t t, g, any = 0;

	for (t = 0; t < c->ntests; t++)
		for (g = 0; g < c->ngroups; g++)
			any += c->groups[g].stats[t].n > 1;
	if (!any)
		return;
	h_lit(f, "<h2 id=\"statistics\">Repeat statistics</h2>\n"
	      "<p class=\"note\">Per configuration and test with repeats: "
	      "mean, sample standard deviation, 95 % confidence interval "
	      "(Student's t on the logarithms: an interval of the geometric "
	      "mean, which a rate's interval must be to stay above 0), "
	      "coefficient of variation; <b>noisy</b> when the interval "
	      "reaches beyond 5 % of the mean; the ratio to the baseline "
	      "with its 95 % interval (of the ratio of geometric means); "
	      "a difference by Welch's t-test at 95 % where both sides have "
	      "repeats, else only beyond the ");
	h_textf(f, "+-%g %%", 100 * c->noise_band);
	h_lit(f, " noise band (--noise-band).  A single run has no "
	      "interval.</p>\n"
	      "<table id=\"stats-table\"><thead><tr><th>Test</th>"
	      "<th>Configuration</th><th>n</th><th>Mean</th><th>sd</th>"
	      "<th>95 % CI</th><th>cv</th><th>Ratio</th><th>Difference"
	      "</th></tr></thead><tbody>\n");
	for (t = 0; t < c->ntests; t++)
		for (g = 0; g < c->ngroups; g++)
			if (c->groups[g].stats[t].n)
				stats_row(p, g, t);
	h_lit(f, "</tbody></table>\n");
}
