// SPDX-License-Identifier: GPL-2.0-only
#include "fsops/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsops/sysroot.h"

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, p + done, len - done,
				  off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* A positive number from a one-line sysfs file, 0 when unreadable. */
static unsigned long sysfs_read_ulong(const char *path)
{
	char buf[64];
	char *end;
	unsigned long v;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf)
		return 0;
	return v;
}

/*
 * Logical block size of the block device holding fd's filesystem, from
 * <sysfs>/dev/block/MAJ:MIN/queue, or the parent's queue for a partition.
 * 0 when there is no such device (tmpfs, btrfs, network filesystems).
 */
static unsigned long logical_block_size(int fd)
{
	static const char *const rel[] = {
		"queue/logical_block_size",
		"../queue/logical_block_size",
	};
	struct stat st;
	char path[4096];
	size_t i;

	if (fstat(fd, &st))
		return 0;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		unsigned long v;
		int n = snprintf(path, sizeof(path), "%s/dev/block/%u:%u/%s",
				 sysfs_root(), major(st.st_dev),
				 minor(st.st_dev), rel[i]);

		if (n < 0 || (size_t)n >= sizeof(path))
			return 0;
		v = sysfs_read_ulong(path);
		if (v)
			return v;
	}
	return 0;
}

/* 1: filled from STATX_DIOALIGN; 0: not reported; -errno. */
static int dio_alignment_statx(int fd, struct dio_align *out)
{
#ifdef STATX_DIOALIGN
	/* glibc's <sys/stat.h> uses the kernel's struct statx (linux/stat.h)
	 * whenever that header is present, and STATX_DIOALIGN comes from
	 * there, so stx_dio_*_align exist when it is defined. */
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx)) {
		if (errno == ENOSYS || errno == EINVAL)
			return 0;
		return -errno;
	}
	if (!(stx.stx_mask & STATX_DIOALIGN))
		return 0;
	if (!stx.stx_dio_offset_align || !stx.stx_dio_mem_align)
		return -EINVAL;
	out->mem = stx.stx_dio_mem_align;
	out->offset = stx.stx_dio_offset_align;
	out->from_statx = 1;
	return 1;
#else
	(void)fd;
	(void)out;
	return 0;
#endif
}

int dio_alignment(int fd, struct dio_align *out)
{
	struct statvfs sv;
	unsigned long lbs, fsbs = 0;
	size_t a;
	int ret = dio_alignment_statx(fd, out);

	if (ret)
		return ret < 0 ? ret : 0;

	lbs = logical_block_size(fd);
	if (!fstatvfs(fd, &sv))
		fsbs = sv.f_bsize;
	else if (!lbs)
		return -errno;
	a = lbs > fsbs ? lbs : fsbs;
	if (!a)
		return -EINVAL;
	out->mem = a;
	out->offset = a;
	out->from_statx = 0;
	return 0;
}
