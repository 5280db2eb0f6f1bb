// SPDX-License-Identifier: GPL-2.0-only
#include "datagen.h"

#include <endian.h>
#include <string.h>

#define GOLDEN 0x9e3779b97f4a7c15ull

/* The splitmix64 finaliser (Steele, Lea, Flood 2014). */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Word w (bytes 8w..8w+7) of a stream is wyrand's output for the counter
 * key + w * WY_P0: one 64 x 64 -> 128 bit multiply, its halves xored (Wang
 * Yi's wyrand), a pure function of (seed, stream, w) at about half the cost
 * of splitmix64's two multiplies, so data generation stays far below the
 * page cache's copy speed.  The key (splitmix64) mixes seed and stream so
 * that neighbouring streams or seeds are unrelated sequences, not shifted
 * copies.  Words are stored little-endian so the bytes are the same on
 * every host.
 */
#define WY_P0 0xa0761d6478bd642full
#define WY_P1 0xe7037ed1a0b428dbull
static inline uint64_t stream_key(uint64_t seed, uint64_t stream)
{
	return mix64(seed ^ mix64(stream * GOLDEN + 0x2545f4914f6cdd1dull));
}

static inline uint64_t word_at(uint64_t key, uint64_t w)
{
	uint64_t c = key + w * WY_P0;
	unsigned __int128 m = (unsigned __int128)c * (c ^ WY_P1);

	return htole64((uint64_t)(m >> 64) ^ (uint64_t)m);
}

void datagen_fill(void *buf, size_t len, uint64_t seed, uint64_t stream,
		  uint64_t offset)
{
	unsigned char *p = buf;
	uint64_t key = stream_key(seed, stream);
	uint64_t w = offset / 8;
	size_t skip = (size_t)(offset % 8);
	uint64_t v;

	if (!len)
		return;
	/* Head: the tail end of a word that starts before offset. */
	if (skip) {
		size_t n = 8 - skip;

		if (n > len)
			n = len;
		v = word_at(key, w++);
		memcpy(p, (unsigned char *)&v + skip, n);
		p += n;
		len -= n;
	}
	/* Body: whole words; memcpy keeps any buffer alignment legal. */
	for (; len >= 8; len -= 8, p += 8) {
		v = word_at(key, w++);
		memcpy(p, &v, 8);
	}
	/* Tail: the start of the last word. */
	if (len) {
		v = word_at(key, w);
		memcpy(p, &v, len);
	}
}

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = mix64(seed + GOLDEN);
	/* xorshift is stuck at 0 forever: never start there. */
	if (!r->s)
		r->s = GOLDEN;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Lemire's multiply-and-reject: unbiased, usually one draw. */
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}
