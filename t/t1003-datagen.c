// SPDX-License-Identifier: GPL-2.0-only
/* fsops/datagen: unique, incompressible, position-determined test data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "fsops/datagen.h"
#include "lib/xalloc.h"

#define MiB (1u << 20)
#define STREAM_SIZE (64 * MiB)
#define BLOCK 4096

static void deterministic(void **state)
{
	size_t len = 1 * MiB;
	unsigned char *a = xmalloc(len), *b = xmalloc(len);

	(void)state;
	memset(a, 0, len);
	memset(b, 0xff, len);
	datagen_fill(a, len, 42, 7, 12345);
	datagen_fill(b, len, 42, 7, 12345);
	assert_memory_equal(a, b, len);
	free(a);
	free(b);
}

/* Any (offset, len), aligned or not, gives the bytes of one big fill. */
static void offset_consistent(void **state)
{
	size_t len = 256 << 10;
	uint64_t base = 1000003;	/* odd: the big fill itself unaligned */
	unsigned char *big = xmalloc(len), *part = xmalloc(len + 16);
	struct rng r;
	int i;

	(void)state;
	datagen_fill(big, len, 9, 3, base);
	rng_seed(&r, 1003);
	for (i = 0; i < 20000; i++) {
		size_t off = (size_t)rng_below(&r, len);
		size_t n = (size_t)rng_below(&r, i % 4 ? 40 : len - off + 1);
		size_t mis = (size_t)rng_below(&r, 8);	/* buffer alignment */

		if (n > len - off)
			n = len - off;
		/* a guard byte after the range must stay untouched */
		memset(part, 0xa5, n + mis + 1);
		datagen_fill(part + mis, n, 9, 3, base + off);
		assert_memory_equal(part + mis, big + off, n);
		assert_int_equal(part[mis + n], 0xa5);
	}
	/* the same bytes when filled in pieces of 1..17 bytes */
	memset(part, 0, len);
	{
		size_t off = 0, n;

		for (off = 0; off < len; off += n) {
			n = 1 + off % 17;
			if (n > len - off)
				n = len - off;
			datagen_fill(part + off, n, 9, 3, base + off);
		}
	}
	assert_memory_equal(part, big, len);
	free(big);
	free(part);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * No two 4 KiB blocks of a 64 MiB stream are equal.  Sorting the first
 * word of every block and finding no duplicate proves it (and is a
 * stronger claim: even their first 8 bytes differ).
 */
static void blocks_unique(void **state)
{
	size_t nblocks = STREAM_SIZE / BLOCK, i;
	unsigned char *data = xmalloc(STREAM_SIZE);
	uint64_t *first = xmalloc(nblocks * sizeof(*first));

	(void)state;
	datagen_fill(data, STREAM_SIZE, 1, 0, 0);
	for (i = 0; i < nblocks; i++)
		memcpy(&first[i], data + i * BLOCK, 8);
	qsort(first, nblocks, sizeof(*first), cmp_u64);
	for (i = 1; i < nblocks; i++)
		assert_true(first[i] != first[i - 1]);
	free(first);
	free(data);
}

/* Streams and seeds differ from each other everywhere, shifted or not. */
static void streams_and_seeds_differ(void **state)
{
	size_t len = 64 << 10, i;
	unsigned char *a = xmalloc(len), *b = xmalloc(len);
	static const uint64_t other[][3] = {
		/* seed, stream, offset  vs (5, 0, 0) */
		{ 5, 1, 0 }, { 6, 0, 0 }, { 4, 0, 0 }, { 5, 0, 8 },
		{ 5, 2, 4096 }, { 0, 0, 0 }, { 5 ^ 1, 1, 0 },
	};

	(void)state;
	datagen_fill(a, len, 5, 0, 0);
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		size_t same = 0, j;

		datagen_fill(b, len, other[i][0], other[i][1], other[i][2]);
		for (j = 0; j < len; j += 8)
			same += !memcmp(a + j, b + j, 8);
		/* equal words by chance: 1 in 2^64 each */
		assert_int_equal(same, 0);
	}
	free(a);
	free(b);
}

/*
 * Incompressible: the byte histogram of 64 MiB is flat (chi-square with
 * 255 degrees of freedom: mean 255, sd 22.6; 400 is six sd away), and so
 * is the histogram of byte pairs (65535 dof, sd 362).
 */
static double chi_square(const uint64_t *count, size_t n, double expect)
{
	double chi = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double d = (double)count[i] - expect;

		chi += d * d / expect;
	}
	return chi;
}

