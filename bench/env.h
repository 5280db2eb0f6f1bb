/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ENV_H
#define CLYDE_ENV_H

/*
 * The record's host and target from what fsops detected (bench/env.c):
 * every command's record is filled here, and nowhere else.
 */

struct record;
struct host_info;
struct fs_target;

/*
 * Fill what every command's record shares: tool, version, start time,
 * label (the host name when NULL), repetition, host and target (with
 * the detected virtualization, geometry and device stack).  Used by
 * `clyde run`, `clyde matrix` and `clyde info`.
 */
void record_fill_env(struct record *rec, const struct host_info *host,
		     const struct fs_target *target, const char *dir,
		     const char *label, unsigned repetition);

#endif
