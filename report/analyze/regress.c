// SPDX-License-Identifier: GPL-2.0-only
/* Regression watch against a stored baseline set; see regress.h. */
#include "report/analyze/regress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/histogram.h"
#include "report/model/record_util.h"
#include "lib/hashidx.h"
#include "lib/xalloc.h"

/* Whether item i is a significant change. */
static int regress_significant(const struct regress_item *it)
{
	return it->d.verdict == STATS_DIFFERENT;
}

static int by_change(const void *a, const void *b)
{
	const struct regress_item *x = a, *y = b;
	double dx = fabs(log(x->ratio)), dy = fabs(log(y->ratio));

	if (regress_significant(x) != regress_significant(y))
		return regress_significant(x) ? -1 : 1;
	if (isnan(dx) || isnan(dy))
		return isnan(dx) - isnan(dy);
	return dx > dy ? -1 : dx < dy ? 1 : 0;
}

static void add_item(struct regress *r, size_t g, size_t h,
		     const struct fig_id *f, const struct stats_summary *sn,
		     const struct stats_summary *so)
{
	struct regress_item *it;

	if (!sn->n || !so->n)
		return;
	it = record_append(&r->v, &r->n, sizeof(*r->v));
	it->g_new = g;
	it->g_old = h;
	it->fig = *f;
	it->t_new = f->kind == FIG_TEST ? f->test : (size_t)-1;
	it->higher_better = fig_higher_better(f);
	it->old_mean = so->mean;
	it->new_mean = sn->mean;
	it->ratio = so->mean > 0 ? sn->mean / so->mean : NAN;
	stats_difference(sn, so, r->new->noise_band, &it->d);
	it->w = it->d.w;
	r->nsig += regress_significant(it);
}

/* Test t of new configuration g against the same test of old h. */
static void add_test(struct regress *r, size_t g, size_t h, size_t t)
{
	const struct compare *old = r->old, *new = r->new;
	struct fig_id f = { .kind = FIG_TEST, .test = t };
	size_t u;

	for (u = 0; u < old->ntests; u++)
		if (!strcmp(old->tests[u].name, new->tests[t].name))
			break;
	if (u == old->ntests)
		return;
	add_item(r, g, h, &f, &new->groups[g].stats[t].sum,
		 &old->groups[h].stats[u].sum);
}

/* A cell's figure f (what the XDISK tables show) of g against h's. */
static void add_cell(struct regress *r, size_t g, size_t h,
		     const struct fig_id *f)
{
	struct stats_summary sn, so;

	if (f->cell.curve_pct || f->kind == FIG_CPU ||
	    ((f->kind == FIG_READ || f->kind == FIG_WRITE) &&
	     f->lat != HIST_S_MEAN))
		return;
	fig_group_summary(r->new, g, f, &sn);
	fig_group_summary(r->old, h, f, &so);
	add_item(r, g, h, f, &sn, &so);
}

void regress_build(struct regress *r, const struct compare *old,
		   const struct compare *new)
{
	struct hashidx idx = HASHIDX_INIT;
	struct fig_list figs;
	size_t g, h, i, pos;

	memset(r, 0, sizeof(*r));
	r->old = old;
	r->new = new;
	fig_list_build(&figs, new);
	/* the old configurations by the hash of their setup: each new one
	 * found in a step, not in a walk through all of them */
	for (h = 0; h < old->ngroups; h++)
		hashidx_add(&idx, old->groups[h].hash, h);
	for (g = 0; g < new->ngroups; g++) {
		int found = 0;

		for (pos = 0; !found && hashidx_next(&idx, new->groups[g].hash,
						     &pos, &h);)
			found = compare_same_config(&new->groups[g],
						    &old->groups[h]);
		if (!found) {
			r->unmatched++;
			continue;
		}
		for (i = 0; i < figs.n; i++)
			if (figs.v[i].kind == FIG_TEST)
				add_test(r, g, h, figs.v[i].test);
			else
				add_cell(r, g, h, &figs.v[i]);
	}
	fig_list_release(&figs);
	hashidx_release(&idx);
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), by_change);
}

void regress_release(struct regress *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