static void incompressible(void **state)
{
	unsigned char *data = xmalloc(STREAM_SIZE);
	uint64_t *hist = xcalloc(256, sizeof(*hist));
	uint64_t *pairs = xcalloc(65536, sizeof(*pairs));
	double chi1, chi2;
	size_t i;

	(void)state;
	datagen_fill(data, STREAM_SIZE, 77, 3, 0);
	for (i = 0; i < STREAM_SIZE; i++)
		hist[data[i]]++;
	for (i = 0; i + 1 < STREAM_SIZE; i += 2)
		pairs[data[i] | data[i + 1] << 8]++;
	chi1 = chi_square(hist, 256, STREAM_SIZE / 256.0);
	chi2 = chi_square(pairs, 65536, STREAM_SIZE / 2 / 65536.0);
	print_message("# chi-square bytes %.1f (255 dof), pairs %.1f "
		      "(65535 dof)\n", chi1, chi2);
	assert_true(chi1 < 400);
	assert_true(chi2 < 65535 + 6 * 362);

	/* the check can fail: zero every 16th byte of the same data */
	for (i = 0; i < STREAM_SIZE; i += 16)
		data[i] = 0;
	memset(hist, 0, 256 * sizeof(*hist));
	for (i = 0; i < STREAM_SIZE; i++)
		hist[data[i]]++;
	assert_true(chi_square(hist, 256, STREAM_SIZE / 256.0) > 400);
	free(pairs);
	free(hist);
	free(data);
}

/* --- the pool: struct datagen --- */

/* datagen_block, datagen_copy and datagen_compare agree on every byte,
 * for any window, however often the pool's stamps were rewritten. */
static void pool_block_is_copy(void **state)
{
	size_t max = 256 << 10;
	unsigned char *c = xmalloc(max + 16);
	struct datagen g;
	struct rng r;
	int i;

	(void)state;
	datagen_init(&g, 11, max);
	rng_seed(&r, 17);
	for (i = 0; i < 3000; i++) {
		/* offsets around the pool's end too: its slack must agree */
		uint64_t off = i % 3 ? rng_below(&r, 3ull * DATAGEN_POOL_SIZE)
				     : DATAGEN_POOL_SIZE - rng_below(&r, 9000);
		size_t len = (size_t)rng_below(&r, i % 5 ? 20000 : max) + 1;
		uint32_t stream = (uint32_t)rng_below(&r, 3);
		uint32_t gen = (uint32_t)rng_below(&r, 3);
		const unsigned char *b;
		size_t mis = (size_t)rng_below(&r, 8);

		if (i % 7 == 0)
			off = off / 4096 * 4096 + rng_below(&r, 20);
		b = datagen_block(&g, len, stream, gen, off);
		c[mis + len] = 0x5a;
		datagen_copy(&g, c + mis, len, stream, gen, off);
		assert_memory_equal(b, c + mis, len);
		assert_int_equal(c[mis + len], 0x5a);
		assert_true(datagen_compare(&g, b, len, stream, gen, off) == -1);
		if (len > 1) {
			size_t at = (size_t)rng_below(&r, len);

			c[mis + at] ^= 1;
			assert_true(datagen_compare(&g, c + mis, len, stream,
						    gen, off) == (int64_t)at);
		}
	}
	datagen_release(&g);
	free(c);
}

static const unsigned char *sector_base;

static int cmp_sector(const void *a, const void *b)
{
	return memcmp(sector_base + *(const uint32_t *)a * (size_t)BLOCK,
		      sector_base + *(const uint32_t *)b * (size_t)BLOCK,
		      BLOCK);
}

/* Count the distinct 4 KiB blocks of data (whole blocks compared). */
static size_t distinct_blocks(const unsigned char *data, size_t nblocks)
{
	uint32_t *idx = xmalloc(nblocks * sizeof(*idx));
	size_t i, n = nblocks ? 1 : 0;

	for (i = 0; i < nblocks; i++)
		idx[i] = (uint32_t)i;
	sector_base = data;
	qsort(idx, nblocks, sizeof(*idx), cmp_sector);
	for (i = 1; i < nblocks; i++)
		n += cmp_sector(&idx[i - 1], &idx[i]) != 0;
	free(idx);
	return n;
}

/*
 * Every 4 KiB sector is unique: 4 x the pool of one stream, plus the same
 * offsets again in another stream (differing above bit 32) and in another
 * generation, plus another
 * seed: 20 x 4096 sectors, all different as whole blocks.  And the count
 * can fail: without stamps the pool's repeats show.
 */
static void pool_sectors_unique(void **state)
{
	size_t per = 4 * (size_t)DATAGEN_POOL_SIZE, io = 8192, off;
	size_t total = per + 3 * (4u << 20), nb = total / BLOCK, k;
	unsigned char *data = xmalloc(total), *p = data;
	struct datagen g, h;

	(void)state;
	datagen_init(&g, 21, io);
	datagen_init(&h, 22, io);
	for (off = 0; off < per; off += io, p += io)
		memcpy(p, datagen_block(&g, io, 1, 0, off), io);
	for (k = 0; k < 3; k++)
		for (off = 0; off < (4u << 20); off += io, p += io)
			memcpy(p, datagen_block(k == 2 ? &h : &g, io,
						k == 0 ? (1ull << 40) | 1 : 1,
						k == 1, off),
			       io);
	assert_int_equal(distinct_blocks(data, nb), nb);
	/* the same with the stamps cleared: the pool repeats 4 times */
	for (k = 0; k < per / BLOCK; k++)
		memset(data + k * BLOCK, 0, DATAGEN_STAMP_SIZE);
	assert_int_equal(distinct_blocks(data, per / BLOCK),
			 DATAGEN_POOL_SIZE / BLOCK);
	datagen_release(&g);
	datagen_release(&h);
	free(data);
}

