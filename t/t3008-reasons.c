// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reasons as data (issue 25, 3): one function words a reason kind and
 * signal, the JSON record carries the kind and signal and reads them back,
 * and a record written before they existed is read from its text.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "t/record-fixture.h"
#include "report/model/record.h"

static void words_each_kind(void **state)
{
	char buf[128];

	(void)state;
	result_reason_word(buf, sizeof(buf), REASON_INTERRUPTED, SIGINT, NULL);
	assert_string_equal(buf, "interrupted by signal 2 (SIGINT)");
	result_reason_word(buf, sizeof(buf), REASON_INTERRUPTED, 0, NULL);
	assert_string_equal(buf, "interrupted");
	result_reason_word(buf, sizeof(buf), REASON_INTERRUPTED, SIGTERM,
			   "fio ran 4.0 s");
	assert_string_equal(buf,
			    "interrupted by signal 15 (SIGTERM): fio ran 4.0 s");
	result_reason_word(buf, sizeof(buf), REASON_NOT_RUN, SIGINT, NULL);
	assert_string_equal(buf, "not run: interrupted by signal 2 (SIGINT)");
	result_reason_word(buf, sizeof(buf), REASON_NOT_RUN, 0,
			   "an earlier test failed");
	assert_string_equal(buf, "not run: an earlier test failed");
	result_reason_word(buf, sizeof(buf), REASON_NOT_RUN, 0, NULL);
	assert_string_equal(buf, "not run");
	result_reason_word(buf, sizeof(buf), REASON_NONE, 0, "read error");
	assert_string_equal(buf, "read error");
	/* the writers say "not run" once, before the rest */
	assert_string_equal(result_reason_rest(REASON_NOT_RUN,
					       "not run: cell 2 failed"),
			    "cell 2 failed");
	assert_string_equal(result_reason_rest(REASON_NONE, "not run: x"),
			    "not run: x");
	assert_true(result_interrupted(REASON_INTERRUPTED, 0));
	assert_true(result_interrupted(REASON_NOT_RUN, SIGINT));
	assert_false(result_interrupted(REASON_NOT_RUN, 0));
	assert_false(result_interrupted(REASON_NONE, SIGINT));
}

static struct record *round_trip(const struct record *rec)
{
	char err[256] = "";
	struct record *back;
	int rc;
	char *s = fixture_capture(record_write_json, rec, &rc);

	assert_int_equal(rc, 0);
	back = record_read_json(s, err, sizeof(err));
	if (!back)
		fail_msg("not read back: %s", err);
	free(s);
	return back;
}

static void json_round_trip_of_each_kind(void **state)
{
	struct record *rec = fixture_record(), *back;

	(void)state;
	assert_true(rec->nresults >= 5);
	result_set_reason(&rec->results[0], RESULT_SKIPPED,
			  REASON_INTERRUPTED, SIGINT, NULL);
	result_set_reason(&rec->results[1], RESULT_SKIPPED,
			  REASON_INTERRUPTED, 0, NULL);
	result_set_reason(&rec->results[2], RESULT_SKIPPED, REASON_NOT_RUN,
			  SIGTERM, NULL);
	result_set_reason(&rec->results[3], RESULT_SKIPPED, REASON_NOT_RUN,
			  0, "another worker stopped the run");
	result_set_reason(&rec->results[4], RESULT_FAILED, REASON_NONE, 0,
			  "interrupted by a read error");
	back = round_trip(rec);
	assert_int_equal(back->results[0].reason_kind, REASON_INTERRUPTED);
	assert_int_equal(back->results[0].signal, SIGINT);
	assert_string_equal(back->results[0].reason,
			    "interrupted by signal 2 (SIGINT)");
	assert_int_equal(back->results[1].reason_kind, REASON_INTERRUPTED);
	assert_int_equal(back->results[1].signal, 0);
	assert_int_equal(back->results[2].reason_kind, REASON_NOT_RUN);
	assert_int_equal(back->results[2].signal, SIGTERM);
	assert_int_equal(back->results[3].reason_kind, REASON_NOT_RUN);
	assert_int_equal(back->results[3].signal, 0);
	/* a failure whose text starts like a stop is no stop */
	assert_int_equal(back->results[4].reason_kind, REASON_NONE);
	assert_int_equal(back->results[4].status, RESULT_FAILED);
	record_free(back);
	record_free(rec);
}

/* A record of an older clyde: the reason text and nothing else. */
static void old_records_read_from_their_text(void **state)
{
	struct record *rec = fixture_record(), *back;

	(void)state;
	result_set_status(&rec->results[0], RESULT_SKIPPED,
			  "not run: interrupted by signal 2");
	result_set_status(&rec->results[1], RESULT_SKIPPED,
			  "interrupted by signal 15 (SIGTERM)");
	result_set_status(&rec->results[2], RESULT_SKIPPED,
			  "not run: an earlier test failed");
	result_set_status(&rec->results[3], RESULT_SKIPPED, "no files (-n 0)");
	back = round_trip(rec);
	assert_int_equal(back->results[0].reason_kind, REASON_NOT_RUN);
	assert_int_equal(back->results[0].signal, 2);
	assert_int_equal(back->results[1].reason_kind, REASON_INTERRUPTED);
	assert_int_equal(back->results[1].signal, 15);
	assert_int_equal(back->results[2].reason_kind, REASON_NOT_RUN);
	assert_int_equal(back->results[2].signal, 0);
	assert_int_equal(back->results[3].reason_kind, REASON_NONE);
	record_free(back);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(words_each_kind),
		cmocka_unit_test(json_round_trip_of_each_kind),
		cmocka_unit_test(old_records_read_from_their_text),
	};

	return tap_run_group_tests(tests);
}
