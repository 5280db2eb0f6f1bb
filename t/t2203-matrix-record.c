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
#include "report/matrix.h"
#include "report/record.h"

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
	const char *err = NULL;

	(void)state;
	assert_non_null(strstr(one, "\"matrix\":{\"engine\":\"libaio\""));
	back = record_read_json(one, &err);
	assert_null(err);
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
	const char *err = NULL;

	(void)state;
	p = strstr(s, "\"pattern\":\"random\"");
	assert_non_null(p);
	memcpy(p + 11, "zigzag", 6);
	back = record_read_json(s, &err);
	assert_null(back);
	assert_non_null(err);
	assert_non_null(strstr(err, "pattern"));
	free(s);
	record_free(rec);
}

static void test_text(void **state)
{
	struct record *rec = make_record();
	char *s = to_string(matrix_write_text, rec);

	(void)state;
	assert_non_null(strstr(s, "8K blocks, 1 thread, queue depth 32\n"));
	assert_non_null(strstr(s, "1M blocks, 16 threads, queue depth 32\n"));
	assert_non_null(strstr(s, "Pattern           Random\n"));
	assert_non_null(strstr(s, "Profile        100% read\n"));
	assert_non_null(strstr(s, "IO/s                2000\n"));
	assert_non_null(strstr(s, "MB/s               15.62\n"));
	assert_non_null(strstr(s, "Read (ms)          0.100\n"));
	assert_non_null(strstr(s, "Write (ms)             -\n"));
	assert_non_null(strstr(s, "Profile            80/20\n"));
	assert_non_null(strstr(s, "Write (ms)         4.000\n"));
	free(s);
	record_free(rec);
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
	const char *err = NULL;

	(void)state;
	assert_non_null(strstr(one, "\"verify\":true"));
	assert_non_null(strstr(one, "\"hit_area\":65536,\"hit_pct\":90,"
			       "\"hits\":900"));
	back = record_read_json(one, &err);
	assert_null(err);
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
	char *s = to_string(matrix_write_text, rec);

	(void)state;
	/* under the 8K table only, a column per cell */
	assert_non_null(strstr(s, "Write (ms)             -\nRate curve"));
	assert_non_null(strstr(s, "\n10% IO/s             198\n"
				  "10% Read           0.050\n"
				  "10% Write              -\n"
				  "50% IO/s             980\n"));
	assert_null(strstr(strstr(s, "1M blocks"), "Rate curve"));
	free(s);
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
	assert_true(f.write_ms == 4.0);
	matrix_cell_figures(&rec->matrix->cells[0], &f);
	assert_true(f.read_ms == 0.1);
	assert_true(isnan(f.write_ms));
	matrix_point_figures(&rec->matrix->cells[0],
			     &rec->matrix->cells[0].curve[0], &f);
	assert_true(f.iops == 198.0);
	assert_true(f.read_ms == 0.05);
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
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_curve_json_round_trip),
		cmocka_unit_test(test_curve_text),
		cmocka_unit_test(test_figures),
	};

	return tap_run_group_tests(tests);
}
