// SPDX-License-Identifier: GPL-2.0-only
/*
 * clyde zones keeps the latency summary every writer uses (hist_summarize:
 * mean, min, p50, p90, p99, p99.9, max) per zone: computed from the zone's
 * histogram, written to JSON as lat_<key>_ms and read back, read from a
 * record of an older clyde that kept only mean, p99 and max (the others
 * absent), in the zones CSV with the old columns where they were and the
 * new ones at the end, and per sweep in the text's latency table.
 */
#include <math.h>
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
#include "report/model/record.h"
#include "report/model/zones.h"

static const char *const lat_keys[HIST_SUMMARY_N] = {
	"lat_mean_ms", "lat_min_ms", "lat_p50_ms", "lat_p90_ms", "lat_p99_ms",
	"lat_p99_9_ms", "lat_max_ms",
};

/* n latencies from lo ns in steps of step ns. */
static void fill(struct histogram *h, uint64_t lo, uint64_t step, unsigned n)
{
	unsigned i;

	hist_init(h);
	for (i = 0; i < n; i++)
		hist_add(h, lo + i * step);
}

/* Two zones of one read sweep: one of 1000 I/Os, one with none. */
static struct record *make_record(void)
{
	struct record *rec = record_new();
	struct record_zones *z = zones_new();
	struct zones_sweep *s;
	struct zone_row *r;
	struct histogram h;

	rec->zones = z;
	record_set_str(&rec->target.path, "/dev/x");
	z->kind = strdup("device");
	z->engine = strdup("psync");
	z->qd = 1, z->direct = 1, z->passes = 1;
	z->size = 8 << 20, z->bs = 4096, z->zone_size = 4 << 20, z->nzones = 2;
	s = zones_add_sweep(z, 1, 0);
	s->status = RESULT_OK;
	s->elapsed = 2;
	fill(&h, 1000000, 3000, 1000);	/* 1 ms .. 3.997 ms */
	r = zones_add_row(s);
	r->length = 4 << 20, r->bytes = 4 << 20, r->ios = 1000;
	r->elapsed = 1.5;
	r->resident = 0.75;	/* cached (C); the second zone not measured */
	zones_row_finish(r, &h);
	hist_merge(&s->lat, &h);
	r = zones_add_row(s);
	r->offset = 4 << 20, r->length = 4 << 20;
	hist_init(&h);
	zones_row_finish(r, &h);
	zones_sweep_finish(s);
	return rec;
}

static char *capture(int (*fn)(const struct record *, FILE *),
		     const struct record *rec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(rec, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The row's set is the histogram's summary, in order, in ms. */
static void test_row_summary(void **state)
{
	struct record *rec = make_record();
	const struct zone_row *r = &rec->zones->sweeps[0].zones[0];
	struct histogram h;
	int k;

	(void)state;
	fill(&h, 1000000, 3000, 1000);
	assert_true(r->lat_ms[HIST_S_MEAN] == hist_mean(&h) / 1e6);
	assert_true(r->lat_ms[HIST_S_MIN] == 1.0);
	assert_true(r->lat_ms[HIST_S_MAX] == 3.997);
	assert_true(r->lat_ms[HIST_S_P50] ==
		    (double)hist_percentile(&h, 50) / 1e6);
	assert_true(r->lat_ms[HIST_S_P90] ==
		    (double)hist_percentile(&h, 90) / 1e6);
	assert_true(r->lat_ms[HIST_S_P99] ==
		    (double)hist_percentile(&h, 99) / 1e6);
	assert_true(r->lat_ms[HIST_S_P99_9] ==
		    (double)hist_percentile(&h, 99.9) / 1e6);
	/* 1.6 % buckets: p90 near 1 + 0.9 x 3 ms */
	assert_true(r->lat_ms[HIST_S_P90] > 3.65 &&
		    r->lat_ms[HIST_S_P90] < 3.75);
	for (k = HIST_S_P50; k <= HIST_S_MAX; k++)
		assert_true(r->lat_ms[k] >= r->lat_ms[k - 1]);
	/* no I/O: no figure */
	r = &rec->zones->sweeps[0].zones[1];
	for (k = 0; k < HIST_SUMMARY_N; k++)
		assert_true(isnan(r->lat_ms[k]));
	record_free(rec);
}

/* The "lat_" members of a zone object: exactly lat_keys, in order. */
static void check_members(struct json_object *zone, int null)
{
	struct json_object_iterator it = json_object_iter_begin(zone);
	struct json_object_iterator end = json_object_iter_end(zone);
	int k = 0;

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *name = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);

		if (strncmp(name, "lat_", 4))
			continue;
		assert_true(k < HIST_SUMMARY_N);
		assert_string_equal(name, lat_keys[k++]);
		if (null)
			assert_null(v);
		else
			assert_true(json_object_is_type(v, json_type_double) ||
				    json_object_is_type(v, json_type_int));
	}
	assert_int_equal(k, HIST_SUMMARY_N);
}

