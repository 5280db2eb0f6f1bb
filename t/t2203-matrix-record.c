// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record's matrix section: JSON write -> read -> write gives the same
 * line, rates follow from the histograms, the XDISK text table and the
 * long CSV carry every cell, and a broken matrix section is refused.
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
#include "report/model/matrix.h"
#include "report/model/record.h"

static struct record *make_record(void)
{
	struct record *rec = record_new();
	struct matrix_cell *c;
	unsigned i;

	record_set_str(&rec->label, "t2203");
	record_set_str(&rec->target.path, "/mnt/x");
	rec->matrix = matrix_new();
	rec->matrix->engine = strdup("libaio");
	rec->matrix->direct = 1;
	/* 8K random 100 % read: 1000 reads of 100 us in 0.5 s */
	c = matrix_add_cell(rec->matrix);
	c->bs = 8192, c->threads = 1, c->qd = 32, c->random = 1;
	c->read_pct = 100, c->status = RESULT_OK, c->elapsed = 0.5;
	for (i = 0; i < 1000; i++)
		hist_add(&c->rlat, 100000);
	matrix_cell_rates(c);
	/* 1M sequential 80/20 */
	c = matrix_add_cell(rec->matrix);
	c->bs = 1 << 20, c->threads = 16, c->qd = 32, c->random = 0;
	c->read_pct = 80, c->status = RESULT_OK, c->elapsed = 2;
	for (i = 0; i < 80; i++)
		hist_add(&c->rlat, 2000000 + i);
	for (i = 0; i < 20; i++)
		hist_add(&c->wlat, 4000000);
	matrix_cell_rates(c);
	return rec;
}

/* make_record() plus a hit area and a two-point curve on cell 1 */
static struct record *make_curve_record(void)
{
	struct record *rec = make_record();
	struct matrix_cell *c = &rec->matrix->cells[0];
	struct matrix_point *p;
	unsigned i;

	rec->matrix->verify = 1;
	c->hit_area = 65536, c->hit_pct = 90, c->hits = 900;
	p = matrix_add_point(c);
	p->pct = 10, p->target_iops = 200, p->status = RESULT_OK;
	p->elapsed = 0.5;
	for (i = 0; i < 99; i++)
		hist_add(&p->rlat, 50000);
	matrix_point_rates(p, c->bs);
	p = matrix_add_point(c);
	p->pct = 50, p->target_iops = 1000, p->status = RESULT_OK;
	p->elapsed = 0.5;
	for (i = 0; i < 490; i++)
		hist_add(&p->rlat, 80000);
	matrix_point_rates(p, c->bs);
	return rec;
}

/* noinline: gcc 12 takes open_memstream's buffer for a dangling local */
__attribute__((noinline))
static char *to_string(int (*fn)(const struct record *, FILE *),
		       const struct record *rec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		abort();
	rc = fn(rec, f);
	if (fclose(f))
		abort();
	if (rc)
		fail_msg("writer failed");
	return buf;
}

static int csv_with_header(const struct record *rec, FILE *f)
{
	return matrix_write_csv(rec, f, 1);
}

static void test_rates(void **state)
{
	struct record *rec = make_record();
	const struct matrix_cell *c = &rec->matrix->cells[0];

	(void)state;
	assert_true(c->iops == 2000.0);
	assert_true(c->mbps == 2000.0 * 8192 / 1048576);
	c = &rec->matrix->cells[1];
	assert_true(c->iops == 50.0);
	assert_true(c->mbps == 50.0);
	record_free(rec);
}

static void test_json_round_trip(void **state)
{
	struct record *rec = make_record(), *back;
	char *one = to_string(record_write_json, rec), *two;
	char err[256] = "";

	(void)state;
	assert_non_null(strstr(one, "\"matrix\":{\"engine\":\"libaio\""));
	back = record_read_json(one, err, sizeof(err));
	assert_string_equal(err, "");
	assert_non_null(back);
	assert_non_null(back->matrix);
	assert_int_equal(back->matrix->ncells, 2);
	assert_int_equal(back->matrix->cells[1].wlat.count, 20);
	assert_int_equal(back->matrix->cells[1].bs, 1 << 20);
	assert_true(back->matrix->cells[0].iops == 2000.0);
	two = to_string(record_write_json, back);
	assert_string_equal(one, two);
	free(one);
	free(two);
	record_free(back);
	record_free(rec);
}

