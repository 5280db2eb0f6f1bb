/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_REGRESS_H
#define CLYDE_REGRESS_H

/*
 * Regression watch (`clyde report --baseline-file OLD NEW...`): each new
 * configuration against the same configuration (every attribute equal)
 * of a stored baseline set, test by test: the ratio of the means and
 * Welch's test; significant changes first, largest first, then the rest.
 * Matrix cells are watched as tests are, by their XDISK figures (IO/s,
 * MB/s, mean read and write ms: report/analyze/figures.h), a cell against
 * the cell of the same name.
 */

#include <stddef.h>
#include <stdio.h>

#include "report/analyze/compare.h"
#include "report/analyze/figures.h"
#include "report/analyze/stats.h"

struct regress_item {
	size_t g_new, g_old;	/* groups of the new and old comparisons */
	size_t t_new;		/* test index in the new comparison, or
				 * (size_t)-1 for a matrix cell's figure */
	struct fig_id fig;	/* the figure, in the new comparison */
	int higher_better;	/* 0: a latency, lower is better */
	double old_mean, new_mean, ratio;
	struct stats_welch w;	/* new against old */
	struct stats_diff d;	/* the same, or the noise band for single
				 * runs (stats_difference) */
};

struct regress {
	const struct compare *old, *new;
	struct regress_item *v;
	size_t n, nsig;
	size_t unmatched;	/* new configurations the baseline lacks */
};

void regress_build(struct regress *r, const struct compare *old,
		   const struct compare *new);
void regress_release(struct regress *r);

/* The watch as text (80 columns); name: the baseline file. */
int regress_write_text(const struct regress *r, const char *name,
		       FILE *out);

#endif
