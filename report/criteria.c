// SPDX-License-Identifier: GPL-2.0-only
/*
 * Qualification criteria checked against the runs (criteria_load.c reads
 * them); see criteria.h.
 */
#include "criteria.h"
#include "criteria_rule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmpmatrix.h"
#include "record_util.h"
#include "report.h"
#include "../lib/xalloc.h"

void crit_verdicts_release(struct crit_verdicts *v)
{
	free(v->v);
	memset(v, 0, sizeof(*v));
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

/* Compare x (NAN: not measured) with the rule; fill measured and pass. */
static void judge(struct crit_verdicts *out, struct crit_verdict *v,
		  const struct crit_rule *r, double x, const char *unit)
{
	double shown = x;
	const char *u = unit;

	if (isnan(x)) {
		snprintf(v->measured, sizeof(v->measured), "not measured");
		v->pass = 0;
	} else {
		double lim = r->limit;

		if (r->kind == K_RATE && r->scale > 0) {
			lim = r->limit * r->scale;
			shown = x / r->scale;
			u = r->unit;
		} else if (r->kind == K_TIME) {
			time_shown(x, r->unit, &shown, &u);
		} else if (r->kind == K_PCT) {
			shown = x * 100;
			u = "%";
		}
		v->pass = r->upper ? x <= lim : x >= lim;
		snprintf(v->measured, sizeof(v->measured),
			 fabs(shown) >= 1e4 ? "%.0f%s%s" : "%.4g%s%s", shown,
			 *u ? " " : "", u);
	}
	if (!v->pass)
		out->nfail++;
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
	if (result_interrupted(res->status, res->reason))
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

	hist_summarize(&s->lat, &sum);
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
		struct stats_welch w;
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
			unit = "";
			break;
		case W_NOT_WORSE:
			compare_welch(c, g, t, &w);
			snprintf(v->measured, sizeof(v->measured), "%s",
				 compare_verdict_word(&w));
			v->pass = !r->limit || w.verdict == STATS_SAME ||
				  (w.verdict == STATS_DIFFERENT && w.t > 0);
			if (w.verdict == STATS_UNTESTED) {
				v->pass = 0;
				snprintf(v->measured, sizeof(v->measured),
					 "untested (n < 2)");
			}
			if (!v->pass)
				out->nfail++;
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

static void check_cell(struct crit_verdicts *out, const struct crit_rule *r,
		       const struct compare *c, const struct cmpm *m)
{
	size_t ti, k, i, found = 0;

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];

		if (t->bs != r->bs || t->threads != r->threads ||
		    (!r->qd_any && t->qd != r->qd))
			continue;
		for (k = 0; k < t->ncells; k++) {
			struct cmpm_fig base;

			if (t->cells[k].random != r->random ||
			    t->cells[k].read_pct != r->read_pct)
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
				snprintf(v->figure, sizeof(v->figure),
					 "%s %u thr qd %u %s %s", f.fig.bs,
					 t->threads, t->qd, f.fig.pattern,
					 f.fig.profile);
				judge(out, v, r, !f.n ? NAN :
				      cell_figure(&f, &base, r),
				      r->kind == K_COUNT ? "IO/s" :
				      r->kind == K_RATE ? "MiB/s" : "");
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
}
