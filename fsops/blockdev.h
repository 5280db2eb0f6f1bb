/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BLOCKDEV_H
#define CLYDE_BLOCKDEV_H

/*
 * Opening a block device that a benchmark will overwrite: exclusively
 * (O_EXCL, so a mounted or otherwise claimed device is refused), and only
 * when libblkid is sure there is nothing on it and a sampled read finds
 * only zeros or clyde's own data (devcheck.h: a filesystem whose primary
 * superblock is damaged keeps copies libblkid does not look at).  A
 * filesystem, RAID member, partition table or other signature, two
 * conflicting signatures, a probe that fails, a superblock copy, data
 * that is not clyde's or a sample that cannot be read are all refusals
 * unless force is set: a device is destroyed only when it is blank, holds
 * what clyde wrote, or the user said --force (as mkfs -f and wipefs).
 */

#include <stddef.h>
#include <stdint.h>

/*
 * Open path (a block device) exclusively with access (O_RDONLY or O_RDWR)
 * | flags and get its size; nothing is read or written.  0 with *fd and
 * *size set, or -errno with a message in err (no "clyde:" prefix): the
 * open's errno ("mounted or in use" when it is -EBUSY, or when the device
 * is a mounted filesystem's source whatever the errno: a mounted device
 * may be refused before O_EXCL is even tried, as EPERM), -ENOTBLK not a
 * block device.
 */
int blockdev_open_excl(const char *path, int access, int *fd, uint64_t *size,
		       char *err, size_t errlen);

/*
 * Open path (a block device) read-write with O_EXCL | flags (e.g.
 * O_DIRECT), get its size, and unless force refuse anything but
 * a device that is free to destroy (as above).  0 with *fd and *size set, or
 * -errno with a message in err (no "clyde:" prefix): the open's errno
 * (-EBUSY: mounted or in use), -ENOTBLK not a block device, -EEXIST not
 * free.  Nothing is written.
 */
int blockdev_open(const char *path, int flags, int force, int *fd,
		  uint64_t *size, char *err, size_t errlen);

#endif
