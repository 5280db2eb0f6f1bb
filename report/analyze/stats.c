// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's statistics; see stats.h.  Every formula is here, with its
 * source, so that a reader can check a figure of the report by hand.
 *
 * Notation: n values x_i; mean m = sum x_i / n; sample standard deviation
 * s = sqrt(sum (x_i - m)^2 / (n - 1)); t(p, df) the p-quantile of
 * Student's t with df degrees of freedom.
 */
#include "report/analyze/stats.h"

#include <float.h>
#include <math.h>

/*
 * The t quantile of a two-sided interval with df degrees of freedom:
 * every configuration of as many runs asks the same one, and each answer
 * is a bisection of some 60 incomplete beta functions (a text report of
 * 300 configurations spent 6 % of its CPU there).  Remembered per
 * thread for the df a report meets.
 */
static double interval_quantile(size_t df)
{
	static _Thread_local double known[64];

	if (df >= sizeof(known) / sizeof(known[0]))
		return stats_t_quantile(1 - STATS_ALPHA / 2, (double)df);
	if (!known[df])
		known[df] = stats_t_quantile(1 - STATS_ALPHA / 2, (double)df);
	return known[df];
}


/*
 * Why a rate's interval is computed on the logarithms.
 *
 * The textbook interval m +- t(0.975, n-1) s / sqrt(n) is symmetric and
 * unbounded below: with n = 2, t(0.975, 1) = 12.706, and two block writes
 * of 117 and 195 MB/s give -339 .. 651 MB/s, an interval that claims a
 * negative rate is plausible.  A rate is positive and its run-to-run
 * spread grows with its level (a cache or a queue scales it by a factor,
 * it does not add a constant), so the natural model is multiplicative:
 * log x_i normal.  Then the t interval of the mean of the logarithms,
 *
 *     L = mean(log x_i),  S = sd(log x_i),
 *     exp(L - t(0.975, n-1) S / sqrt(n)) .. exp(L + t(0.975, n-1) S / sqrt(n))
 *
 * is an exact 95 % interval for the geometric mean exp(E log x), always
 * positive and asymmetric as the data are (Limpert, Stahel and Abbt,
 * "Log-normal distributions across the sciences", BioScience 51 (2001)
 * 341-352; for benchmark results Fleming and Wallace, "How not to lie
 * with statistics: the correct way to summarize benchmark results", CACM
 * 29 (1986) 218-221, who argue the geometric mean for ratios of rates).
 * For n = 2 it is still wide (117 and 195: 5.9 .. 3877 MB/s), which is
 * the truth about two runs; the report prints it and the noisy mark.
 * The report shows the arithmetic mean beside it (bonnie++'s figure);
 * for spreads of a few per cent the two means agree to a fraction of the
 * interval.
 */
void stats_summarise(const double *v, size_t n, struct stats_summary *s)
{
	double sum = 0, sq = 0, lsum = 0, lsq = 0, q, half;
	size_t i;
	int positive = 1;

	s->n = n;
	s->mean = s->sd = s->cv = NAN;
	s->lmean = s->lsd = s->ci_lo = s->ci_hi = NAN;
	s->noisy = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		sum += v[i];
		positive &= v[i] > 0;
	}
	s->mean = sum / (double)n;
	if (positive) {
		for (i = 0; i < n; i++)
			lsum += log(v[i]);
		s->lmean = lsum / (double)n;
	}
	if (n < 2)
		return;
	/* two passes: no cancellation between large, close values */
	for (i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(sq / (double)(n - 1));
	if (s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
	if (!positive)
		return;
	for (i = 0; i < n; i++)
		lsq += (log(v[i]) - s->lmean) * (log(v[i]) - s->lmean);
	s->lsd = sqrt(lsq / (double)(n - 1));
	q = interval_quantile(n - 1);
	half = q * s->lsd / sqrt((double)n);
	s->ci_lo = exp(s->lmean - half);
	s->ci_hi = exp(s->lmean + half);
	/* the interval's upper factor over the geometric mean */
	s->noisy = expm1(half) > STATS_NOISY_SHARE;
}

int stats_has_interval(const struct stats_summary *s)
{
	return s->n >= 2 && !isnan(s->ci_lo);
}

/*
 * The continued fraction of the incomplete beta function, evaluated by
 * the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d, f, num;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 300; m++) {
		double delta;
		int k;

		/* d_{2m} then d_{2m+1} */
		for (k = 0; k < 2; k++) {
			if (!k)
				num = m * (b - m) * x /
				      ((a + 2 * m - 1) * (a + 2 * m));
			else
				num = -(a + m) * (a + b + m) * x /
				      ((a + 2 * m) * (a + 2 * m + 1));
			d = 1 + num * d;
			if (fabs(d) < tiny)
				d = tiny;
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			d = 1 / d;
			delta = c * d;
			f *= delta;
		}
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return f;
}

