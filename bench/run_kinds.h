/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_RUN_KINDS_H
#define CLYDE_RUN_KINDS_H

/*
 * clyde run with several -d runs them in step and sums their work into
 * one figure per test.  Directories on storage of different kinds (tmpfs
 * beside xfs on a loop device, ext4 beside xfs, a loop's file on tmpfs
 * beside one on a disk, SATA beside FC disks, rotational beside not) make
 * that figure a mix of unlike targets: it is warned of, not refused.
 */

#include <stddef.h>

#include "fsops/target.h"

/*
 * The warning for the n directories dirs[i] on targets[i], or NULL when
 * they are of one kind (same filesystem type on the same kind of device,
 * the same below a loop, disks of the same transport and rotational; the
 * device names may differ).  "-d: the directories are on different kinds
 * of storage: /a tmpfs, /b xfs on loop0: the combined figures mix them".
 * The caller frees it.
 */
char *run_mixed_kinds(const char *const *dirs,
		      const struct fs_target *const *targets, size_t n);

#endif
