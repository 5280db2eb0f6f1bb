// SPDX-License-Identifier: GPL-2.0-only
/*
 * Qualification criteria checked against the runs (criteria_load.c reads
 * them); see criteria.h.
 */
#include "report/analyze/criteria.h"
#include "report/analyze/criteria_rule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/analyze/compare_matrix.h"
#include "report/analyze/figures.h"
#include "report/model/record_util.h"
#include "lib/numgroup.h"
#include "lib/xalloc.h"

void crit_verdicts_release(struct crit_verdicts *v)
{
	free(v->v);
	memset(v, 0, sizeof(*v));
}

int crit_verdicts_failed(const struct crit_verdicts *v)
{
	return v->nfail || (v->ninconclusive && !v->allow_inconclusive);
}

const char *crit_outcome_word(enum crit_outcome o)
{
	return o == CRIT_PASS ? "pass" : o == CRIT_FAIL ? "FAIL" :
	       "inconclusive";
}

static void count(struct crit_verdicts *out, const struct crit_verdict *v)
{
	if (v->outcome == CRIT_FAIL)
		out->nfail++;
	else if (v->outcome == CRIT_INCONCLUSIVE)
		out->ninconclusive++;
}

/* Whether a bound was written with its unit ("500 MB/s", "2 ms"). */
static int has_unit(const char *bound)
{
	for (; *bound; bound++)
		if (!strchr("0123456789. \t", *bound))
			return 1;
	return 0;
}

/*
 * The bound as the verdict shows it: with its unit, the one the key
 * implies when none was written (unit: the figure's, "MB/s" for
 * min_mbps, "IO/s" for min_iops), so "min_mbps = 500" reads "500 MB/s".
 */
static void bound_shown(struct crit_verdict *v, const struct crit_rule *r,
			const char *unit)
{
	const char *u = unit;

	if (r->kind == K_BOOL) {
		if (r->what == W_NOT_WORSE && r->limit)
			snprintf(v->bound_shown, sizeof(v->bound_shown),
				 "yes, margin %g", r->margin);
		else
			snprintf(v->bound_shown, sizeof(v->bound_shown), "%s",
				 r->bound);
		return;
	}
	if (r->kind == K_RATIO)
		u = "x base";
	else if (r->kind == K_TIME)
		u = "ms";
	else if (r->kind == K_PCT)
		u = "%";
	if (has_unit(r->bound) || !*u)
		snprintf(v->bound_shown, sizeof(v->bound_shown), "%s",
			 r->bound);
	else
		snprintf(v->bound_shown, sizeof(v->bound_shown), "%s %s",
			 r->bound, u);
}

static struct crit_verdict *verdict(struct crit_verdicts *out,
				    const struct crit_rule *r, size_t g)
{
	struct crit_verdict *v = record_append(&out->v, &out->n,
					       sizeof(*out->v));

	v->group = g;
	v->section = r->section;
	v->key = r->key;
	v->bound = r->bound;
	v->test = (size_t)-1;
	v->outcome = CRIT_FAIL;
	return v;
}

/*
 * A time of x ns as shown beside its bound: in the bound's unit, unless
 * the number would then need an exponent ("5.098e-06 s"); then in the
 * unit that keeps it between 1 and 1000.
 */
static void time_shown(double x, const char *unit, double *shown,
		       const char **u)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i, n = sizeof(units) / sizeof(units[0]);

	for (i = 0; i < n && strcmp(unit, units[i].name); i++)
		;
	if (!strcmp(unit, "\xc2\xb5s"))
		i = 1;		/* us as written */
	else if (i == n)
		i = 2;		/* ms when none was written */
	*shown = x / units[i].ns;
	*u = i == 1 ? unit : units[i].name;
	if (x == 0 || (fabs(*shown) >= 1e-3 && fabs(*shown) < 1e4))
		return;
	for (i = 0; i + 1 < n && fabs(x) >= 1000 * units[i].ns; i++)
		;
	*shown = x / units[i].ns;
	*u = units[i].name;
}

/*
 * Compare x (NAN: not measured) with the rule; fill bound_shown, measured
 * and the outcome.  unit: the figure's ("KiB/s", "IO/s"; "MB/s" for a
 * matrix cell's MiB/s, as the XDISK tables name it), shown where the
 * bound has none.
 */