static void test_json_without_matrix(void **state)
{
	struct record *rec = record_new();
	char *s = to_string(record_write_json, rec);

	(void)state;
	assert_null(strstr(s, "matrix"));
	free(s);
	record_free(rec);
}

static void test_json_bad_matrix(void **state)
{
	struct record *rec = make_record(), *back;
	char *s = to_string(record_write_json, rec), *p;
	char err[256] = "";

	(void)state;
	p = strstr(s, "\"pattern\":\"random\"");
	assert_non_null(p);
	memcpy(p + 11, "zigzag", 6);
	back = record_read_json(s, err, sizeof(err));
	assert_null(back);
	assert_string_not_equal(err, "");
	assert_non_null(strstr(err, "pattern"));
	free(s);
	record_free(rec);
}

static void test_text(void **state)
{
	struct record *rec = make_record();
	char *s = to_string(matrix_write_text, rec), *line;

	(void)state;
	assert_non_null(strstr(s, "\n8K block size \xe2\x80\x94 1 thread, "
			       "queue depth 32\n\nPattern    Profile           "
			       "IO/s      MB/s  Read (ms)  Write (ms)\n"
			       "Random     100% read        2,000      15.6      "
			       "0.100           \xe2\x80\x94\n\n"));
	assert_non_null(strstr(s, "\n1MB block size \xe2\x80\x94 16 threads, "
			       "queue depth 32\n"));
	assert_non_null(strstr(s, "\nSequential 80/20               50      "
			       "50.0       2.00        4.00\n"));
	/* the percentiles below: p99 of 80 reads of 2.000..2.079 ms */
	line = strstr(s, "\nSequential 80/20         2.0");
	assert_non_null(line);
	assert_non_null(strstr(s, "     p99   p99.9     max     p99   p99.9"
			       "     max   CPU %\n"));
	/* and the low ones: reads 2.000000..2.000079 ms, writes 4 ms */
	assert_non_null(strstr(s, "\nPattern    Profile        min     p50 "
			       "    p90     min     p50     p90\n"));
	assert_non_null(strstr(s, "\nSequential 80/20         2.00    2.00 "
			       "   2.00    4.00    4.00    4.00\n"));
	free(s);
	record_free(rec);
}

static void test_formats(void **state)
{
	char b[32];

	(void)state;
	matrix_fmt_iops(b, sizeof(b), 1505683.4);
	assert_string_equal(b, "1,505,683");
	matrix_fmt_iops(b, sizeof(b), 756);
	assert_string_equal(b, "756");
	matrix_fmt_iops(b, sizeof(b), 33000000);
	assert_string_equal(b, "33,000,000");
	matrix_fmt_mbps(b, sizeof(b), 31.42);
	assert_string_equal(b, "31.4");
	matrix_fmt_mbps(b, sizeof(b), 756);
	assert_string_equal(b, "756.0");
	matrix_fmt_mbps(b, sizeof(b), 11763.2);
	assert_string_equal(b, "11,763");
	matrix_fmt_ms(b, sizeof(b), 0.0031);
	assert_string_equal(b, "0.003");
	matrix_fmt_ms(b, sizeof(b), 2.404);
	assert_string_equal(b, "2.40");
	matrix_fmt_ms(b, sizeof(b), 13.04);
	assert_string_equal(b, "13.0");
	matrix_fmt_ms(b, sizeof(b), 0.0004);
	assert_string_equal(b, "0.0004");
	matrix_fmt_ms(b, sizeof(b), NAN);
	assert_string_equal(b, "\xe2\x80\x94");
}

