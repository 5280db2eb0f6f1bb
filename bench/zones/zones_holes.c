// SPDX-License-Identifier: GPL-2.0-only
/*
 * Holes under the zones of `clyde zones` (zones_holes.h): a read of a
 * never-written part of a sparse file, or of a loop device over one, moves
 * no data from the storage (the filesystem returns zeros), so its rate is
 * not the storage's.  Measured after the read sweep, which allocates
 * nothing, outside its time.
 */
#include "bench/zones/zones_holes.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes of [off, end) of fd that are holes; the file is 'size' long. */
static uint64_t hole_bytes(int fd, uint64_t off, uint64_t end, uint64_t size)
{
	uint64_t holes = 0, pos = off;

	if (end > size) {	/* past the end of the backing file */
		holes += end - (off > size ? off : size);
		end = off > size ? off : size;
	}
	while (pos < end) {
		off_t data = lseek(fd, (off_t)pos, SEEK_DATA);
		off_t hole;

		if (data < 0) {
			if (errno == ENXIO)	/* no data after pos */
				holes += end - pos;
			break;	/* else: not supported, all data */
		}
		if ((uint64_t)data >= end) {
			holes += end - pos;
			break;
		}
		holes += (uint64_t)data - pos;
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			break;
		pos = (uint64_t)hole;
	}
	return holes;
}

long zones_mark_holes(const char *path, uint64_t base, struct zones_sweep *s)
{
	struct stat st;
	long marked = 0;
	size_t i;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	for (i = 0; i < s->nzones; i++) {
		struct zone_row *r = &s->zones[i];
		uint64_t from = base + r->offset;

		r->unalloc = hole_bytes(fd, from, from + r->length,
					(uint64_t)st.st_size);
		marked += r->unalloc > 0;
	}
	close(fd);
	return marked;
}
