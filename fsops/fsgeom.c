// SPDX-License-Identifier: GPL-2.0-only
/* Filesystem geometry: xfs and btrfs ioctls, libext2fs for ext2/3/4. */
#include "fsops/fsgeom.h"

#include <errno.h>
#include <ext2fs/ext2fs.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/btrfs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xfs/xfs.h>

#include "lib/xalloc.h"

struct fields {
	struct stack_field **f;
	size_t *n;
};

__attribute__((format(printf, 4, 5)))
static void setf(struct fields *fl, const char *key, int numeric,
		 const char *fmt, ...)
{
	char v[4096];	/* a number, a UUID, a profile list */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	stack_fields_set(fl->f, fl->n, key, v, numeric);
}

static int open_dir(const char *mountpoint, struct dev_stack *warn)
{
	int fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		stack_warn(warn, "cannot open '%s' for its geometry: %s",
			   mountpoint, strerror(errno));
	return fd;
}

static void xfs_geom(const char *mountpoint, struct fields *fl,
		     struct dev_stack *warn)
{
	struct xfs_fsop_geom g;
	uint64_t bs;
	int fd = open_dir(mountpoint, warn);

	if (fd < 0)
		return;
	memset(&g, 0, sizeof(g));
	if (ioctl(fd, XFS_IOC_FSGEOMETRY, &g) &&
	    ioctl(fd, XFS_IOC_FSGEOMETRY_V4, &g)) {
		stack_warn(warn, "XFS_IOC_FSGEOMETRY on '%s': %s", mountpoint,
			   strerror(errno));
		close(fd);
		return;
	}
	close(fd);
	bs = g.blocksize;
	setf(fl, "block_size", 1, "%llu", (unsigned long long)bs);
	setf(fl, "agcount", 1, "%u", g.agcount);
	setf(fl, "agsize", 1, "%llu", (unsigned long long)g.agblocks * bs);
	setf(fl, "sunit", 1, "%llu", (unsigned long long)g.sunit * bs);
	setf(fl, "swidth", 1, "%llu", (unsigned long long)g.swidth * bs);
	setf(fl, "log_size", 1, "%llu", (unsigned long long)g.logblocks * bs);
	setf(fl, "inode_size", 1, "%u", g.inodesize);
	setf(fl, "sector_size", 1, "%u", g.sectsize);
	setf(fl, "realtime_size", 1, "%llu",
	     (unsigned long long)g.rtblocks * bs);
}

/* The value of option key= in a comma-separated list, into buf. */
static int opt_value(const char *opts, const char *key, char *buf,
		     size_t len)
{
	size_t klen = strlen(key);
	const char *p = opts;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - klen - 1),
				 p + klen + 1);
			return 0;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return -1;
}

static void ext_geom(const char *source, const char *fs_options,
		     struct fields *fl, struct dev_stack *warn)
{
	ext2_filsys fs;
	struct ext2_super_block *sb;
	uint64_t bs;
	char mode[32];
	errcode_t err;

