// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's model holds what it reports, not what it read: the bytes
 * that stay allocated per record after reading many run records (the real
 * ones of t/fixtures/report/clyde.jsonl, copied with new labels as a
 * fleet's nightly runs would be), measured through the allocator
 * (mallinfo2), stay under 10 KB on average (issue 23; about 400 KB before
 * the model's histograms were packed), with strings kept once as clyde
 * report keeps them, a fifth less at least than without.  The copies
 * keep their figures: every histogram reads back as the original's.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "report/import/import.h"
#include "report/model/histogram.h"
#include "report/model/record.h"

/* ASan (gcc's macro, clang's feature) keeps its own heap: mallinfo2
 * then reads nothing of it. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define COPIES 200
#define BUDGET 10240	/* bytes per record, on average */

/* Bytes the program has allocated: from the heap and mapped on its own
 * (a large block, as a record's 12 dense histograms were, is mmap'ed). */
static size_t allocated(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* A fixture beside this test's binary (t/fixtures/report/NAME). */
static char *read_fixture_named(const char *name, size_t *len)
{
	char exe[4096], path[4200], *buf, *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	long sz;

	assert_true(n > 0);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	assert_non_null(slash);
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/fixtures/report/%s", exe, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	sz = ftell(f);
	assert_true(sz > 0);
	rewind(f);
	buf = malloc((size_t)sz + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)sz, f), (size_t)sz);
	buf[sz] = '\0';
	fclose(f);
	*len = (size_t)sz;
	return buf;
}

static char *read_fixture(size_t *len)
{
	return read_fixture_named("clyde.jsonl", len);
}

/* COPIES copies of every line of text, each label given a prefix. */
static char *copies_of(const char *text, size_t len, size_t *outlen)
{
	static const char key[] = "\"label\":\"";
	size_t cap = COPIES * (len + 64 * 8) + 1, used = 0;
	char *out = malloc(cap);
	unsigned c;

	assert_non_null(out);
	for (c = 0; c < COPIES; c++) {
		const char *p = text;

		while (*p) {
			const char *nl = strchr(p, '\n');
			const char *end = nl ? nl + 1 : p + strlen(p);
			const char *lab = strstr(p, key);
			size_t head;

			if (!lab || lab >= end)
				lab = end;
			else
				lab += sizeof(key) - 1;
			head = (size_t)(lab - p);
			assert_true(used + (size_t)(end - p) + 16 < cap);
			memcpy(out + used, p, head);
			used += head;
			if (lab < end)
				used += (size_t)sprintf(out + used, "n%u-", c);
			memcpy(out + used, lab, (size_t)(end - lab));
			used += (size_t)(end - lab);
			p = end;
		}
	}
	out[used] = '\0';
	*outlen = used;
	return out;
}

/*
 * Read COPIES copies of the fixture into im (after one copy to compare
 * them with, *base records), with the model's strings shared or not:
 * the bytes allocated per record by the copies.
 */
static size_t read_fleet(struct import *im, int interned, size_t *base)
{
	size_t len, blen, before, after, i, j;
	char *text, *buf;
	int got;

	text = read_fixture(&len);
	buf = copies_of(text, len, &blen);
	record_strings_interned(interned);
	import_init(im);
	assert_true(import_buffer(im, "one", text, len) > 0);
	*base = im->nrecs;
	malloc_trim(0);
	before = allocated();
	got = import_buffer(im, "fleet", buf, blen);
	malloc_trim(0);
	after = allocated();
	assert_int_equal((size_t)got, *base * COPIES);
	/* nothing dropped to get there: every copy's histograms are the
	 * original's */
	for (i = *base; i < im->nrecs; i++) {
		const struct record *r = im->recs[i];
		const struct record *o = im->recs[(i - *base) % *base];

		assert_int_equal(r->nresults, o->nresults);
		assert_non_null(strstr(r->label, o->label));
		for (j = 0; j < r->nresults; j++)
			assert_true(hist_equal(&r->results[j].lat,
					       &o->results[j].lat));
	}
	assert_true(hist_has_buckets(&im->recs[0]->results[0].lat));
	free(buf);
	free(text);
	return after > before ? (after - before) / (size_t)got : 0;
}

static void test_bytes_per_record(void **state)
{
	struct import im;
	size_t base, own, shared;

	(void)state;
	if (UNDER_ASAN)
		skip_because("under AddressSanitizer, whose allocator mallinfo2 "
			     "does not see");
	own = read_fleet(&im, 0, &base);
	import_release(&im);
	shared = read_fleet(&im, 1, &base);
	import_release(&im);
	record_strings_interned(0);
	printf("# %zu records: %zu bytes a record allocated after reading, "
	       "%zu with strings kept once as clyde report keeps them "
	       "(budget %d)\n", base * COPIES, own, shared, BUDGET);
	assert_true(shared < BUDGET);
	/* the pool saves a fifth at least (a quarter here) */
	assert_true(shared < own - own / 5);
}

/*
 * bonnie++'s CSV: a line keeps only each test's maximum latency, one
 * sample, packed as any histogram (it was measured into the dense form,
 * 30 KB a test: 2,000 lines took 666 MB).  COPIES copies of bonnie++
 * 1.98's lines, each copy its own machine name (else a line twice is
 * read once), stay under the budget.
 */
static void test_bonnie_bytes_per_record(void **state)
{
	struct import im;
	size_t len, used = 0, before, after, cap, i;
	char *text = NULL, *buf;
	unsigned c;
	int got;

	(void)state;
	if (UNDER_ASAN)
		skip_because("under AddressSanitizer, whose allocator mallinfo2 "
			     "does not see");
	text = read_fixture_named("bonnie-1.98.csv", &len);
	cap = COPIES * (len + 64 * 8) + 1;
	buf = malloc(cap);
	assert_non_null(buf);
	for (c = 0; c < COPIES; c++) {
		const char *p = text;

		while (*p) {	/* "1.98,2.00a,NAME,..." -> "...,cC-NAME,..." */
			const char *end = strchr(p, '\n');
			const char *f2 = strchr(p, ',');

			end = end ? end + 1 : p + strlen(p);
			f2 = f2 && f2 < end ? strchr(f2 + 1, ',') : NULL;
			assert_non_null(f2);
			memcpy(buf + used, p, (size_t)(f2 + 1 - p));
			used += (size_t)(f2 + 1 - p);
			used += (size_t)sprintf(buf + used, "c%u-", c);
			memcpy(buf + used, f2 + 1, (size_t)(end - f2 - 1));
			used += (size_t)(end - f2 - 1);
			p = end;
		}
	}
	buf[used] = '\0';
	record_strings_interned(1);
	import_init(&im);
	malloc_trim(0);
	before = allocated();
	got = import_buffer(&im, "fleet.csv", buf, used);
	malloc_trim(0);
	after = allocated();
	assert_true(got > 0 && (size_t)got == im.nrecs);
	assert_int_equal(im.nrecs % COPIES, 0);
	for (i = 0; i < im.nrecs; i++)
		assert_int_equal(im.recs[i]->nresults, im.recs[0]->nresults);
	printf("# %d bonnie++ lines: %zu bytes a record allocated after "
	       "reading (budget %d)\n", got, (after - before) / (size_t)got,
	       BUDGET);
	assert_true((after - before) / (size_t)got < BUDGET);
	import_release(&im);
	record_strings_interned(0);
	free(buf);
	free(text);
}

/*
 * Records that share their strings are still records of their own: a
 * string changed or a parameter replaced in one is not in another, and
 * each is freed alone (ASan: no string of the pool given to free).
 */
static void test_shared_strings_own_records(void **state)
{
	struct import im;
	struct record *a, *b;
	size_t base;
	char *host;

	(void)state;
	(void)read_fleet(&im, 1, &base);
	a = im.recs[base];
	b = im.recs[2 * base];
	host = a->host.hostname;
	assert_non_null(host);
	assert_ptr_equal(host, b->host.hostname);	/* kept once */
	assert_non_null(a->params);
	record_set_str(&a->host.hostname, "changed");
	record_set_param(a, a->params[0].key, "12345", 1);
	result_set_status(&a->results[0], RESULT_FAILED, "%s", "because");
	record_warn(a, "a warning of a's");
	assert_string_equal(a->host.hostname, "changed");
	assert_string_equal(b->host.hostname, host);
	assert_string_equal(record_param(a, a->params[0].key), "12345");
	assert_string_not_equal(record_param(b, b->params[0].key), "12345");
	assert_null(b->results[0].reason);
	record_free(a);
	im.recs[base] = NULL;
	assert_string_equal(b->host.hostname, host);
	import_release(&im);
	record_strings_interned(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_per_record),
		cmocka_unit_test(test_shared_strings_own_records),
		cmocka_unit_test(test_bonnie_bytes_per_record),
	};

	return tap_run_group_tests(tests);
}
