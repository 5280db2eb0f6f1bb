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

/*
 * The page-cache share (0..1) of each of n pieces of [off, off + len) of
 * fd, from one mincore(2) pass: share[i] of [off + i * piece, off + (i +
 * 1) * piece), the last cut at off + len (and taking any rest beyond n
 * pieces); a page partly inside counts for the piece its part is in, -1
 * for a piece with no page.  0 or -errno (share[] all -1).
 */
int cache_residency_pieces(int fd, off_t off, off_t len, off_t piece,
			   double *share, size_t n);

/* syncfs(fd) then write "2" (dentries and inodes) to drop_caches; root
 * only.  0 or -errno. */
int cache_drop_metadata(int fd);

/*
 * Caches below the filesystem.  cache_evict_below(path) walks the device
 * stack under path (target.h) and evicts what clyde can reach: a loop
 * device is flushed (fsync and BLKFLSBUF on /dev/NAME) and its backing
 * file synced and dropped (POSIX_FADV_DONTNEED), then the backing file's
 * residency is measured (mincore), and the same below it, for a loop on a
 * file on another loop.  Layers with a cache clyde can neither evict nor
 * see into are reported as such: a write-back cache that a disk reports,
 * bcache, dm-cache, every disk of a virtual machine (the hypervisor's
 * cache of the disk image), and a loop's backing file on a memory
 * filesystem (tmpfs, ramfs: its pages are the only copy; the reason says
 * "memory filesystem").  Only what was measured is claimed.
 */
enum cache_layer_state {
	CACHE_EVICTED_VERIFIED,		/* evicted, residency measured */
	CACHE_EVICTED_UNVERIFIED,	/* evicted, residency not measurable */
	CACHE_NOT_EVICTABLE,		/* a cache clyde cannot reach */
};

struct cache_layer {
	char name[512];		/* "loop0 backing file /srv/img", "vda" */
	char kind[16];		/* stack kind: "loop", "disk", "virtual"... */
	enum cache_layer_state state;
	double residency;	/* after eviction, 0..1; < 0 not measured */
	char why[256];		/* not evictable / not verifiable: why, and
				 * what to do about it */
};

/* "evicted and verified", "evicted, not verifiable", "not evictable". */
const char *cache_layer_state_str(enum cache_layer_state s);

/*
 * Evict the layers under path and describe them in out (at most max).
 * vm: the host is a virtual machine (host_info.vm == 1), whose disks are
 * images the hypervisor may cache.  Returns the number of layers written.
 */
size_t cache_evict_below(const char *path, int vm, struct cache_layer *out,
			 size_t max);

/*
 * The privileged evictor (cache_helper.c): cache_helper_start(), while
 * still root and before the privileges are dropped (-u), forks a process
 * that stays root and runs cache_evict_below() on request, so a run as
 * another user evicts exactly as root does.  0 or -errno.
 * cache_helper_evict_below() asks it (*done 1 with its answer; *done 0
 * when there is no helper or it did not answer: evict in-process then).
 * cache_helper_stop() ends it; it also ends when clyde exits.
 */
int cache_helper_start(void);
size_t cache_helper_evict_below(const char *path, int vm,
				struct cache_layer *out, size_t max,
				int *done);
void cache_helper_stop(void);

#endif
