// SPDX-License-Identifier: GPL-2.0-only
/*
 * One bonnie++ test table (issue 25, 3): report/model/bonnie.c's
 * bonnie_tests[] states each test's name, title, unit, per-char fact and
 * place once.  Every user is checked against it here: the suite's tests
 * (bench/classic), the CSV writer's columns, the CSV reader's columns in
 * each format and the names, titles and units it gives, the comparison's
 * twelve first tests, and the fio importer's block write and read.  A list
 * of its own anywhere that disagrees fails one of these.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "bench/classic/tests.h"
#include "report/analyze/compare.h"
#include "report/import/import.h"
#include "report/model/bonnie.h"
#include "report/model/record.h"

/* The table itself: one entry each, I/O part first, putc and getc per-char. */
static void test_table(void **state)
{
	size_t i, j;

	(void)state;
	assert_int_equal(BONNIE_NIO + BONNIE_NFILE, BONNIE_NTESTS);
	for (i = 0; i < BONNIE_NTESTS; i++) {
		const struct bonnie_test *t = &bonnie_tests[i];

		assert_non_null(t->name);
		assert_non_null(t->title);
		assert_non_null(t->unit);
		assert_ptr_equal(bonnie_test_find(t->name), t);
		assert_int_equal(bonnie_test_io(t->name), i < BONNIE_NIO);
		assert_int_equal(bonnie_test_files(t->name), i >= BONNIE_NIO);
		assert_int_equal(bonnie_test_per_char(t->name), t->per_char);
		assert_int_equal(t->per_char,
				 i == BONNIE_PUTC || i == BONNIE_GETC);
		for (j = 0; j < i; j++) {
			assert_string_not_equal(t->name, bonnie_tests[j].name);
			assert_string_not_equal(t->title,
						bonnie_tests[j].title);
		}
	}
	assert_null(bonnie_test_find("fio_randread_read"));
	assert_false(bonnie_test_per_char("fio_randread_read"));
	assert_string_equal(bonnie_tests[BONNIE_PUTC].name, "putc");
	assert_string_equal(bonnie_tests[BONNIE_SEEKS].name, "seeks");
	assert_string_equal(bonnie_tests[BONNIE_RAN_DEL].name, "ran_del");
}

/* The suite runs the table's tests, in its order, named from it. */
static void test_bench(void **state)
{
	struct bench_config cfg;
	struct record *rec = record_new();
	size_t i;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.file_size = 1 << 20;
	cfg.chunk_size = 8192;
	cfg.char_size = 0;		/* -f 0: no per-char test */
	cfg.num_files = 1024;
	assert_int_equal(bench_ntests, BONNIE_NTESTS);
	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		struct result *res;

		assert_ptr_equal(t->def, &bonnie_tests[i]);
		res = bench_test_result(t, rec);
		assert_string_equal(res->name, bonnie_tests[i].name);
		assert_string_equal(res->title, bonnie_tests[i].title);
		assert_string_equal(res->unit, bonnie_tests[i].unit);
		assert_int_equal(bench_test_applies(t, &cfg),
				 !bonnie_tests[i].per_char);
		assert_int_equal(!!(t->flags & BENCH_FILES), i >= BONNIE_NIO);
	}
	cfg.char_size = 3 << 20;	/* per-char tests count its chunks */
	for (i = 0; i < bench_ntests; i++)
		if (bench_tests[i]->count == BENCH_COUNT_CHUNKS)
			assert_int_equal(bench_test_ops(bench_tests[i], &cfg),
					 bonnie_tests[i].per_char ? 384 : 128);
	record_free(rec);
}

/* A record with test i at 1000 + i KiB/s, CPU 10 + i %, (i + 1) ms max. */
static struct record *numbered_record(void)
{
	struct record *rec = record_new();
	size_t i;

	record_set_str(&rec->version, "0.1.0");
	record_set_str(&rec->label, "vm");
	record_set_param(rec, PARAM_FILE_SIZE, "1073741824", 1);
	record_set_param(rec, PARAM_NUM_FILES, "16384", 1);
	record_set_param(rec, PARAM_SEED, "7", 1);
	for (i = 0; i < BONNIE_NTESTS; i++) {
		const struct bonnie_test *t = &bonnie_tests[i];
		struct result *res = record_add_result(rec, t->name, t->title,
						       t->unit);

		result_set_status(res, RESULT_OK, NULL);
		res->value = 1000 + (double)i;
		res->cpu = 10 + (double)i;
		hist_add(&res->lat, (i + 1) * UINT64_C(1000000));
	}
	return rec;
}

