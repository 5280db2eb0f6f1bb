// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's own latency figures in the run record: a fio 2.x job (clat in us,
 * percentiles listed, no bins) imported keeps fio's p50 and p99.9 exactly
 * (hist_summarize_exact), not the figures of the histogram rebuilt from
 * them; the record's JSON writes them ('exact_latency_us', a cell's
 * 'read_exact_latency_ms') and reads them back, so that a re-exported
 * record still shows fio's figures; once the histogram is merged with
 * another the summary no longer applies.
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

#include "t/cmocka-tap.h"
#include "report/import/import.h"
#include "report/model/histogram.h"
#include "report/model/matrix.h"
#include "report/model/record.h"

/* fio 2.17's shape: clat in us, io_bytes in KiB, no "N", no bins */
static const char fio2[] =
	"{\"fio version\": \"fio-2.17\", \"jobs\": [{\"jobname\": \"r\", "
	"\"error\": 0, \"job options\": {\"rw\": \"randread\", "
	"\"bs\": \"16k\"}, \"read\": {\"io_bytes\": 1294256, "
	"\"bw\": 129386, \"iops\": 8086.673998, \"runtime\": 10003, "
	"\"total_ios\": 80891, \"clat\": {\"min\": 1, \"max\": 12176, "
	"\"mean\": 238.357679, \"percentile\": {\"1.000000\": 48, "
	"\"50.000000\": 96, \"90.000000\": 1224, \"99.000000\": 1352, "
	"\"99.900000\": 1896, \"99.990000\": 5408}}}}]}";

static struct record *import_one(void)
{
	struct import im;
	struct record *rec;

	import_init(&im);
	assert_int_equal(import_buffer(&im, "fio2.json", fio2,
				       sizeof(fio2) - 1), 1);
	rec = im.recs[0];
	im.nrecs = 0;
	import_release(&im);
	return rec;
}

static void fio_figures(const struct result *res, const struct histogram *h,
			const struct hist_exact *x)
{
	struct hist_summary s;

	assert_int_equal(hist_summarize_exact(h, x, &s), 1);
	assert_true(s.count == 80891);
	assert_true(s.v[HIST_S_P50] == 96000);
	assert_true(s.v[HIST_S_P90] == 1224000);
	assert_true(s.v[HIST_S_P99] == 1352000);
	assert_true(s.v[HIST_S_P99_9] == 1896000);
	assert_true(s.v[HIST_S_MIN] == 1000);
	assert_true(s.v[HIST_S_MAX] == 12176000);
	assert_true(fabs(s.v[HIST_S_MEAN] - 238357.679) < 1e-6);
	(void)res;
}

static void test_import(void **state)
{
	struct record *rec = import_one();
	const struct result *res = record_find(rec, "fio_randread_read");
	struct hist_summary h;

	(void)state;
	assert_non_null(res);
	/* fio 2.x io_bytes is KiB */
	assert_true(res->bytes == 1294256ull * 1024);
	fio_figures(res, &res->lat, res->exact);
	/* the histogram alone puts p50 in its bucket: 95.7 us, not 96 */
	hist_summarize(&res->lat, &h);
	assert_true(h.v[HIST_S_P50] != 96000);
	assert_non_null(rec->matrix);
	fio_figures(res, &rec->matrix->cells[0].rlat,
		    rec->matrix->cells[0].rrep);
	record_free(rec);
}

static char *json_line(const struct record *rec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(record_write_json(rec, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void same_results(const char *a, const char *b)
{
	const char *ra = strstr(a, "\"results\":"), *rb = strstr(b, "\"results\":");
	const char *ea = ra ? strstr(ra, "\"matrix\":") : NULL;
	const char *eb = rb ? strstr(rb, "\"matrix\":") : NULL;

	assert_non_null(ea);
	assert_non_null(eb);
	if (ea - ra != eb - rb || memcmp(ra, rb, (size_t)(ea - ra)))
		fail_msg("results differ: %.*s | %.*s", (int)(ea - ra), ra,
			 (int)(eb - rb), rb);
}

static void test_json_round_trip(void **state)
{
	struct record *rec = import_one(), *back;
	char err[256] = "", *a, *b;
	const struct result *res;

	(void)state;
	a = json_line(rec);
	assert_non_null(strstr(a, "\"exact_latency_us\""));
	assert_non_null(strstr(a, "\"read_exact_latency_ms\""));
	back = record_read_json(a, err, sizeof(err));
	if (!back)
		fail_msg("%s", err);
	res = record_find(back, "fio_randread_read");
	assert_non_null(res);
	assert_non_null(res->exact);
	fio_figures(res, &res->lat, res->exact);
	fio_figures(res, &back->matrix->cells[0].rlat,
		    back->matrix->cells[0].rrep);
	/* the results written again as they were (a cell's rates are
	 * recomputed from its counts when read: not compared here) */
	b = json_line(back);
	same_results(a, b);
	free(a);
	free(b);
	record_free(back);
	record_free(rec);
}

static void test_merged(void **state)
{
	struct record *rec = import_one(), *other = import_one();
	struct result *res = record_find(rec, "fio_randread_read");
	struct hist_summary s;

	(void)state;
	hist_merge(&res->lat, &record_find(other, "fio_randread_read")->lat);
	assert_false(hist_exact_applies(&res->lat, res->exact));
	assert_int_equal(hist_summarize_exact(&res->lat, res->exact, &s), 0);
	assert_true(s.count == 2 * 80891);
	record_free(other);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_merged),
	};

	return tap_run_group_tests(tests);
}
