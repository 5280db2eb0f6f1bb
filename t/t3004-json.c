// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON run record: one line that json-c parses, with a schema version
 * and every field, read back by record_read_json into the same record
 * (write -> read -> write gives the same line), and bad input refused with
 * a reason.
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
#include "t/record-fixture.h"
#include "report/json/jtree.h"

static char *json_of(const struct record *rec)
{
	int rc;
	char *s = fixture_capture(record_write_json, rec, &rc);

	assert_int_equal(rc, 0);
	return s;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no '%s' in %s", key, json_object_to_json_string(o));
	return v;
}

static void assert_type(struct json_object *o, enum json_type type)
{
	if (!json_object_is_type(o, type))
		fail_msg("%s is a %s, not a %s", json_object_to_json_string(o),
			 json_type_to_name(json_object_get_type(o)),
			 json_type_to_name(type));
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	assert_type(v, json_type_string);
	return json_object_get_string(v);
}

static struct json_object *parse_line(const char *s)
{
	struct json_object *o;

	/* exactly one line */
	assert_true(strlen(s) > 2);
	assert_ptr_equal(strchr(s, '\n'), s + strlen(s) - 1);
	o = json_tokener_parse(s);
	assert_non_null(o);
	assert_type(o, json_type_object);
	return o;
}

static void test_top_level(void **state)
{
	struct record *rec = fixture_record();
	char *s = json_of(rec);
	struct json_object *o = parse_line(s), *host, *target, *params, *tags;
	struct json_object *w;

	(void)state;
	assert_int_equal(json_object_get_int(get(o, "schema")),
			 RECORD_SCHEMA_VERSION);
	assert_string_equal(str(o, "tool"), "clyde");
	assert_string_equal(str(o, "version"), "0.1.0");
	assert_string_equal(str(o, "start"), "2026-11-29T19:09:37Z");
	assert_string_equal(str(o, "end"), "2026-11-29T19:31:02Z");
	assert_string_equal(str(o, "label"), FIXTURE_LABEL);
	assert_int_equal(json_object_get_int(get(o, "repetition")), 2);
	assert_int_equal(json_object_get_int(get(o, "exit_status")), 0);

	host = get(o, "host");
	assert_string_equal(str(host, "hostname"), "vm");
	assert_string_equal(str(host, "kernel"), "6.1.0-28-amd64");
	assert_string_equal(str(host, "cpu_model"),
			    "Intel(R) Xeon(R) \"Gold\" 6130");
	assert_int_equal(json_object_get_int(get(host, "cores")), 2);
	assert_true(json_object_get_uint64(get(host, "ram")) ==
		    UINT64_C(25769803776));

	target = get(o, "target");
	assert_string_equal(str(target, "path"), "/mnt/array/x");
	assert_string_equal(str(target, "mountpoint"), "/mnt/array");
	assert_string_equal(str(target, "fstype"), "xfs");
	assert_string_equal(str(target, "source"), "/dev/md0");
	assert_string_equal(str(target, "vfs_options"), "rw,noatime");
	assert_string_equal(str(target, "fs_options"), "attr2,inode64");
	assert_int_equal(json_object_get_int64(get(target, "block_size")),
			 4096);
	assert_true(json_object_get_uint64(get(target, "total_bytes")) ==
		    UINT64_C(1099511627776));
	assert_true(json_object_get_uint64(get(target, "free_bytes")) ==
		    UINT64_C(1000000000000));
	/* paths are readable: no "\/" */
	assert_non_null(strstr(s, "\"/mnt/array/x\""));

	/* numeric params are JSON numbers, the others strings */
	params = get(o, "params");
	assert_type(get(params, PARAM_FILE_SIZE), json_type_int);
	assert_true(json_object_get_int64(get(params, PARAM_FILE_SIZE)) ==
		    INT64_C(1073741824));
	assert_type(get(params, PARAM_SEED), json_type_int);
	assert_type(get(params, "device_cache_ratio"), json_type_double);
	assert_true(json_object_get_double(get(params, "device_cache_ratio"))
		    == 2.5);
	assert_string_equal(str(params, "char_io"), "syscall");
	assert_int_equal(json_object_object_length(params), 13);

	tags = get(o, "tags");
	assert_string_equal(str(tags, "controller"), "fc");
	assert_string_equal(str(tags, "raid"), "5");

	w = get(o, "warnings");
	assert_type(w, json_type_array);
	assert_int_equal(json_object_array_length(w), 1);
	assert_string_equal(json_object_get_string(
				    json_object_array_get_idx(w, 0)),
			    "file size 1G is less than twice the RAM");
	json_object_put(o);
	free(s);
	record_free(rec);
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	if (!json_object_is_type(v, json_type_double))
		assert_type(v, json_type_int);
	return json_object_get_double(v);
}