static void judge(struct crit_verdicts *out, struct crit_verdict *v,
		  const struct crit_rule *r, double x, const char *unit)
{
	double shown = x;
	const char *u = unit;
	char num[40];

	bound_shown(v, r, r->kind == K_RATE && r->scale > 0 && !*r->unit ?
		    "MB/s" : unit);
	if (isnan(x)) {
		snprintf(v->measured, sizeof(v->measured), "not measured");
		v->outcome = CRIT_FAIL;
	} else {
		double lim = r->limit;

		if (r->kind == K_RATE && r->scale > 0) {
			lim = r->limit * r->scale;
			shown = x / r->scale;
			u = *r->unit ? r->unit : "MB/s";
		} else if (r->kind == K_TIME) {
			time_shown(x, r->unit, &shown, &u);
		} else if (r->kind == K_PCT) {
			shown = x * 100;
			u = "%";
		} else if (r->kind == K_RATIO) {
			u = "x base";
		}
		v->outcome = (r->upper ? x <= lim : x >= lim) ? CRIT_PASS :
			     CRIT_FAIL;
		num_grouped(num, sizeof(num), fabs(shown) >= 1e4 ? "%.0f" :
			    "%.4g", shown);
		snprintf(v->measured, sizeof(v->measured), "%s%s%s", num,
			 *u ? " " : "", u);
	}
	count(out, v);
}

/*
 * Why a not_worse check is inconclusive, and the runs of each
 * configuration that would settle it (stats.c: runs_to_settle, at 80 %
 * power from the observed spread of the logarithms).
 */
static void inconclusive_note(struct crit_verdict *v,
			      const struct stats_noninf *ni, size_t na,
			      size_t nb)
{
	char why[96], runs[96];

	if (ni->r.ok)
		snprintf(why, sizeof(why), "lower 95 %% bound %.3f not above "
			 "margin %g", ni->r.lo, ni->margin);
	else
		snprintf(why, sizeof(why), "too few runs for an interval "
			 "(n = %zu and %zu)", na, nb);
	if (!ni->runs)
		snprintf(runs, sizeof(runs), "no spread known: repeat each "
			 "configuration (-x 3 or more)");
	else if (ni->runs > STATS_MAX_RUNS)
		snprintf(runs, sizeof(runs), "the ratio is at the margin: "
			 "more than %d runs of each", STATS_MAX_RUNS);
	else
		snprintf(runs, sizeof(runs), "about %zu runs of each would "
			 "settle it", ni->runs);
	snprintf(v->note, sizeof(v->note), "%s; %s", why, runs);
}

/*
 * not_worse: non-inferiority of configuration g to the baseline on test
 * t (stats_noninferior), the ratio and its interval in measured, how it
 * was decided in the note.
 */
static void judge_not_worse(struct crit_verdicts *out,
			    struct crit_verdict *v, const struct crit_rule *r,
			    const struct compare *c, size_t g, size_t t)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const struct cmp_stat *b = &c->groups[c->baseline].stats[t];
	struct stats_noninf ni;

	bound_shown(v, r, "");
	if (!r->limit) {
		v->outcome = CRIT_PASS;	/* not_worse = no: nothing asked */
		snprintf(v->measured, sizeof(v->measured), "not checked");
		return;
	}
	if (!s->n || !b->n || !compare_same_mode(c, g, c->baseline, t)) {
		v->outcome = CRIT_INCONCLUSIVE;
		snprintf(v->measured, sizeof(v->measured), "no ratio");
		snprintf(v->note, sizeof(v->note), "%s", !b->n ?
			 "the baseline has no figure" : !s->n ?
			 "no figure to compare" :
			 "other per-char mode than the baseline's");
		count(out, v);
		return;
	}
	stats_noninferior(&s->sum, &b->sum, r->margin, &ni);
	v->outcome = ni.verdict == STATS_NI_PASS ? CRIT_PASS :
		     ni.verdict == STATS_NI_FAIL ? CRIT_FAIL :
		     CRIT_INCONCLUSIVE;
	if (ni.r.ok)
		snprintf(v->measured, sizeof(v->measured), "x%.2f "
			 "(%.2f..%.2f)", ni.r.ratio, ni.r.lo, ni.r.hi);
	else
		snprintf(v->measured, sizeof(v->measured), "x%.2f, n=%zu/%zu",
			 compare_ratio(c, g, t), s->n, b->n);
	if (ni.verdict == STATS_NI_PASS)
		snprintf(v->note, sizeof(v->note), "lower 95 %% bound %.3f "
			 "> margin %g", ni.r.lo, r->margin);
	else if (ni.verdict == STATS_NI_FAIL)
		snprintf(v->note, sizeof(v->note), "upper 95 %% bound %.3f "
			 "< margin %g: worse than the margin", ni.r.hi,
			 r->margin);
	else
		inconclusive_note(v, &ni, s->n, b->n);
	count(out, v);
}