double stats_betai(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * stats_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1, hi = 1, mid = 0;
	int i;

	if (p <= 0 || p >= 1 || !(df > 0))
		return NAN;
	while (stats_t_cdf(lo, df) > p)
		lo *= 2;
	while (stats_t_cdf(hi, df) < p)
		hi *= 2;
	/* bisection to the last bit: the CDF is monotonic and cheap */
	for (i = 0; i < 200 && hi - lo > 4 * DBL_EPSILON * fabs(mid); i++) {
		mid = lo + (hi - lo) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/*
 * Welch's t-test (B. L. Welch, "The generalization of 'Student's' problem
 * when several different population variances are involved", Biometrika
 * 34 (1947) 28-35), with the Welch-Satterthwaite degrees of freedom
 * (F. E. Satterthwaite, "An approximate distribution of estimates of
 * variance components", Biometrics Bulletin 2 (1946) 110-114):
 *
 *     va = sa^2 / na,  vb = sb^2 / nb,
 *     t  = (ma - mb) / sqrt(va + vb),
 *     df = (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)),
 *     p  = 2 P(T_df <= -|t|).
 *
 * It is what R's t.test(a, b) computes by default (var.equal = FALSE);
 * t/t3010-stats.c checks it against values worked by hand.  On the
 * values themselves, not their logarithms, so that its p and df are the
 * ones a reader gets from the figures the report prints.
 */
void stats_welch_test(const struct stats_summary *a,
		      const struct stats_summary *b, struct stats_welch *w)
{
	double va, vb, se2;

	w->verdict = STATS_UNTESTED;
	w->t = w->df = w->p = NAN;
	if (a->n < 2 || b->n < 2)
		return;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0) {
		w->t = a->mean == b->mean ? 0 :
		       a->mean > b->mean ? INFINITY : -INFINITY;
		w->p = a->mean == b->mean ? 1 : 0;
		w->df = (double)(a->n + b->n - 2);
	} else {
		w->t = (a->mean - b->mean) / sqrt(se2);
		w->df = se2 * se2 / (va * va / (double)(a->n - 1) +
				     vb * vb / (double)(b->n - 1));
		w->p = 2 * stats_t_cdf(-fabs(w->t), w->df);
	}
	w->verdict = w->p < STATS_ALPHA ? STATS_DIFFERENT : STATS_SAME;
}

/*
 * A difference, as the report colours and words it.  Both sides with
 * repeats: Welch's test above.  A side with one run has no spread to
 * test against (a one-run "sample variance" does not exist), and a 1-2 %
 * difference between single runs is within what a storage stack varies
 * from run to run; so a single run differs only when the ratio of the
 * means leaves the stated band: |a / b - 1| > band (default 10 %,
 * `clyde report --noise-band`), and every page and text that shows such
 * a difference states the band.
 */
void stats_difference(const struct stats_summary *a,
		      const struct stats_summary *b, double band,
		      struct stats_diff *d)
{
	d->verdict = STATS_UNTESTED;
	d->sign = 0;
	d->by_band = 0;
	d->band = band;
	d->ratio = b->n && b->mean > 0 && a->n ? a->mean / b->mean : NAN;
	stats_welch_test(a, b, &d->w);
	if (!a->n || !b->n)
		return;
	if (d->w.verdict != STATS_UNTESTED) {
		d->verdict = d->w.verdict;
		if (d->verdict == STATS_DIFFERENT)
			d->sign = d->w.t > 0 ? 1 : -1;
		return;
	}
	d->by_band = 1;
	if (isnan(d->ratio))
		return;
	d->verdict = fabs(d->ratio - 1) > band ? STATS_DIFFERENT : STATS_SAME;
	if (d->verdict == STATS_DIFFERENT)
		d->sign = d->ratio > 1 ? 1 : -1;
}

/*
 * The interval of a ratio.  Of the two standard ways, Fieller's theorem
 * (E. C. Fieller, "Some problems in interval estimation", J. Royal
 * Statistical Society B 16 (1954) 175-185) gives an interval for the
 * ratio of arithmetic means that is unbounded, or the whole line, as
 * soon as the baseline's mean is not significantly above zero, which is
 * the case with two runs (t(0.975, 1) = 12.7).  The log-ratio interval
 * stays finite and positive: Welch's interval for the difference of the
 * mean logarithms, back-transformed,
 *
 *     D  = La - Lb,  va = Sa^2 / na,  vb = Sb^2 / nb,
 *     df = (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)),
 *     exp(D - t(0.975, df) sqrt(va + vb)) .. exp(D + t(0.975, df) sqrt(va + vb)),
 *
 * an interval for the ratio of the geometric means (the usual analysis
 * of ratios in bioequivalence: FDA Guidance "Statistical Approaches to
 * Establishing Bioequivalence", 2001, section VI; Limpert et al. above).
 */
void stats_ratio_ci(const struct stats_summary *a,
		    const struct stats_summary *b, struct stats_ratio *r)
{
	double va, vb, se, q, d;

	r->ok = 0;
	r->ratio = r->lo = r->hi = r->df = NAN;
	if (!isnan(a->lmean) && !isnan(b->lmean))
		r->ratio = exp(a->lmean - b->lmean);
	if (!stats_has_interval(a) || !stats_has_interval(b))
		return;
	d = a->lmean - b->lmean;
	va = a->lsd * a->lsd / (double)a->n;
	vb = b->lsd * b->lsd / (double)b->n;
	se = sqrt(va + vb);
	r->ok = 1;
	if (se <= 0) {
		r->df = (double)(a->n + b->n - 2);
		r->lo = r->hi = r->ratio;
		return;
	}
	r->df = (va + vb) * (va + vb) / (va * va / (double)(a->n - 1) +
					 vb * vb / (double)(b->n - 1));
	q = stats_t_quantile(1 - STATS_ALPHA / 2, r->df);
	r->lo = exp(d - q * se);
	r->hi = exp(d + q * se);
}

/*
 * Runs per configuration that would settle a non-inferiority check, the
 * standard sample size of a two-sample parallel comparison against a
 * margin (S.-C. Chow, J. Shao and H. Wang, "Sample Size Calculations in
 * Clinical Research", 2nd ed., Chapman & Hall 2008, section 3.2.2), in
 * its t form (S. A. Julious, "Sample sizes for clinical trials with
 * Normal data", Statistics in Medicine 23 (2004) 1921-1986):
 *
 *     the least n with (t(0.975, 2n-2) + t(power, 2n-2)) S sqrt(2 / n)
 *                      <= | D - log m |,
 *
 * where D is the observed log ratio, m the margin, power STATS_POWER and
 * S^2 the pooled variance of the logarithms of the sides with repeats
 * (a side with one run is taken to vary as the other).  It assumes the
 * observed ratio and spread are the true ones, so it is an estimate: at
 * that many runs each, 4 in 5 repeats of the whole qualification would
 * settle the check one way.  A ratio exactly at the margin never settles
 * (more than STATS_MAX_RUNS); no side with repeats: 0, unknown.
 */
static size_t runs_to_settle(const struct stats_summary *a,
			     const struct stats_summary *b, double margin)
{
	double ss = 0, dfs = 0, s, delta;
	size_t n;

	if (isnan(a->lmean) || isnan(b->lmean))
		return 0;
	if (a->n >= 2 && !isnan(a->lsd)) {
		ss += (double)(a->n - 1) * a->lsd * a->lsd;
		dfs += (double)(a->n - 1);
	}
	if (b->n >= 2 && !isnan(b->lsd)) {
		ss += (double)(b->n - 1) * b->lsd * b->lsd;
		dfs += (double)(b->n - 1);
	}
	if (!dfs)
		return 0;
	s = sqrt(ss / dfs);
	delta = fabs(a->lmean - b->lmean - log(margin));
	for (n = 2; n <= STATS_MAX_RUNS; n++) {
		double df = (double)(2 * n - 2);
		double k = stats_t_quantile(1 - STATS_ALPHA / 2, df) +
			   stats_t_quantile(STATS_POWER, df);

		if (k * s * sqrt(2.0 / (double)n) <= delta)
			return n;
	}
	return STATS_MAX_RUNS + 1;
}

/*
 * Non-inferiority (a "not worse" check): the candidate is shown not worse
 * than the baseline by more than the margin when the lower bound of the
 * two-sided 95 % interval of the ratio is above the margin, a one-sided
 * test at 2.5 % (ICH E9 "Statistical principles for clinical trials",
 * 1998, section 3.3.2; G. Piaggio et al., "Reporting of noninferiority
 * and equivalence randomized trials", JAMA 308 (2012) 2594-2604).  A
 * difference that is "not significant" is no such evidence: with two
 * runs a ratio of 0.60 is not significant, and not shown to be fine.
 */
void stats_noninferior(const struct stats_summary *a,
		       const struct stats_summary *b, double margin,
		       struct stats_noninf *ni)
{
	stats_ratio_ci(a, b, &ni->r);
	ni->margin = margin;
	ni->runs = 0;
	if (ni->r.ok && ni->r.lo > margin) {
		ni->verdict = STATS_NI_PASS;
		return;
	}
	if (ni->r.ok && ni->r.hi < margin) {
		ni->verdict = STATS_NI_FAIL;
		return;
	}
	ni->verdict = STATS_NI_INCONCLUSIVE;
	ni->runs = runs_to_settle(a, b, margin);
}
