// SPDX-License-Identifier: GPL-2.0-only
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/xalloc.h"
#include "file.h"
#include "sysroot.h"

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

/* Resident pages of [off, off + len) of fd, or -errno. */
static int64_t resident_pages(int fd, off_t off, size_t len, size_t page,
			      unsigned char *vec)
{
	size_t i, npages = (len + page - 1) / page;
	int64_t n = 0;
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);

	if (map == MAP_FAILED)
		return -errno;
	if (mincore(map, len, vec)) {
		int err = errno;

		munmap(map, len);
		return -err;
	}
	munmap(map, len);
	for (i = 0; i < npages; i++)
		n += vec[i] & 1;
	return n;
}

/*
 * A read-only descriptor on the same file, for an fd opened O_WRONLY
 * (mmap needs read access).  -errno when it cannot be reopened.
 */
static int reopen_readonly(int fd)
{
	char path[64];
	int rfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rfd = open(path, O_RDONLY | O_CLOEXEC);
	return rfd < 0 ? -errno : rfd;
}

double cache_residency(int fd, off_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t vlen = (size_t)(RESIDENCY_PIECE / (off_t)page);
	unsigned char *vec;
	int64_t resident = 0;
	off_t off;
	int flags, mfd = fd;

	if (len < 0)
		return -EINVAL;
	if (len == 0)
		return 1.0;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0)
		return -errno;
	if ((flags & O_ACCMODE) == O_WRONLY) {
		mfd = reopen_readonly(fd);
		if (mfd < 0)
			return mfd;
	}

	if ((off_t)(vlen * page) > len)
		vlen = (size_t)((len + (off_t)page - 1) / (off_t)page);
	vec = xmalloc(vlen);
	for (off = 0; off < len; off += RESIDENCY_PIECE) {
		off_t rest = len - off;
		size_t piece = rest < RESIDENCY_PIECE ? (size_t)rest
						      : (size_t)RESIDENCY_PIECE;
		int64_t n = resident_pages(mfd, off, piece, page, vec);

		if (n < 0) {
			resident = n;
			break;
		}
		resident += n;
	}
	free(vec);
	if (mfd != fd)
		close(mfd);
	if (resident < 0)
		return (double)resident;
	return (double)resident / (double)((len + (off_t)page - 1) /
					   (off_t)page);
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
