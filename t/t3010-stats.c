// SPDX-License-Identifier: GPL-2.0-only
/*
 * Repeat statistics against hand-computed values: Student's t quantiles
 * (reference values to 15 digits, computed independently by numerical
 * integration of the t density), the 95 % interval, cv, the noisy mark,
 * Welch's test with its Welch-Satterthwaite degrees of freedom, and the
 * same figures through compare_build() on records.  The log-scale
 * intervals, the log-ratio interval, the non-inferiority verdict and the
 * runs that settle it were computed independently at 30 digits with
 * mpmath (t quantiles by root-finding on the regularized incomplete beta
 * function, checked by integrating the t density): exp(mean(log x) +-
 * t(0.975, n-1) sd(log x) / sqrt(n)), and so on as stats.c writes them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/analyze/compare.h"
#include "report/analyze/stats.h"
#include "t/cmocka-tap.h"

static void close_to(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want))) {
		print_error("got %.17g, want %.17g\n", got, want);
		fail();
	}
}

static void test_t_quantiles(void **state)
{
	static const struct { double df, q; } ref[] = {
		{ 1, 12.7062047361747046 },
		{ 2, 4.30265272974946385 },
		{ 3, 3.18244630528370959 },
		{ 4, 2.77644510519779436 },
		{ 5, 2.57058183563631551 },
		{ 10, 2.22813885198627475 },
		{ 30, 2.04227245630123831 },
		{ 1000, 1.96233908082640848 },
		{ 2.5, 3.57465484200368322 },	/* Welch gives real df */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		close_to(stats_t_quantile(0.975, ref[i].df), ref[i].q, 1e-11);
		/* symmetric, and the CDF inverts it */
		close_to(stats_t_quantile(0.025, ref[i].df), -ref[i].q,
			 1e-11);
		close_to(stats_t_cdf(ref[i].q, ref[i].df), 0.975, 1e-12);
	}
	close_to(stats_t_cdf(0, 7), 0.5, 1e-15);
	/* df 1 is Cauchy: P(T <= 1) = 3/4 exactly */
	close_to(stats_t_cdf(1, 1), 0.75, 1e-13);
	/* I_x(1, 1) = x; I_x(2, 1) = x^2 */
	close_to(stats_betai(1, 1, 0.3), 0.3, 1e-13);
	close_to(stats_betai(2, 1, 0.3), 0.09, 1e-13);
	assert_true(isnan(stats_t_quantile(1, 3)));
}

static void test_summary(void **state)
{
	const double a[] = { 400000, 410000, 405000 };
	const double wide[] = { 300000, 360000, 240000 };
	const double one[] = { 1234 };
	struct stats_summary s;

	(void)state;
	stats_summarise(a, 3, &s);
	assert_int_equal(s.n, 3);
	close_to(s.mean, 405000, 1e-15);
	close_to(s.sd, 5000, 1e-12);
	/* exp(L -+ 4.30265272974946 S / sqrt(3)) of the logarithms */
	close_to(s.lmean, 12.911591536953095, 1e-14);
	close_to(s.lsd, 0.012346384706088546, 1e-11);
	close_to(s.ci_lo, 392747.19616110342, 1e-11);
	close_to(s.ci_hi, 417592.62577307326, 1e-11);
	close_to(s.cv, 5000.0 / 405000, 1e-12);
	assert_false(s.noisy);		/* 3.1 % above the geometric mean */

	stats_summarise(wide, 3, &s);
	close_to(s.sd, 60000, 1e-12);
	close_to(s.ci_lo, 178700.18795821859, 1e-11);
	close_to(s.ci_hi, 490115.3699778686, 1e-11);
	assert_true(s.noisy);

	/* one run: a mean and nothing that pretends to be an interval */
	stats_summarise(one, 1, &s);
	close_to(s.mean, 1234, 0);
	assert_true(isnan(s.sd) && isnan(s.ci_lo) && isnan(s.cv));
	assert_false(stats_has_interval(&s));
	assert_false(s.noisy);

	/* large close values: no cancellation (one-pass sums lose these) */
	{
		const double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

		stats_summarise(big, 3, &s);
		close_to(s.sd, 1, 1e-9);
	}
}

