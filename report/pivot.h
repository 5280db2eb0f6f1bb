/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_PIVOT_H
#define CLYDE_PIVOT_H

/*
 * The pivot of `clyde report --rows DIM[,DIM] --columns DIM[,DIM]`: the
 * configurations laid out by their dimensions (report/dims.h), one
 * figure per cell: the mean over the runs of every configuration that
 * falls in it, with n and the 95 % interval.  Rows and columns are the
 * combinations of values that occur, in natural order (numbers by value),
 * a configuration without a dimension under "-".
 */

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "stats.h"

struct pivot_axis {
	char **dims;		/* names */
	size_t ndims;
	char ***keys;		/* [nkeys][ndims] values ("-": absent) */
	size_t nkeys;
};

struct pivot {
	struct pivot_axis rows, cols;
	size_t *grow, *gcol;	/* [ngroups]: each configuration's place */
	size_t ngroups;
};

/* A cell's figure of one test. */
struct pivot_cell {
	struct stats_summary sum;	/* over the pooled runs */
	size_t nconfigs;		/* configurations pooled */
	size_t too_fast;		/* runs that printed +++++ */
};

/* rows, cols: comma-separated dimension names. */
int pivot_build(struct pivot *p, const struct compare *c, const char *rows,
		const char *cols, char *err, size_t errlen);
void pivot_release(struct pivot *p);

void pivot_cell(const struct pivot *p, const struct compare *c, size_t row,
		size_t col, size_t t, struct pivot_cell *cell);

/* "xfs", "fc 5": the values of key k of an axis joined by spaces. */
char *pivot_key_name(const struct pivot_axis *a, size_t k);

/*
 * The tests to lay out: the one named figure (a test's name or title),
 * or every test with a figure.  Returns the count written to out (room
 * for c->ntests), or -1 when figure names no test.
 */
int pivot_tests(const struct compare *c, const char *figure, size_t *out);

/* Text: a table per test, fitting 80 columns (wrapped into blocks). */
int pivot_write_text(const struct pivot *p, const struct compare *c,
		     const size_t *tests, size_t ntests, FILE *out);

/*
 * CSV: per test a header row (test, unit, the row dimensions, then one
 * column per column key as "dim=value;dim=value") and a row per row key
 * with the means; then the same cells long, one row per cell with n,
 * sd, interval and the count of configurations pooled.
 */
int pivot_write_csv(const struct pivot *p, const struct compare *c,
		    const size_t *tests, size_t ntests, FILE *out);

#endif