static void test_json_round_trip(void **state)
{
	struct record *rec = make_record(), *back;
	char *line = capture(record_write_json, rec), *again, err[256];
	struct json_object *root = json_tokener_parse(line), *z, *sw, *zones;
	size_t i;
	int k;

	(void)state;
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "zones", &z));
	assert_true(json_object_object_get_ex(z, "sweeps", &sw));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(sw, 0),
					      "zones", &zones));
	check_members(json_object_array_get_idx(zones, 0), 0);
	check_members(json_object_array_get_idx(zones, 1), 1);
	/* the page cache share: measured, a number; not, absent */
	assert_true(json_object_object_get_ex(json_object_array_get_idx(
		zones, 0), "resident", &z));
	assert_true(json_object_get_double(z) == 0.75);
	assert_false(json_object_object_get_ex(json_object_array_get_idx(
		zones, 1), "resident", NULL));
	json_object_put(root);

	back = record_read_json(line, err, sizeof(err));
	if (!back)
		fail_msg("%s", err);
	assert_non_null(back->zones);
	assert_int_equal(back->zones->sweeps[0].nzones, 2);
	assert_true(back->zones->sweeps[0].zones[0].resident == 0.75);
	assert_true(back->zones->sweeps[0].zones[1].resident < 0);
	for (i = 0; i < 2; i++)
		for (k = 0; k < HIST_SUMMARY_N; k++) {
			double a = rec->zones->sweeps[0].zones[i].lat_ms[k];
			double b = back->zones->sweeps[0].zones[i].lat_ms[k];

			if (isnan(a))
				assert_true(isnan(b));
			else
				assert_true(fabs(a - b) <= 1e-12 * a);
		}
	/* write -> read -> write: the same line */
	again = capture(record_write_json, back);
	assert_string_equal(again, line);
	free(again);
	free(line);
	record_free(back);
	record_free(rec);
}

/*
 * A record as clyde wrote it before the whole set: per zone lat_mean_ms,
 * lat_p99_ms and lat_max_ms only.  It reads; the figures it lacks are
 * absent (NAN), not 0, and stay absent in what is written from it.
 */
