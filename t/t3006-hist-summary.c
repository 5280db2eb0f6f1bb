// SPDX-License-Identifier: GPL-2.0-only
/*
 * One latency summary for every writer: hist_summarize's figures, and the
 * same set (mean, min, p50, p90, p99, p99.9, max) in a result's JSON, a
 * matrix cell's JSON and the matrix CSV.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "t/cmocka-tap.h"
#include "report/model/histogram.h"
#include "report/model/matrix.h"
#include "report/model/record.h"

static const char *const keys[] = {
	"mean", "min", "p50", "p90", "p99", "p99_9", "max",
};

static void fill(struct histogram *h)
{
	uint64_t v;

	hist_init(h);
	for (v = 1; v <= 1000; v++)
		hist_add(h, v * 1000);	/* 1 us .. 1 ms */
}

static void test_summarize(void **state)
{
	struct histogram h;
	struct hist_summary s;
	int k;

	(void)state;
	fill(&h);
	hist_summarize(&h, &s);
	assert_int_equal(s.count, 1000);
	assert_true(s.v[HIST_S_MEAN] == 500500.0);
	assert_true(s.v[HIST_S_MIN] == 1000.0);
	assert_true(s.v[HIST_S_MAX] == 1000000.0);
	assert_true(s.v[HIST_S_P50] == (double)hist_percentile(&h, 50));
	assert_true(s.v[HIST_S_P90] == (double)hist_percentile(&h, 90));
	assert_true(s.v[HIST_S_P99] == (double)hist_percentile(&h, 99));
	assert_true(s.v[HIST_S_P99_9] == (double)hist_percentile(&h, 99.9));
	/* in order, each within 1.6 % of the exact rank */
	for (k = HIST_S_P50; k <= HIST_S_MAX; k++)
		assert_true(s.v[k] >= s.v[k - 1]);
	assert_true(s.v[HIST_S_P90] > 885000 && s.v[HIST_S_P90] < 915000);
	for (k = 0; k < HIST_SUMMARY_N; k++)
		assert_string_equal(hist_summary_key[k], keys[k]);
	assert_string_equal(hist_summary_label[HIST_S_P99_9], "p99.9");
	hist_release(&h);
	hist_summarize(&h, &s);
	assert_int_equal(s.count, 0);
	assert_true(s.v[HIST_S_MIN] == 0 && s.v[HIST_S_MAX] == 0);
}

static struct record *make_record(void)
{
	struct record *rec = record_new();
	struct result *res = record_add_result(rec, "put_block",
					       "Block write", "KiB/s");
	struct matrix_cell *c;

	res->status = RESULT_OK;
	res->value = 1;
	fill(&res->lat);
	rec->matrix = matrix_new();
	c = matrix_add_cell(rec->matrix);
	c->bs = 4096, c->threads = 1, c->qd = 1, c->random = 1;
	c->read_pct = 100, c->status = RESULT_OK, c->elapsed = 1;
	fill(&c->rlat);
	matrix_cell_rates(c);
	return rec;
}

__attribute__((noinline))
static char *to_string(int (*fn)(const struct record *, FILE *),
		       const struct record *rec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	assert_int_equal(fn(rec, f), 0);
	if (fclose(f))
		abort();
	return buf;
}

/* The members of o are exactly keys[], in order; value k into v[k]. */
static void check_set(struct json_object *o, double *v)
{
	struct json_object_iterator it, end;
	int k = 0;

	assert_non_null(o);
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		assert_true(k < HIST_SUMMARY_N);
		assert_string_equal(json_object_iter_peek_name(&it), keys[k]);
		v[k++] = json_object_get_double(json_object_iter_peek_value(&it));
	}
	assert_int_equal(k, HIST_SUMMARY_N);
}

static void test_json_same_set(void **state)
{
	struct record *rec = make_record();
	char *line = to_string(record_write_json, rec);
	struct json_object *root = json_tokener_parse(line), *o, *r, *cells;
	double us[HIST_SUMMARY_N], ms[HIST_SUMMARY_N];
	int k;

	(void)state;
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "results", &r));
	assert_true(json_object_object_get_ex(
		json_object_array_get_idx(r, 0), "latency_us", &o));
	check_set(o, us);
	assert_true(json_object_object_get_ex(root, "matrix", &o));
	assert_true(json_object_object_get_ex(o, "cells", &cells));
	assert_true(json_object_object_get_ex(
		json_object_array_get_idx(cells, 0), "read_latency_ms", &o));
	check_set(o, ms);
	/* the same histogram: the same figures, in us and in ms */
	for (k = 0; k < HIST_SUMMARY_N; k++)
		assert_true(us[k] > 0 && ms[k] * 1000 > us[k] * 0.999999 &&
			    ms[k] * 1000 < us[k] * 1.000001);
	assert_true(us[1] == 1.0 && us[3] > 885 && us[3] < 915);
	json_object_put(root);
	free(line);
	record_free(rec);
}

static int csv_with_header(const struct record *rec, FILE *f)
{
	return matrix_write_csv(rec, f, 1);
}

static void test_matrix_csv_same_set(void **state)
{
	struct record *rec = make_record();
	char *s = to_string(csv_with_header, rec);

	(void)state;
	assert_non_null(strstr(s, ",read_mean_ms,read_min_ms,read_p50_ms,"
			       "read_p90_ms,read_p99_ms,read_p99_9_ms,"
			       "read_max_ms,write_mean_ms,write_min_ms,"
			       "write_p50_ms,write_p90_ms,write_p99_ms,"
			       "write_p99_9_ms,write_max_ms,hit_area,"));
	/* the read figures of the cell: mean 0.5005, min 0.001 ms */
	assert_non_null(strstr(s, ",0.500500,0.001000,"));
	/* no writes: seven empty write fields */
	assert_non_null(strstr(s, ",1.000000,,,,,,,,0,0,0\n"));
	free(s);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_json_same_set),
		cmocka_unit_test(test_matrix_csv_same_set),
	};

	return tap_run_group_tests(tests);
}
