// SPDX-License-Identifier: GPL-2.0-only
/* Names made and removed relative to a directory descriptor (atdir.h). */
#include "fsops/atdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Tries before EEXIST is given up on, as glibc's __gen_tempname. */
#define ATDIR_TRIES 238328

int atdir_open(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Replace the trailing XXXXXX of name with random letters and digits. */
static int fill_random(char *name)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t len = strlen(name), i;
	unsigned char r[6];

	if (len < 6 || strcmp(name + len - 6, "XXXXXX"))
		return -EINVAL;
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -EAGAIN;
	for (i = 0; i < 6; i++)
		name[len - 6 + i] = set[r[i] % (sizeof(set) - 1)];
	return 0;
}

int atdir_mkdtemp(int dirfd, char *name)
{
	size_t len = strlen(name);
	unsigned long i;
	int rc;

	for (i = 0; i < ATDIR_TRIES; i++) {
		rc = fill_random(name);
		if (rc)
			return rc;
		if (!mkdirat(dirfd, name, 0700))
			return 0;
		if (errno != EEXIST)
			break;
	}
	rc = errno;
	memcpy(name + len - 6, "XXXXXX", 6);
	return -rc;
}

static void left_add(struct atdir_left *left, const char *name, int err)
{
	if (err == ENOENT)
		return;
	if (!left->n++) {
		snprintf(left->first, sizeof(left->first), "%s", name);
		left->err = err;
	}
}

/* Empty the directory open on fd (closed here), depth first. */
static void empty_dir(int fd, struct atdir_left *left, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		left_add(left, ".", errno);
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		int sub;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (!unlinkat(dirfd(d), n, 0))
			continue;
		if (errno != EISDIR && errno != EPERM) {
			left_add(left, n, errno);
			continue;
		}
		/* a directory (EISDIR on Linux, EPERM by POSIX) */
		sub = depth < 64 ? openat(dirfd(d), n, O_RDONLY | O_DIRECTORY |
					  O_NOFOLLOW | O_CLOEXEC) : -1;
		if (sub >= 0)
			empty_dir(sub, left, depth + 1);
		if (unlinkat(dirfd(d), n, AT_REMOVEDIR))
			left_add(left, n, errno);
	}
	closedir(d);
}

int atdir_remove_tree(int dirfd, const char *name, struct atdir_left *left)
{
	int fd, err;

	memset(left, 0, sizeof(*left));
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		empty_dir(fd, left, 0);
	if (err == ENOTDIR || err == ELOOP) {
		/* not a directory (any more): clyde's name, removed */
		if (unlinkat(dirfd, name, 0))
			left_add(left, name, errno);
	} else if (unlinkat(dirfd, name, AT_REMOVEDIR)) {
		left_add(left, name, errno);
	}
	return left->n ? -1 : 0;
}
