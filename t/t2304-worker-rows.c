// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-worker rows of a result in the JSON record: written beside the
 * aggregate, read back into the same rows (write -> read -> write gives
 * the same line), absent for a single worker, bad rows refused.
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
#include "t/record-fixture.h"
#include "report/model/worker_rows.h"

static struct record *with_rows(void)
{
	struct record *rec = fixture_record();
	struct result *res = record_find(rec, "put_block");
	struct worker_row *w;

	w = result_add_worker(res, 0, "node1", "/mnt/a");
	w->status = RESULT_OK;
	w->value = 1234.5;
	w->cpu = 40.25;
	w->ops = 4096;
	w->bytes = 33554432;
	w->elapsed = 0.75;
	w->first_s = 0.001;
	w->last_s = 0.751;
	w = result_add_worker(res, 1, "node2", "/mnt/b");
	w->status = RESULT_FAILED;
	w->reason = strdup("killed by signal 9 (Killed)");
	return rec;
}

static void rows_round_trip(void **state)
{
	struct record *rec = with_rows(), *back;
	char *one, *two;
	char err[256] = "";
	const struct result *res;
	int rc;

	(void)state;
	one = fixture_capture(record_write_json, rec, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(one, "\"workers\":[{\"worker\":0,\"host\":"
				    "\"node1\",\"dir\":\"/mnt/a\""));
	back = record_read_json(one, err, sizeof(err));
	assert_non_null(back);
	res = record_find(back, "put_block");
	assert_int_equal(res->nworkers, 2);
	assert_string_equal(res->workers[1].host, "node2");
	assert_int_equal(res->workers[1].status, RESULT_FAILED);
	assert_string_equal(res->workers[1].reason,
			    "killed by signal 9 (Killed)");
	assert_true(res->workers[0].ops == 4096);
	assert_true(res->workers[0].last_s == 0.751);
	/* a result of one worker has no rows */
	assert_int_equal(record_find(back, "rewrite")->nworkers, 0);
	two = fixture_capture(record_write_json, back, &rc);
	assert_string_equal(one, two);
	free(one);
	free(two);
	record_free(rec);
	record_free(back);
}

static void single_worker_has_no_member(void **state)
{
	struct record *rec = fixture_record();
	char *s;
	int rc;

	(void)state;
	s = fixture_capture(record_write_json, rec, &rc);
	assert_null(strstr(s, "\"workers\""));
	free(s);
	record_free(rec);
}

static void bad_rows_refused(void **state)
{
	struct record *rec = with_rows(), *back;
	char err[256] = "";
	char *s, *p;
	int rc;

	(void)state;
	s = fixture_capture(record_write_json, rec, &rc);
	p = strstr(s, "\"ops\":4096,\"bytes\":33554432,\"elapsed\":0.75");
	assert_non_null(p);
	memcpy(p, "\"ops\":\"40\"", 10);
	back = record_read_json(s, err, sizeof(err));
	assert_null(back);
	assert_string_not_equal(err, "");
	if (!strstr(err, "worker 1: a field has the wrong type"))
		fail_msg("message: %s", err);
	free(s);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_round_trip),
		cmocka_unit_test(single_worker_has_no_member),
		cmocka_unit_test(bad_rows_refused),
	};

	return tap_run_group_tests(tests);
}
