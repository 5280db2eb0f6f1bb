/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_STATS_H
#define CLYDE_STATS_H

/*
 * The statistics of `clyde report`, all in stats.c with their formulas
 * and sources: mean, sample standard deviation, coefficient of variation;
 * the 95 % interval of a rate (Student's t on the logarithms, back-
 * transformed: an interval of the geometric mean, always positive);
 * Welch's two-sample t-test with the Welch-Satterthwaite degrees of
 * freedom; whether two figures differ (Welch where both sides have
 * repeats, else a stated noise band); the 95 % interval of the ratio of
 * two configurations (log-ratio Welch interval); the non-inferiority
 * verdict of a "not worse" criterion against a margin, and the runs that
 * would settle an inconclusive one.  The t distribution is computed
 * (regularized incomplete beta function by its continued fraction), not
 * read from a table, so any count of repeats gets its exact quantile.
 */

#include <stddef.h>

/* A "noisy" figure: 95 % interval reaching beyond +-5 % of the mean. */
#define STATS_NOISY_SHARE 0.05
/* Significance level of the confidence intervals and of the test. */
#define STATS_ALPHA 0.05
/* Power the sample-size estimate of an inconclusive check aims at. */
#define STATS_POWER 0.80
/* Default noise band for single runs: +-10 % (clyde report --noise-band). */
#define STATS_NOISE_BAND 0.10
/* Default non-inferiority margin of a not_worse criterion. */
#define STATS_NI_MARGIN 0.95

struct stats_summary {
	size_t n;
	double mean;
	double sd;		/* sample (n - 1); NAN when n < 2 */
	double cv;		/* sd / |mean|; NAN when n < 2 or mean 0 */
	/*
	 * On the logarithms, when every value is > 0 (else NAN): their mean
	 * and sample sd, and the 95 % interval of the geometric mean
	 * exp(lmean +- t * lsd / sqrt(n)); NAN when n < 2.
	 */
	double lmean, lsd;
	double ci_lo, ci_hi;
	int noisy;		/* ci_hi / gmean > 1 + STATS_NOISY_SHARE */
};

/* Summarise n values (n 0: everything NAN, n 1: mean only). */
void stats_summarise(const double *v, size_t n, struct stats_summary *s);

/* Whether s has an interval (n >= 2, every value positive). */
int stats_has_interval(const struct stats_summary *s);

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

/*
 * Whether a differs from b, the one rule every colour and every "higher"
 * or "lower" of the report follows: with 2 or more runs on both sides,
 * Welch's test at 95 %; otherwise (a side with a single run, no spread to
 * test against) only when a / b is beyond 1 +- band.
 */
struct stats_diff {
	enum stats_verdict verdict;	/* UNTESTED: a side has no figure */
	int sign;		/* +1 a higher, -1 lower, 0 no difference */
	int by_band;		/* judged by the noise band, not Welch */
	double band;
	double ratio;		/* a / b (means); NAN when b <= 0 */
	struct stats_welch w;	/* when !by_band */
};
void stats_difference(const struct stats_summary *a,
		      const struct stats_summary *b, double band,
		      struct stats_diff *d);

/*
 * The 95 % interval of the ratio a / b of two configurations' geometric
 * means: Welch's interval of the difference of the mean logarithms,
 * back-transformed.  ok 0 when a side has fewer than 2 runs or a value
 * that is not positive.
 */
struct stats_ratio {
	int ok;
	double ratio;		/* exp(lmean_a - lmean_b) */
	double lo, hi;
	double df;
};
void stats_ratio_ci(const struct stats_summary *a,
		    const struct stats_summary *b, struct stats_ratio *r);

/*
 * Non-inferiority of a (candidate) to b (baseline) with margin m: PASS
 * when the lower 95 % bound of the ratio is above m, FAIL when the upper
 * bound is below m (the data show it worse than the margin), otherwise
 * INCONCLUSIVE, also when there is no interval (too few runs).
 * runs: the runs per configuration that would settle it (see stats.c),
 * 0 when the spread is unknown (no side has repeats).
 */
enum stats_ni { STATS_NI_PASS, STATS_NI_FAIL, STATS_NI_INCONCLUSIVE };
struct stats_noninf {
	enum stats_ni verdict;
	struct stats_ratio r;
	double margin;
	size_t runs;		/* per configuration; 0: unknown */
};
/* More runs than this are "more than" it. */
#define STATS_MAX_RUNS 1000
void stats_noninferior(const struct stats_summary *a,
		       const struct stats_summary *b, double margin,
		       struct stats_noninf *ni);

#endif
