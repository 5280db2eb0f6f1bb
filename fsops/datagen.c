// SPDX-License-Identifier: GPL-2.0-only
#include "fsops/datagen.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

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

/* The stamp keys are the seed mixed with these. */
#define K0_SALT 0x6a09e667f3bcc908ull
#define K1_SALT 0xbb67ae8584caa73bull
#define K2_SALT 0x3c6ef372fe94f82bull

/* The pool's own stream: no caller's stream is this. */
#define POOL_STREAM 0xc1d0f00dc1d0f00dull

static size_t round_up_sector(size_t n)
{
	return (n + DATAGEN_SECTOR - 1) / DATAGEN_SECTOR * DATAGEN_SECTOR;
}

void datagen_init(struct datagen *g, uint64_t seed, size_t max_block)
{
	/* a window may start anywhere and end a stamp past max_block */
	size_t slack = round_up_sector(max_block) + DATAGEN_SECTOR, done;

	g->pool = xmalloc_aligned(DATAGEN_POOL_SIZE + slack, 4096);
	g->max_block = max_block;
	g->seed = seed;
	g->k0 = mix64(seed ^ K0_SALT);
	g->k1 = mix64(seed ^ K1_SALT);
	g->k2 = mix64(seed ^ K2_SALT);
	g->k3 = mix64(seed ^ 0xa54ff53a5f1d36f1ull);
	datagen_fill(g->pool, DATAGEN_POOL_SIZE, seed, POOL_STREAM, 0);
	/* the slack repeats the pool's start: every window is contiguous */
	for (done = 0; done < slack;) {
		size_t n = slack - done < DATAGEN_POOL_SIZE ?
			   slack - done : DATAGEN_POOL_SIZE;

		memcpy(g->pool + DATAGEN_POOL_SIZE + done, g->pool, n);
		done += n;
	}
}

void datagen_release(struct datagen *g)
{
	free(g->pool);
	g->pool = NULL;
}

/*
 * The stamp of sector s of (stream, gen): word 0 is a bijection of s; for
 * a given word 0, word 1 is a bijection of the stream; for a given word 1,
 * word 2 is a bijection of the generation.  So the three words differ for
 * every (s, stream, gen).  mix64 is a bijection; so are xor and addition
 * with a constant.
 */
static void sector_stamp(const struct datagen *g, uint64_t s, uint64_t stream,
			 uint32_t gen, unsigned char out[DATAGEN_STAMP_SIZE])
{
	uint64_t w[3];

	w[0] = mix64(s ^ g->k0);
	w[1] = mix64((stream ^ g->k1) + w[0]);
	w[2] = mix64((gen ^ g->k2) + w[1]);
	w[0] = htole64(w[0]);
	w[1] = htole64(w[1]);
	w[2] = htole64(w[2]);
	memcpy(out, w, sizeof(w));
}

/* The stamps of the sectors overlapping [offset, offset + len), clipped
 * to that range, written into buf (which holds that range). */
static void stamp_range(const struct datagen *g, unsigned char *buf,
			size_t len, uint64_t stream, uint32_t gen,
			uint64_t offset)
{
	uint64_t end = offset + len, s = offset / DATAGEN_SECTOR;
	uint64_t x = s * DATAGEN_SECTOR;
	unsigned char st[DATAGEN_STAMP_SIZE];

	for (; x < end; s++, x += DATAGEN_SECTOR) {
		uint64_t a = x < offset ? offset : x;
		uint64_t b = x + DATAGEN_STAMP_SIZE;

		if (b > end)
			b = end;
		if (a >= b)
			continue;	/* a head sector whose stamp is before */
		sector_stamp(g, s, stream, gen, st);
		memcpy(buf + (a - offset), st + (a - x), (size_t)(b - a));
	}
}

/*
 * Where byte offset of stream is in the pool: each stream starts at its
 * own sector of the pool (streams written side by side do not repeat each
 * other), and walks it from there.  A whole number of sectors, so stamps
 * always fall on the pool's sector starts.
 */
