// SPDX-License-Identifier: GPL-2.0-only
/*
 * Repeat statistics against hand-computed values: Student's t quantiles
 * (reference values to 15 digits, computed independently by numerical
 * integration of the t density), the 95 % interval, cv, the noisy mark,
 * Welch's test with its Welch-Satterthwaite degrees of freedom, and the
 * same figures through compare_build() on records.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/compare.h"
#include "report/stats.h"
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
	/* 4.30265272974946385 * 5000 / sqrt(3) */
	close_to(s.ci_half, 12420.6885587516554, 1e-11);
	close_to(s.cv, 5000.0 / 405000, 1e-12);
	assert_false(s.noisy);		/* 3.07 % of the mean */

	stats_summarise(wide, 3, &s);
	close_to(s.sd, 60000, 1e-12);
	close_to(s.ci_half, 149048.262705019864, 1e-11);
	assert_true(s.noisy);		/* 49.7 % of the mean */

	/* one run: a mean and nothing that pretends to be an interval */
	stats_summarise(one, 1, &s);
	close_to(s.mean, 1234, 0);
	assert_true(isnan(s.sd) && isnan(s.ci_half) && isnan(s.cv));
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
	close_to(c.groups[0].stats[t].sum.ci_half, 12420.6885587516554, 1e-11);
	assert_false(c.groups[0].stats[t].marks & CMP_NOISY);
	compare_welch(&c, 1, t, &w);
	/* t = 30000 / sqrt(2 * 5000^2 / 3), df 4 */
	close_to(w.t, 7.34846922834953, 1e-12);
	close_to(w.df, 4, 1e-12);
	assert_int_equal(w.verdict, STATS_DIFFERENT);
	assert_string_equal(compare_verdict_word(&w), "significantly higher");
	compare_welch(&c, 2, t, &w);
	assert_int_equal(w.verdict, STATS_UNTESTED);
	assert_true(isnan(c.groups[2].stats[t].sum.ci_half));
	compare_welch(&c, 0, t, &w);	/* the baseline itself */
	assert_int_equal(w.verdict, STATS_UNTESTED);
	compare_release(&c);
	for (i = 0; i < 7; i++)
		record_free(recs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_through_compare),
	};

	return tap_run_group_tests(tests);
}
