/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_DATAGEN_H
#define CLYDE_DATAGEN_H

/*
 * Unique, incompressible test data.  The bytes at a given offset of a given
 * stream depend only on (seed, stream, offset): every 8-byte word is
 * splitmix64 of its position, so no two blocks of a run are equal,
 * compression and deduplication cannot shrink them, and a block can be
 * regenerated to check it.  About 1 ns per 8 bytes.
 */

#include <stddef.h>
#include <stdint.h>

/* Fill len bytes (any len, any offset) of stream at offset. */
void datagen_fill(void *buf, size_t len, uint64_t seed, uint64_t stream,
		  uint64_t offset);

/* Small fast PRNG (xorshift64*), for choices, not for data. */
struct rng {
	uint64_t s;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);

#endif