static size_t pool_pos(const struct datagen *g, uint64_t stream,
		       uint64_t offset)
{
	uint64_t nsec = DATAGEN_POOL_SIZE / DATAGEN_SECTOR;
	uint64_t shift = (mix64(stream ^ g->k3) % nsec) * DATAGEN_SECTOR;

	return (size_t)((offset % DATAGEN_POOL_SIZE + shift) %
			DATAGEN_POOL_SIZE);
}

const void *datagen_block(struct datagen *g, size_t len, uint64_t stream,
			  uint32_t gen, uint64_t offset)
{
	unsigned char *p = g->pool + pool_pos(g, stream, offset);

	if (len > g->max_block)
		abort();	/* a caller's bug: the window would overrun */
	stamp_range(g, p, len, stream, gen, offset);
	return p;
}

void datagen_copy(const struct datagen *g, void *buf, size_t len,
		  uint64_t stream, uint32_t gen, uint64_t offset)
{
	unsigned char *p = buf;
	size_t pos = pool_pos(g, stream, offset), left = len;

	while (left) {
		size_t n = DATAGEN_POOL_SIZE - pos;

		if (n > left)
			n = left;
		memcpy(p, g->pool + pos, n);
		p += n;
		left -= n;
		pos = 0;
	}
	stamp_range(g, buf, len, stream, gen, offset);
}

void datagen_stamp(const struct datagen *g, void *buf, size_t len,
		   uint64_t stream, uint32_t gen, uint64_t offset)
{
	stamp_range(g, buf, len, stream, gen, offset);
}

int64_t datagen_compare(const struct datagen *g, const void *buf,
			size_t len, uint64_t stream, uint32_t gen,
			uint64_t offset)
{
	enum { PIECE = 64 << 10 };
	const unsigned char *p = buf;
	unsigned char *want = xmalloc(PIECE);
	size_t done, i;

	for (done = 0; done < len; done += PIECE) {
		size_t n = len - done < PIECE ? len - done : PIECE;

		datagen_copy(g, want, n, stream, gen, offset + done);
		if (memcmp(want, p + done, n)) {
			for (i = 0; p[done + i] == want[i]; i++)
				;
			free(want);
			return (int64_t)(done + i);
		}
	}
	free(want);
	return -1;
}

/* The inverse of an odd c modulo 2^64 (Newton: each step doubles the
 * correct low bits, from the 3 that c itself has). */
static uint64_t inverse64(uint64_t c)
{
	uint64_t x = c;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - c * x;
	return x;
}

/* mix64's inverse: its steps undone in reverse order. */
static uint64_t unmix64(uint64_t z)
{
	z ^= z >> 31 ^ z >> 62;
	z *= inverse64(0x94d049bb133111ebull);
	z ^= z >> 27 ^ z >> 54;
	z *= inverse64(0xbf58476d1ce4e5b9ull);
	z ^= z >> 30 ^ z >> 60;
	return z;
}

/*
 * Undo sector_stamp() word by word: word 0 and the sector index give k0
 * and with it the seed; the seed gives k1 and k2, which with words 1 and
 * 2 give the stream and the generation.  Any 24 bytes yield some seed,
 * stream and generation; clyde's own have both below 2^32.
 */
int datagen_stamp_identify(const void *sector, uint64_t offset,
			   uint64_t *seed)
{
	uint64_t w[3], s, stream, gen;

	if (offset % DATAGEN_SECTOR)
		return 0;
	memcpy(w, sector, sizeof(w));
	w[0] = le64toh(w[0]);
	w[1] = le64toh(w[1]);
	w[2] = le64toh(w[2]);
	s = unmix64(unmix64(w[0]) ^ offset / DATAGEN_SECTOR) ^ K0_SALT;
	stream = (unmix64(w[1]) - w[0]) ^ mix64(s ^ K1_SALT);
	gen = (unmix64(w[2]) - w[1]) ^ mix64(s ^ K2_SALT);
	if (stream >> 32 || gen >> 32)
		return 0;
	if (seed)
		*seed = s;
	return 1;
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
