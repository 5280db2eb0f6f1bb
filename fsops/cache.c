// SPDX-License-Identifier: GPL-2.0-only
#include "fsops/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fsops/file.h"
#include "fsops/stack.h"
#include "fsops/sysroot.h"
#include "fsops/target.h"

/* mincore in pieces this large, so a huge file needs no huge vector. */
#define RESIDENCY_PIECE ((off_t)1 << 30)

int cache_evict(int fd)
{
	int ret;

	if (fsync(fd))
		return -errno;
	ret = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return ret ? -ret : 0;
}

/* mincore(2) of [off, off + len) of fd (off page-aligned) into vec, one
 * byte a page.  0 or -errno. */
static int map_mincore(int fd, off_t off, size_t len, unsigned char *vec)
{
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	int err = 0;

	if (map == MAP_FAILED)
		return -errno;
	if (mincore(map, len, vec))
		err = -errno;
	munmap(map, len);
	return err;
}

/*
 * A read-only descriptor on the same file, for an fd opened O_WRONLY
 * (mmap needs read access); fd itself when it can be read.  -errno when
 * it cannot be reopened.
 */
static int readable_fd(int fd)
{
	char path[64];
	int flags = fcntl(fd, F_GETFL), rfd;

	if (flags < 0)
		return -errno;
	if ((flags & O_ACCMODE) != O_WRONLY)
		return fd;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rfd = open(path, O_RDONLY | O_CLOEXEC);
	return rfd < 0 ? -errno : rfd;
}

/*
 * Count the resident pages of [off, off + len) of fd into per-piece
 * counters: the page at p (the part of it inside the range) goes to
 * piece (p - off) / piece (at most n - 1); tot[i] pages, res[i] of them
 * resident.  One mincore pass, in mappings of RESIDENCY_PIECE.  0 or
 * -errno.
 */
static int count_pieces(int fd, off_t off, off_t len, off_t piece, size_t n,
			uint64_t *tot, uint64_t *res)
{
	const off_t page = (off_t)sysconf(_SC_PAGESIZE);
	const off_t end = off + len;
	unsigned char *vec = xmalloc((size_t)(RESIDENCY_PIECE / page));
	off_t m;
	int rc = 0;

	for (m = off - off % page; m < end && !rc; m += RESIDENCY_PIECE) {
		size_t maplen = (size_t)(end - m < RESIDENCY_PIECE ? end - m :
					 RESIDENCY_PIECE), j;

		rc = map_mincore(fd, m, maplen, vec);
		for (j = 0; !rc && j < (maplen + (size_t)page - 1) /
				       (size_t)page; j++) {
			off_t p = m + (off_t)j * page;
			size_t i = (size_t)(((p < off ? off : p) - off) / piece);

			if (i >= n)
				i = n - 1;
			tot[i]++;
			res[i] += vec[j] & 1;
		}
	}
	free(vec);
	return rc;
}

double cache_residency(int fd, off_t len)
{
	double share;
	int rc;

	if (len < 0)
		return -EINVAL;
	if (len == 0)
		return 1.0;
	rc = cache_residency_pieces(fd, 0, len, len, &share, 1);
	return rc ? (double)rc : share;
}