static void test_welch(void **state)
{
	const double a[] = { 10, 12, 14 }, b[] = { 20, 22, 24 };
	const double c[] = { 100, 103, 98 }, d[] = { 101, 99, 104.5, 97 };
	const double e[] = { 5, 5, 5 }, f[] = { 6, 6, 6 };
	struct stats_summary sa, sb;
	struct stats_welch w;

	(void)state;
	/* t = -10 / sqrt(4/3 + 4/3); df = (8/3)^2 / (2 (4/3)^2 / 2) = 4 */
	stats_summarise(a, 3, &sa);
	stats_summarise(b, 3, &sb);
	stats_welch_test(&sa, &sb, &w);
	close_to(w.t, -6.12372435695794525, 1e-12);
	close_to(w.df, 4, 1e-12);
	close_to(w.p, 0.00360223260910400353, 1e-9);
	assert_int_equal(w.verdict, STATS_DIFFERENT);

	/* unequal n and variances: a real-valued df */
	stats_summarise(c, 3, &sa);
	stats_summarise(d, 4, &sb);
	stats_welch_test(&sa, &sb, &w);
	close_to(w.t, -0.0192843319635041227, 1e-10);
	close_to(w.df, 4.943842726267648, 1e-12);
	close_to(w.p, 0.985368324083735283, 1e-10);
	assert_int_equal(w.verdict, STATS_SAME);

	/* no spread on either side */
	stats_summarise(e, 3, &sa);
	stats_summarise(f, 3, &sb);
	stats_welch_test(&sa, &sb, &w);
	assert_int_equal(w.verdict, STATS_DIFFERENT);
	stats_welch_test(&sa, &sa, &w);
	assert_int_equal(w.verdict, STATS_SAME);

	/* a single run cannot be tested */
	stats_summarise(c, 1, &sa);
	stats_welch_test(&sa, &sb, &w);
	assert_int_equal(w.verdict, STATS_UNTESTED);
	assert_true(isnan(w.p));
}

static struct record *run(const char *label, double put_block)
{
	struct record *rec = record_new();
	struct result *res;

	record_set_str(&rec->tool, "clyde");
	record_set_str(&rec->label, label);
	res = record_add_result(rec, "put_block", "Block write", "KiB/s");
	res->value = put_block;
	result_set_status(res, RESULT_OK, NULL);
	return rec;
}

static void test_through_compare(void **state)
{
	struct record *recs[7];
	struct compare c;
	struct stats_welch w;
	char err[128];
	size_t t, i;

	(void)state;
	recs[0] = run("a", 400000);
	recs[1] = run("a", 410000);
	recs[2] = run("a", 405000);
	recs[3] = run("b", 430000);
	recs[4] = run("b", 440000);
	recs[5] = run("b", 435000);
	recs[6] = run("c", 300000);
	assert_int_equal(compare_build(&c, recs, 7, NULL, NULL, err,
				       sizeof(err)),
			 0);
	assert_int_equal(c.ngroups, 3);
	for (t = 0; strcmp(c.tests[t].name, "put_block"); t++)
		;
	close_to(c.groups[0].stats[t].sum.ci_lo, 392747.19616110342, 1e-11);
	assert_false(c.groups[0].stats[t].marks & CMP_NOISY);
	compare_welch(&c, 1, t, &w);
	/* t = 30000 / sqrt(2 * 5000^2 / 3), df 4 */
	close_to(w.t, 7.34846922834953, 1e-12);
	close_to(w.df, 4, 1e-12);
	assert_int_equal(w.verdict, STATS_DIFFERENT);
	assert_string_equal(compare_verdict_word(&w), "significantly higher");
	compare_welch(&c, 2, t, &w);
	assert_int_equal(w.verdict, STATS_UNTESTED);
	assert_true(isnan(c.groups[2].stats[t].sum.ci_lo));
	compare_welch(&c, 0, t, &w);	/* the baseline itself */
	assert_int_equal(w.verdict, STATS_UNTESTED);
	compare_release(&c);
	for (i = 0; i < 7; i++)
		record_free(recs[i]);
}

/*
 * Two runs of 117 and 195 MB/s: the arithmetic t interval was
 * 156 +- 12.706 * 55.15 / sqrt(2) = -339.6 .. 651.6, a negative rate; the
 * interval of the geometric mean stays positive (and honestly wide).
 */
static void test_two_runs_interval(void **state)
{
	const double v[] = { 117, 195 };
	const double zero[] = { 0, 10 };
	struct stats_summary s;

	(void)state;
	stats_summarise(v, 2, &s);
	close_to(s.mean, 156, 1e-15);
	close_to(s.ci_lo, 5.8841321791554606, 1e-11);
	close_to(s.ci_hi, 3877.3772079461678, 1e-11);
	assert_true(s.ci_lo > 0);
	assert_true(s.noisy);
	/* a zero has no logarithm: no interval rather than a wrong one */
	stats_summarise(zero, 2, &s);
	assert_false(stats_has_interval(&s));
	close_to(s.mean, 5, 0);
}

static void summ(const double *v, size_t n, struct stats_summary *s)
{
	stats_summarise(v, n, s);
}

/* The log-ratio interval: Welch on the logarithms, back-transformed. */
static void test_ratio_ci(void **state)
{
	const double a[] = { 10, 12, 14 }, b[] = { 20, 22, 24 };
	const double c[] = { 96, 104 }, d[] = { 100, 102, 98 };
	struct stats_summary sa, sb;
	struct stats_ratio r;

	(void)state;
	summ(a, 3, &sa);
	summ(b, 3, &sb);
	stats_ratio_ci(&sa, &sb, &r);
	assert_true(r.ok);
	close_to(r.ratio, 0.54185338133091356, 1e-13);
	close_to(r.lo, 0.38305243561614904, 1e-10);
	close_to(r.hi, 0.76648797804267604, 1e-10);
	close_to(r.df, 3.0797503036279643, 1e-11);
	summ(c, 2, &sa);
	summ(d, 3, &sb);
	stats_ratio_ci(&sa, &sb, &r);
	close_to(r.lo, 0.68448626264898192, 1e-10);
	close_to(r.hi, 1.4590012733248504, 1e-10);
	close_to(r.df, 1.1694183642683019, 1e-11);
	/* a single run has no interval of a ratio */
	summ(c, 1, &sa);
	stats_ratio_ci(&sa, &sb, &r);
	assert_false(r.ok);
}

