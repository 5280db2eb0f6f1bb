// SPDX-License-Identifier: GPL-2.0-only
/* The pivot of a comparison by dimensions; see pivot.h. */
#include "report/analyze/pivot.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/record_util.h"
#include "lib/optable.h"
#include "lib/xalloc.h"

static void split(const char *list, struct pivot_axis *a)
{
	char *copy = xstrdup(list), *save = NULL, *w;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
		*(char **)record_append(&a->dims, &a->ndims,
					sizeof(*a->dims)) = xstrdup(w);
	free(copy);
}

/* Natural order: runs of digits by value, "-" (absent) last. */
static int natcmp(const char *a, const char *b)
{
	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return !strcmp(a, b) ? 0 : !strcmp(a, "-") ? 1 : -1;
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			double x = strtod(a, &ea), y = strtod(b, &eb);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return tolower((unsigned char)*a) -
			       tolower((unsigned char)*b);
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int keycmp(char **a, char **b, size_t n)
{
	size_t i;
	int d;

	for (i = 0; i < n; i++)
		if ((d = natcmp(a[i], b[i])))
			return d;
	return 0;
}

/* The place of group g's key on axis a, added in order when new. */
static void place(struct pivot_axis *a, const struct cmp_group *grp)
{
	char **key = xcalloc(a->ndims, sizeof(*key));
	size_t i, k;

	for (i = 0; i < a->ndims; i++) {
		const char *v = dims_get(&grp->dims, a->dims[i]);

		key[i] = xstrdup(v ? v : "-");
	}
	for (k = 0; k < a->nkeys; k++) {
		int d = keycmp(key, a->keys[k], a->ndims);

		if (!d) {
			for (i = 0; i < a->ndims; i++)
				free(key[i]);
			free(key);
			return;
		}
		if (d < 0)
			break;
	}
	a->keys = xrealloc(a->keys, (a->nkeys + 1) * sizeof(*a->keys));
	memmove(a->keys + k + 1, a->keys + k,
		(a->nkeys - k) * sizeof(*a->keys));
	a->keys[k] = key;
	a->nkeys++;
}

static size_t find_key(const struct pivot_axis *a, const struct cmp_group *g)
{
	size_t k, i;

	for (k = 0; k < a->nkeys; k++) {
		for (i = 0; i < a->ndims; i++) {
			const char *v = dims_get(&g->dims, a->dims[i]);

			if (strcmp(v ? v : "-", a->keys[k][i]))
				break;
		}
		if (i == a->ndims)
			return k;
	}
	return 0;	/* not reached: every group was placed */
}

int pivot_build(struct pivot *p, const struct compare *c, const char *rows,
		const char *cols, char *err, size_t errlen)
{
	size_t g, i;

	memset(p, 0, sizeof(*p));
	split(rows ? rows : "", &p->rows);
	split(cols ? cols : "", &p->cols);
	if (!p->rows.ndims || !p->cols.ndims) {
		snprintf(err, errlen, "a pivot needs both --rows and "
			 "--columns, each a comma-separated list of "
			 "dimensions");
		pivot_release(p);
		return -1;
	}
	for (i = 0; i < p->rows.ndims + p->cols.ndims; i++) {
		const char *d = i < p->rows.ndims ? p->rows.dims[i] :
				p->cols.dims[i - p->rows.ndims];
		int any = 0;

		for (g = 0; g < i; g++)
			if (!strcmp(d, g < p->rows.ndims ? p->rows.dims[g] :
				    p->cols.dims[g - p->rows.ndims]))
				break;
		if (g < i) {
			snprintf(err, errlen, "the dimension '%s' is named "
				 "twice in --rows and --columns (a pivot sets "
				 "different dimensions against each other)", d);
			pivot_release(p);
			return -1;
		}
		for (g = 0; g < c->ngroups; g++)
			any |= dims_get(&c->groups[g].dims, d) != NULL;
		if (!any) {
			snprintf(err, errlen, "no run has the dimension '%s' "
				 "(tags, detected facts or inferred from the "
				 "label)", d);
			pivot_release(p);
			return -1;
		}
	}
	p->ngroups = c->ngroups;
	p->grow = xcalloc(c->ngroups, sizeof(*p->grow));
	p->gcol = xcalloc(c->ngroups, sizeof(*p->gcol));
	for (g = 0; g < c->ngroups; g++) {
		place(&p->rows, &c->groups[g]);
		place(&p->cols, &c->groups[g]);
	}
	for (g = 0; g < c->ngroups; g++) {
		p->grow[g] = find_key(&p->rows, &c->groups[g]);
		p->gcol[g] = find_key(&p->cols, &c->groups[g]);
	}
	return 0;
}

static void axis_release(struct pivot_axis *a)
{
	size_t k, i;

	for (k = 0; k < a->nkeys; k++) {
		for (i = 0; i < a->ndims; i++)
			free(a->keys[k][i]);
		free(a->keys[k]);
	}
	for (i = 0; i < a->ndims; i++)
		free(a->dims[i]);
	free(a->keys);
	free(a->dims);
}

void pivot_release(struct pivot *p)
{
	axis_release(&p->rows);
	axis_release(&p->cols);
	free(p->grow);
	free(p->gcol);
	fig_list_release(&p->figs);
	memset(p, 0, sizeof(*p));
}

void pivot_cell(const struct pivot *p, const struct compare *c, size_t row,
		size_t col, const struct fig_id *f,
		const struct pivot_classes *cls, size_t k,
		struct pivot_cell *cell)
{
	double *v = xcalloc(c->nrecs + 1, sizeof(*v));
	size_t g, r, n = 0;

	memset(cell, 0, sizeof(*cell));
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		int used = 0;

		if (p->grow[g] != row || p->gcol[g] != col)
			continue;
		for (r = 0; r < grp->nruns; r++) {
			int too_fast;
			double x;

			if (cls && k != PIVOT_ALL &&
			    cls->of_run[grp->runs[r]] != k)
				continue;
			x = fig_run_value(c, grp->runs[r], f, &too_fast);
			if (too_fast) {
				cell->too_fast++;
				used = 1;
			}
			if (isnan(x))
				continue;
			v[n++] = x;
			used = 1;
		}
		cell->nconfigs += used;
	}
	stats_summarise(v, n, &cell->sum);
	free(v);
}