/* Figure k (HIST_S_*) of the latency summary of s, in ns. */
/*
 * Why a figure no configuration has was not measured, for the measured
 * column: the status of the cell or test ("interrupted": a signal stopped
 * the run there, which says nothing of the storage); NULL leaves "not
 * measured".  Still a failed check: a bound with no figure is not met.
 */
static void unmeasured(struct crit_verdict *v, const char *why)
{
	if (why && strcmp(why, "not_run"))
		snprintf(v->measured, sizeof(v->measured), "%s", why);
}

/* Why a result was not measured ("interrupted", "failed"), or NULL. */
static const char *result_unmeasured(const struct result *res)
{
	if (result_interrupted(res->reason_kind, res->signal))
		return "interrupted";
	return res->status == RESULT_FAILED ? "failed" : NULL;
}

/* The status of test section (name or title) where a run stopped it. */
static const char *test_unmeasured(const struct compare *c,
				   const char *section)
{
	const char *why;
	size_t i, k;

	for (i = 0; i < c->nrecs; i++)
		for (k = 0; k < c->recs[i]->nresults; k++) {
			const struct result *res = &c->recs[i]->results[k];

			if (strcmp(res->name, section) &&
			    strcasecmp(res->title, section))
				continue;
			why = result_unmeasured(res);
			if (why)
				return why;
		}
	return NULL;
}

/* The same for test t in the runs of configuration g. */
static const char *group_unmeasured(const struct compare *c, size_t g,
				    size_t t)
{
	const struct cmp_group *grp = &c->groups[g];
	const char *why;
	size_t i;

	for (i = 0; i < grp->nruns; i++) {
		const struct result *res = compare_result(c, grp->runs[i], t);

		why = res ? result_unmeasured(res) : NULL;
		if (why)
			return why;
	}
	return NULL;
}

static double lat_figure(const struct cmp_stat *s, int k)
{
	struct hist_summary sum;

	cmp_lat_summary(s, &sum);
	if (!sum.count)
		return NAN;
	if (k != HIST_S_MAX && (s->marks & CMP_MAX_ONLY))
		return NAN;	/* bonnie++ keeps only the maximum */
	return sum.v[k];
}

static void check_test(struct crit_verdicts *out, const struct crit_rule *r,
		       const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_stat *s = &c->groups[g].stats[t];
		struct crit_verdict *v;
		double x = s->n ? s->mean : NAN;
		const char *unit = c->tests[t].unit;

		if (!s->n && !s->too_fast) {
			/* a test that failed or was stopped fails its
			 * bounds, [all]'s too: no figure meets them */
			const char *why = group_unmeasured(c, g, t);

			if (!why)
				continue;
			v = verdict(out, r, g);
			v->test = t;
			snprintf(v->figure, sizeof(v->figure), "%s",
				 c->tests[t].title);
			judge(out, v, r, NAN, unit);
			unmeasured(v, why);
			continue;
		}
		if ((r->what == W_MIN_RATIO || r->what == W_NOT_WORSE) &&
		    g == c->baseline)
			continue;
		v = verdict(out, r, g);
		v->test = t;
		snprintf(v->figure, sizeof(v->figure), "%s", c->tests[t].title);
		switch (r->what) {
		case W_MAX_CPU:
			x = s->n ? s->cpu / 100 : NAN;
			break;
		case W_MAX_CV:
			x = s->n > 1 ? s->sum.cv : NAN;
			break;
		case W_MIN_RATIO:
			x = compare_ratio(c, g, t);
			break;
		case W_NOT_WORSE:
			judge_not_worse(out, v, r, c, g, t);
			continue;
		case W_MIN:
		case W_MAX:
			if (r->scale == 0 && r->kind == K_RATE)
				break;
			if (strcmp(unit, "KiB/s"))
				x = NAN;	/* a byte rate on files/s */
			break;
		default:
			x = lat_figure(s, r->lat);
			break;
		}
		judge(out, v, r, x, unit);
	}
}

static double cell_figure(const struct cmpm_fig *f, const struct cmpm_fig *b,
			  const struct crit_rule *r)
{
	switch (r->what) {
	case W_MIN_IOPS: return f->fig.iops;
	case W_MIN_MBPS: return f->fig.mbps;
	case W_RD: return f->fig.rlat[r->lat] * 1e6;	/* ms to ns */
	case W_WR: return f->fig.wlat[r->lat] * 1e6;
	default: return b->n && b->iops > 0 && f->n ? f->iops / b->iops : NAN;
	}
}

/*
 * W_IOPS_AT: the most IO/s among cell k's curve points and the cell
 * itself with a response time (figures.h) at most r->at_ns; 0 when none
 * is that fast, NAN when none ran.
 */
