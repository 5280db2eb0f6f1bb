/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_FILE_H
#define CLYDE_FILE_H

/*
 * Whole-buffer I/O and O_DIRECT alignment.  Functions return 0 (or a byte
 * count) on success and a negative errno on failure; none of them prints.
 */

#include <stddef.h>
#include <sys/types.h>

/* Write all of buf, retrying short writes and EINTR.  0 or -errno (a write
 * that returns 0 gives -ENOSPC). */
int write_full(int fd, const void *buf, size_t len);
int pwrite_full(int fd, const void *buf, size_t len, off_t off);

/* Read up to len, retrying short reads and EINTR; returns the bytes read
 * (less than len only at end of file) or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);

/* What O_DIRECT on a file needs: buffer address and size/offset multiples. */
struct dio_align {
	size_t mem;		/* buffer address alignment */
	size_t offset;		/* offset and length alignment */
	int from_statx;		/* 1: STATX_DIOALIGN said so; 0: fallback */
};

/*
 * Alignment for O_DIRECT on the open file fd.  statx STATX_DIOALIGN when the
 * kernel and filesystem report it; -EINVAL when they report that the file
 * cannot do direct I/O at all (mask set, alignment 0); otherwise the
 * fallback max(logical block size of the device, fs block size).
 */
int dio_alignment(int fd, struct dio_align *out);

/* Round n up to a multiple of align (a power of two or any positive n). */
static inline size_t round_up(size_t n, size_t align)
{
	return (n + align - 1) / align * align;
}

#endif
