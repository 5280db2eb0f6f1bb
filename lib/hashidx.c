// SPDX-License-Identifier: GPL-2.0-only
/* A hash index of the caller's array; see hashidx.h. */
#include "lib/hashidx.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

static void put(struct hashidx *h, uint64_t hash, size_t val)
{
	size_t i = (size_t)hash & (h->cap - 1);

	while (h->val[i] != SIZE_MAX)
		i = (i + 1) & (h->cap - 1);
	h->hash[i] = hash;
	h->val[i] = val;
	h->n++;
}

static void grow(struct hashidx *h)
{
	struct hashidx old = *h;
	size_t i;

	h->cap = old.cap ? old.cap * 2 : 64;
	h->n = 0;
	h->hash = xcalloc(h->cap, sizeof(*h->hash));
	h->val = xmalloc(h->cap * sizeof(*h->val));
	memset(h->val, 0xff, h->cap * sizeof(*h->val));
	for (i = 0; i < old.cap; i++)
		if (old.val[i] != SIZE_MAX)
			put(h, old.hash[i], old.val[i]);
	free(old.hash);
	free(old.val);
}

void hashidx_add(struct hashidx *h, uint64_t hash, size_t val)
{
	if (2 * (h->n + 1) > h->cap)
		grow(h);
	put(h, hash, val);
}

int hashidx_next(const struct hashidx *h, uint64_t hash, size_t *pos,
		 size_t *val)
{
	size_t i;

	if (!h->cap)
		return 0;
	for (;;) {
		i = ((size_t)hash + *pos) & (h->cap - 1);
		if (h->val[i] == SIZE_MAX || *pos >= h->cap)
			return 0;
		(*pos)++;
		if (h->hash[i] == hash) {
			*val = h->val[i];
			return 1;
		}
	}
}

void hashidx_release(struct hashidx *h)
{
	free(h->hash);
	free(h->val);
	memset(h, 0, sizeof(*h));
}

uint64_t hash_str(uint64_t h, const char *s)
{
	if (!s)
		return (h ^ 0x9e3779b97f4a7c15ull) * 1099511628211ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	/* the end counts, so "ab" + "c" and "a" + "bc" hash apart */
	return (h ^ 0xff) * 1099511628211ull;
}
