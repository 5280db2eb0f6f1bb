// SPDX-License-Identifier: GPL-2.0-only
/*
 * The target of `clyde zones`: finding, opening, checking and releasing
 * it (see zones_target.h).  Code moved from bench/zones.c.
 */
#include "zones_target.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmdutil.h"
#include "../fsops/blockdev.h"
#include "../fsops/cache.h"
#include "../lib/xalloc.h"

/* The file clyde created, for the second-signal handler to unlink. */
static char created_path[PATH_MAX];

void zones_unlink_created(void)
{
	if (created_path[0])
		unlink(created_path);
}

/* Read-only and exclusive: a mounted or claimed device is refused. */
static int open_device_read(struct ztarget *t)
{
	int rc;

	t->fd = open(t->path, O_RDONLY | O_EXCL | O_DIRECT | O_CLOEXEC);
	if (t->fd < 0)
		return cmd_usage_error("-d: cannot open '%s' exclusively: %s%s",
				       t->path, strerror(errno),
				       errno == EBUSY ? " (mounted or in use)"
				       : "");
	if (ioctl(t->fd, BLKGETSIZE64, &t->size)) {
		rc = errno;
		return cmd_usage_error("-d: cannot get the size of '%s': %s",
				       t->path, strerror(rc));
	}
	return 0;
}

/* A new file at t->path (or in directory dir): created, O_DIRECT. */
static int create_file(const struct zones_config *cfg, struct ztarget *t,
		       const char *dir)
{
	struct statvfs vfs;
	int rc;

	if (!cfg->size)
		return cmd_usage_error("-d: '%s' %s; give --size to create %s",
				       cfg->target, t->path ? "does not exist"
				       : "is a directory", t->path ? "it" :
				       "a file in it");
	if (cfg->size < cfg->bs)
		return cmd_usage_error("--size: %" PRIu64 " bytes is less than "
				       "one I/O of --bs %" PRIu64, cfg->size,
				       cfg->bs);
	if (statvfs(dir, &vfs))
		return cmd_usage_error("-d: '%s': %s", dir, strerror(errno));
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < cfg->size)
		return cmd_usage_error("--size: %" PRIu64 " bytes, but '%s' has "
				       "only %" PRIu64 " free", cfg->size, dir,
				       (uint64_t)vfs.f_bavail * vfs.f_frsize);
	if (t->path) {
		t->fd = open(t->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			     0600);
	} else {
		t->path = xasprintf("%s/clyde-zones.XXXXXX", dir);
		t->fd = mkostemp(t->path, O_CLOEXEC);
	}
	if (t->fd < 0)
		return cmd_usage_error("-d: cannot create '%s': %s", t->path,
				       strerror(errno));
	t->created = 1;
	if (strlen(t->path) < sizeof(created_path))
		strcpy(created_path, t->path);
	if (fcntl(t->fd, F_SETFL, O_DIRECT)) {
		rc = errno;
		return cmd_usage_error("-d: '%s' cannot do direct I/O: %s",
				       dir, strerror(rc));
	}
	t->size = cfg->size;
	return 0;
}

/* Find and open the target.  0 or EXIT_USAGE (a created file stays for
 * zones_target_release to remove). */
int zones_open_target(const struct zones_config *cfg, struct ztarget *t)
{
	char err[256];
	struct stat st;
	char *slash, *dir;
	int rc;

	t->fd = -1;
	if (stat(cfg->target, &st)) {
		if (errno != ENOENT)
			return cmd_usage_error("-d: '%s': %s", cfg->target,
					       strerror(errno));
		t->path = xstrdup(cfg->target);
		slash = strrchr(t->path, '/');
		dir = slash ? xasprintf("%.*s", (int)(slash - t->path + 1),
					t->path) : xstrdup(".");
		rc = create_file(cfg, t, dir);
		free(dir);
		return rc;
	}
	if (S_ISDIR(st.st_mode))
		return create_file(cfg, t, cfg->target);
	t->path = xstrdup(cfg->target);
	if (S_ISBLK(st.st_mode)) {
		t->device = 1;
		if (!cfg->write)
			rc = open_device_read(t);
		else if ((rc = blockdev_open(t->path, O_DIRECT | O_CLOEXEC,
					     cfg->force, &t->fd, &t->size, err,
					     sizeof(err))))
			rc = cmd_usage_error("-d: %s", err);
		if (rc)
			return rc;
	} else if (S_ISREG(st.st_mode)) {
		if (cfg->write && !cfg->force)
			return cmd_usage_error("-d: '%s' is an existing file; "
					       "--write destroys its data: add "
					       "--force", t->path);
		t->fd = open(t->path, (cfg->write ? O_RDWR : O_RDONLY) |
			     O_DIRECT | O_CLOEXEC);
		if (t->fd < 0)
			return cmd_usage_error("-d: cannot open '%s' for direct "
					       "I/O: %s", t->path,
					       strerror(errno));
		t->size = (uint64_t)st.st_size;
	} else {
		return cmd_usage_error("-d: '%s' is not a block device, a file "
				       "or a directory", cfg->target);
	}
	if (cfg->size > t->size)
		return cmd_usage_error("--size: %" PRIu64 " bytes, but '%s' has "
				       "only %" PRIu64 " (on an existing file or "
				       "device --size sweeps its first SIZE "
				       "bytes)", cfg->size, t->path, t->size);
	if (cfg->size)
		t->size = cfg->size;
	return 0;
}

