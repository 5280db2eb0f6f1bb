/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ZONES_TARGET_H
#define CLYDE_ZONES_TARGET_H

/*
 * The target of `clyde zones` (internal to bench/zones*.c): found,
 * opened and checked before anything is created or measured (a block
 * device exclusively, read-only unless --write; an existing file; or a
 * new file that clyde creates, and removes in zones_target_release), its
 * environment detected, its page cache residency measured.  The checks
 * return EXIT_USAGE after printing their one-line message.
 */

#include <stddef.h>
#include <stdint.h>

#include "bench/rundir.h"
#include "bench/zones/zones_options.h"
#include "fsops/file.h"
#include "fsops/target.h"

/* What is swept. */
struct ztarget {
	int device;		/* a block device, else a regular file */
	char *path;		/* the device or file */
	int fd;
	int created;		/* clyde made the file: removed at the end */
	int parentfd;		/* the directory holding it, -1: none */
	char *name;		/* its name there: made and removed by it */
	struct rundir *own;	/* -d a directory: clyde's, holding it */
	uint64_t size;		/* bytes swept */
	struct dio_align align;
	const char *backing;	/* a loop's backing file (borrowed), or NULL */
	uint64_t backing_off;	/* the loop's offset into it */
	size_t holes;		/* zones of read sweeps over holes */
};

/* Unlink the file clyde created, if any (the second-signal handler). */
void zones_unlink_created(void);

/* Find and open the target.  0 or EXIT_USAGE (a created file stays for
 * zones_target_release to remove). */
int zones_open_target(const struct zones_config *cfg, struct ztarget *t);
/* Close it and remove the file clyde created. */
void zones_target_release(struct ztarget *t);

/* The alignment, the size swept, the zone.  0 or EXIT_USAGE. */
int zones_check_geometry(struct zones_config *cfg, struct ztarget *t,
			 uint64_t *zone);

/*
 * The file swept by a path that names its open descriptor
 * ("/proc/self/fd/N" in buf), so that a symlink swapped meanwhile sends
 * nothing elsewhere; t->path without procfs; a device's loop backing
 * file (or NULL).
 */
const char *zones_file_path(const struct ztarget *t, char *buf, size_t len);

/* The target's environment: the filesystem of a file, the device stack
 * of a device (whose loop's backing file t->backing then names). */
void zones_detect(const struct ztarget *t, struct fs_target *fst);

/*
 * The page-cache share of the file, or of the loop's backing file (the
 * whole of it); <0: not known.  With share, also each zone's share of
 * the bytes swept (zone bytes each, from the loop's offset in its
 * backing file), n zones, from the same one mincore pass over them;
 * -1 where not known.
 */
double zones_residency(const struct ztarget *t, uint64_t zone,
		       double *share, size_t n);

#endif
