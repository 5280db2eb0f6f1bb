/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ATDIR_H
#define CLYDE_ATDIR_H

/*
 * Making and removing names relative to a directory descriptor, so that
 * what a command made in its -d is removed from that very directory even
 * when the path (a symlink, a renamed parent) names another one by then.
 * Functions return 0 (or a descriptor) or a negative errno; none prints.
 */

/* Open path as a directory to make things in: O_PATH, following a
 * symlink once, now.  The descriptor or -errno. */
int atdir_open(const char *path);

/*
 * mkdtemp(3) in directory dirfd: name ends in "XXXXXX", replaced with the
 * random characters of the directory made (mode 0700).  0 or -errno.
 */
int atdir_mkdtemp(int dirfd, char *name);

/* What atdir_remove_tree could not remove: how many entries, and the
 * first one's name (in the tree) and errno. */
struct atdir_left {
	unsigned long n;
	char first[256];
	int err;
};

/*
 * Remove the directory name in dirfd and everything in it, never
 * following a symlink.  0 (ENOENT included), or -1 with left filled.
 */
int atdir_remove_tree(int dirfd, const char *name, struct atdir_left *left);

#endif
