// SPDX-License-Identifier: GPL-2.0-only
/*
 * The target of `clyde zones`: finding, opening, checking and releasing
 * it (see zones_target.h).  Code moved from bench/zones/zones.c.
 */
#include "bench/zones/zones_target.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench/cmdutil.h"
#include "fsops/atdir.h"
#include "fsops/blockdev.h"
#include "fsops/cache.h"
#include "lib/xalloc.h"

/* The file clyde created, for the second-signal handler to unlink: by
 * name in its directory's descriptor, never by path. */
static char created_name[NAME_MAX + 1];
static volatile int created_dirfd = -1;

void zones_unlink_created(void)
{
	if (created_name[0] && created_dirfd >= 0)
		unlinkat(created_dirfd, created_name, 0);
}

/*
 * Create the file: t->path named by the user, in its directory dir, or
 * "zones" in a new marked directory of clyde's own under dir.  Made
 * through the directory's descriptor, as it is removed.  0 or EXIT_USAGE.
 */
static int make_file(struct ztarget *t, const char *dir)
{
	char err[512];

	if (t->path) {
		const char *slash = strrchr(t->path, '/');

		/* the descriptor create_file held: a copy of our own */
		int fd = rundir_hold(dir);

		t->parentfd = fd < 0 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (fd >= 0 && t->parentfd < 0)
			fd = -errno;
		if (t->parentfd < 0)
			return cmd_usage_error("-d: cannot open '%s': %s", dir,
					       strerror(-fd));
		t->name = xstrdup(slash ? slash + 1 : t->path);
	} else {
		t->own = xmalloc(sizeof(*t->own));
		if (rundir_make(t->own, dir, "clyde-zones", err, sizeof(err))) {
			free(t->own);
			t->own = NULL;
			return cmd_usage_error("-d: %s", err);
		}
		t->parentfd = fcntl(t->own->fd, F_DUPFD_CLOEXEC, 0);
		t->name = xstrdup("zones");
		t->path = xasprintf("%s/%s", t->own->path, t->name);
	}
	t->fd = openat(t->parentfd, t->name, O_RDWR | O_CREAT | O_EXCL |
		       O_CLOEXEC, 0600);
	if (t->fd < 0)
		return cmd_usage_error("-d: cannot create '%s': %s", t->path,
				       strerror(errno));
	return 0;
}

/* A new file at t->path (or in directory dir): created, O_DIRECT. */
static int create_file(const struct zones_config *cfg, struct ztarget *t,
		       const char *dir)
{
	struct statvfs vfs;
	char at[64];
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
	/* opened once: the space check, clyde's directory and the
	 * leftover scan go through that descriptor (rundir.h) */
	rc = rundir_hold(dir);
	if (rc < 0)
		return cmd_usage_error("-d: '%s': %s", dir, strerror(-rc));
	if (statvfs(rundir_held_path(dir, at, sizeof(at)), &vfs))
		return cmd_usage_error("-d: '%s': %s", dir, strerror(errno));
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < cfg->size)
		return cmd_usage_error("--size: %" PRIu64 " bytes, but '%s' has "
				       "only %" PRIu64 " free", cfg->size, dir,
				       (uint64_t)vfs.f_bavail * vfs.f_frsize);
	rc = make_file(t, dir);
	if (rc)
		return rc;
	t->created = 1;
	if (strlen(t->name) < sizeof(created_name)) {
		strcpy(created_name, t->name);
		created_dirfd = t->parentfd;
	}
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

	t->fd = t->parentfd = -1;
	/* a directory is opened once, and checked by that (create_file) */
	rc = rundir_hold(cfg->target);
	if (rc >= 0 && fstat(rc, &st))
		return cmd_usage_error("-d: '%s': %s", cfg->target,
				       strerror(errno));
	if (rc < 0 && stat(cfg->target, &st)) {
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
		/* read-only, exclusive: a mounted or claimed device is
		 * refused; --write destroys only a free one */
		if (!cfg->write)
			rc = blockdev_open_excl(t->path, O_RDONLY | O_DIRECT |
						O_CLOEXEC, &t->fd, &t->size,
						err, sizeof(err));
		else
			rc = blockdev_open(t->path, O_DIRECT | O_CLOEXEC,
					   cfg->force, &t->fd, &t->size, err,
					   sizeof(err));
		if (rc)
			return cmd_usage_error("-d: %s", err);
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
	if (t->created && t->parentfd >= 0) {
		created_name[0] = '\0';
		unlinkat(t->parentfd, t->name, 0);
	}
	t->created = 0;
	if (t->parentfd >= 0)
		close(t->parentfd);
	t->parentfd = -1;
	if (t->own) {
		rundir_remove(t->own);
		free(t->own);
	}
	t->own = NULL;
	free(t->name);
	t->name = NULL;
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
	if (t->size - t->size % t->align.offset < cfg->bs)
		return cmd_usage_error("%s: '%s' has %" PRIu64 " bytes, less "
				       "than one I/O of %" PRIu64,
				       t->created || cfg->size ? "--size" : "-d",
				       t->path, t->size, cfg->bs);
	/* the size in whole direct I/O units, named above as it is */
	t->size -= t->size % t->align.offset;
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

const char *zones_file_path(const struct ztarget *t, char *buf, size_t len)
{
	struct stat st;

	if (t->device)
		return t->backing;
	if (t->fd < 0)
		return t->path;
	snprintf(buf, len, "/proc/self/fd/%d", t->fd);
	return stat(buf, &st) ? t->path : buf;	/* no procfs: the path */
}

/* The target's environment: the filesystem of a file, the device stack
 * of a device (whose loop's backing file t->backing then names). */
void zones_detect(const struct ztarget *t, struct fs_target *fst)
{
	char err[256], at[64];
	struct stat st;

	memset(fst, 0, sizeof(*fst));
	if (!t->device) {
		if (fs_target_detect(zones_file_path(t, at, sizeof(at)), fst,
				     err, sizeof(err)))
			memset(fst, 0, sizeof(*fst));
		return;
	}
	stack_init(&fst->stack);
	if (!fstat(t->fd, &st))
		stack_walk_devnum(&fst->stack, major(st.st_rdev),
				  minor(st.st_rdev), -1);
	fst->total_bytes = t->size;
}

double zones_residency(const struct ztarget *t, uint64_t zone,
		       double *share, size_t n)
{
	char at[64];
	const char *path = zones_file_path(t, at, sizeof(at));
	uint64_t off = t->device ? t->backing_off : 0, len;
	struct stat st;
	double r = -1;
	size_t i;
	int fd;

	for (i = 0; share && i < n; i++)
		share[i] = -1;
	if (!path || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -1;
	}
	r = cache_residency(fd, st.st_size);
	len = (uint64_t)st.st_size > off ? (uint64_t)st.st_size - off : 0;
	if (len > t->size)
		len = t->size;
	if (share && n && zone && len)
		(void)cache_residency_pieces(fd, (off_t)off, (off_t)len,
					     (off_t)zone, share, n);
	close(fd);
	return r < 0 ? -1 : r;
}
