// SPDX-License-Identifier: GPL-2.0-only
/* The log-linear latency histogram: buckets, percentiles, merge, mean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "report/model/histogram.h"

static struct histogram *new_hist(void)
{
	struct histogram *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

/* A value lies in the bucket its index names. */
static void check_value(uint64_t v)
{
	unsigned idx = hist_index(v);

	assert_true(idx < HIST_NBUCKETS);
	assert_true(hist_bucket_low(idx) <= v);
	assert_true(v <= hist_bucket_high(idx));
}

static void test_index_edges(void **state)
{
	static const uint64_t values[] = {
		0, 1, 62, 63, 64, 65, 126, 127, 128, 129, 130, 255, 256,
		1000, 4095, 4096, 1000000, UINT64_C(1) << 32,
		(UINT64_C(1) << 63) - 1, UINT64_C(1) << 63,
		(UINT64_C(1) << 63) + 1, UINT64_MAX - 1, UINT64_MAX,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		check_value(values[i]);

	/* below 128 every value has a bucket of its own */
	for (i = 0; i < 128; i++) {
		assert_int_equal(hist_index(i), i);
		assert_int_equal(hist_bucket_low((unsigned)i), i);
		assert_int_equal(hist_bucket_high((unsigned)i), i);
	}
	/* 128 and 129 share a bucket of width 2 */
	assert_int_equal(hist_index(128), hist_index(129));
	assert_int_not_equal(hist_index(129), hist_index(130));
	assert_int_equal(hist_bucket_low(hist_index(129)), 128);
	assert_int_equal(hist_bucket_high(hist_index(128)), 129);

	/* the top: 2^63 starts the last group, UINT64_MAX ends it */
	assert_int_equal(hist_index(UINT64_C(1) << 63),
			 HIST_NBUCKETS - HIST_SUB);
	assert_int_equal(hist_bucket_low(HIST_NBUCKETS - HIST_SUB),
			 UINT64_C(1) << 63);
	assert_int_equal(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
	assert_true(hist_bucket_high(HIST_NBUCKETS - 1) == UINT64_MAX);
}

/* The buckets tile 0..UINT64_MAX without gap or overlap, each <= 1/64. */
static void test_buckets_tile(void **state)
{
	unsigned i;

	(void)state;
	assert_int_equal(hist_bucket_low(0), 0);
	for (i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t low = hist_bucket_low(i), high = hist_bucket_high(i);

		assert_true(low <= high);
		assert_int_equal(hist_index(low), i);
		assert_int_equal(hist_index(high), i);
		if (i)
			assert_true(low == hist_bucket_high(i - 1) + 1);
		if (i >= HIST_SUB)
			assert_true(high - low + 1 <= low / HIST_SUB);
	}
	assert_true(hist_bucket_high(HIST_NBUCKETS - 1) == UINT64_MAX);
}

static void test_empty(void **state)
{
	struct histogram *h = new_hist();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_true(h->min == UINT64_MAX);
	assert_int_equal(h->max, 0);
	assert_int_equal(hist_percentile(h, 50.0), 0);
	assert_int_equal(hist_percentile(h, 100.0), 0);
	assert_true(hist_mean(h) == 0.0);
	hist_release(h);
	free(h);
}

/* 1..100 ns land in exact buckets: percentiles are exact. */
static void test_percentile_exact(void **state)
{
	struct histogram *h = new_hist();
	uint64_t v;

	(void)state;
	for (v = 100; v >= 1; v--)	/* order does not matter */
		hist_add(h, v);
	assert_int_equal(hist_percentile(h, 1.0), 1);
	assert_int_equal(hist_percentile(h, 50.0), 50);
	assert_int_equal(hist_percentile(h, 90.0), 90);
	assert_int_equal(hist_percentile(h, 99.0), 99);
	assert_int_equal(hist_percentile(h, 99.9), 100);
	assert_int_equal(hist_percentile(h, 100.0), 100);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100);
	hist_release(h);
	free(h);
}

/* pct of a count that has no exact binary form: 99.9 % of 1000 is #999. */
static void test_percentile_rank_rounding(void **state)
{
	struct histogram *h = new_hist();
	uint64_t i;

	(void)state;
	for (i = 0; i < 999; i++)
		hist_add(h, 10);
	hist_add(h, 20);
	assert_int_equal(hist_percentile(h, 99.9), 10);
	assert_int_equal(hist_percentile(h, 99.95), 20);
	assert_int_equal(hist_percentile(h, 100.0), 20);
	hist_release(h);
	free(h);
}

static void assert_within_bucket(uint64_t got, uint64_t want)
{
	/* a bucket is at most 1/64 of its value wide */
	uint64_t err = want / HIST_SUB + 1;

	if (got + err < want || got > want + err)
		fail_msg("percentile %llu, expected %llu +- %llu",
			 (unsigned long long)got, (unsigned long long)want,
			 (unsigned long long)err);
}

/* 1..1000000 us uniform (as ns): p(x) = x % of the range. */
static void test_percentile_uniform(void **state)
{
	struct histogram *h = new_hist();
	uint64_t v;

	(void)state;
	for (v = 1; v <= 1000000; v++)
		hist_add(h, v * 1000);
	assert_within_bucket(hist_percentile(h, 50.0), UINT64_C(500000000));
	assert_within_bucket(hist_percentile(h, 90.0), UINT64_C(900000000));
	assert_within_bucket(hist_percentile(h, 99.0), UINT64_C(990000000));
	assert_within_bucket(hist_percentile(h, 99.9), UINT64_C(999000000));
	assert_int_equal(hist_percentile(h, 100.0), UINT64_C(1000000000));
	/* and not just the middle of the range */
	assert_true(hist_percentile(h, 50.0) != hist_percentile(h, 90.0));
	hist_release(h);
	free(h);
}

/* A long tail: the 99th percentile is fast, the 99.95th is the outlier. */
static void test_percentile_tail(void **state)
{
	struct histogram *h = new_hist();
	uint64_t i;

	(void)state;
	for (i = 0; i < 9990; i++)
		hist_add(h, 5000 + i % 100);	/* 5.0 .. 5.1 us */
	for (i = 0; i < 10; i++)
		hist_add(h, UINT64_C(2000000000));	/* 2 s */
	assert_within_bucket(hist_percentile(h, 50.0), 5050);
	assert_within_bucket(hist_percentile(h, 99.0), 5050);
	assert_within_bucket(hist_percentile(h, 99.9), 5099);
	assert_within_bucket(hist_percentile(h, 99.95), UINT64_C(2000000000));
	assert_int_equal(hist_percentile(h, 99.95), UINT64_C(2000000000));
	hist_release(h);
	free(h);
}

/* Clamped to [min, max]: one sample is its own every percentile. */
static void test_percentile_single(void **state)
{
	struct histogram *h = new_hist();

	(void)state;
	hist_add(h, 123456789);
	assert_int_equal(hist_percentile(h, 0.001), 123456789);
	assert_int_equal(hist_percentile(h, 50.0), 123456789);
	assert_int_equal(hist_percentile(h, 100.0), 123456789);
	assert_true(hist_mean(h) == 123456789.0);
	hist_release(h);
	free(h);
}

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64*: deterministic test data */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* Merging equals adding every sample to one histogram. */
static void test_merge(void **state)
{
	struct histogram *a = new_hist(), *b = new_hist(), *c = new_hist();
	struct histogram *all = new_hist();
	uint64_t s = 42, v;
	int i;

	(void)state;
	for (i = 0; i < 30000; i++) {
		/* log-uniform over 1 ns .. ~1 s */
		v = next_rand(&s) >> (34 + next_rand(&s) % 30);
		hist_add(all, v);
		hist_add(i % 3 == 0 ? a : i % 3 == 1 ? b : c, v);
	}
	hist_add(all, UINT64_MAX);
	hist_add(c, UINT64_MAX);

	hist_merge(a, b);
	hist_merge(a, c);
	assert_true(hist_equal(a, all));
	assert_int_equal(hist_percentile(a, 99.9),
			 hist_percentile(all, 99.9));

	/* merging an empty one changes nothing, into an empty one copies */
	hist_release(b);
	hist_merge(a, b);
	assert_true(hist_equal(a, all));
	hist_merge(b, all);
	assert_true(hist_equal(b, all));

	/* packed, the same samples and the same percentiles; packed ones
	 * merge into packed ones */
	{
		static const double pct[] = { 1, 50, 90, 99, 99.9, 99.99 };
		uint64_t want[6];
		size_t k;

		for (k = 0; k < 6; k++)
			want[k] = hist_percentile(all, pct[k]);
		hist_compact(all);
		assert_null(all->dense);
		assert_true(hist_equal(a, all));
		for (k = 0; k < 6; k++)
			assert_int_equal(hist_percentile(all, pct[k]), want[k]);
		hist_compact(c);
		hist_release(b);
		hist_merge(b, c);
		hist_merge(b, all);
		hist_merge(a, c);
		assert_null(b->dense);
		assert_true(hist_equal(a, b));
	}
	hist_release(a);
	hist_release(b);
	hist_release(c);
	hist_release(all);
	free(a);
	free(b);
	free(c);
	free(all);
}

/*
 * The packed form keeps every count and index exactly, at its edges: a
 * count of 1, 63, 64 (a second byte), 8,191, 8,192, 2^63 and 2^64 - 1;
 * buckets next to each other and far apart, the first and the last; and
 * it stays small: 1,000 buckets in a row of fewer than 64 samples each
 * take a byte each.
 */
static void test_packed_edges(void **state)
{
	static const struct hist_pair want[] = {
		{ 0, 1 }, { 1, 63 }, { 2, 64 }, { 3, 8191 }, { 4, 8192 },
		{ 200, UINT64_C(1) << 63 }, { 201, 5 },
		{ HIST_NBUCKETS - 2, 127 }, { HIST_NBUCKETS - 1, UINT64_MAX },
	};
	const size_t nwant = sizeof(want) / sizeof(want[0]);
	struct hist_pair pairs[sizeof(want) / sizeof(want[0])], *run;
	struct histogram h;
	struct hist_iter it = HIST_ITER_INIT;
	unsigned idx;
	uint64_t n;
	size_t k = 0;

	(void)state;
	memcpy(pairs, want, sizeof(want));
	hist_init(&h);
	hist_set_buckets(&h, pairs, nwant);
	while (hist_next(&h, &it, &idx, &n)) {
		assert_true(k < nwant);
		assert_int_equal(idx, want[k].idx);
		assert_true(n == want[k].n);
		k++;
	}
	assert_int_equal(k, nwant);
	hist_release(&h);

	run = calloc(1000, sizeof(*run));
	assert_non_null(run);
	for (k = 0; k < 1000; k++) {
		run[k].idx = (unsigned)(100 + k);
		run[k].n = 1 + k % 63;
	}
	hist_set_buckets(&h, run, 1000);
	assert_int_equal(h.len, 1000 + 1);	/* + the gap of 100 */
	hist_release(&h);
	free(run);
}

static void test_mean(void **state)
{
	struct histogram *h = new_hist();

	(void)state;
	hist_add(h, 1);
	hist_add(h, 2);
	hist_add(h, 1000000);
	hist_add(h, 5);
	assert_true(hist_mean(h) == 1000008.0 / 4.0);
	assert_int_equal(h->sum, 1000008);
	assert_int_equal(h->count, 4);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 1000000);
	hist_release(h);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_edges),
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_percentile_exact),
		cmocka_unit_test(test_percentile_rank_rounding),
		cmocka_unit_test(test_percentile_uniform),
		cmocka_unit_test(test_percentile_tail),
		cmocka_unit_test(test_percentile_single),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_packed_edges),
		cmocka_unit_test(test_mean),
	};

	return tap_run_group_tests(tests);
}
