/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_RUNDIR_H
#define CLYDE_RUNDIR_H

/*
 * clyde's own directories in a -d (clyde.*, clyde-matrix.*,
 * clyde-zones.*): made and removed through a descriptor of the -d opened
 * once (a symlink swapped meanwhile does not move them), each with a
 * marker file naming the process that made it (pid, host, boot, start,
 * command), so that what a killed run left is found again: a later run
 * warns of it, `clyde clean` removes it.
 */

#include <stddef.h>
#include <sys/types.h>

/* The marker's name inside each directory clyde makes. */
#define RUNDIR_MARKER ".clyde-owner"

/* One directory clyde made. */
struct rundir {
	int parentfd;	/* the -d (O_PATH), -1: none */
	int fd;		/* the directory itself, O_RDONLY */
	char *name;	/* its name in the -d */
	char *path;	/* -d/name, for messages */
};

/*
 * Open the -d dir once (O_PATH, following a symlink now) and hold it for
 * the process: the command's pre-checks (rundir_held_path) and every later
 * rundir_make and rundir_scan of the same dir go through that descriptor,
 * so that a symlink swapped meanwhile cannot split them between two
 * directories.  The descriptor (the process's own: never close it), or
 * -errno.
 */
int rundir_hold(const char *dir);

/*
 * A path naming the directory dir's held descriptor opened,
 * "/proc/self/fd/N" in buf, for what takes a path only (statvfs,
 * mkostemp); dir itself when it is not held or there is no procfs.
 */
const char *rundir_held_path(const char *dir, char *buf, size_t len);

/* What command line the markers name (clyde.c calls it first). */
void rundir_set_command(int argc, char **argv);

/*
 * Make prefix.XXXXXX in the directory parent, with its marker, and open
 * it.  0, or -1 with a message in err and nothing left.
 */
int rundir_make(struct rundir *rd, const char *parent, const char *prefix,
		char *err, size_t errlen);

/* Close rd and remove its directory with all in it, through the -d's
 * descriptor; what cannot be removed is said on stderr.  rd may be
 * zeroed or already removed. */
void rundir_remove(struct rundir *rd);

/* What a marker says. */
struct rundir_owner {
	pid_t pid;
	char host[256];
	char start[64];		/* ISO 8601 UTC */
	char kind[16];		/* run, matrix, zones */
	int here;		/* made on this host */
	int dead;		/* here, and the process is gone */
};

/*
 * Call fn for each directory in dir made by clyde (its marker readable),
 * with dir's descriptor, the entry's name and the marker's word.  0, or
 * -errno when dir cannot be read.  fn returning nonzero stops the scan.
 */
int rundir_scan(const char *dir,
		int (*fn)(int dirfd, const char *name,
			  const struct rundir_owner *o, void *arg),
		void *arg);

/* One warning line on stderr for each directory in dir left by a clyde
 * that no longer runs, naming it and `clyde clean`. */
void rundir_warn_leftovers(const char *dir);

#endif
