// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device stack from sysfs: partitions to their disk, loop devices to
 * their backing file (and what that file lives on), md and dm to their
 * slaves, btrfs to its member devices; and each disk's queue and transport.
 */
#include "fsops/stack.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fsops/stack_kinds.h"
#include "fsops/sysroot.h"

#define STACK_MAX_DEPTH 16

static int walk_dir(struct dev_stack *s, const char *real, int parent,
		    int depth);

/*
 * Walk what every link in dir (sysfs "slaves", btrfs "devices") points to,
 * at depth + 1 under dev.  The number of links resolved, or -1 with errno
 * set when dir cannot be listed.
 */
static int walk_links(struct dev_stack *s, const char *dir, int dev,
		      int depth)
{
	struct dirent **names;
	int n, i, count = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *link, *target;

		if (names[i]->d_name[0] == '.') {
			free(names[i]);
			continue;
		}
		link = xasprintf("%s/%s", dir, names[i]->d_name);
		target = realpath(link, NULL);
		if (target) {
			walk_dir(s, target, dev, depth + 1);
			count++;
		} else {
			stack_warn(s, "cannot resolve '%s': %s", link,
				   strerror(errno));
		}
		free(target);
		free(link);
		free(names[i]);
	}
	free(names);
	return count;
}

/* Walk every entry of real/slaves under dev. */
static void walk_slaves(struct dev_stack *s, const char *real, int dev,
			int depth)
{
	char *sdir = xasprintf("%s/slaves", real);

	walk_links(s, sdir, dev, depth);
	free(sdir);
}
/* The device real is, added under parent with its kind's own fields
 * (a partition's disk walked under it); its index. */
static int add_kind(struct dev_stack *s, const char *real, const char *name,
		    int parent, int depth)
{
	char *v;
	int dev;

	if (stack_exists(real, "partition")) {
		char *disk = xstrdup(real);

		dev = stack_add(s, "partition", name, parent);
		stack_copy(s, dev, real, "partition", "number", 1);
		v = stack_attr(real, "start");
		if (v) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%llu",
				 strtoull(v, NULL, 10) * 512ULL);
			stack_set(s, dev, "start", buf, 1);
			free(v);
		}
		*strrchr(disk, '/') = '\0';
		walk_dir(s, disk, dev, depth + 1);
		free(disk);
	} else if (stack_exists(real, "md")) {
		dev = stack_add(s, "md", name, parent);
		stack_walk_md(s, real, dev);
	} else if (stack_exists(real, "dm")) {
		dev = stack_add(s, "dm", name, parent);
		stack_walk_dm(s, real, dev);
	} else if (stack_exists(real, "loop") || !strncmp(name, "loop", 4)) {
		dev = stack_add(s, "loop", name, parent);
	} else if (!strncmp(name, "nbd", 3) || !strncmp(name, "rbd", 3)) {
		dev = stack_add(s, "network", name, parent);
	} else {
		dev = stack_add(s, "disk", name, parent);
	}
	return dev;
}

/* A "disk" with slaves but no md/dm directory is another stacking
 * driver ("virtual"); a real disk gets its identity and queue. */
static void disk_fields(struct dev_stack *s, int dev, const char *real)
{
	char *sdir = xasprintf("%s/slaves", real);
	DIR *d = opendir(sdir);
	struct dirent *e;
	int has = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			has = 1;
	if (d)
		closedir(d);
	free(sdir);
	if (has) {
		free(s->devs[dev].kind);
		s->devs[dev].kind = xstrdup("virtual");
	} else {
		stack_disk_fields(s, dev, real);
	}
}

/* A loop device's queue and backing file, and the walk on to the device
 * that file lives on. */
static void loop_fields(struct dev_stack *s, int dev, const char *real,
			int depth)
{
	char *qdir = xasprintf("%s/queue", real);
	dev_t fs_dev;
	int file;

	stack_copy(s, dev, qdir, "logical_block_size", NULL, 1);
	free(qdir);
	file = stack_loop_fields(s, real, dev, &fs_dev);
	if (file >= 0 && depth + 1 < STACK_MAX_DEPTH)
		stack_walk_devnum(s, major(fs_dev), minor(fs_dev), file);
}