	if (!source || source[0] != '/') {
		stack_warn(warn, "no device to read the ext superblock of");
		return;
	}
	err = ext2fs_open(source, EXT2_FLAG_64BITS | EXT2_FLAG_SKIP_MMP, 0, 0,
			  unix_io_manager, &fs);
	if (err) {
		if (err > 0 && err < 4096)	/* an errno */
			stack_warn(warn, "cannot read the ext superblock of "
				   "'%s': %s", source, strerror((int)err));
		else
			stack_warn(warn, "cannot read the ext superblock of "
				   "'%s' (libext2fs error %ld)", source,
				   (long)err);
		return;
	}
	sb = fs->super;
	bs = EXT2_BLOCK_SIZE(sb);
	setf(fl, "block_size", 1, "%llu", (unsigned long long)bs);
	setf(fl, "stride", 1, "%u", (unsigned)sb->s_raid_stride);
	setf(fl, "stripe_width", 1, "%u", (unsigned)sb->s_raid_stripe_width);
	setf(fl, "stride_bytes", 1, "%llu",
	     (unsigned long long)sb->s_raid_stride * bs);
	setf(fl, "stripe_width_bytes", 1, "%llu",
	     (unsigned long long)sb->s_raid_stripe_width * bs);
	setf(fl, "inode_size", 1, "%u", (unsigned)EXT2_INODE_SIZE(sb));
	setf(fl, "has_journal", 1, "%d", !!ext2fs_has_feature_journal(sb));
	setf(fl, "extents", 1, "%d", !!ext2fs_has_feature_extents(sb));
	if (ext2fs_has_feature_journal(sb)) {
		if (!opt_value(fs_options, "data", mode, sizeof(mode))) {
			setf(fl, "journal_mode_from", 0, "mount options");
		} else {
			switch (sb->s_default_mount_opts & EXT3_DEFM_JMODE) {
			case EXT3_DEFM_JMODE_DATA:
				strcpy(mode, "journal");
				break;
			case EXT3_DEFM_JMODE_ORDERED:
				strcpy(mode, "ordered");
				break;
			case EXT3_DEFM_JMODE_WBACK:
				strcpy(mode, "writeback");
				break;
			default:
				strcpy(mode, "");
			}
			if (*mode) {
				setf(fl, "journal_mode_from", 0,
				     "superblock default mount options");
			} else {
				strcpy(mode, "ordered");
				setf(fl, "journal_mode_from", 0,
				     "kernel default");
			}
		}
		setf(fl, "journal_mode", 0, "%s", mode);
		if (sb->s_journal_inum) {
			ext2_ino_t ino = sb->s_journal_inum;
			struct ext2_inode inode;

			if (!ext2fs_read_inode(fs, ino, &inode))
				setf(fl, "journal_size", 1, "%llu",
				     (unsigned long long)
				     EXT2_I_SIZE(&inode));
		}
	}
	ext2fs_close_free(&fs);
}

int fsgeom_btrfs_uuid(const char *mountpoint, char *buf, size_t len)
{
	struct btrfs_ioctl_fs_info_args a;
	const unsigned char *u = a.fsid;
	int fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(&a, 0, sizeof(a));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &a)) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
		 u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		 u[14], u[15]);
	return 0;
}

static void btrfs_geom(const char *mountpoint, struct fields *fl,
		       struct dev_stack *warn)
{
	struct btrfs_ioctl_fs_info_args a;
	char uuid[40];
	static const char *const types[] = { "data", "metadata", "system" };
	size_t i;
	int fd = open_dir(mountpoint, warn);

	if (fd < 0)
		return;
	memset(&a, 0, sizeof(a));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &a)) {
		stack_warn(warn, "BTRFS_IOC_FS_INFO on '%s': %s", mountpoint,
			   strerror(errno));
		close(fd);
		return;
	}
	close(fd);
	if (fsgeom_btrfs_uuid(mountpoint, uuid, sizeof(uuid)))
		return;
	setf(fl, "uuid", 0, "%s", uuid);
	setf(fl, "num_devices", 1, "%llu", (unsigned long long)a.num_devices);
	setf(fl, "nodesize", 1, "%u", a.nodesize);
	setf(fl, "sectorsize", 1, "%u", a.sectorsize);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		char *p = stack_btrfs_profile(uuid, types[i]);
		char key[32];

		snprintf(key, sizeof(key), "%s_profile", types[i]);
		if (p)
			setf(fl, key, 0, "%s", p);
		else
			stack_warn(warn, "btrfs %s profile of '%s' unknown",
				   types[i], mountpoint);
		free(p);
	}
}

void fsgeom_read(const char *mountpoint, const char *fstype,
		 const char *source, const char *fs_options,
		 struct stack_field **fields, size_t *nfields,
		 struct dev_stack *warn)
{
	struct fields fl = { fields, nfields };

	if (!mountpoint || !fstype)
		return;
	if (!strcmp(fstype, "xfs"))
		xfs_geom(mountpoint, &fl, warn);
	else if (!strcmp(fstype, "ext2") || !strcmp(fstype, "ext3") ||
		 !strcmp(fstype, "ext4"))
		ext_geom(source, fs_options, &fl, warn);
	else if (!strcmp(fstype, "btrfs"))
		btrfs_geom(mountpoint, &fl, warn);
}