static void test_csv(void **state)
{
	struct record *rec = make_record();
	char *s = to_string(csv_with_header, rec), *line2;

	(void)state;
	assert_int_equal(strncmp(s, "label,start,engine,", 19), 0);
	line2 = strchr(s, '\n') + 1;
	assert_int_equal(strncmp(line2, "t2203,,libaio,1,8192,1,32,random,100,"
				 "ok,", 37), 0);
	/* a read-only cell has empty write latency fields, then no hit
	 * area */
	assert_non_null(strstr(line2, ",,,,,,0,0,0\n"));
	assert_non_null(strstr(s, ",write_max_ms,hit_area,hit_pct,hits\n"));
	assert_non_null(strstr(line2, "\nt2203,,libaio,1,1048576,16,32,seq,80,"));
	free(s);
	record_free(rec);
}

static void test_curve_json_round_trip(void **state)
{
	struct record *rec = make_curve_record(), *back;
	char *one = to_string(record_write_json, rec), *two;
	const struct matrix_cell *c;
	char err[256] = "";

	(void)state;
	assert_non_null(strstr(one, "\"verify\":true"));
	assert_non_null(strstr(one, "\"hit_area\":65536,\"hit_pct\":90,"
			       "\"hits\":900"));
	back = record_read_json(one, err, sizeof(err));
	assert_string_equal(err, "");
	c = &back->matrix->cells[0];
	assert_int_equal(back->matrix->verify, 1);
	assert_int_equal(c->hit_area, 65536);
	assert_int_equal(c->hits, 900);
	assert_int_equal(c->ncurve, 2);
	assert_int_equal(c->curve[1].pct, 50);
	assert_true(c->curve[1].iops == 980.0);
	assert_true(c->curve[0].target_iops == 200.0);
	assert_int_equal(back->matrix->cells[1].ncurve, 0);
	two = to_string(record_write_json, back);
	assert_string_equal(one, two);
	free(one);
	free(two);
	record_free(back);
	record_free(rec);
}

static void test_curve_text(void **state)
{
	struct record *rec = make_curve_record();
	struct matrix_point *p = &rec->matrix->cells[0].curve[1];
	char *s, *t;

	(void)state;
	/* 490 of 1000 in 0.5 s is 98 %: reached; 198 of 200 too */
	s = to_string(matrix_write_text, rec);
	t = strstr(s, "\nRate curve, Random 100% read (maximum 2,000 IO/s)\n"
		   "Target      Target    Achieved");
	assert_non_null(t);
	assert_non_null(strstr(t, "\n    10         200         198   0.050"
			       "   0.050        \xe2\x80\x94       \xe2\x80\x94\n"
			       "    50       1,000         980   0.080   0.080"
			       "        \xe2\x80\x94       \xe2\x80\x94\n"));
	assert_null(strstr(s, "not reached\n"));
	/* under the 8K table only */
	assert_null(strstr(strstr(s, "1MB block size"), "Rate curve"));
	free(s);
	/* 940 of 1000 is below 95 %: not reached, one row still */
	p->elapsed = 0.5 * 980.0 / 940.0;
	matrix_point_rates(p, 8192);
	assert_int_equal(matrix_point_reached(p), 0);
	s = to_string(matrix_write_text, rec);
	assert_non_null(strstr(s, "\n    50       1,000         940   0.080   "
			       "0.080        \xe2\x80\x94       \xe2\x80\x94  "
			       "not reached\n"));
	free(s);
	s = to_string(record_write_json, rec);
	assert_non_null(strstr(s, "\"pct\":50,\"target_iops\":1000,"
			       "\"reached\":false,"));
	assert_non_null(strstr(s, "\"pct\":10,\"target_iops\":200,"
			       "\"reached\":true,"));
	free(s);
	record_free(rec);
}

/* prefill, profile, steady, two targets and a stop survive write -> read
 * -> write */