static void test_results(void **state)
{
	struct record *rec = fixture_record();
	char *s = json_of(rec);
	struct json_object *o = parse_line(s), *results, *r, *lat, *h, *b;
	size_t i, j;
	uint64_t total;

	(void)state;
	results = get(o, "results");
	assert_type(results, json_type_array);
	assert_int_equal(json_object_array_length(results), 12);
	for (i = 0; i < 12; i++) {
		const struct fixture_result *f = &fixture_results[i];

		r = json_object_array_get_idx(results, i);
		assert_string_equal(str(r, "name"), f->name);
		assert_string_equal(str(r, "title"), f->title);
		assert_string_equal(str(r, "unit"), f->unit);
		assert_string_equal(str(r, "status"), "ok");
		assert_type(get(r, "reason"), json_type_null);
		assert_true(num(r, "value") == f->value);
		assert_true(num(r, "cpu") == f->cpu);
		assert_int_equal(json_object_get_int64(get(r, "ops")), 1001);
		assert_int_equal(json_object_get_int64(get(r, "bytes")),
				 i < 6 ? 1073741824 : 0);
		assert_true(num(r, "elapsed") ==
			    (f->flags & RESULT_LOW_PRECISION ? 0.25 : 12.5));
		if (f->residency < 0)
			assert_type(get(r, "residency"), json_type_null);
		else
			assert_true(num(r, "residency") == f->residency);
		assert_type(get(r, "low_precision"), json_type_boolean);
		assert_int_equal(
			json_object_get_boolean(get(r, "low_precision")),
			!!(f->flags & RESULT_LOW_PRECISION));
		assert_false(json_object_get_boolean(get(r, "cached")));
		assert_false(json_object_get_boolean(get(r, "direct_ignored")));

		/* latency summary in microseconds */
		lat = get(r, "latency_us");
		assert_true(num(lat, "max") == (double)f->max_ns / 1e3);
		assert_true(num(lat, "min") == 1.0);
		assert_true(num(lat, "p50") > 5.0 && num(lat, "p50") < 6.0);
		assert_true(num(lat, "p90") > 9.0 && num(lat, "p90") < 9.3);
		assert_true(num(lat, "p99") > 9.8 && num(lat, "p99") < 10.0);
		assert_true(num(lat, "p99_9") >= num(lat, "p99"));
		assert_true(num(lat, "mean") > 5.0);

		/* the raw histogram: only the non-empty buckets */
		h = get(r, "histogram");
		assert_int_equal(json_object_get_int(get(h, "bits")),
				 HIST_SUB_BITS);
		assert_int_equal(json_object_get_int64(get(h, "count")), 1001);
		assert_true(json_object_get_uint64(get(h, "max_ns")) ==
			    f->max_ns);
		assert_int_equal(json_object_get_int64(get(h, "min_ns")), 1000);
		b = get(h, "buckets");
		total = 0;
		for (j = 0; j < json_object_array_length(b); j++) {
			struct json_object *p = json_object_array_get_idx(b, j);
			struct json_object *cnt;

			assert_int_equal(json_object_array_length(p), 2);
			cnt = json_object_array_get_idx(p, 1);
			assert_true(json_object_get_int64(cnt) > 0);
			total += json_object_get_uint64(cnt);
		}
		assert_int_equal(total, 1001);
	}
	json_object_put(o);
	free(s);
	record_free(rec);
}

/* Not run, skipped, failed, and the flags. */
static void test_status_and_flags(void **state)
{
	struct record *rec = fixture_record();
	struct json_object *o, *results, *r;
	struct result *res;
	char *s;

	(void)state;
	record_find(rec, "putc")->status = RESULT_NOT_RUN;
	hist_release(&record_find(rec, "putc")->lat);
	result_set_status(record_find(rec, "getc"), RESULT_SKIPPED,
			  "-f 0 skips the per-char tests");
	result_set_status(record_find(rec, "rewrite"), RESULT_FAILED,
			  "write '%s': %s", "Bonnie.4711",
			  "No space left on device");
	res = record_find(rec, "get_block");
	res->flags |= RESULT_CACHED | RESULT_DIRECT_IGNORED;
	s = json_of(rec);
	o = parse_line(s);
	results = get(o, "results");

	r = json_object_array_get_idx(results, 0);
	assert_string_equal(str(r, "status"), "not_run");
	assert_type(get(r, "value"), json_type_null);
	assert_type(get(r, "latency_us"), json_type_null);
	assert_type(get(r, "histogram"), json_type_null);
	r = json_object_array_get_idx(results, 3);
	assert_string_equal(str(r, "status"), "skipped");
	assert_string_equal(str(r, "reason"), "-f 0 skips the per-char tests");
	r = json_object_array_get_idx(results, 2);
	assert_string_equal(str(r, "status"), "failed");
	assert_string_equal(str(r, "reason"),
			    "write 'Bonnie.4711': No space left on device");
	r = json_object_array_get_idx(results, 4);
	assert_true(json_object_get_boolean(get(r, "low_precision")));
	assert_true(json_object_get_boolean(get(r, "cached")));
	assert_true(json_object_get_boolean(get(r, "direct_ignored")));
	json_object_put(o);
	free(s);
	record_free(rec);
}

