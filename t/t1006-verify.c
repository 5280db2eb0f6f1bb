// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data validation units: a stamped unit checks out; a flipped bit anywhere,
 * another offset or file, a stale generation and a unit never stamped are
 * each told apart, and what the header says is reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "fsops/verify.h"

#define UNIT 4096

static void stamp(unsigned char *buf, uint64_t off, uint32_t stream,
		  uint32_t gen)
{
	struct verify_id id = { .offset = off, .stream = stream, .gen = gen };

	verify_stamp(buf, UNIT, &id, 42);
}

static enum verify_result check(const unsigned char *buf, uint64_t off,
				uint32_t stream, uint32_t gen,
				struct verify_id *found)
{
	struct verify_id want = { .offset = off, .stream = stream,
				  .gen = gen };

	return verify_check(buf, UNIT, &want, found);
}

static void test_intact(void **state)
{
	unsigned char buf[UNIT];
	struct verify_id f;

	(void)state;
	stamp(buf, 8192, 3, 7);
	assert_int_equal(check(buf, 8192, 3, 7, &f), VERIFY_OK);
	assert_int_equal(f.offset, 8192);
	assert_int_equal(f.stream, 3);
	assert_int_equal(f.gen, 7);
	assert_int_equal(check(buf, 8192, 3, VERIFY_ANY_GEN, &f), VERIFY_OK);
}

static void test_every_flipped_bit(void **state)
{
	unsigned char buf[UNIT];
	struct verify_id f;
	size_t i;
	unsigned bit;

	(void)state;
	stamp(buf, 0, 0, 1);
	/* every byte, a few bits each: header, sum field and data alike */
	for (i = 0; i < UNIT; i++)
		for (bit = 0; bit < 8; bit += 3) {
			buf[i] ^= (unsigned char)(1u << bit);
			assert_int_not_equal(check(buf, 0, 0, 1, &f),
					     VERIFY_OK);
			buf[i] ^= (unsigned char)(1u << bit);
		}
	assert_int_equal(check(buf, 0, 0, 1, &f), VERIFY_OK);
	buf[2000] ^= 0x10;
	assert_int_equal(check(buf, 0, 0, 1, &f), VERIFY_BAD_SUM);
	assert_int_equal(f.gen, 1);
}

static void test_misplaced_and_stale(void **state)
{
	unsigned char buf[UNIT];
	struct verify_id f;

	(void)state;
	stamp(buf, 4096, 1, 5);
	assert_int_equal(check(buf, 8192, 1, 5, &f), VERIFY_BAD_ID);
	assert_int_equal(f.offset, 4096);
	assert_int_equal(check(buf, 4096, 2, 5, &f), VERIFY_BAD_ID);
	assert_int_equal(f.stream, 1);
	assert_int_equal(check(buf, 4096, 1, 6, &f), VERIFY_BAD_GEN);
	assert_int_equal(f.gen, 5);
	assert_string_equal(verify_result_str(VERIFY_BAD_GEN),
			    "stale generation");
}

static void test_never_stamped(void **state)
{
	unsigned char buf[UNIT];
	struct verify_id f;

	(void)state;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(check(buf, 0, 0, VERIFY_ANY_GEN, &f),
			 VERIFY_BAD_MAGIC);
}

static void test_generations_differ_in_data(void **state)
{
	unsigned char a[UNIT], b[UNIT];

	(void)state;
	stamp(a, 0, 0, 1);
	stamp(b, 0, 0, 2);
	assert_memory_not_equal(a + VERIFY_HDR_SIZE, b + VERIFY_HDR_SIZE,
				UNIT - VERIFY_HDR_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intact),
		cmocka_unit_test(test_every_flipped_bit),
		cmocka_unit_test(test_misplaced_and_stale),
		cmocka_unit_test(test_never_stamped),
		cmocka_unit_test(test_generations_differ_in_data),
	};

	return tap_run_group_tests(tests);
}