static void test_ext_round_trip(void **state)
{
	struct record *rec = make_record(), *back;
	struct matrix_cell *c = &rec->matrix->cells[0];
	struct record_target *t;
	char *one, *two, err[256] = "";
	unsigned i;

	(void)state;
	rec->matrix->prefill.status = RESULT_OK;
	rec->matrix->prefill.bs = 262144;
	rec->matrix->prefill.bytes = 3 << 20;
	rec->matrix->prefill.elapsed = 0.5;
	rec->matrix->prefill.mbps = 6;
	rec->matrix->profile = strdup("vdbench-hit");
	rec->matrix->steady = strdup("iops:5% over 1 s");
	rec->targets = calloc(2, sizeof(*rec->targets));
	rec->ntargets = 2;
	t = &rec->targets[0];
	t->path = strdup("/dev/loop7");
	t->source = strdup("/dev/loop7");
	t = &rec->targets[1];
	t->path = strdup("/dev/loop8");
	c->steady.checked = 1, c->steady.attained = 1, c->steady.at = 2.5;
	c->steady.window = 1, c->steady.mean = 2000, c->steady.value = 1.5;
	c->stopped = 1;
	matrix_cell_targets(c, 2);
	for (i = 0; i < 1000; i++)
		hist_add(&c->targets[i % 2].rlat, 100000);
	matrix_cell_rates(c);
	assert_true(c->targets[1].iops == 1000.0);
	one = to_string(record_write_json, rec);
	assert_non_null(strstr(one, "\"profile\":\"vdbench-hit\""));
	assert_non_null(strstr(one, "\"prefill\":{\"status\":\"ok\","
			       "\"kind\":\"write\",\"bs\":262144,"));
	assert_non_null(strstr(one, "\"steady\":{\"attained\":true,\"at\":2.5"));
	assert_non_null(strstr(one, "\"stopped\":true"));
	back = record_read_json(one, err, sizeof(err));
	assert_string_equal(err, "");
	assert_non_null(back);
	assert_int_equal(back->ntargets, 2);
	assert_string_equal(back->targets[1].path, "/dev/loop8");
	assert_int_equal(back->matrix->cells[0].ntargets, 2);
	assert_int_equal(back->matrix->cells[0].targets[0].rlat.count, 500);
	assert_int_equal(back->matrix->prefill.bytes, 3 << 20);
	assert_true(back->matrix->cells[0].steady.attained);
	assert_true(back->matrix->cells[0].stopped);
	two = to_string(record_write_json, back);
	assert_string_equal(one, two);
	free(one);
	free(two);
	record_free(back);
	record_free(rec);
}

static void test_figures(void **state)
{
	struct record *rec = make_curve_record();
	struct matrix_figures f;

	(void)state;
	matrix_cell_figures(&rec->matrix->cells[1], &f);
	assert_string_equal(f.bs, "1M");
	assert_string_equal(f.pattern, "Seq");
	assert_string_equal(f.profile, "80/20");
	assert_string_equal(f.status, "ok");
	assert_true(f.iops == 50.0 && f.mbps == 50.0);
	assert_true(f.wlat[HIST_S_MEAN] == 4.0);
	matrix_cell_figures(&rec->matrix->cells[0], &f);
	assert_true(f.rlat[HIST_S_MEAN] == 0.1);
	assert_true(isnan(f.wlat[HIST_S_MEAN]));
	matrix_point_figures(&rec->matrix->cells[0],
			     &rec->matrix->cells[0].curve[0], &f);
	assert_true(f.iops == 198.0);
	assert_true(f.rlat[HIST_S_MEAN] == 0.05);
	rec->matrix->cells[1].status = RESULT_FAILED;
	matrix_cell_figures(&rec->matrix->cells[1], &f);
	assert_string_equal(f.status, "failed");
	assert_true(isnan(f.iops));
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_without_matrix),
		cmocka_unit_test(test_json_bad_matrix),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_curve_json_round_trip),
		cmocka_unit_test(test_curve_text),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_ext_round_trip),
	};

	return tap_run_group_tests(tests);
}
