// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each kind of device in the stack says in sysfs (fsops/stack.c
 * walks the stack; nothing here walks): a whole disk's identity, queue and transport (with the
 * fc_host of a fibre-channel disk), a loop device's backing file and the
 * mount it lives on, md's and dm's own attributes.
 */
#include "fsops/stack_kinds.h"

#include <dirent.h>
#include <errno.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fsops/sysroot.h"

/* The first line of dir/name without trailing blanks; NULL if unreadable
 * or empty. */
char *stack_attr(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *v = sysfs_read_str(path);

	free(path);
	return v;
}

int stack_exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = access(path, F_OK) == 0;

	free(path);
	return ret;
}

/* Copy attribute name of dir into field key of dev. */
void stack_copy(struct dev_stack *s, int dev, const char *dir,
		const char *name, const char *key, int numeric)
{
	char *v = stack_attr(dir, name);

	stack_set(s, dev, key ? key : name, v, numeric);
	free(v);
}

/* Sysfs sizes are in 512-byte sectors. */
void stack_set_size(struct dev_stack *s, int dev, const char *dir)
{
	char *v = stack_attr(dir, "size"), *end, buf[32];
	unsigned long long sectors;

	if (!v)
		return;
	errno = 0;
	sectors = strtoull(v, &end, 10);
	if (!errno && !*end) {
		snprintf(buf, sizeof(buf), "%llu", sectors * 512ULL);
		stack_set(s, dev, "size", buf, 1);
	}
	free(v);
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; "none" -> "none". */
static void set_scheduler(struct dev_stack *s, int dev, const char *qdir)
{
	char *v = stack_attr(qdir, "scheduler"), *open, *close;

	if (!v)
		return;
	open = strchr(v, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		stack_set(s, dev, "scheduler", open + 1, 0);
	} else if (!strchr(v, ' ')) {
		stack_set(s, dev, "scheduler", v, 0);
	}
	free(v);
}

static const char *path_has(const char *path, const char *what)
{
	return strstr(path, what);
}

/* The "hostN" component of a SCSI device path, into buf. */
static int scsi_host(const char *path, char *buf, size_t len)
{
	const char *p = path;

	while ((p = strstr(p, "/host")) != NULL) {
		size_t n = strspn(p + 5, "0123456789");

		if (n && (p[5 + n] == '/' || !p[5 + n])) {
			snprintf(buf, len, "host%.*s", (int)n, p + 5);
			return 0;
		}
		p += 5;
	}
	return -1;
}

/* Transport of a disk from where its sysfs directory sits. */
static void set_transport(struct dev_stack *s, int dev, const char *real)
{
	const char *t = NULL;
	char host[32];

	if (path_has(real, "/devices/virtual/"))
		t = "virtual";
	else if (path_has(real, "/nvme"))
		t = "nvme";
	else if (path_has(real, "/usb"))
		t = "usb";
	else if (path_has(real, "/virtio"))
		t = path_has(real, "/target") ? "virtio-scsi" : "virtio";
	else if (path_has(real, "/mmc_host/"))
		t = "mmc";
	else if (path_has(real, "/rport-"))
		t = "fc";
	else if (path_has(real, "/end_device-") || path_has(real, "/sas_"))
		t = "sas";
	else if (path_has(real, "/ata"))
		t = "sata";
	else if (path_has(real, "/target"))
		t = "scsi";
	stack_set(s, dev, "transport", t, 0);
	if (t && !strcmp(t, "fc") && !scsi_host(real, host, sizeof(host))) {
		char *fc = xasprintf("%s/class/fc_host/%s", sysfs_root(),
				     host);

		stack_set(s, dev, "fc_host", host, 0);
		stack_copy(s, dev, fc, "port_name", "fc_port_name", 0);
		stack_copy(s, dev, fc, "speed", "fc_speed", 0);
		stack_copy(s, dev, fc, "port_state", "fc_port_state", 0);
		free(fc);
	}
}

/* What every whole disk reports: identity, queue, transport. */
void stack_disk_fields(struct dev_stack *s, int dev, const char *real)
{
	char *ddir = xasprintf("%s/device", real);
	char *qdir = xasprintf("%s/queue", real);
	char *wc;

	stack_copy(s, dev, ddir, "vendor", NULL, 0);
	stack_copy(s, dev, ddir, "model", NULL, 0);
	stack_copy(s, dev, ddir, "rev", "firmware", 0);
	if (!stack_field(&s->devs[dev], "firmware"))
		stack_copy(s, dev, ddir, "firmware_rev", "firmware", 0);
	stack_copy(s, dev, ddir, "queue_depth", "device_queue_depth", 1);
	stack_copy(s, dev, qdir, "rotational", NULL, 1);
	set_scheduler(s, dev, qdir);
	stack_copy(s, dev, qdir, "logical_block_size", NULL, 1);
	stack_copy(s, dev, qdir, "physical_block_size", NULL, 1);
	stack_copy(s, dev, qdir, "nr_requests", NULL, 1);
	stack_copy(s, dev, qdir, "read_ahead_kb", NULL, 1);
	stack_copy(s, dev, qdir, "max_sectors_kb", NULL, 1);
	stack_copy(s, dev, qdir, "optimal_io_size", NULL, 1);
	wc = stack_attr(qdir, "write_cache");
	stack_set(s, dev, "write_cache", wc, 0);
	free(wc);
	set_transport(s, dev, real);
	free(ddir);
	free(qdir);
}
/* The mount a file lives on (libmount over the real mount table). */
static void file_mount(struct dev_stack *s, int dev, const char *file)
{
	char *mountinfo = xasprintf("%s/self/mountinfo", procfs_root());
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs;

	if (tb && !mnt_table_parse_file(tb, mountinfo)) {
		fs = mnt_table_find_mountpoint(tb, file, MNT_ITER_BACKWARD);
		if (fs) {
			stack_set(s, dev, "mountpoint",
				  mnt_fs_get_target(fs), 0);
			stack_set(s, dev, "fstype", mnt_fs_get_fstype(fs), 0);
			stack_set(s, dev, "source", mnt_fs_get_source(fs), 0);
		}
	}
	mnt_unref_table(tb);
	free(mountinfo);
}

/* A loop device's backing file and the mount it lives on. */
int stack_loop_fields(struct dev_stack *s, const char *real, int dev,
		      dev_t *fs_dev)
{
	char *ldir = xasprintf("%s/loop", real);
	char *back = stack_attr(ldir, "backing_file");
	struct stat st;
	int file = -1;

	stack_set(s, dev, "backing_file", back, 0);
	stack_copy(s, dev, ldir, "dio", NULL, 1);
	stack_copy(s, dev, ldir, "offset", NULL, 1);
	stack_copy(s, dev, ldir, "sizelimit", NULL, 1);
	stack_copy(s, dev, ldir, "autoclear", NULL, 1);
	free(ldir);
	if (!back)
		return -1;
	file = stack_add(s, "file", back, dev);
	/* a fake tree's backing file need not exist: then no more is known */
	if (!stat(back, &st)) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%u:%u", major(st.st_dev),
			 minor(st.st_dev));
		stack_set(s, file, "fs_dev", buf, 0);
		file_mount(s, file, back);
		*fs_dev = st.st_dev;
	} else {
		file = -1;
	}
	free(back);
	return file;
}

