// SPDX-License-Identifier: GPL-2.0-only
/*
 * The comparison sections of the page that go beyond the tables: the
 * --criteria verdict table (first on the page), the regression watch,
 * the pivot by dimensions, each configuration's dimensions with inferred
 * values marked, and the repeat statistics (95 % intervals, cv, noisy,
 * Welch's verdict).  Written through the emitter (hout.h) only.
 */
#include "html_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "criteria.h"
#include "hout.h"
#include "pivot.h"
#include "regress.h"
#include "../lib/xalloc.h"

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
	h_textf(f, "Verdict: %s", v->nfail ? "FAIL" : "PASS");
	h_close(f, "h2");
	h_open(f, "p", "class", "meta", NULL);
	h_textf(f, "%zu of %zu checks failed; criteria ", v->nfail, v->n);
	h_elem(f, "code", p->o->criteria);
	h_lit(f, ".</p>\n<table class=\"verdict\" id=\"verdict-table\">"
	      "<thead><tr><th>Configuration</th><th>Figure</th><th>Check"
	      "</th><th>Bound</th><th>Measured</th><th>Verdict</th></tr>"
	      "</thead><tbody>\n");
	for (i = 0; i < v->n; i++) {
		const struct crit_verdict *x = &v->v[i];

		h_open(f, "tr", "class", x->pass ? "pass" : "fail",
		       "data-verdict", x->pass ? "pass" : "fail", NULL);
		if (x->group == CRIT_NO_GROUP)
			h_lit(f, "<td class=\"none\">no configuration has it"
			      "</td>");
		else
			html_group_cell(p, x->group);
		h_elem(f, "td", x->figure);
		h_open(f, "td", NULL);
		h_elem(f, "code", x->key);
		h_close(f, "td");
		h_elem(f, "td", x->bound);
		h_open(f, "td", "class", "num", NULL);
		h_text(f, x->measured);
		h_close(f, "td");
		h_open(f, "td", "class", x->pass ? "pass" : "fail", NULL);
		h_text(f, x->pass ? "pass" : "FAIL");
		h_close(f, "td");
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
	h_textf(f, " (Welch's t-test at 95 %%); %zu configuration%s not in "
		"it.  Significant changes first.", r->unmatched,
		r->unmatched == 1 ? "" : "s");
	h_lit(f, "</p>\n<table id=\"regression-table\"><thead><tr>"
	      "<th>Configuration</th><th>Test</th><th>Baseline</th>"
	      "<th>Now</th><th>Ratio</th><th>Verdict</th></tr></thead>"
	      "<tbody>\n");
	for (i = 0; i < r->n; i++) {
		const struct regress_item *it = &r->v[i];
		const char *unit = r->new->tests[it->t_new].unit;
		const char *word = it->w.verdict == STATS_DIFFERENT ?
				   (it->w.t > 0 ? "up" : "down") :
				   it->w.verdict == STATS_SAME ? "same" :
				   "untested";

		h_open(f, "tr", "data-verdict", word, NULL);
		html_group_cell(p, it->g_new);
		h_elem(f, "td", r->new->tests[it->t_new].title);
		num_cell(f, it->old_mean, unit);
		num_cell(f, it->new_mean, unit);
		h_open(f, "td", "class", "num", NULL);
		if (!isnan(it->ratio))
			h_textf(f, "%.2f", it->ratio);
		h_close(f, "td");
		h_elem(f, "td", word);
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

void html_pivot(struct page *p)
{
	const struct pivot *pv = p->o->pivot;
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t ti, d, r, k;

	if (!pv)
		return;
	h_lit(f, "<h2 id=\"pivot\">Pivot</h2>\n<p class=\"note\">Each cell: "
	      "the mean of the runs of the configurations with those "
	      "dimensions; + several configurations pooled, N noisy.  Rows "
	      "and columns carry their dimensions as data-* attributes for "
	      "sorting and filtering.</p>\n");
	for (ti = 0; ti < p->o->npivot_tests; ti++) {
		size_t t = p->o->pivot_tests[ti];

		h_open(f, "h3", NULL);
		h_textf(f, "%s (%s)", c->tests[t].title, c->tests[t].unit);
		h_close(f, "h3");
		h_start(f, "table");
		h_attr(f, "class", "pivot");
		h_attr(f, "data-test", c->tests[t].name);
		h_end(f, 0);
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
				       "data-value", pv->cols.keys[k][d],
				       NULL);
				h_text(f, pv->cols.keys[k][d]);
				h_close(f, "th");
			}
			h_open(f, "th", "class", "dim", NULL);
			h_text(f, pv->cols.dims[d]);
			h_close(f, "th");
			h_lit(f, "</tr>");
		}
		h_lit(f, "</thead><tbody>\n");
		for (r = 0; r < pv->rows.nkeys; r++) {
			h_lit(f, "<tr>");
			for (d = 0; d < pv->rows.ndims; d++) {
				h_open(f, "th", "data-dim", pv->rows.dims[d],
				       "data-value", pv->rows.keys[r][d],
				       NULL);
				h_text(f, pv->rows.keys[r][d]);
				h_close(f, "th");
			}
			for (k = 0; k < pv->cols.nkeys; k++) {
				struct pivot_cell cell;
				char buf[48];

				pivot_cell(pv, c, r, k, t, &cell);
				if (!cell.sum.n) {
					h_open(f, "td", "class", "none", NULL);
					if (cell.too_fast)
						h_lit(f, "+++++");
					h_close(f, "td");
					continue;
				}
				report_fmt_value(buf, sizeof(buf),
						 cell.sum.mean,
						 c->tests[t].unit);
				h_start(f, "td");
				h_attr(f, "class", "num");
				h_attrf(f, "data-v", "%.10g", cell.sum.mean);
				h_attrf(f, "data-n", "%zu", cell.sum.n);
				h_end(f, 0);
				h_text(f, buf);
				if (cell.sum.noisy)
					html_mark(f, "N", "noisy: 95 % interval "
						  "wider than 5 % of the mean");
				if (cell.nconfigs > 1)
					html_mark(f, "+", "several "
						  "configurations pooled");
				h_close(f, "td");
			}
			h_lit(f, "<td></td></tr>\n");
		}
		h_lit(f, "</tbody></table>\n");
	}
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

