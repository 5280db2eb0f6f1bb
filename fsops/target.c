// SPDX-License-Identifier: GPL-2.0-only
#include "fsops/target.h"

#include <errno.h>
#include <libmount.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fsops/fsgeom.h"
#include "fsops/sysroot.h"

__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The mount holding the canonical path real, from <procfs>/self/mountinfo. */
static int find_mount(const char *path, const char *real, struct fs_target *t,
		      char *err, size_t errlen)
{
	char *mountinfo = xasprintf("%s/self/mountinfo", procfs_root());
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs;
	int ret;

	if (!tb) {
		set_err(err, errlen, "cannot allocate a mount table");
		free(mountinfo);
		return -ENOMEM;
	}
	ret = mnt_table_parse_file(tb, mountinfo);
	if (ret) {
		ret = ret < 0 ? ret : -EINVAL;
		set_err(err, errlen, "cannot read mount table '%s': %s",
			mountinfo, strerror(-ret));
		goto out;
	}
	/* Walks up from real to "/"; backward finds the topmost of
	 * stacked mounts, the one that is visible. */
	fs = mnt_table_find_mountpoint(tb, real, MNT_ITER_BACKWARD);
	if (!fs) {
		ret = -ENODEV;
		set_err(err, errlen, "no mount in '%s' holds '%s'", mountinfo,
			path);
		goto out;
	}
	t->mountpoint = xstrdup_or_null(mnt_fs_get_target(fs));
	t->fstype = xstrdup_or_null(mnt_fs_get_fstype(fs));
	t->source = xstrdup_or_null(mnt_fs_get_source(fs));
	t->vfs_options = xstrdup_or_null(mnt_fs_get_vfs_options(fs));
	t->fs_options = xstrdup_or_null(mnt_fs_get_fs_options(fs));
	ret = 0;
out:
	mnt_unref_table(tb);
	free(mountinfo);
	return ret;
}

/* The value of key= in a comma-separated option list, or NULL. */
static char *option(const char *opts, const char *key)
{
	char *v = NULL;
	size_t len = 0;

	if (opts && !mnt_optstr_get_option(opts, key, &v, &len) && v)
		return xasprintf("%.*s", (int)len, v);
	return NULL;
}

/* overlay: its directories, and the device stack of the upper one. */
static void overlay_stack(struct fs_target *t)
{
	struct dev_stack *s = &t->stack;
	char *upper = option(t->fs_options, "upperdir");
	char *lower = option(t->fs_options, "lowerdir");
	struct stat st;
	int dev = stack_add(s, "overlay", t->source, -1);

	stack_set(s, dev, "upperdir", upper, 0);
	stack_set(s, dev, "lowerdir", lower, 0);
	if (upper && !stat(upper, &st))
		stack_walk_devnum(s, major(st.st_dev), minor(st.st_dev), dev);
	free(upper);
	free(lower);
}

/* The devices under the filesystem of real (st_dev of it). */
static void detect_stack(struct fs_target *t, const char *real)
{
	struct dev_stack *s = &t->stack;
	struct stat st;
	char uuid[40];
	int ret = -ENOENT;

	if (stat(real, &st)) {
		stack_warn(s, "cannot stat '%s': %s", real, strerror(errno));
		return;
	}
	if (t->fstype && !strcmp(t->fstype, "btrfs")) {
		/* st_dev of btrfs is anonymous: its devices are in sysfs */
		if (!t->mountpoint ||
		    fsgeom_btrfs_uuid(t->mountpoint, uuid, sizeof(uuid)))
			stack_warn(s, "btrfs uuid of '%s' unknown", real);
		else
			ret = stack_walk_btrfs(s, uuid, -1);
	} else if (t->fstype && !strcmp(t->fstype, "overlay")) {
		overlay_stack(t);
		return;
	} else {
		ret = stack_walk_devnum(s, major(st.st_dev), minor(st.st_dev),
					-1);
	}
	if (ret >= 0)
		return;
	/* no block device behind st_dev: the source may still name one */
	if (t->source && !strncmp(t->source, "/dev/", 5) &&
	    !stat(t->source, &st) && S_ISBLK(st.st_mode))
		ret = stack_walk_devnum(s, major(st.st_rdev),
					minor(st.st_rdev), -1);
	if (ret < 0 && t->source && t->source[0] == '/')
		stack_warn(s, "no device stack found for '%s' on '%s'",
			   t->mountpoint ? t->mountpoint : real, t->source);
}

/* statfs f_type of the filesystems a path may be on without a mount table
 * entry; ext2, ext3 and ext4 share one magic, so the name says all three. */