int cache_residency_pieces(int fd, off_t off, off_t len, off_t piece,
			   double *share, size_t n)
{
	uint64_t *tot, *res;
	size_t i;
	int mfd, rc;

	if (off < 0 || len < 0 || piece <= 0 || !n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		share[i] = -1;
	if (!len)
		return 0;
	mfd = readable_fd(fd);
	if (mfd < 0)
		return mfd;
	tot = xcalloc(n, sizeof(*tot));
	res = xcalloc(n, sizeof(*res));
	rc = count_pieces(mfd, off, len, piece, n, tot, res);
	for (i = 0; !rc && i < n; i++)
		if (tot[i])
			share[i] = (double)res[i] / (double)tot[i];
	free(tot);
	free(res);
	if (mfd != fd)
		close(mfd);
	return rc;
}

int cache_drop_metadata(int fd)
{
	char path[4096];
	int dfd, ret;
	int n = snprintf(path, sizeof(path), "%s/sys/vm/drop_caches",
			 procfs_root());

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	if (syncfs(fd))
		return -errno;
	dfd = open(path, O_WRONLY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	ret = write_full(dfd, "2\n", 2);
	if (close(dfd) && !ret)
		ret = -errno;
	return ret;
}

/* --- below the filesystem --- */

#define BELOW_DEPTH 4	/* a loop on a file on a loop on a file ... */

const char *cache_layer_state_str(enum cache_layer_state s)
{
	switch (s) {
	case CACHE_EVICTED_VERIFIED:
		return "evicted and verified";
	case CACHE_EVICTED_UNVERIFIED:
		return "evicted, not verifiable";
	case CACHE_NOT_EVICTABLE:
		return "not evictable";
	}
	return "unknown";
}

static struct cache_layer *layer_add(struct cache_layer *out, size_t max,
				     size_t *n, const struct stack_dev *d)
{
	struct cache_layer *l;
	size_t i;

	for (i = 0; i < *n; i++)	/* a disk met again one level down */
		if (!strcmp(out[i].name, d->name) &&
		    !strcmp(out[i].kind, d->kind))
			return NULL;
	if (*n >= max)
		return NULL;
	l = &out[(*n)++];
	memset(l, 0, sizeof(*l));
	snprintf(l->kind, sizeof(l->kind), "%s", d->kind);
	snprintf(l->name, sizeof(l->name), "%s", d->name);
	l->residency = -1;
	return l;
}

/* Flush the loop device itself: its own buffer cache (the filesystem's
 * metadata) goes to the backing file.  0 or -errno. */
static int flush_blockdev(const char *name)
{
	char *dev = xasprintf("/dev/%s", name);
	int fd = open(dev, O_RDONLY | O_CLOEXEC), err = 0;

	free(dev);
	if (fd < 0)
		return -errno;
	if (fsync(fd) || ioctl(fd, BLKFLSBUF, 0))
		err = -errno;
	close(fd);
	return err;
}

static size_t below(const char *path, int vm, struct cache_layer *out,
		    size_t max, size_t n, int depth);

/*
 * The memory filesystem fd's file is on (tmpfs, ramfs), NULL when none:
 * its pages are the file's only copy, so nothing can evict them, and no
 * device is below.
 */
static const char *memory_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return NULL;
	switch ((unsigned long)sf.f_type) {
	case TMPFS_MAGIC:
		return "tmpfs";
	case RAMFS_MAGIC:
		return "ramfs";
	}
	return NULL;
}

/* A backing file on a memory filesystem: not evictable, and why. */
static void layer_in_memory(struct cache_layer *l, int fd, const char *fs)
{
	double r = cache_residency(fd, lseek(fd, 0, SEEK_END));

	l->state = CACHE_NOT_EVICTABLE;
	l->residency = r < 0 ? -1 : r;
	snprintf(l->why, sizeof(l->why),
		 "memory filesystem: the backing file is on %s, whose pages are its only copy, so reads never reach a device; put the image on a disk-backed filesystem",
		 fs);
}

/* A loop device: flush it, drop its backing file, measure, go below. */
static size_t below_loop(const struct stack_dev *d, int vm,
			 struct cache_layer *out, size_t max, size_t n,
			 int depth)
{
	const char *back = stack_field(d, "backing_file"), *mem;
	struct cache_layer *l = layer_add(out, max, &n, d);
	int fd, err;
	double r;

	if (!l)
		return n;
	if (!back) {
		l->state = CACHE_NOT_EVICTABLE;
		snprintf(l->why, sizeof(l->why),
			 "sysfs names no backing file for %s", d->name);
		return n;
	}
	snprintf(l->name, sizeof(l->name), "%s backing file %s", d->name,
		 back);
	err = flush_blockdev(d->name);
	fd = open(back, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		l->state = CACHE_NOT_EVICTABLE;
		snprintf(l->why, sizeof(l->why), "cannot open '%s': %s", back,
			 strerror(errno));
		return n;
	}
	mem = memory_fs(fd);
	if (mem) {
		layer_in_memory(l, fd, mem);
		close(fd);
		return n;
	}
	if (!err)
		err = cache_evict(fd);
	else
		cache_evict(fd);
	r = cache_residency(fd, lseek(fd, 0, SEEK_END));
	close(fd);
	if (err) {
		l->state = CACHE_NOT_EVICTABLE;
		snprintf(l->why, sizeof(l->why), "cannot flush %s: %s",
			 d->name, strerror(-err));
		l->residency = r < 0 ? -1 : r;
	} else if (r < 0) {
		l->state = CACHE_EVICTED_UNVERIFIED;
		snprintf(l->why, sizeof(l->why), "mincore on '%s': %s", back,
			 strerror((int)-r));
	} else {
		l->state = CACHE_EVICTED_VERIFIED;
		l->residency = r;
	}
	return below(back, vm, out, max, n, depth + 1);
}

static size_t below(const char *path, int vm, struct cache_layer *out,
		    size_t max, size_t n, int depth)
{
	struct fs_target t;
	char err[256];
	size_t i;

	if (depth >= BELOW_DEPTH || fs_target_detect(path, &t, err,
						     sizeof(err)))
		return n;
	for (i = 0; i < t.stack.ndevs; i++) {
		const struct stack_dev *d = &t.stack.devs[i];
		const char *wc = stack_field(d, "write_cache");
		const char *dmk = stack_field(d, "dm_kind");
		struct cache_layer *l = NULL;

		if (!strcmp(d->kind, "loop")) {
			n = below_loop(d, vm, out, max, n, depth);
			continue;
		}
		if (!strcmp(d->kind, "disk") && vm == 1) {
			l = layer_add(out, max, &n, d);
			if (l)
				snprintf(l->why, sizeof(l->why),
					 "a virtual disk: the hypervisor may cache its image, which clyde cannot evict or see; beat it by size with --device-cache SIZE, or run on the host");
		} else if (!strcmp(d->kind, "disk") && wc &&
			   !strcmp(wc, "write back")) {
			l = layer_add(out, max, &n, d);
			if (l)
				snprintf(l->why, sizeof(l->why),
					 "reports a write-back cache, which clyde cannot evict or see; beat it by size with --device-cache SIZE");
		} else if (!strncmp(d->name, "bcache", 6) ||
			   (dmk && strstr(dmk, "cache"))) {
			l = layer_add(out, max, &n, d);
			if (l)
				snprintf(l->why, sizeof(l->why),
					 "a caching device (%s), which clyde cannot evict; beat it by size with --device-cache SIZE",
					 d->name);
		}
		if (l)
			l->state = CACHE_NOT_EVICTABLE;
	}
	fs_target_release(&t);
	return n;
}

size_t cache_evict_below(const char *path, int vm, struct cache_layer *out,
			 size_t max)
{
	return below(path, vm, out, max, 0, 0);
}