/* rec's bonnie++ CSV line (caller frees). */
static char *csv_line(const struct record *rec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(record_write_bonnie_csv(rec, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Field i (0-based) of a CSV line. */
static void field_of(const char *line, int i, char *buf, size_t len)
{
	size_t n;

	while (i-- > 0) {
		line = strchr(line, ',');
		assert_non_null(line);
		line++;
	}
	n = strcspn(line, ",\n");
	assert_true(n < len);
	memcpy(buf, line, n);
	buf[n] = '\0';
}

static void check_field(const char *line, int i, const char *fmt,
			unsigned long v)
{
	char got[64], want[64];

	field_of(line, i, got, sizeof(got));
	snprintf(want, sizeof(want), fmt, v);
	assert_string_equal(got, want);
}

/* The writer puts each test where the table says a 1.98 line has it. */
static void test_csv_writer(void **state)
{
	struct record *rec = numbered_record();
	char *line;
	size_t i;

	(void)state;
	line = csv_line(rec);
	for (i = 0; i < BONNIE_NTESTS; i++) {
		int f = bonnie_csv_rate_field((enum bonnie_test_id)i,
					      BONNIE_CSV198_IO,
					      BONNIE_CSV198_FILES);

		check_field(line, f, "%lu", 1000 + i);
		check_field(line, f + 1, "%lu", 10 + i);
		check_field(line, BONNIE_CSV198_LATENCY + (int)i, "%luus",
			    (i + 1) * 1000);
	}
	free(line);
	record_free(rec);
}

/* Each result an imported line gives is the table's test i, valued base + i. */
static void check_imported(const char *line, unsigned long base,
			   int latency)
{
	struct import im;
	const struct record *rec;
	size_t i;

	import_init(&im);
	assert_int_equal(import_buffer(&im, "t.csv", line, strlen(line)), 1);
	assert_int_equal(im.nwarnings, 0);
	rec = im.recs[0];
	assert_int_equal(rec->nresults, BONNIE_NTESTS);
	for (i = 0; i < BONNIE_NTESTS; i++) {
		const struct result *res = &rec->results[i];

		assert_string_equal(res->name, bonnie_tests[i].name);
		assert_string_equal(res->title, bonnie_tests[i].title);
		assert_string_equal(res->unit, bonnie_tests[i].unit);
		assert_int_equal(res->status, RESULT_OK);
		assert_true(res->value == (double)(base + i));
		assert_true(res->cpu == (double)(10 + i));
		if (latency)
			assert_true(res->lat.max == (i + 1) * UINT64_C(1000000));
	}
	import_release(&im);
}

/* The reader finds each test where the writer put it, and in 1.97 and
 * 1.03 lines where bonnie++ put it (written out here by hand). */
static void test_csv_reader(void **state)
{
	struct record *rec = numbered_record();
	char *line;

	(void)state;
	line = csv_line(rec);
	check_imported(line, 1000, 1);
	free(line);
	record_free(rec);
	check_imported("1.97,1.97,vm,1,7,1G,,"
		       "2000,10,2001,11,2002,12,2003,13,2004,14,2005,15,"
		       "16,,,,,"
		       "2006,16,2007,17,2008,18,2009,19,2010,20,2011,21,"
		       "1000us,2000us,3000us,4000us,5000us,6000us,"
		       "7000us,8000us,9000us,10000us,11000us,12000us\n",
		       2000, 1);
	check_imported("vm,1G,"
		       "3000,10,3001,11,3002,12,3003,13,3004,14,3005,15,"
		       "16,"
		       "3006,16,3007,17,3008,18,3009,19,3010,20,3011,21\n",
		       3000, 0);
}

/* The comparison's first twelve tests are the table's. */
static void test_compare(void **state)
{
	struct record *rec = record_new();
	struct compare c;
	char err[256];
	size_t i;

	(void)state;
	record_set_str(&rec->label, "vm");
	assert_int_equal(compare_build(&c, &rec, 1, NULL, NULL, err,
				       sizeof(err)), 0);
	assert_true(c.ntests >= BONNIE_NTESTS);
	for (i = 0; i < BONNIE_NTESTS; i++) {
		assert_string_equal(c.tests[i].name, bonnie_tests[i].name);
		assert_string_equal(c.tests[i].title, bonnie_tests[i].title);
		assert_string_equal(c.tests[i].unit, bonnie_tests[i].unit);
		assert_int_equal(c.tests[i].per_char, bonnie_tests[i].per_char);
	}
	compare_release(&c);
	record_free(rec);
}

static const char fio_seq[] =
	"{\"fio version\": \"fio-3.33\", \"jobs\": ["
	"{\"jobname\": \"w\", \"error\": 0, \"job options\": {\"rw\": "
	"\"write\", \"bs\": \"1m\"}, \"write\": {\"io_bytes\": 1048576, "
	"\"bw_bytes\": 1048576, \"runtime\": 1000, \"total_ios\": 1}}, "
	"{\"jobname\": \"r\", \"error\": 0, \"job options\": {\"rw\": "
	"\"read\", \"bs\": \"1m\"}, \"read\": {\"io_bytes\": 1048576, "
	"\"bw_bytes\": 1048576, \"runtime\": 1000, \"total_ios\": 1}}]}";

/* fio's sequential write and read jobs are the table's block tests. */
static void test_fio(void **state)
{
	static const enum bonnie_test_id want[] = {
		BONNIE_PUT_BLOCK, BONNIE_GET_BLOCK,
	};
	struct import im;
	size_t i;

	(void)state;
	import_init(&im);
	assert_int_equal(import_buffer(&im, "fio.json", fio_seq,
				       sizeof(fio_seq) - 1), 2);
	for (i = 0; i < 2; i++) {
		const struct result *res = &im.recs[i]->results[0];
		const struct bonnie_test *t = &bonnie_tests[want[i]];

		assert_int_equal(im.recs[i]->nresults, 1);
		assert_string_equal(res->name, t->name);
		assert_string_equal(res->title, t->title);
		assert_string_equal(res->unit, t->unit);
	}
	import_release(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_bench),
		cmocka_unit_test(test_csv_writer),
		cmocka_unit_test(test_csv_reader),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_fio),
	};

	return tap_run_group_tests(tests);
}
