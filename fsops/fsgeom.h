/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_FSGEOM_H
#define CLYDE_FSGEOM_H

/*
 * A filesystem's own geometry, where it is cheap to read:
 *   xfs   (XFS_IOC_FSGEOMETRY on the mount point): agcount, agsize, sunit
 *         and swidth (bytes), log_size, inode_size, sector_size
 *   ext2/3/4 (libext2fs on the mount's source, read only): stride and
 *         stripe_width (blocks and bytes), has_journal, journal_mode (from
 *         data= in the options, else the superblock's default mount
 *         options, else "ordered", the kernel's default, with
 *         journal_mode_from saying which), inode_size, features
 *   btrfs (BTRFS_IOC_FS_INFO and <sysfs>/fs/btrfs/UUID): uuid,
 *         data/metadata/system profiles, num_devices, nodesize
 * Fields are added with stack_fields_set(); what cannot be read is a
 * warning in warn (never an error: the benchmark goes on without it).
 */

#include <stddef.h>

#include "fsops/stack.h"

void fsgeom_read(const char *mountpoint, const char *fstype,
		 const char *source, const char *fs_options,
		 struct stack_field **fields, size_t *nfields,
		 struct dev_stack *warn);

/* The fsid of the btrfs mounted at mountpoint as a UUID string (37 bytes
 * with the NUL).  0, or -errno. */
int fsgeom_btrfs_uuid(const char *mountpoint, char *buf, size_t len);

#endif