static void test_old_record(void **state)
{
	char line[2048], err[256], *csv, *json, *text, *p;
	struct record *rec;
	const struct zone_row *r;
	int k;

	(void)state;
	snprintf(line, sizeof(line), "{\"schema\":1,\"tool\":\"clyde\","
		 "\"version\":\"0.1.0\",\"label\":\"old\",\"results\":[],"
		 "\"zones\":{\"schema\":1,\"kind\":\"file\",\"created\":true,"
		 "\"engine\":\"psync\",\"qd\":1,\"direct\":true,\"size\":8388608,"
		 "\"bs\":1048576,\"zone_size\":4194304,\"nzones\":2,\"passes\":1,"
		 "\"sweeps\":[{\"pass\":1,\"direction\":\"read\",\"status\":\"ok\","
		 "\"reason\":null,\"elapsed\":0.02,\"bytes\":8388608,\"mibps\":400,"
		 "\"residency\":0,\"histogram\":{\"bits\":6,\"count\":8,"
		 "\"sum_ns\":16000000,\"min_ns\":1500000,\"max_ns\":2500000,"
		 "\"buckets\":[[%u,4],[%u,4]]},\"zones\":["
		 "{\"offset\":0,\"length\":4194304,\"bytes\":4194304,\"ios\":4,"
		 "\"errors\":0,\"elapsed\":0.01,\"mibps\":400,\"lat_mean_ms\":1.5,"
		 "\"lat_p99_ms\":1.5,\"lat_max_ms\":1.5},"
		 "{\"offset\":4194304,\"length\":4194304,\"bytes\":4194304,"
		 "\"ios\":4,\"errors\":0,\"elapsed\":0.01,\"mibps\":400,"
		 "\"lat_mean_ms\":2.5,\"lat_p99_ms\":2.5,\"lat_max_ms\":2.5}]}]}}",
		 hist_index(1500000), hist_index(2500000));
	rec = record_read_json(line, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	r = &rec->zones->sweeps[0].zones[1];
	assert_true(r->lat_ms[HIST_S_MEAN] == 2.5);
	assert_true(r->lat_ms[HIST_S_P99] == 2.5);
	assert_true(r->lat_ms[HIST_S_MAX] == 2.5);
	for (k = 0; k < HIST_SUMMARY_N; k++)
		if (k != HIST_S_MEAN && k != HIST_S_P99 && k != HIST_S_MAX)
			assert_true(isnan(r->lat_ms[k]));
	/* the CSV: the three where they were, the rest empty at the end */
	csv = capture(zones_write_csv, rec);
	assert_non_null(strstr(csv, "\n0.003906,4194304,4194304,1,read,"
			       "400.000,2.5000,2.5000,2.5000,4194304,"
			       "0.010000,4,0,,,0,0,,,,,\n"));
	free(csv);
	/* the JSON written from it: the same members, those absent null */
	json = capture(record_write_json, rec);
	assert_non_null(strstr(json, "\"lat_mean_ms\":2.5,\"lat_min_ms\":null,"
			       "\"lat_p50_ms\":null,\"lat_p90_ms\":null,"
			       "\"lat_p99_ms\":2.5,\"lat_p99_9_ms\":null,"
			       "\"lat_max_ms\":2.5"));
	free(json);
	/* the text: the sweep's latency from its histogram, the zone table
	 * from the rows' means */
	text = capture(zones_write_text, rec);
	p = strstr(text, "\n  read" "             " "2.000    1.500 ");
	assert_non_null(p);
	assert_non_null(strstr(p, "    2.500\n"));
	assert_non_null(strstr(text, "\n    2       0.004    400.0 "
			       "    2.500    2.500\n"));
	free(text);
	record_free(rec);
}

/* Split line at commas (no quoted commas in these rows). */
static size_t fields(const char *line, char out[][32], size_t max)
{
	size_t n = 0, len;
	const char *e;

	for (;;) {
		e = strpbrk(line, ",\n");
		len = e ? (size_t)(e - line) : strlen(line);
		assert_true(n < max && len < 32);
		memcpy(out[n], line, len);
		out[n++][len] = '\0';
		if (!e || *e == '\n')
			return n;
		line = e + 1;
	}
}

static void test_csv_columns(void **state)
{
	struct record *rec = make_record();
	const struct zone_row *r = &rec->zones->sweeps[0].zones[0];
	char *csv = capture(zones_write_csv, rec), *head, *row;
	char h[32][32], v[32][32], want[32];
	size_t nh, nv;
	int k;

	(void)state;
	head = strstr(csv, "\n# offset_gib,");
	assert_non_null(head);
	nh = fields(head + 3, h, 32);
	row = strstr(csv, "\n0.000000,");
	assert_non_null(row);
	nv = fields(row + 1, v, 32);
	assert_int_equal(nh, 22);
	assert_int_equal(nv, nh);
	/* the first CSV's columns where they were (1-based 6..9, 16, 17) */
	assert_string_equal(h[5], "mibps");
	assert_string_equal(h[6], "lat_mean_ms");
	assert_string_equal(h[7], "lat_p99_ms");
	assert_string_equal(h[8], "lat_max_ms");
	assert_string_equal(h[9], "bytes");
	assert_string_equal(h[15], "unallocated_bytes");
	assert_string_equal(h[16], "low_precision");
	assert_string_equal(h[17], "lat_min_ms");
	assert_string_equal(h[18], "lat_p50_ms");
	assert_string_equal(h[19], "lat_p90_ms");
	assert_string_equal(h[20], "lat_p99_9_ms");
	assert_string_equal(h[21], "resident");
	assert_string_equal(v[21], "0.750");
	/* every figure under its name */
	for (k = 0; k < HIST_SUMMARY_N; k++) {
		size_t c;

		for (c = 0; c < nh && strcmp(h[c], lat_keys[k]); c++)
			;
		assert_true(c < nh);
		snprintf(want, sizeof(want), "%.4f", r->lat_ms[k]);
		assert_string_equal(v[c], want);
	}
	/* the zone without I/O: every latency field empty */
	row = strstr(csv, "\n0.003906,");
	assert_non_null(row);
	assert_int_equal(fields(row + 1, v, 32), nh);
	assert_string_equal(v[6], "");
	assert_string_equal(v[17], "");
	assert_string_equal(v[20], "");
	assert_string_equal(v[21], "");
	free(csv);
	record_free(rec);
}

/* The sweep's set in the text, under the labels of every latency table,
 * within 80 columns. */
static void test_text_table(void **state)
{
	struct record *rec = make_record();
	char *text = capture(zones_write_text, rec), *p, *nl, want[64];
	struct hist_summary sum;
	int k;

	(void)state;
	p = strstr(text, "\nLatency ms          mean      min      p50      "
		   "p90      p99    p99.9      max\n  read         ");
	assert_non_null(p);
	p = strchr(p + 1, '\n') + 16;
	hist_summarize(&rec->zones->sweeps[0].lat, &sum);
	for (k = 0; k < HIST_SUMMARY_N; k++) {
		snprintf(want, sizeof(want), " %8.3f", sum.v[k] / 1e6);
		assert_memory_equal(p, want, 9);
		p += 9;
	}
	assert_true(*p == '\n');
	/* zone 1 half in the page cache or more: C, and its legend */
	assert_non_null(strstr(text, "\n    1       0.000      2.7C "));
	assert_non_null(strstr(text, "\n    2       0.004      0.0  "));
	assert_non_null(strstr(text, "\n  C: cached: 50 % or more"));
	for (p = text; (nl = strchr(p, '\n')); p = nl + 1)
		assert_true(nl - p <= 80);
	free(text);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_summary),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_old_record),
		cmocka_unit_test(test_csv_columns),
		cmocka_unit_test(test_text_table),
	};

	return tap_run_group_tests(tests);
}
