/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_INFO_H
#define CLYDE_INFO_H

/*
 * `clyde info PATH...`: what clyde detects about each target (mount,
 * filesystem geometry, device stack, host), as text or, with --json, as one
 * record per line (the record of a run, without results).
 * `clyde info --probe IMAGE...`: what libblkid finds on an image or device.
 * Exit status: 0, 1 when a path or image could not be examined, 2 usage.
 */
int cmd_info(int argc, char **argv);

struct record;
struct host_info;
struct fs_target;

/*
 * Copy the detected structure (host virtualization, filesystem geometry,
 * inode counts, device stack, and detection warnings) from host and target
 * into rec.  record_fill_env() calls it for every command's record.
 */
void info_fill_record(struct record *rec, const struct host_info *host,
		      const struct fs_target *target);

#endif
