/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_PROBE_H
#define CLYDE_PROBE_H

/*
 * What libblkid finds on a device or image file, without mounting it:
 * type ("xfs", "jfs", "ext4", "reiserfs", "btrfs"...), version, uuid,
 * label, block_size (and fs_size where this libblkid reports them).
 */

#include <stddef.h>

#include "fsops/stack.h"

/*
 * Probe path; fields appended with stack_fields_set().  0 (type found),
 * -ENODATA when nothing was recognised, -EIO when two signatures
 * conflict, or -errno (open) with a message in err.
 */
int probe_path(const char *path, struct stack_field **fields, size_t *n,
	       char *err, size_t errlen);

#endif
