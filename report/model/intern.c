// SPDX-License-Identifier: GPL-2.0-only
/*
 * The string pool (intern.h): strings packed one after another in blocks
 * that double in size up to BLOCK_MAX (a longer string gets a block of its
 * own), found again through an open-addressing table of their hashes.
 * Blocks are few (tens of MB of unique strings take a handful), so that
 * intern_holds() can look at each.
 */
#include "report/model/intern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#define BLOCK_MIN ((size_t)64 << 10)
#define BLOCK_MAX ((size_t)16 << 20)

struct block {
	struct block *next;
	size_t used, size;
	char data[];
};

struct slot {
	const char *s;		/* NULL: free */
	uint64_t hash;
};

static struct {
	struct block *blocks;	/* newest first */
	size_t next_size;
	struct slot *slots;
	size_t cap, n;		/* cap a power of two, or 0 */
} pool;

/* FNV-1a, 64 bits; *len set to the string's length. */
static uint64_t hash_of(const char *s, size_t *len)
{
	uint64_t h = UINT64_C(14695981039346656037);
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		h = (h ^ *p) * UINT64_C(1099511628211);
	*len = (size_t)(p - (const unsigned char *)s);
	return h;
}

/* The slot of (s, hash): where it is, or the free one where it would go. */
static struct slot *find(const char *s, uint64_t hash)
{
	size_t mask = pool.cap - 1, i = (size_t)hash & mask;

	for (;; i = (i + 1) & mask) {
		struct slot *sl = &pool.slots[i];

		if (!sl->s || (sl->hash == hash && !strcmp(sl->s, s)))
			return sl;
	}
}

/* Twice the slots (or the first 1,024), every string placed again. */
static void grow_table(void)
{
	struct slot *old = pool.slots;
	size_t i, oldcap = pool.cap;

	pool.cap = oldcap ? 2 * oldcap : 1024;
	pool.slots = xcalloc(pool.cap, sizeof(*pool.slots));
	for (i = 0; i < oldcap; i++)
		if (old[i].s)
			*find(old[i].s, old[i].hash) = old[i];
	free(old);
}

/* Room for n bytes in the newest block, or a new block. */
static char *room(size_t n)
{
	struct block *b = pool.blocks;
	char *p;

	if (!b || b->size - b->used < n) {
		size_t size = pool.next_size ? pool.next_size : BLOCK_MIN;

		if (size < BLOCK_MAX)
			pool.next_size = 2 * size;
		if (size < n)
			size = n;
		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = pool.blocks;
		pool.blocks = b;
	}
	p = b->data + b->used;
	b->used += n;
	return p;
}

const char *intern(const char *s)
{
	size_t len;
	uint64_t hash = hash_of(s, &len);
	struct slot *sl;
	char *copy;

	if (2 * (pool.n + 1) > pool.cap)
		grow_table();
	sl = find(s, hash);
	if (sl->s)
		return sl->s;
	copy = room(len + 1);
	memcpy(copy, s, len + 1);
	sl->s = copy;
	sl->hash = hash;
	pool.n++;
	return copy;
}

int intern_holds(const void *p)
{
	const struct block *b;
	uintptr_t a = (uintptr_t)p;

	for (b = pool.blocks; b; b = b->next)
		if (a >= (uintptr_t)b->data && a < (uintptr_t)b->data + b->used)
			return 1;
	return 0;
}

void intern_clear(void)
{
	while (pool.blocks) {
		struct block *b = pool.blocks;

		pool.blocks = b->next;
		free(b);
	}
	free(pool.slots);
	memset(&pool, 0, sizeof(pool));
}
