// SPDX-License-Identifier: GPL-2.0-only
/* Regression watch against a stored baseline set; see regress.h. */
#include "regress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record_util.h"
#include "report.h"
#include "textcols.h"
#include "../lib/xalloc.h"

/* The configuration column: the rows of the table are then 80 wide. */
#define REGRESS_NAME_W 20

int regress_significant(const struct regress_item *it)
{
	return it->w.verdict == STATS_DIFFERENT;
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

void regress_build(struct regress *r, const struct compare *old,
		   const struct compare *new)
{
	size_t g, h, t, u;

	memset(r, 0, sizeof(*r));
	r->old = old;
	r->new = new;
	for (g = 0; g < new->ngroups; g++) {
		for (h = 0; h < old->ngroups; h++)
			if (compare_same_config(&new->groups[g],
						&old->groups[h]))
				break;
		if (h == old->ngroups) {
			r->unmatched++;
			continue;
		}
		for (t = 0; t < new->ntests; t++) {
			const struct cmp_stat *sn = &new->groups[g].stats[t];
			const struct cmp_stat *so;
			struct regress_item *it;

			for (u = 0; u < old->ntests; u++)
				if (!strcmp(old->tests[u].name,
					    new->tests[t].name))
					break;
			if (u == old->ntests || !sn->n)
				continue;
			so = &old->groups[h].stats[u];
			if (!so->n)
				continue;
			it = record_append(&r->v, &r->n, sizeof(*r->v));
			it->g_new = g;
			it->g_old = h;
			it->t_new = t;
			it->old_mean = so->mean;
			it->new_mean = sn->mean;
			it->ratio = so->mean > 0 ? sn->mean / so->mean : NAN;
			stats_welch_test(&sn->sum, &so->sum, &it->w);
			r->nsig += regress_significant(it);
		}
	}
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), by_change);
}

void regress_release(struct regress *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

int regress_write_text(const struct regress *r, const char *name,
		       FILE *out)
{
	struct cmp_names names;
	char *head, **fit;
	size_t i;

	/* the file's name may be long: wrapped, as every line, to 80 */
	head = xasprintf("Regression watch against %s: %zu significant change%s "
			 "in %zu compared figure%s", name, r->nsig,
			 r->nsig == 1 ? "" : "s", r->n, r->n == 1 ? "" : "s");
	text_wrap(out, head, 80, 4);
	free(head);
	if (r->unmatched)
		fprintf(out, "(%zu configuration%s not in the baseline set)\n",
			r->unmatched, r->unmatched == 1 ? "" : "s");
	compare_names_init(&names, r->new);
	fit = compare_names_fit_all(&names, r->new, REGRESS_NAME_W);
	if (r->n && names.common_virt)
		report_text_common_virt(names.common_virt, out);
	if (r->n)
		fprintf(out, "%-3s %-*s %-17s %10s %10s %6s %s\n", "cfg",
			REGRESS_NAME_W,
			"configuration", "test", "baseline", "now", "ratio",
			"verdict");
	for (i = 0; i < r->n; i++) {
		const struct regress_item *it = &r->v[i];
		const char *unit = r->new->tests[it->t_new].unit;
		const char *n = fit[it->g_new];
		char a[32], b[32], ra[16];

		if (i == r->nsig && r->nsig)
			fputs("--- not significant or untested:\n", out);
		report_fmt_value(a, sizeof(a), it->old_mean, unit);
		report_fmt_value(b, sizeof(b), it->new_mean, unit);
		if (isnan(it->ratio))
			snprintf(ra, sizeof(ra), "-");
		else
			snprintf(ra, sizeof(ra), "%.2f", it->ratio);
		/* the name padded by columns (UTF-8), never cut again */
		fprintf(out, "%-3zu %s%*s %-17.17s %10.10s %10.10s %6s "
			"%s\n", it->g_new + 1, n, text_cols(n) <
			REGRESS_NAME_W ? (int)(REGRESS_NAME_W - text_cols(n)) :
			0, "",
			r->new->tests[it->t_new].title, a, b, ra,
			it->w.verdict == STATS_DIFFERENT ?
			(it->w.t > 0 ? "up" : "DOWN") :
			it->w.verdict == STATS_SAME ? "same" : "untested");
	}
	compare_names_free_all(fit, names.n);
	compare_names_release(&names);
	return ferror(out) ? -1 : 0;
}