static void assert_round_trip(const struct record *rec)
{
	char *first = json_of(rec), *second;
	char err[256] = "";
	struct record *back = record_read_json(first, err, sizeof(err));

	if (!back)
		fail_msg("read back failed: %s", err);
	second = json_of(back);
	assert_string_equal(first, second);
	free(first);
	free(second);
	record_free(back);
}

static void test_round_trip(void **state)
{
	struct record *rec = fixture_record();
	struct record *back;
	struct result *res;
	char err[256] = "";
	char *s;
	size_t i;

	(void)state;
	assert_round_trip(rec);

	/* the record read back is the record written */
	s = json_of(rec);
	back = record_read_json(s, err, sizeof(err));
	assert_non_null(back);
	assert_string_equal(back->label, FIXTURE_LABEL);
	assert_string_equal(back->target.fs_options, "attr2,inode64");
	assert_int_equal(back->nresults, 12);
	assert_int_equal(back->nparams, rec->nparams);
	assert_string_equal(record_param(back, PARAM_FILE_SIZE), "1073741824");
	assert_string_equal(record_param(back, "device_cache_ratio"), "2.5");
	for (i = 0; i < 12; i++) {
		assert_string_equal(back->results[i].name,
				    rec->results[i].name);
		assert_true(back->results[i].value == rec->results[i].value);
		assert_int_equal(back->results[i].flags,
				 rec->results[i].flags);
		assert_true(hist_equal(&back->results[i].lat,
				       &rec->results[i].lat));
	}
	free(s);
	record_free(back);

	/* and with the awkward cases */
	record_find(rec, "putc")->status = RESULT_NOT_RUN;
	hist_release(&record_find(rec, "putc")->lat);
	result_set_status(record_find(rec, "getc"), RESULT_SKIPPED,
			  "quote \" backslash \\ newline \n tab \t é");
	res = record_find(rec, "get_block");
	res->flags |= RESULT_CACHED | RESULT_DIRECT_IGNORED;
	res->value = 1.0 / 3.0;		/* no short decimal form */
	res->cpu = 1e-7;
	hist_add(&res->lat, UINT64_MAX / 2);	/* beyond 2^53: exact */
	hist_add(&res->lat, UINT64_C(1) << 62);
	record_set_str(&rec->end, NULL);
	record_set_str(&rec->target.fs_options, NULL);
	record_set_param(rec, "weird", "12abc", 1);	/* not a number */
	record_set_param(rec, "big", "18446744073709551615", 1);
	rec->exit_status = 130;
	assert_round_trip(rec);
	record_free(rec);

	/* an empty record too */
	rec = record_new();
	assert_round_trip(rec);
	record_free(rec);
}

/* 64-bit counts survive exactly. */
static void test_u64(void **state)
{
	struct record *rec = record_new();
	struct result *res = record_add_result(rec, "seeks", "Random seeks",
					       "seeks/s");
	struct record *back;
	char err[256] = "";
	char *s;

	(void)state;
	result_set_status(res, RESULT_OK, NULL);
	res->ops = UINT64_MAX;
	res->bytes = (UINT64_C(1) << 63) + 1;
	hist_add(&res->lat, UINT64_MAX - 1);
	s = json_of(rec);
	assert_non_null(strstr(s, "\"ops\":18446744073709551615"));
	assert_non_null(strstr(s, "\"max_ns\":18446744073709551614"));
	back = record_read_json(s, err, sizeof(err));
	assert_non_null(back);
	assert_true(back->results[0].ops == UINT64_MAX);
	assert_true(back->results[0].bytes == (UINT64_C(1) << 63) + 1);
	assert_true(back->results[0].lat.max == UINT64_MAX - 1);
	assert_true(back->results[0].lat.sum == UINT64_MAX - 1);
	free(s);
	record_free(back);
	record_free(rec);
}

