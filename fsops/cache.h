/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CACHE_H
#define CLYDE_CACHE_H

/* Page cache control: write back and evict a file, measure what stays. */

#include <sys/types.h>

/* fsync, then POSIX_FADV_DONTNEED over the whole file.  0 or -errno. */
int cache_evict(int fd);

/*
 * Fraction (0..1) of the first len bytes of fd resident in the page cache,
 * from mincore(2) over a read-only shared mapping.  1.0 for len 0; a
 * negative errno on failure.
 */
double cache_residency(int fd, off_t len);

/* syncfs(fd) then write "2" (dentries and inodes) to drop_caches; root
 * only.  0 or -errno. */
int cache_drop_metadata(int fd);

#endif