void html_stats(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t t, g, any = 0;

	for (t = 0; t < c->ntests; t++)
		for (g = 0; g < c->ngroups; g++)
			any += c->groups[t ? g : g].stats[t].n > 1;
	if (!any)
		return;
	h_lit(f, "<h2 id=\"statistics\">Repeat statistics</h2>\n"
	      "<p class=\"note\">Per configuration and test with repeats: "
	      "mean, sample standard deviation, 95 % confidence interval of "
	      "the mean (Student's t), coefficient of variation; <b>noisy"
	      "</b> when the interval's half-width exceeds 5 % of the mean; "
	      "the ratio to the baseline tested with Welch's t-test at "
	      "95 %.  A single run has no interval.</p>\n"
	      "<table id=\"stats-table\"><thead><tr><th>Test</th>"
	      "<th>Configuration</th><th>n</th><th>Mean</th><th>sd</th>"
	      "<th>95 % CI</th><th>cv</th><th>Ratio</th><th>Significance"
	      "</th></tr></thead><tbody>\n");
	for (t = 0; t < c->ntests; t++)
		for (g = 0; g < c->ngroups; g++) {
			const struct cmp_stat *s = &c->groups[g].stats[t];
			const char *unit = c->tests[t].unit;
			struct stats_welch w;
			char lo[32], hi[32];
			double ratio = compare_ratio(c, g, t);

			if (!s->n)
				continue;
			compare_welch(c, g, t, &w);
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
				h_lit(f, "<td colspan=\"3\" class=\"none\">"
				      "single run</td>");
			} else {
				num_cell(f, s->sum.sd, unit);
				report_fmt_value(lo, sizeof(lo),
						 s->mean - s->sum.ci_half,
						 unit);
				report_fmt_value(hi, sizeof(hi),
						 s->mean + s->sum.ci_half,
						 unit);
				h_start(f, "td");
				h_attr(f, "class", "num");
				h_attrf(f, "data-half", "%.10g",
					s->sum.ci_half);
				h_end(f, 0);
				h_textf(f, "%s .. %s", lo, hi);
				if (s->sum.noisy)
					html_mark(f, "noisy", "the 95 % "
						  "interval is wider than 5 % "
						  "of the mean");
				h_close(f, "td");
				h_open(f, "td", "class", "num", NULL);
				h_textf(f, "%.1f %%", 100 * s->sum.cv);
				h_close(f, "td");
			}
			h_open(f, "td", "class", "num", NULL);
			if (g == c->baseline)
				h_text(f, "base");
			else if (!isnan(ratio))
				h_textf(f, "%.2f", ratio);
			h_close(f, "td");
			h_open(f, "td", NULL);
			if (g != c->baseline) {
				h_text(f, compare_verdict_word(&w));
				if (w.verdict != STATS_UNTESTED)
					h_textf(f, " (p %.2g, df %.1f)", w.p,
						w.df);
			}
			h_close(f, "td");
			h_lit(f, "</tr>\n");
		}
	h_lit(f, "</tbody></table>\n");
}