static void assert_refused(const char *line, const char *want)
{
	char err[256] = "";
	struct record *rec = record_read_json(line, err, sizeof(err));

	if (rec)
		fail_msg("'%s' was accepted", line);
	assert_string_not_equal(err, "");
	if (!strstr(err, want))
		fail_msg("'%s': error '%s' does not say '%s'", line, err,
			 want);
}

static void test_read_errors(void **state)
{
	(void)state;
	assert_refused("", "not valid JSON");
	assert_refused("{\"schema\":1,", "not valid JSON");
	assert_refused("[1,2]", "not a JSON object");
	assert_refused("{\"results\":[]}", "schema");
	assert_refused("{\"schema\":99,\"results\":[]}", "schema version 99");
	assert_refused("{\"schema\":1}", "results");
	assert_refused("{\"schema\":1,\"results\":[]} {}", "not valid JSON");
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"bogus\"}]}", "unknown status 'bogus'");
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"ok\",\"ops\":-1}]}", "'ops'");
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"ok\",\"histogram\":{\"bits\":6,"
		       "\"count\":2,\"sum_ns\":2,\"min_ns\":1,\"max_ns\":1,"
		       "\"buckets\":[[1,1]]}}]}", "count says 2");
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"ok\",\"histogram\":{\"bits\":7,"
		       "\"count\":0,\"buckets\":[]}}]}", "bits");
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"ok\",\"histogram\":{\"bits\":6,"
		       "\"count\":1,\"sum_ns\":1,\"min_ns\":1,\"max_ns\":1,"
		       "\"buckets\":[[99999,1]]}}]}", "out of range");
	/* buckets that sum past 2^64 - 1 samples: wrapped, they would
	 * agree with a count of 1 */
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"ok\",\"histogram\":{\"bits\":6,"
		       "\"count\":1,\"sum_ns\":1,\"min_ns\":0,\"max_ns\":1,"
		       "\"buckets\":[[0,18446744073709551615],[1,2]]}}]}",
		       "more samples than");
	/* a list param is an array of numbers or strings, nothing else */
	assert_refused("{\"schema\":1,\"params\":{\"a\":[{}]},\"results\":[]}",
		       "params 'a'");
	assert_refused("{\"schema\":1,\"params\":{\"a\":{}},\"results\":[]}",
		       "params 'a'");
	assert_refused("{\"schema\":1,\"label\":5,\"results\":[]}", "'label'");
	assert_refused("{\"schema\":1,\"results\":[{\"status\":\"ok\"}]}",
		       "no 'name'");
}

/* A JSON text nested depth deep in member "x" of a record. */
static char *nested(int depth)
{
	char *s = malloc(64 + 2 * (size_t)depth), *p;
	int i;

	assert_non_null(s);
	p = s + sprintf(s, "{\"schema\":1,\"results\":[],\"x\":");
	for (i = 0; i < depth; i++)
		*p++ = '[';
	for (i = 0; i < depth; i++)
		*p++ = ']';
	strcpy(p, "}");
	return s;
}

/* What the reader's tree (report/json/jtree.c) refuses that plain JSON
 * allows, where it says a line went wrong, and the bytes it keeps. */