/*
 * Non-inferiority at margin 0.95: a pass needs the lower bound above the
 * margin; "not significant" at a ratio of 0.61 with two runs is no pass.
 */
static void test_noninferior(void **state)
{
	const double cand[] = { 100, 134 }, base[] = { 150, 240 };
	const double ok_a[] = { 98, 100, 102 }, ok_b[] = { 100, 101, 99 };
	const double bad_a[] = { 10, 12, 14 }, bad_b[] = { 20, 22, 24 };
	const double near_a[] = { 400000, 410000, 405000 };
	const double near_b[] = { 430000, 440000, 435000 };
	struct stats_summary sa, sb;
	struct stats_noninf ni;
	struct stats_welch w;

	(void)state;
	summ(cand, 2, &sa);
	summ(base, 2, &sb);
	stats_welch_test(&sa, &sb, &w);
	assert_int_equal(w.verdict, STATS_SAME);	/* "not significant" */
	stats_noninferior(&sa, &sb, 0.95, &ni);
	assert_int_equal(ni.verdict, STATS_NI_INCONCLUSIVE);
	close_to(ni.r.ratio, 0.61010017392410422, 1e-13);
	close_to(ni.r.lo, 0.1440606795667193, 1e-10);
	assert_int_equal(ni.runs, 8);

	summ(ok_a, 3, &sa);
	summ(ok_b, 3, &sb);
	stats_noninferior(&sa, &sb, 0.95, &ni);
	assert_int_equal(ni.verdict, STATS_NI_PASS);
	close_to(ni.r.lo, 0.95919503479145315, 1e-10);
	assert_int_equal(ni.runs, 0);
	/* the same data against a stricter margin: not shown */
	stats_noninferior(&sa, &sb, 0.97, &ni);
	assert_int_equal(ni.verdict, STATS_NI_INCONCLUSIVE);

	summ(bad_a, 3, &sa);
	summ(bad_b, 3, &sb);
	stats_noninferior(&sa, &sb, 0.95, &ni);
	assert_int_equal(ni.verdict, STATS_NI_FAIL);	/* hi 0.766 < 0.95 */

	summ(near_a, 3, &sa);
	summ(near_b, 3, &sb);
	stats_noninferior(&sa, &sb, 0.95, &ni);
	assert_int_equal(ni.verdict, STATS_NI_INCONCLUSIVE);
	close_to(ni.r.lo, 0.90614056159963819, 1e-10);
	close_to(ni.r.hi, 0.95659935487389522, 1e-10);
	assert_int_equal(ni.runs, 7);

	/* single runs: no spread, no estimate, still inconclusive */
	summ(near_a, 1, &sa);
	summ(near_b, 1, &sb);
	stats_noninferior(&sa, &sb, 0.95, &ni);
	assert_int_equal(ni.verdict, STATS_NI_INCONCLUSIVE);
	assert_int_equal(ni.runs, 0);
}

/* Single runs differ only beyond the band; repeats by Welch. */
static void test_difference(void **state)
{
	const double a[] = { 4151 }, b[] = { 4073 }, c[] = { 3700 };
	const double r1[] = { 10, 12, 14 }, r2[] = { 20, 22, 24 };
	struct stats_summary sa, sb;
	struct stats_diff d;

	(void)state;
	summ(a, 1, &sa);
	summ(b, 1, &sb);
	stats_difference(&sa, &sb, 0.10, &d);	/* x1.019 */
	assert_int_equal(d.verdict, STATS_SAME);
	assert_int_equal(d.sign, 0);
	assert_true(d.by_band);
	summ(c, 1, &sb);
	stats_difference(&sa, &sb, 0.10, &d);	/* x1.122 */
	assert_int_equal(d.verdict, STATS_DIFFERENT);
	assert_int_equal(d.sign, 1);
	stats_difference(&sb, &sa, 0.10, &d);	/* x0.891 */
	assert_int_equal(d.sign, -1);
	stats_difference(&sa, &sb, 0.15, &d);	/* a wider band */
	assert_int_equal(d.verdict, STATS_SAME);
	summ(r1, 3, &sa);
	summ(r2, 3, &sb);
	stats_difference(&sa, &sb, 0.10, &d);
	assert_false(d.by_band);
	assert_int_equal(d.verdict, STATS_DIFFERENT);
	assert_int_equal(d.sign, -1);
	close_to(d.w.p, 0.00360223260910400353, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_through_compare),
		cmocka_unit_test(test_two_runs_interval),
		cmocka_unit_test(test_ratio_ci),
		cmocka_unit_test(test_noninferior),
		cmocka_unit_test(test_difference),
	};

	return tap_run_group_tests(tests);
}
