/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_DATAGEN_H
#define CLYDE_DATAGEN_H

/*
 * Unique, incompressible test data, cheaply.
 *
 * The fast path is a pool (struct datagen): DATAGEN_POOL_SIZE random bytes
 * made once per run from the seed, outside any timed span.  The data for
 * byte x of (stream, gen) is the pool's byte at (start(stream) + x) mod
 * DATAGEN_POOL_SIZE, where start(stream) is a sector of the pool chosen by
 * the seed for each stream (streams written side by side differ), except the first DATAGEN_STAMP_SIZE bytes of every DATAGEN_SECTOR-byte
 * sector (sectors counted from offset 0 of the file), which hold a stamp:
 *
 *   word 0 = bijection(seed, sector index)
 *   word 1 = bijection(seed, word 0, stream)
 *   word 2 = bijection(seed, word 1, generation)
 *
 * Each word is a bijection of its input given the word before, so two
 * sectors of one run with a different (offset, stream, gen) always
 * differ: every 4 KiB sector clyde writes is unique, by construction, not
 * by chance.  Another seed
 * gives another pool and other stamps.  The stamps look random and the
 * pool repeats only every DATAGEN_POOL_SIZE bytes of a stream, farther
 * than gzip (32 KiB) or zstd up to level 19 (8 MiB) look back, and block
 * compressors or deduplicating arrays work within a block: nothing
 * shrinks the data.  (A stream compressor with a window larger than the
 * pool, zstd --long, does find the repeats.)  Many small pieces (files)
 * are best written as one stream at increasing, sector-aligned offsets,
 * so that together they walk the pool, as bench/classic/files.c does.
 *
 * Costs, per byte written: datagen_block() writes only the stamps (three
 * 8-byte words per 4 KiB sector, far less than a copy) and hands back a
 * pointer into the pool, so a writer pays no copy at all; datagen_copy()
 * is a memcpy plus the stamps; datagen_stamp() re-stamps a buffer in place.
 * scripts/bench-honest prints their GB/s per core.
 *
 * Threads: datagen_copy(), datagen_stamp() and datagen_compare() only read
 * the pool, so any number of threads may share one struct datagen, as
 * long as none of them calls datagen_block() on it (which writes stamps
 * into the pool: one writer, one datagen).
 */

#include <stddef.h>
#include <stdint.h>

#define DATAGEN_SECTOR		4096u	/* the unit of uniqueness */
#define DATAGEN_STAMP_SIZE	24u	/* stamp bytes at each sector start */
#define DATAGEN_POOL_SIZE	(16u << 20)

struct datagen {
	unsigned char *pool;	/* DATAGEN_POOL_SIZE + slack bytes */
	size_t max_block;	/* longest datagen_block() */
	uint64_t seed;
	uint64_t k0, k1, k2;	/* stamp keys, from the seed */
	uint64_t k3;		/* streams' starting points in the pool */
};

/*
 * Make the pool for seed (a few milliseconds: do it before timing).
 * max_block is the longest len datagen_block() will be asked for (the pool
 * gets that much slack so that every window is contiguous); 0 is allowed
 * when only datagen_copy() and datagen_stamp() are used.  The pool is
 * page-aligned.  Never fails (allocation failure exits, as xmalloc).
 */
void datagen_init(struct datagen *g, uint64_t seed, size_t max_block);
void datagen_release(struct datagen *g);

/*
 * The data of [offset, offset + len) of (stream, gen), without a copy: a
 * pointer into the pool, stamped, valid until the next datagen_block() on
 * g.  len <= g->max_block.  The pointer's alignment is offset's, modulo
 * 4096 (page-aligned when offset is), so it suits O_DIRECT when offset
 * does.  Writes only the stamps: cheaper than changing one byte per chunk
 * as bonnie++ does, per sector.
 */
const void *datagen_block(struct datagen *g, size_t len, uint64_t stream,
			  uint32_t gen, uint64_t offset);

/* The same bytes as datagen_block(), copied into buf (any len, any
 * offset, any alignment).  Only reads g. */
void datagen_copy(const struct datagen *g, void *buf, size_t len,
		  uint64_t stream, uint32_t gen, uint64_t offset);

/*
 * Write only the stamps for [offset, offset + len) of (stream, gen) into
 * buf, leaving the other bytes as they are: a buffer filled once (e.g.
 * with datagen_copy() at another offset) becomes unique for this offset
 * and generation at the cost of three words per sector.  Reproducible by
 * datagen_copy() only if the rest of buf is the pool's data for offset.
 */
void datagen_stamp(const struct datagen *g, void *buf, size_t len,
		   uint64_t stream, uint32_t gen, uint64_t offset);

/*
 * Compare buf with the data of [offset, offset + len) of (stream, gen):
 * -1 when equal, else the index in buf of the first byte that differs.
 */
int64_t datagen_compare(const struct datagen *g, const void *buf,
			size_t len, uint64_t stream, uint32_t gen,
			uint64_t offset);

/*
 * Does sector (at least DATAGEN_STAMP_SIZE bytes) begin with the stamp
 * datagen gives the sector at offset (a multiple of DATAGEN_SECTOR) of
 * some stream, with some seed?  The stamp's words are bijections, so the
 * seed, stream and generation are recovered from them without knowing
 * the seed; the stamp is clyde's when stream and generation fit in 32
 * bits, as they do for every device clyde writes (zones: stream 0;
 * matrix: matrix_data_stream()).  Other data passes by a chance of
 * 2^-64.  1 (and *seed set when seed is not NULL) or 0.  Reads 24 bytes.
 */
int datagen_stamp_identify(const void *sector, uint64_t offset,
			   uint64_t *seed);

/*
 * The reference generator: every 8-byte word a pure function of (seed,
 * stream, offset) (wyrand of a counter), no pool, no stamps.  Unique and
 * incompressible at any scale, but about 0.7 ns per 8 bytes (near 11 GB/s
 * per core): fills the pool, --verify units and tests; not for a writer's
 * hot path.  Any len, any offset.
 */
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