int pivot_row_has(const struct pivot *p, const struct compare *c,
		  size_t row, const struct fig_id *f,
		  const struct pivot_classes *cls, size_t k)
{
	size_t col;

	for (col = 0; col < p->cols.nkeys; col++) {
		struct pivot_cell cell;

		pivot_cell(p, c, row, col, f, cls, k, &cell);
		if (cell.nconfigs)
			return 1;
	}
	return 0;
}

char *pivot_key_name(const struct pivot_axis *a, size_t k)
{
	char *s = xstrdup(""), *n;
	size_t i;

	for (i = 0; i < a->ndims; i++) {
		n = xasprintf("%s%s%s", s, i ? " " : "", a->keys[k][i]);
		free(s);
		s = n;
	}
	return s;
}

int pivot_figures(struct pivot *p, const struct compare *c,
		  const char *figure, char *err, size_t errlen)
{
	struct fig_list all;
	size_t i;
	int rc = 0;

	fig_list_build(&all, c);
	if (figure) {
		char why[160];

		if (fig_select(&all, c, figure, &p->figs, why, sizeof(why)))
			rc = errf(err, errlen, "--figure '%s': neither a test "
				  "nor a matrix cell: %s", figure, why);
		else if (!p->figs.n)
			rc = errf(err, errlen, "--figure '%s': no run has a "
				  "figure of that name (clyde report "
				  "--list-figures lists them)", figure);
		fig_list_release(&all);
		return rc;
	}
	for (i = 0; i < all.n; i++)
		if (all.v[i].kind == FIG_TEST ||
		    (all.v[i].kind == FIG_IOPS && !all.v[i].cell.curve_pct))
			*(struct fig_id *)record_append(&p->figs.v,
				&p->figs.n, sizeof(*p->figs.v)) = all.v[i];
	fig_list_release(&all);
	if (!p->figs.n)
		rc = errf(err, errlen, "--rows/--columns: nothing to lay out: "
			  "no run has a test with a figure or a matrix cell");
	return rc;
}