static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
	{ 0xef53, "ext2/ext3/ext4" },
	{ 0x58465342, "xfs" },
	{ 0x9123683e, "btrfs" },
	{ 0x3153464a, "jfs" },
	{ 0x52654973, "reiserfs" },
	{ 0xf2f52010, "f2fs" },
	{ 0x2fc12fc1, "zfs" },
	{ 0x01021994, "tmpfs" },
	{ 0x858458f6, "ramfs" },
	{ 0x794c7630, "overlay" },
	{ 0x73717368, "squashfs" },
	{ 0x6969, "nfs" },
	{ 0xff534d42, "cifs" },
	{ 0x65735546, "fuse" },
	{ 0x4d44, "vfat" },
	{ 0x5346544e, "ntfs" },
};

/*
 * No mount table entry holds real (a chroot whose root is not a mount
 * point, or no procfs): the mount point, source and options stay unknown,
 * the filesystem type is what statfs says, and the record says why.
 */
static void mount_unknown(const char *path, const char *real,
			  struct fs_target *t, const char *why)
{
	struct statfs sf;
	size_t i;

	if (statfs(real, &sf)) {
		stack_warn(&t->stack, "%s; statfs of '%s': %s", why, path,
			   strerror(errno));
		return;
	}
	for (i = 0; i < sizeof(fs_magics) / sizeof(fs_magics[0]); i++)
		if (fs_magics[i].magic == (unsigned long)sf.f_type)
			t->fstype = xstrdup(fs_magics[i].name);
	stack_warn(&t->stack, "%s: mount point, source and options unknown, "
		   "filesystem type %s%s (statfs magic 0x%lx)", why,
		   t->fstype ? "" : "unknown",
		   t->fstype ? t->fstype : "", (unsigned long)sf.f_type);
}

int fs_target_detect(const char *path, struct fs_target *t, char *err,
		     size_t errlen)
{
	char why[PATH_MAX + 128];
	struct statvfs sv;
	char *real;
	int ret;

	memset(t, 0, sizeof(*t));
	real = realpath(path, NULL);
	if (!real) {
		ret = -errno;
		set_err(err, errlen, "cannot resolve '%s': %s", path,
			strerror(errno));
		return ret;
	}
	if (statvfs(real, &sv)) {
		ret = -errno;
		set_err(err, errlen, "cannot statvfs '%s': %s", path,
			strerror(errno));
		free(real);
		return ret;
	}
	t->block_size = sv.f_bsize;
	t->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	t->avail_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	t->readonly = !!(sv.f_flag & ST_RDONLY);
	t->inodes = sv.f_files;
	t->inodes_free = sv.f_ffree;

	if (find_mount(path, real, t, why, sizeof(why)))
		mount_unknown(path, real, t, why);
	fsgeom_read(t->mountpoint, t->fstype, t->source, t->fs_options,
		    &t->geometry, &t->ngeometry, &t->stack);
	detect_stack(t, real);
	free(real);
	return 0;
}

void fs_target_release(struct fs_target *t)
{
	free(t->mountpoint);
	free(t->fstype);
	free(t->source);
	free(t->vfs_options);
	free(t->fs_options);
	stack_fields_free(t->geometry, t->ngeometry);
	stack_release(&t->stack);
	memset(t, 0, sizeof(*t));
}

void host_detect(struct host_info *h)
{
	char name[HOST_NAME_MAX + 1];
	struct utsname u;
	struct sysinfo si;
	long pages, psize;
	char *vendor;

	memset(h, 0, sizeof(*h));
	if (!gethostname(name, sizeof(name))) {
		name[sizeof(name) - 1] = '\0';
		h->hostname = xstrdup(name);
	}
	if (!uname(&u))
		h->kernel = xstrdup(u.release);
	h->cpu_model = procfs_cpuinfo("model name");
	h->cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (h->cores < 0)
		h->cores = 0;
	if (!sysinfo(&si))
		h->ram = (uint64_t)si.totalram * si.mem_unit;
	if (!h->ram) {
		pages = sysconf(_SC_PHYS_PAGES);
		psize = sysconf(_SC_PAGESIZE);
		if (pages > 0 && psize > 0)
			h->ram = (uint64_t)pages * (uint64_t)psize;
	}
	vendor = host_cpuid_vendor();
	host_virt_detect(h, vendor);
	free(vendor);
}

void host_release(struct host_info *h)
{
	free(h->hostname);
	free(h->kernel);
	free(h->cpu_model);
	free(h->hypervisor);
	free(h->emulation);
	free(h->dmi_vendor);
	free(h->dmi_product);
	free(h->virt_evidence);
	memset(h, 0, sizeof(*h));
}
