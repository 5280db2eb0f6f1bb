/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CRITERIA_RULE_H
#define CLYDE_CRITERIA_RULE_H

/*
 * A criterion as criteria_load.c reads it and criteria.c checks it: what
 * figure it bounds, of what kind, and the bound.  Not a public API.
 */

#include <stdint.h>

#include "report/analyze/figures.h"

enum crit_what {
	W_MIN, W_MAX, W_MAX_CPU, W_MAX_CV, W_MIN_RATIO, W_NOT_WORSE,
	W_LAT,		/* a figure of the test's latency summary */
	/* matrix */
	W_MIN_IOPS, W_MIN_MBPS, W_RD, W_WR,	/* W_RD, W_WR: of the cell's
						 * read, write summary */
	W_MX_RATIO,
	W_IOPS_AT,	/* the most IO/s of a cell's curve (and the cell)
			 * at a response time (lat) at most at_ns */
};

enum crit_kind { K_RATE, K_TIME, K_PCT, K_RATIO, K_BOOL, K_COUNT };

struct crit_rule {
	char *section, *key, *bound;
	enum crit_what what;
	enum crit_kind kind;
	int upper;
	int lat;		/* of keys[] */
	double limit;		/* rates as given (scale below), times in ns,
				 * percentages as a fraction */
	double scale;		/* rates: KiB/s (MiB/s for min_mbps) per unit
				 * written; 0 when written without a unit */
	char unit[16];		/* as written, for showing the measured */
	double at_ns;		/* W_IOPS_AT: the response time */
	double margin;		/* not_worse: the non-inferiority margin */
	/* the section: a test, all tests, or the cells a name selects
	 * (report/analyze/figures.h) */
	int all, matrix;
	struct fig_sel cell;
};

#endif