static double iops_at(const struct compare *c, const struct cmpm_table *t,
		      size_t k, size_t g, const struct crit_rule *r)
{
	double best = NAN, ms;
	int pt;

	for (pt = -1; pt < (int)t->npts; pt++) {
		struct cmpm_fig f;

		cmpm_figures(c, t, k, g, pt, &f);
		if (!f.n)
			continue;
		if (isnan(best))
			best = 0;
		ms = fig_response_ms(&f.fig, t->cells[k].read_pct, r->lat);
		if (!isnan(ms) && ms * 1e6 <= r->at_ns && f.fig.iops > best)
			best = f.fig.iops;
	}
	return best;
}

static void check_cell(struct crit_verdicts *out, const struct crit_rule *r,
		       const struct compare *c, const struct cmpm *m)
{
	size_t ti, k, i, found = 0;

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];

		for (k = 0; k < t->ncells; k++) {
			struct cmpm_fig base;
			struct fig_cell id;

			cmpm_cell_id(t, k, &id);
			if (!fig_sel_cell(&r->cell, &id))
				continue;
			cmpm_figures(c, t, k, m->baseline, -1, &base);
			for (i = 0; i < m->ngroups; i++) {
				size_t g = m->groups[i];
				struct crit_verdict *v;
				struct cmpm_fig f;

				cmpm_figures(c, t, k, g, -1, &f);
				if (!f.status || (r->what == W_MX_RATIO &&
						  g == m->baseline))
					continue;
				found++;
				v = verdict(out, r, g);
				v->bs = t->bs;
				v->threads = t->threads;
				v->qd = t->qd;
				v->random = t->cells[k].random;
				v->read_pct = t->cells[k].read_pct;
				fig_cell_name(v->figure, sizeof(v->figure),
					      &id);
				judge(out, v, r, !f.n ? NAN :
				      r->what == W_IOPS_AT ?
				      iops_at(c, t, k, g, r) :
				      cell_figure(&f, &base, r),
				      r->kind == K_COUNT ? "IO/s" :
				      r->kind == K_RATE ? "MB/s" : "");
				if (!f.n && strcmp(f.status, "ok"))
					unmeasured(v, f.status);
			}
		}
	}
	if (!found) {
		struct crit_verdict *v = verdict(out, r, CRIT_NO_GROUP);

		snprintf(v->figure, sizeof(v->figure), "%s", r->section);
		judge(out, v, r, NAN, "");
	}
}

const char *criteria_unknown_test(const struct criteria *cr,
				  const struct compare *c)
{
	size_t i, t;

	for (i = 0; i < cr->nrules; i++) {
		const struct crit_rule *r = &cr->rules[i];

		for (t = 0; t < c->ntests && !r->all && !r->matrix; t++)
			if (!strcmp(r->section, c->tests[t].name) ||
			    !strcasecmp(r->section, c->tests[t].title))
				break;
		if (!r->all && !r->matrix && t == c->ntests)
			return r->section;
	}
	return NULL;
}

/* Failures first, then inconclusive checks, then passes; stable. */
static void sort_outcomes(struct crit_verdicts *out)
{
	struct crit_verdict *v = xcalloc(out->n + 1, sizeof(*v));
	size_t i, k = 0;
	int o;

	for (o = CRIT_FAIL; o <= CRIT_PASS; o++)
		for (i = 0; i < out->n; i++)
			if ((int)out->v[i].outcome == o)
				v[k++] = out->v[i];
	free(out->v);
	out->v = v;
}

void criteria_check(const struct criteria *cr, const struct compare *c,
		    struct crit_verdicts *out)
{
	struct cmpm m;
	size_t i, t;

	memset(out, 0, sizeof(*out));
	cmpm_build(&m, c);
	for (i = 0; i < cr->nrules; i++) {
		const struct crit_rule *r = &cr->rules[i];
		size_t before = out->n;

		if (r->matrix) {
			check_cell(out, r, c, &m);
			continue;
		}
		for (t = 0; t < c->ntests; t++)
			if (r->all || !strcmp(r->section, c->tests[t].name) ||
			    !strcasecmp(r->section, c->tests[t].title))
				check_test(out, r, c, t);
		if (out->n == before && !r->all) {
			struct crit_verdict *v = verdict(out, r,
							 CRIT_NO_GROUP);

			snprintf(v->figure, sizeof(v->figure), "%s",
				 r->section);
			judge(out, v, r, NAN, "");
			unmeasured(v, test_unmeasured(c, r->section));
		}
	}
	cmpm_release(&m);
	sort_outcomes(out);
}
