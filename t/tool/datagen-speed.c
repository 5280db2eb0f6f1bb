// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagen-speed [MiB]: GB/s on one core of each way fsops/datagen makes
 * data, over MiB (default 1024) in 8 KiB blocks: datagen_block (stamps
 * only, what the classic writers do), datagen_copy (a copy of the pool
 * plus stamps), datagen_stamp (re-stamping a buffer) and datagen_fill (the
 * reference generator).  Best of three.  For scripts/bench-honest.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "lib/xalloc.h"

#define IO 8192u

static volatile unsigned sink;

static double run(int how, struct datagen *g, unsigned char *buf,
		  uint64_t total)
{
	uint64_t off, best = UINT64_MAX;
	int k;

	for (k = 0; k < 3; k++) {
		uint64_t t0 = clock_ns(), t;

		for (off = 0; off < total; off += IO) {
			switch (how) {
			case 0:
				sink += *(const unsigned char *)
					datagen_block(g, IO, 1, 0, off);
				break;
			case 1:
				datagen_copy(g, buf, IO, 1, 0, off);
				break;
			case 2:
				datagen_stamp(g, buf, IO, 1, 0, off);
				break;
			default:
				datagen_fill(buf, IO, 1, 1, off);
			}
			sink += buf[off % IO];
		}
		t = clock_ns() - t0;
		if (t < best)
			best = t;
	}
	return (double)total / (double)best;
}

int main(int argc, char **argv)
{
	static const char *const name[] = {
		"datagen_block (stamps, no copy)", "datagen_copy (pool copy + stamps)",
		"datagen_stamp (stamps into a buffer)", "datagen_fill (reference)",
	};
	uint64_t total = (argc > 1 ? strtoull(argv[1], NULL, 0) : 1024) << 20;
	unsigned char *buf = xmalloc_aligned(IO, 4096);
	struct datagen g;
	int how;

	datagen_init(&g, 42, IO);
	for (how = 0; how < 4; how++)
		printf("%-38s %8.1f GB/s per core\n", name[how],
		       run(how, &g, buf, total));
	datagen_release(&g);
	free(buf);
	return 0;
}
