/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_STATS_H
#define CLYDE_STATS_H

/*
 * Repeat statistics of `clyde report`: mean, sample standard deviation,
 * the 95 % confidence interval of the mean from Student's t, coefficient
 * of variation, and Welch's two-sample t-test with the Welch-Satterthwaite
 * degrees of freedom.  The t distribution is computed (regularized
 * incomplete beta function by its continued fraction), not read from a
 * table, so any count of repeats gets its exact quantile.
 */

#include <stddef.h>

/* A "noisy" figure: CI half-width above this share of the mean. */
#define STATS_NOISY_SHARE 0.05
/* Significance level of the confidence intervals and of the test. */
#define STATS_ALPHA 0.05

struct stats_summary {
	size_t n;
	double mean;
	double sd;		/* sample (n - 1); NAN when n < 2 */
	double ci_half;		/* 95 % half-width; NAN when n < 2 */
	double cv;		/* sd / |mean|; NAN when n < 2 or mean 0 */
	int noisy;		/* ci_half > STATS_NOISY_SHARE * |mean| */
};

/* Summarise n values (n 0: everything NAN, n 1: mean only). */
void stats_summarise(const double *v, size_t n, struct stats_summary *s);

/* P(T <= t) for Student's t with df > 0 degrees of freedom (real). */
double stats_t_cdf(double t, double df);

/* The p-quantile (0 < p < 1) of Student's t with df > 0. */
double stats_t_quantile(double p, double df);

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
double stats_betai(double a, double b, double x);

enum stats_verdict {
	STATS_UNTESTED = 0,	/* a side has fewer than 2 runs */
	STATS_SAME,		/* no significant difference at 95 % */
	STATS_DIFFERENT,	/* significant at 95 % */
};

struct stats_welch {
	enum stats_verdict verdict;
	double t;		/* (mean1 - mean2) / standard error */
	double df;		/* Welch-Satterthwaite */
	double p;		/* two-sided */
};

/*
 * Welch's t-test of a against b.  Both without spread but with different
 * means is a difference (t infinite, p 0); both without spread and equal
 * is none.
 */
void stats_welch_test(const struct stats_summary *a,
		      const struct stats_summary *b, struct stats_welch *w);

#endif
