/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_REGRESS_H
#define CLYDE_REGRESS_H

/*
 * Regression watch (`clyde report --baseline-file OLD NEW...`): each new
 * configuration against the same configuration (every attribute equal)
 * of a stored baseline set, test by test: the ratio of the means and
 * Welch's test; significant changes first, largest first, then the rest.
 */

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "stats.h"

struct regress_item {
	size_t g_new, g_old;	/* groups of the new and old comparisons */
	size_t t_new;		/* test index in the new comparison */
	double old_mean, new_mean, ratio;
	struct stats_welch w;	/* new against old */
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

/* Whether item i is a significant change. */
int regress_significant(const struct regress_item *it);

/* The watch as text (80 columns); name: the baseline file. */
int regress_write_text(const struct regress *r, const char *name,
		       FILE *out);

#endif