static void test_read_strict(void **state)
{
	char err[256] = "", *s;
	struct record *rec;
	int i;

	(void)state;
	assert_refused("{\"schema\":1,\"schema\":1,\"results\":[]}",
		       "not valid JSON near byte 36: the object that ends here "
		       "names the member 'schema' twice");
	/* past 16 members the duplicate is found by sorting */
	s = malloc(4096);
	assert_non_null(s);
	strcpy(s, "{\"schema\":1,\"results\":[],\"params\":{");
	for (i = 0; i < 20; i++)
		sprintf(s + strlen(s), "\"k%d\":%d,", i, i);
	strcat(s, "\"k5\":\"again\"}}");
	assert_refused(s, "names the member 'k5' twice");
	free(s);
	assert_refused("{\"schema\":1,\"results\":[],\"ops\":"
		       "99999999999999999999}", "integer 99999999999999999999 "
		       "is out of range");
	assert_refused("{\"schema\":1,\"results\":[],\"ops\":"
		       "-9223372036854775809}", "is out of range");
	/* byte 23 is the x */
	assert_refused("{\"schema\":1,\"results\":x}",
		       "not valid JSON near byte 23: invalid char in json text");
	assert_refused("{\"schema\":1,\"results\":[{\"name\":\"putc\","
		       "\"status\":\"ok\",\"cpu\":NaN}]}",
		       "not valid JSON near byte 59: invalid char");
	assert_refused("{\"schema\":1,\"results\":[\"abc", "not valid JSON: "
		       "unexpected end of line");
	/* after the record only blanks: not a string left open, nor a
	 * number (whose end only the end of the line tells) */
	assert_refused("{\"schema\":1,\"results\":[]} \"junk", "not valid JSON "
		       "near byte 27: text after the end of the JSON value");
	assert_refused("{\"schema\":1,\"results\":[]}\t12", "near byte 27: "
		       "text after the end");
	rec = record_read_json("{\"schema\":1,\"params\":{},\"results\":[]} \t",
			       err, sizeof(err));
	if (!rec)
		fail_msg("an empty object and blanks after: %s", err);
	record_free(rec);
	/* the root object and 31 arrays read; 32 arrays are too deep */
	s = nested(JTREE_MAX_DEPTH - 1);
	rec = record_read_json(s, err, sizeof(err));
	if (!rec)
		fail_msg("%d deep: %s", JTREE_MAX_DEPTH, err);
	record_free(rec);
	free(s);
	s = nested(JTREE_MAX_DEPTH);
	assert_refused(s, "nested more than 32 deep");
	free(s);
	/* the ends of int64 and uint64 read, as written */
	rec = record_read_json("{\"schema\":1,\"results\":[],\"params\":{\"a\":"
			       "-9223372036854775808,\"b\":18446744073709551615"
			       "}}", err, sizeof(err));
	assert_non_null(rec);
	assert_string_equal(record_param(rec, "a"), "-9223372036854775808");
	assert_string_equal(record_param(rec, "b"), "18446744073709551615");
	record_free(rec);
	/* bytes that are not UTF-8 are kept as they are: writers escape */
	rec = record_read_json("{\"schema\":1,\"label\":\"a\xff\xfe\",\"results"
			       "\":[]}", err, sizeof(err));
	assert_non_null(rec);
	assert_string_equal(rec->label, "a\xff\xfe");
	record_free(rec);
}

/* A minimal record from elsewhere reads, with defaults for the rest. */
static void test_read_minimal(void **state)
{
	char err[256] = "";
	struct record *rec = record_read_json(
		"{\"schema\":1,\"results\":[{\"name\":\"put_block\","
		"\"status\":\"ok\",\"value\":100}]}\n", err, sizeof(err));

	(void)state;
	assert_non_null(rec);
	assert_int_equal(rec->nresults, 1);
	assert_true(rec->results[0].value == 100.0);
	assert_true(rec->results[0].residency < 0);
	assert_int_equal(rec->results[0].lat.count, 0);
	assert_null(rec->label);
	assert_null(rec->tool);
	record_free(rec);
}

/* Appending to a .jsonl file: one record per line. */
static void test_jsonl(void **state)
{
	struct record *rec = fixture_record();
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n = 0;

	(void)state;
	assert_non_null(f);
	assert_int_equal(record_write_json(rec, f), 0);
	rec->repetition = 3;
	assert_int_equal(record_write_json(rec, f), 0);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char err[256] = "";
		struct record *back = record_read_json(line, err, sizeof(err));

		assert_non_null(back);
		assert_int_equal(back->repetition, n ? 3 : 2);
		record_free(back);
		n++;
	}
	assert_int_equal(n, 2);
	free(buf);
	record_free(rec);
}

/*
 * One reader for a file's lines (the report's import): a line cut short
 * or broken does not spoil the next; each line is read on its own.
 */
static void test_reader(void **state)
{
	static const char good[] =
		"{\"schema\":1,\"results\":[{\"name\":\"put_block\","
		"\"status\":\"ok\",\"value\":100}]}\n";
	static const char *const bad[] = {
		"{\"schema\":1,\"results\":[{\"name\":",	/* cut short */
		"{\"schema\":1,,}",				/* broken */
		"{\"schema\":1,\"results\":[]} {",		/* a second value */
	};
	struct record_reader *rr = record_reader_new();
	char err[256];
	size_t i;

	(void)state;
	assert_non_null(rr);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct record *rec;

		err[0] = '\0';
		assert_null(record_reader_read(rr, bad[i], err, sizeof(err)));
		assert_string_not_equal(err, "");
		rec = record_reader_read(rr, good, err, sizeof(err));
		if (!rec)
			fail_msg("after '%s': '%s'", bad[i], err);
		assert_int_equal(rec->nresults, 1);
		assert_true(rec->results[0].value == 100.0);
		record_free(rec);
	}
	record_reader_free(rr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_status_and_flags),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_read_strict),
		cmocka_unit_test(test_read_minimal),
		cmocka_unit_test(test_jsonl),
		cmocka_unit_test(test_reader),
	};

	return tap_run_group_tests(tests);
}
