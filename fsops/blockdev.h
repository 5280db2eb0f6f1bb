/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BLOCKDEV_H
#define CLYDE_BLOCKDEV_H

/*
 * Opening a block device that a benchmark will overwrite: exclusively
 * (O_EXCL, so a mounted or otherwise claimed device is refused), and only
 * when libblkid is sure there is nothing on it.  A filesystem, RAID
 * member, partition table or other signature, two conflicting signatures,
 * or a probe that fails are all refusals unless force is set: a device is
 * destroyed only when "probed, nothing found" or the user said --force.
 */

#include <stddef.h>
#include <stdint.h>

/* What blockdev_check_signatures() found. */
enum blockdev_sig {
	BLOCKDEV_EMPTY,		/* probed, nothing found */
	BLOCKDEV_SIGNED,	/* one signature (named in what) */
	BLOCKDEV_AMBIVALENT,	/* more than one, conflicting */
	BLOCKDEV_UNKNOWN,	/* the probe failed */
};

/*
 * Probe path with libblkid for superblocks and partition tables; what
 * gets the signature's type ("xfs", "dos"...), or a description.
 */
enum blockdev_sig blockdev_check_signatures(const char *path, char *what,
					    size_t whatlen);

/*
 * Open path (a block device) read-write with O_EXCL | flags (e.g.
 * O_DIRECT), get its size, and unless force refuse anything but
 * BLOCKDEV_EMPTY.  0 with *fd and *size set, or -errno with a message in
 * err (no "clyde:" prefix): the open's errno (-EBUSY: mounted or in use),
 * -ENOTBLK not a block device, -EEXIST a signature or an ambivalent or
 * failed probe.  Nothing is written.
 */
int blockdev_open(const char *path, int flags, int force, int *fd,
		  uint64_t *size, char *err, size_t errlen);

#endif
