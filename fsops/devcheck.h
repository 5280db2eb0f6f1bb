/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_DEVCHECK_H
#define CLYDE_DEVCHECK_H

/*
 * Is a block device free to overwrite, beyond what libblkid says?
 * libblkid looks for primary superblocks; a filesystem whose primary is
 * damaged is invisible to it, yet repairable from the copies it keeps:
 * xfs secondary superblocks at each allocation group's start (xfs_repair),
 * ext2/3/4 backups in block groups 1, 3, 5, 7, 9, 25, 27, 49 (e2fsck -b),
 * btrfs mirrors at 64 MiB, 256 GiB and 1 PiB (btrfs rescue super-recover).
 *
 * devcheck_sample() reads a bounded sample of the device: its first and
 * last MiB, the places those copies lie for every geometry mkfs.xfs,
 * mke2fs and mkfs.btrfs choose by default (block sizes 512 B to 64 KiB,
 * 1 to 32 allocation groups or 1 TiB ones), and 64 to 128 windows of 64
 * KiB spread over the device at power-of-two offsets.  The device is free
 * only when every byte read is zero (new or discarded) or data clyde
 * itself wrote: sectors with datagen's stamps (fsops/datagen.h), units of
 * --verify with their headers (fsops/verify.h).  It reads, never writes,
 * and a 100 TiB device costs the same few hundred reads as a small one;
 * the pages read are dropped from the cache afterwards.
 *
 * What it cannot see: a filesystem with a non-default geometry (mkfs.xfs
 * -d agcount=3, mke2fs -g) whose primary and sampled places are all
 * zero; --verify data whose unit is neither a power of two nor found
 * twice in one window is taken for foreign (refused, not destroyed).
 */

#include <stddef.h>
#include <stdint.h>

enum devcheck_verdict {
	DEVCHECK_BLANK,		/* every sampled byte zero */
	DEVCHECK_CLYDE,		/* only zeros and clyde's own data */
	DEVCHECK_FOREIGN,	/* a superblock or other data (what names it) */
	DEVCHECK_UNREADABLE,	/* a read failed (what says why) */
};

/*
 * Sample path (a block device of size bytes).  what gets, for
 * DEVCHECK_FOREIGN, "an xfs secondary superblock (AG 1 of 4) at 128 MiB",
 * "an ext2/3/4 backup superblock (group 1) at 128 MiB", "a btrfs
 * superblock mirror at 64 MiB" or "data that is not clyde's at 4 KiB";
 * for DEVCHECK_UNREADABLE the failed read and its reason.
 */
enum devcheck_verdict devcheck_sample(const char *path, uint64_t size,
				      char *what, size_t whatlen);

#endif
