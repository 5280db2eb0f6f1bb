/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_HASHIDX_H
#define CLYDE_HASHIDX_H

/*
 * A hash index: 64-bit hashes to indexes into the caller's own array
 * (open addressing, linear probing, grown at half full), so that finding
 * a configuration, a label or a key among n takes constant time, not n.
 * It keeps no keys: the caller compares the candidates a hash gives.
 *
 *	struct hashidx h = HASHIDX_INIT;
 *	size_t pos = 0, i;
 *
 *	while (hashidx_next(&h, hash, &pos, &i))
 *		if (same(&v[i], key))
 *			return i;
 *	hashidx_add(&h, hash, n);
 */

#include <stddef.h>
#include <stdint.h>

struct hashidx {
	size_t cap;		/* slots, 0 or a power of two */
	size_t n;		/* indexes held */
	uint64_t *hash;
	size_t *val;		/* SIZE_MAX: empty */
};

#define HASHIDX_INIT { 0, 0, NULL, NULL }

/* Hold index val under hash (several may share one hash). */
void hashidx_add(struct hashidx *h, uint64_t hash, size_t val);

/*
 * The next index held under hash (in no set order): 1 and *val, or 0
 * when there is no more.  *pos starts at 0.
 */
int hashidx_next(const struct hashidx *h, uint64_t hash, size_t *pos,
		 size_t *val);

void hashidx_release(struct hashidx *h);

/* FNV-1a of the string s (NULL hashes apart from ""), from seed h. */
uint64_t hash_str(uint64_t h, const char *s);
#define HASH_SEED 14695981039346656037ull

#endif