/* The pool's data is as flat as the reference generator's, stamps
 * included; other seeds give other pools. */
static void pool_incompressible(void **state)
{
	/* one pool length: a repeat would double chi-square, not flatten */
	size_t len = DATAGEN_POOL_SIZE, io = 1 << 20, off, i, same = 0;
	unsigned char *data = xmalloc(len);
	uint64_t *hist = xcalloc(256, sizeof(*hist));
	struct datagen g, h;
	double chi;

	(void)state;
	datagen_init(&g, 31, io);
	datagen_init(&h, 32, io);
	for (off = 0; off < len; off += io)
		memcpy(data + off, datagen_block(&g, io, 0, 0, off), io);
	for (i = 0; i < len; i++)
		hist[data[i]]++;
	chi = chi_square(hist, 256, len / 256.0);
	print_message("# pool chi-square bytes %.1f (255 dof)\n", chi);
	assert_true(chi < 400);
	for (i = 0; i < DATAGEN_POOL_SIZE; i += 8)
		same += !memcmp(g.pool + i, h.pool + i, 8);
	assert_int_equal(same, 0);
	datagen_release(&g);
	datagen_release(&h);
	free(hist);
	free(data);
}

static void rng(void **state)
{
	struct rng r, r2;
	uint64_t counts[10] = { 0 }, x, prev;
	int i, distinct = 0;

	(void)state;
	/* seed 0 (and any seed) must not leave the all-zero state */
	rng_seed(&r, 0);
	prev = rng_next(&r);
	for (i = 0; i < 1000; i++) {
		x = rng_next(&r);
		distinct += x != prev;
		prev = x;
	}
	assert_int_equal(distinct, 1000);
	for (x = 0; x < 100000; x++) {
		rng_seed(&r, x);
		assert_true(r.s != 0);
	}
	/* deterministic per seed, different across seeds */
	rng_seed(&r, 12);
	rng_seed(&r2, 12);
	assert_true(rng_next(&r) == rng_next(&r2));
	rng_seed(&r2, 13);
	assert_true(rng_next(&r) != rng_next(&r2));

	/* rng_below: in range and uniform (chi-square, 9 dof, 40 is far) */
	rng_seed(&r, 99);
	for (i = 0; i < 1000000; i++) {
		x = rng_below(&r, 10);
		assert_true(x < 10);
		counts[x]++;
	}
	assert_true(chi_square(counts, 10, 100000.0) < 40);
	for (i = 0; i < 1000; i++) {
		assert_true(rng_below(&r, 1) == 0);
		assert_true(rng_below(&r, UINT64_MAX) < UINT64_MAX);
		assert_true(rng_below(&r, 3) < 3);
	}
}

/*
 * A stamp names its seed without the seed being known: every sector
 * datagen stamps, for any seed, 32-bit stream and generation, is
 * identified at its own offset with the seed recovered; at another
 * offset, or random data, or a stamp with one bit flipped, it is not.
 */
static void stamps_identified(void **state)
{
	unsigned char *buf = xmalloc(BLOCK), rnd[BLOCK];
	struct datagen g;
	struct rng r;
	uint64_t seed, found, off;
	int i, j, hits = 0;

	(void)state;
	rng_seed(&r, 2403);
	for (i = 0; i < 24; i++) {
		seed = i % 2 ? rng_next(&r) : (uint32_t)rng_next(&r);
		datagen_init(&g, seed, 0);
		for (j = 0; j < 100; j++) {
			off = rng_below(&r, 1ull << 40) * BLOCK;
			datagen_copy(&g, buf, BLOCK, (uint32_t)rng_next(&r),
				     (uint32_t)rng_next(&r), off);
			found = 0;
			assert_true(datagen_stamp_identify(buf, off, &found));
			assert_true(found == seed);
			assert_false(datagen_stamp_identify(buf, off + BLOCK,
							    NULL));
			assert_false(datagen_stamp_identify(buf, off + 512,
							    NULL));
			buf[rng_below(&r, DATAGEN_STAMP_SIZE)] ^=
				(unsigned char)(1u << rng_below(&r, 8));
			hits += datagen_stamp_identify(buf, off, NULL);
			datagen_fill(rnd, sizeof(rnd), seed, 5, off);
			hits += datagen_stamp_identify(rnd, off, NULL);
		}
		datagen_release(&g);
	}
	assert_int_equal(hits, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deterministic),
		cmocka_unit_test(offset_consistent),
		cmocka_unit_test(blocks_unique),
		cmocka_unit_test(streams_and_seeds_differ),
		cmocka_unit_test(incompressible),
		cmocka_unit_test(pool_block_is_copy),
		cmocka_unit_test(pool_sectors_unique),
		cmocka_unit_test(pool_incompressible),
		cmocka_unit_test(rng),
		cmocka_unit_test(stamps_identified),
	};

	return tap_run_group_tests(tests);
}
