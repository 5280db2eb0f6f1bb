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
 *
 * The figures are tests' and matrix cells' (report/analyze/figures.h).
 * A cell pools only comparable runs: of one tool family (clyde,
 * bonnie++, fio), file size, -n shape and, for the per-char tests, one
 * per-char mode.  Where the runs of a figure differ in these, each kind
 * is a class of its own, laid out in rows apart and named by what sets
 * it apart ("bonnie++, file 5G").
 */

#include <stddef.h>
#include <stdio.h>

#include "report/analyze/compare.h"
#include "report/analyze/figures.h"
#include "report/analyze/stats.h"

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
	struct fig_list figs;	/* the figures laid out, in order */
};

/* The comparable classes of the runs of one figure. */
struct pivot_classes {
	size_t n;		/* classes (1: all runs comparable) */
	size_t *of_run;		/* [nrecs]: each run's class */
	char **name;		/* [n]: what sets it apart; "" when n is 1 */
};

#define PIVOT_ALL ((size_t)-1)

void pivot_classes(const struct compare *c, const struct fig_id *f,
		   struct pivot_classes *cls);
void pivot_classes_release(struct pivot_classes *cls);

/* Whether class k has a run with a value in row row. */
int pivot_row_has(const struct pivot *p, const struct compare *c,
		  size_t row, const struct fig_id *f,
		  const struct pivot_classes *cls, size_t k);

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

/* The cell (row, col) of figure f over the runs of class k of cls
 * (PIVOT_ALL, cls NULL: every run). */
void pivot_cell(const struct pivot *p, const struct compare *c, size_t row,
		size_t col, const struct fig_id *f,
		const struct pivot_classes *cls, size_t k,
		struct pivot_cell *cell);

/* "xfs", "fc 5": the values of key k of an axis joined by spaces. */
char *pivot_key_name(const struct pivot_axis *a, size_t k);

/*
 * The figures to lay out into p->figs: those figure names (a test, a
 * matrix cell or figure: figures.h), or every test with a figure and
 * every matrix cell's IO/s.  0, or -1 with err when nothing is left to
 * show (exit status 2: a pivot never succeeds empty).
 */
int pivot_figures(struct pivot *p, const struct compare *c,
		  const char *figure, char *err, size_t errlen);

/* Text: a table per figure, fitting 80 columns (wrapped into blocks). */
int pivot_write_text(const struct pivot *p, const struct compare *c,
		     FILE *out);

/*
 * CSV: per figure a header row (test, unit, the row dimensions, then one
 * column per column key as "dim=value;dim=value", then "runs": the class
 * when the runs fall in several) and a row per row key (and class) with
 * the means; then the same cells long, one row per cell with n, sd,
 * interval, the count of configurations pooled and the class.
 */
int pivot_write_csv(const struct pivot *p, const struct compare *c,
		    FILE *out);

#endif