void zones_target_release(struct ztarget *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->created) {
		unlink(t->path);
		created_path[0] = '\0';
	}
	t->created = 0;
	free(t->path);
	t->path = NULL;
}

/* The alignment, the size swept, the zone.  0 or EXIT_USAGE. */
int zones_check_geometry(struct zones_config *cfg, struct ztarget *t,
			  uint64_t *zone)
{
	int rc = dio_alignment(t->fd, &t->align);
	uint64_t per;

	if (rc == -EINVAL)
		return cmd_usage_error("-d: '%s' cannot do direct I/O",
				       t->path);
	if (rc)
		return cmd_usage_error("-d: cannot find the direct I/O "
				       "alignment of '%s': %s", t->path,
				       strerror(-rc));
	if (cfg->bs % t->align.offset)
		return cmd_usage_error("--bs: %" PRIu64 " is not a multiple of "
				       "the direct I/O alignment %zu of '%s'",
				       cfg->bs, t->align.offset, t->path);
	t->size -= t->size % t->align.offset;
	if (t->size < cfg->bs)
		return cmd_usage_error("%s: '%s' has %" PRIu64 " bytes, less "
				       "than one I/O of %" PRIu64,
				       t->created || cfg->size ? "--size" : "-d",
				       t->path, t->size, cfg->bs);
	per = (t->size + ZONES_DEFAULT_COUNT - 1) / ZONES_DEFAULT_COUNT;
	*zone = (per + cfg->bs - 1) / cfg->bs * cfg->bs;
	/* a zone holds at least ZONES_MIN_QUEUES queues, or its time is
	 * not much longer than its I/Os' latency (the queue runs across
	 * zone boundaries); a small target then has fewer zones */
	if (*zone < ZONES_MIN_QUEUES * cfg->qd * cfg->bs)
		*zone = ZONES_MIN_QUEUES * cfg->qd * cfg->bs;
	if (*zone > t->size)
		*zone = (t->size + cfg->bs - 1) / cfg->bs * cfg->bs;
	if (cfg->zone > t->size)
		return cmd_usage_error("--zone: %" PRIu64 " bytes is more than "
				       "the %" PRIu64 " bytes swept of '%s'",
				       cfg->zone, t->size, t->path);
	if (cfg->zone && cfg->zone < (uint64_t)cfg->qd * cfg->bs)
		return cmd_usage_error("--zone: %" PRIu64 " bytes is less than "
				       "--qd x --bs = %" PRIu64 " (zones would "
				       "share the queue's time): a larger "
				       "--zone or a smaller --qd", cfg->zone,
				       (uint64_t)cfg->qd * cfg->bs);
	if (cfg->zone)
		*zone = cfg->zone;
	return 0;
}

/* The target's environment: the filesystem of a file, the device stack
 * of a device (whose loop's backing file t->backing then names). */
void zones_detect(const struct ztarget *t, struct fs_target *fst)
{
	char err[256];
	struct stat st;

	memset(fst, 0, sizeof(*fst));
	if (!t->device) {
		if (fs_target_detect(t->path, fst, err, sizeof(err)))
			memset(fst, 0, sizeof(*fst));
		return;
	}
	stack_init(&fst->stack);
	if (!fstat(t->fd, &st))
		stack_walk_devnum(&fst->stack, major(st.st_rdev),
				  minor(st.st_rdev), -1);
	fst->total_bytes = t->size;
}

/* The page-cache share of the file, or of the loop's backing file. */
double zones_residency(const struct ztarget *t)
{
	const char *path = t->device ? t->backing : t->path;
	struct stat st;
	double r = -1;
	int fd;

	if (!path || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!fstat(fd, &st) && st.st_size > 0)
		r = cache_residency(fd, st.st_size);
	close(fd);
	return r < 0 ? -1 : r;
}

