// SPDX-License-Identifier: GPL-2.0-only
/* Repeat statistics; see stats.h. */
#include "stats.h"

#include <float.h>
#include <math.h>

void stats_summarise(const double *v, size_t n, struct stats_summary *s)
{
	double sum = 0, sq = 0;
	size_t i;

	s->n = n;
	s->mean = s->sd = s->ci_half = s->cv = NAN;
	s->noisy = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	if (n < 2)
		return;
	/* two passes: no cancellation between large, close values */
	for (i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(sq / (double)(n - 1));
	s->ci_half = stats_t_quantile(1 - STATS_ALPHA / 2, (double)(n - 1)) *
		     s->sd / sqrt((double)n);
	if (s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
	s->noisy = s->ci_half > STATS_NOISY_SHARE * fabs(s->mean);
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
