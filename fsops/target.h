/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TARGET_H
#define CLYDE_TARGET_H

/*
 * What a path lives on: its mount (libmount) and filesystem usage (statvfs),
 * and the host the run is on.  Unknown strings stay NULL, never guessed.
 * The device stack down to the disks is a later addition here.
 */

#include <stddef.h>
#include <stdint.h>

struct fs_target {
	char *mountpoint;
	char *fstype;
	char *source;
	char *vfs_options;
	char *fs_options;
	uint64_t block_size;	/* f_bsize */
	uint64_t total_bytes;	/* f_blocks * f_frsize */
	uint64_t avail_bytes;	/* f_bavail * f_frsize */
	int readonly;		/* ST_RDONLY */
};

/* Fill t for path.  0, or -errno with a message in err. */
int fs_target_detect(const char *path, struct fs_target *t, char *err,
		     size_t errlen);
void fs_target_release(struct fs_target *t);

struct host_info {
	char *hostname;
	char *kernel;		/* uname release */
	char *cpu_model;	/* /proc/cpuinfo "model name", NULL if absent */
	long cores;		/* online CPUs */
	uint64_t ram;		/* total physical memory, bytes */
};

void host_detect(struct host_info *h);
void host_release(struct host_info *h);

#endif