void stack_walk_md(struct dev_stack *s, const char *real, int dev)
{
	char *mdir = xasprintf("%s/md", real);
	char *chunk = stack_attr(mdir, "chunk_size");

	stack_copy(s, dev, mdir, "level", NULL, 0);
	stack_set(s, dev, "chunk_size", chunk, 1);
	stack_copy(s, dev, mdir, "raid_disks", NULL, 1);
	stack_copy(s, dev, mdir, "layout", NULL, 1);
	stack_copy(s, dev, mdir, "stripe_cache_size", NULL, 1);
	stack_copy(s, dev, mdir, "array_state", NULL, 0);
	stack_copy(s, dev, mdir, "metadata_version", NULL, 0);
	free(chunk);
	free(mdir);
}

/*
 * An LVM volume cached by dm-cache or dm-writecache: lvmcache(7) keeps its
 * data on a hidden origin volume, "<vg>-<lv>_corig" (cache) or "_wcorig"
 * (writecache), among the devices under it.  The kind, or NULL.
 */
static const char *lvm_cache_kind(const char *real)
{
	char *dir = xasprintf("%s/slaves", real);
	const char *kind = NULL;
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && !kind && (e = readdir(d))) {
		char *sub, *name;
		size_t n;

		if (e->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s/dm", dir, e->d_name);
		name = stack_attr(sub, "name");
		n = name ? strlen(name) : 0;
		if (n > 7 && !strcmp(name + n - 7, "_wcorig"))
			kind = "lvm-writecache";
		else if (n > 6 && !strcmp(name + n - 6, "_corig"))
			kind = "lvm-cache";
		free(name);
		free(sub);
	}
	if (d)
		closedir(d);
	free(dir);
	return kind;
}

void stack_walk_dm(struct dev_stack *s, const char *real, int dev)
{
	char *ddir = xasprintf("%s/dm", real);
	char *name = stack_attr(ddir, "name"), *uuid = stack_attr(ddir, "uuid");
	const char *kind = "other";

	if (uuid) {
		if (!strncmp(uuid, "LVM-", 4)) {
			kind = lvm_cache_kind(real);
			if (!kind)
				kind = "lvm";
		} else if (!strncmp(uuid, "CRYPT-", 6)) {
			kind = "crypt";
		} else if (!strncmp(uuid, "mpath-", 6)) {
			kind = "multipath";
		} else if (!strncmp(uuid, "part", 4)) {
			kind = "partition";
		}
	}
	stack_set(s, dev, "dm_name", name, 0);
	stack_set(s, dev, "dm_uuid", uuid, 0);
	stack_set(s, dev, "dm_kind", uuid ? kind : NULL, 0);
	free(name);
	free(uuid);
	free(ddir);
}