/* Walk the block device whose sysfs directory is real. */
static int walk_dir(struct dev_stack *s, const char *real, int parent,
		    int depth)
{
	const char *name = strrchr(real, '/');
	int dev;

	name = name ? name + 1 : real;
	if (depth >= STACK_MAX_DEPTH) {
		stack_warn(s, "device stack deeper than %d at '%s'",
			   STACK_MAX_DEPTH, name);
		return -ELOOP;
	}
	dev = add_kind(s, real, name, parent, depth);
	stack_copy(s, dev, real, "dev", NULL, 0);
	stack_set_size(s, dev, real);
	if (!strcmp(s->devs[dev].kind, "disk"))
		disk_fields(s, dev, real);
	if (!strcmp(s->devs[dev].kind, "md")) {
		char *qdir = xasprintf("%s/queue", real);

		stack_copy(s, dev, qdir, "optimal_io_size", NULL, 1);
		free(qdir);
	}
	if (!strcmp(s->devs[dev].kind, "loop"))
		loop_fields(s, dev, real, depth);
	walk_slaves(s, real, dev, depth);
	return dev;
}

/* Walk the sysfs device a link resolves to; -ENOENT when it does not. */
static int walk_link(struct dev_stack *s, char *link, int parent)
{
	char *real = realpath(link, NULL);
	int ret;

	free(link);
	if (!real)
		return -ENOENT;
	ret = walk_dir(s, real, parent, 0);
	free(real);
	return ret;
}

int stack_walk_devnum(struct dev_stack *s, unsigned maj, unsigned min,
		      int parent)
{
	return walk_link(s, xasprintf("%s/dev/block/%u:%u", sysfs_root(), maj,
				      min), parent);
}

int stack_walk_name(struct dev_stack *s, const char *name, int parent)
{
	int ret = walk_link(s, xasprintf("%s/class/block/%s", sysfs_root(),
					 name), parent);

	if (ret == -ENOENT)
		ret = walk_link(s, xasprintf("%s/block/%s", sysfs_root(),
					     name), parent);
	return ret;
}

char *stack_btrfs_profile(const char *uuid, const char *type)
{
	char *dir = xasprintf("%s/fs/btrfs/%s/allocation/%s", sysfs_root(),
			      uuid, type);
	struct dirent **names;
	char *out = NULL;
	int n, i;

	n = scandir(dir, &names, NULL, alphasort);
	free(dir);
	if (n < 0)
		return NULL;
	for (i = 0; i < n; i++) {
		const char *p = names[i]->d_name;

		/* profile directories are the only lower-case ones with
		 * a total_bytes file; the rest are attributes */
		if (strcmp(p, "single") && strcmp(p, "dup") &&
		    strncmp(p, "raid", 4)) {
			free(names[i]);
			continue;
		}
		if (out) {
			char *j = xasprintf("%s,%s", out, p);

			free(out);
			out = j;
		} else {
			out = xstrdup(p);
		}
		free(names[i]);
	}
	free(names);
	return out;
}

int stack_walk_btrfs(struct dev_stack *s, const char *uuid, int parent)
{
	char *fsdir = xasprintf("%s/fs/btrfs/%s", sysfs_root(), uuid);
	char *ddir = xasprintf("%s/devices", fsdir);
	static const char *const types[] = { "data", "metadata", "system" };
	char key[32];
	size_t t;
	int dev, count;

	if (access(fsdir, F_OK)) {
		free(fsdir);
		free(ddir);
		return -ENOENT;
	}
	dev = stack_add(s, "btrfs", uuid, parent);
	stack_copy(s, dev, fsdir, "label", NULL, 0);
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		char *p = stack_btrfs_profile(uuid, types[t]);

		snprintf(key, sizeof(key), "%s_profile", types[t]);
		stack_set(s, dev, key, p, 0);
		free(p);
	}
	count = walk_links(s, ddir, dev, 0);
	if (count < 0) {
		stack_warn(s, "cannot list btrfs devices in '%s': %s", ddir,
			   strerror(errno));
	} else {
		snprintf(key, sizeof(key), "%d", count);
		stack_set(s, dev, "num_devices", key, 1);
	}
	free(ddir);
	free(fsdir);
	return dev;
}
