/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_STACK_H
#define CLYDE_STACK_H

/*
 * The device stack under a filesystem, read from sysfs (sysroot.h: the root
 * is CLYDE_SYSFS, so tests walk fake trees).  A stack is a tree kept as a
 * flat list in depth-first order: each device names the index of the device
 * it lies under (its holder), -1 for the top.  A device's fields are what
 * sysfs says; what sysfs does not say is absent, never guessed.
 *
 * kinds: "disk", "partition", "loop", "file" (a loop's backing file),
 * "md", "dm" (field "dm_kind": lvm, crypt, multipath or other), "btrfs"
 * (a multi-device filesystem: profiles and its member devices), "virtual"
 * (another stacking driver with slaves, e.g. bcache).
 *
 * Disks carry: vendor, model, size, rotational, scheduler,
 * logical_block_size, physical_block_size, nr_requests, read_ahead_kb,
 * max_sectors_kb, write_cache, transport (nvme, sata, sas, fc, scsi,
 * virtio, usb, mmc, virtual) and for fc the fc_host's port_name, speed and
 * port_state.  md carries level, chunk_size (bytes), raid_disks, layout,
 * stripe_cache_size; loop carries backing_file, dio, offset, sizelimit.
 */

#include "fsops/stack_dev.h"

/*
 * Walk the block device MAJ:MIN (<sysfs>/dev/block/MAJ:MIN) and everything
 * under it, appending to s under parent (-1: top).  Returns the index of the
 * new device, or -ENOENT when sysfs has no such block device (anonymous
 * devices of tmpfs, overlay, btrfs), with nothing added.
 */
int stack_walk_devnum(struct dev_stack *s, unsigned maj, unsigned min,
		      int parent);

/* The same from a name in <sysfs>/class/block/ ("sda", "dm-0"). */
int stack_walk_name(struct dev_stack *s, const char *name, int parent);

/*
 * A btrfs filesystem from <sysfs>/fs/btrfs/UUID: a "btrfs" device with its
 * data, metadata and system profiles, and each member device walked under
 * it.  Returns its index or -ENOENT.
 */
int stack_walk_btrfs(struct dev_stack *s, const char *uuid, int parent);

/*
 * The profiles of btrfs UUID: "raid1", or "raid1,single" when chunks of
 * both exist; type is "data", "metadata" or "system".  NULL when unknown.
 */
char *stack_btrfs_profile(const char *uuid, const char *type);

#endif
