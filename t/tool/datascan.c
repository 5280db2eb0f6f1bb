// SPDX-License-Identifier: GPL-2.0-only
/*
 * datascan SEED IMAGE OUT: find the 4 KiB blocks of a device image that
 * hold clyde's data for SEED, as written to the device (its body matches
 * the pool of fsops/datagen for SEED at some sector), copy them to OUT
 * and print "blocks N distinct D": how many were found and how many of
 * them differ as whole blocks.  A test tool (t/tool), not a test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsops/datagen.h"
#include "fsops/file.h"
#include "lib/xalloc.h"

#define BLK 4096u
#define KEY 64u		/* the key: 8 bytes past the stamp */
#define BODY 64u	/* body bytes that must match from KEY on */

struct key {
	uint64_t k;
	uint32_t sector;
};

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = ((const struct key *)a)->k, y = ((const struct key *)b)->k;

	return x < y ? -1 : x > y;
}

static const unsigned char *blocks;

static int cmp_block(const void *a, const void *b)
{
	return memcmp(blocks + (size_t)*(const uint32_t *)a * BLK,
		      blocks + (size_t)*(const uint32_t *)b * BLK, BLK);
}

int main(int argc, char **argv)
{
	size_t nsec = DATAGEN_POOL_SIZE / BLK, n = 0, alloc = 0, i, distinct;
	unsigned char blk[BLK], *found = NULL;
	struct key *keys, want, *hit;
	struct datagen g;
	uint32_t *idx;
	ssize_t r;
	int fd, out;

	if (argc != 4) {
		fprintf(stderr, "usage: datascan SEED IMAGE OUT\n");
		return 2;
	}
	datagen_init(&g, strtoull(argv[1], NULL, 0), 0);
	keys = xmalloc(nsec * sizeof(*keys));
	for (i = 0; i < nsec; i++) {
		memcpy(&keys[i].k, g.pool + i * BLK + KEY, 8);
		keys[i].sector = (uint32_t)i;
	}
	qsort(keys, nsec, sizeof(*keys), cmp_key);
	fd = open(argv[2], O_RDONLY);
	out = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || out < 0) {
		fprintf(stderr, "datascan: %s\n", strerror(errno));
		return 1;
	}
	while ((r = read_full(fd, blk, BLK)) == BLK) {
		memcpy(&want.k, blk + KEY, 8);
		hit = bsearch(&want, keys, nsec, sizeof(*keys), cmp_key);
		if (!hit || memcmp(blk + KEY, g.pool + (size_t)hit->sector *
				   BLK + KEY, BODY))
			continue;
		if (n == alloc)
			xgrow((void **)&found, &alloc, n + 1, BLK);
		memcpy(found + n * BLK, blk, BLK);
		n++;
	}
	if (r < 0 || write_full(out, found, n * BLK) || close(out)) {
		fprintf(stderr, "datascan: %s\n", strerror(r < 0 ? (int)-r : errno));
		return 1;
	}
	idx = xmalloc((n ? n : 1) * sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	blocks = found;
	qsort(idx, n, sizeof(*idx), cmp_block);
	for (i = 1, distinct = n ? 1 : 0; i < n; i++)
		distinct += cmp_block(&idx[i - 1], &idx[i]) != 0;
	printf("blocks %zu distinct %zu\n", n, distinct);
	free(idx);
	free(found);
	free(keys);
	close(fd);
	datagen_release(&g);
	return 0;
}
