// SPDX-License-Identifier: GPL-2.0-only
/* Exclusive, checked opening of block devices: libblkid's probe, then
 * a sampled read (devcheck.c). */
#include "fsops/blockdev.h"

#include <blkid.h>
#include <libmount.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsops/devcheck.h"
#include "fsops/sysroot.h"
#include "lib/xalloc.h"

/* What blockdev_check_signatures() found. */
enum blockdev_sig {
	BLOCKDEV_EMPTY,		/* probed, nothing found */
	BLOCKDEV_SIGNED,	/* one signature (named in what) */
	BLOCKDEV_AMBIVALENT,	/* more than one, conflicting */
	BLOCKDEV_UNKNOWN,	/* the probe failed */
};

/*
 * Probe path with libblkid for superblocks and partition tables; what
 * gets the signature's type ("xfs", "dos"...), or a description.
 */
static enum blockdev_sig blockdev_check_signatures(const char *path,
						   char *what, size_t whatlen)
{
	const char *type = NULL;
	enum blockdev_sig sig;
	blkid_probe pr;
	int rc;

	snprintf(what, whatlen, "an unreadable signature area");
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return BLOCKDEV_UNKNOWN;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* 0 found, 1 nothing, -2 ambivalent, -1 error */
	rc = blkid_do_safeprobe(pr);
	switch (rc) {
	case 1:
		sig = BLOCKDEV_EMPTY;
		snprintf(what, whatlen, "no signature");
		break;
	case 0:
		sig = BLOCKDEV_SIGNED;
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			type = NULL;
		snprintf(what, whatlen, "%s", type ? type : "a signature");
		break;
	case -2:
		sig = BLOCKDEV_AMBIVALENT;
		snprintf(what, whatlen, "conflicting signatures (more than "
			 "one filesystem type found)");
		break;
	default:
		sig = BLOCKDEV_UNKNOWN;
		snprintf(what, whatlen, "signatures that cannot be probed");
		break;
	}
	blkid_free_probe(pr);
	return sig;
}

/*
 * Is path (a block device of size bytes) free to destroy: no libblkid
 * signature, devcheck_sample() blank or clyde's?  0, or -EEXIST with a
 * one-line message naming what was found in err (no "clyde:" prefix).
 * Only reads.
 */
static int blockdev_check_free(const char *path, uint64_t size, char *err,
			       size_t errlen)
{
	enum devcheck_verdict v;
	char what[160];

	if (blockdev_check_signatures(path, what, sizeof(what)) !=
	    BLOCKDEV_EMPTY) {
		snprintf(err, errlen, "'%s' carries %s; --force to destroy it",
			 path, what);
		return -EEXIST;
	}
	v = devcheck_sample(path, size, what, sizeof(what));
	if (v == DEVCHECK_BLANK || v == DEVCHECK_CLYDE)
		return 0;
	if (v == DEVCHECK_FOREIGN)
		snprintf(err, errlen, "'%s' carries %s; --force to destroy it",
			 path, what);
	else
		snprintf(err, errlen, "cannot check what '%s' holds: %s; "
			 "--force to destroy it unchecked", path, what);
	return -EEXIST;
}

/*
 * Where the block device at path is mounted (its device number in
 * <procfs>/self/mountinfo, else its path as a source), into buf: 1, or 0
 * when it is not mounted or the table cannot be read.
 */
static int blockdev_mounted_on(const char *path, char *buf, size_t len)
{
	char *mountinfo = xasprintf("%s/self/mountinfo", procfs_root());
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs = NULL;
	struct stat st;

	if (tb && !mnt_table_parse_file(tb, mountinfo)) {
		if (!stat(path, &st) && S_ISBLK(st.st_mode))
			fs = mnt_table_find_devno(tb, st.st_rdev,
						  MNT_ITER_FORWARD);
		if (!fs)
			fs = mnt_table_find_srcpath(tb, path, MNT_ITER_FORWARD);
		if (fs)
			snprintf(buf, len, "%s", mnt_fs_get_target(fs) ?
				 mnt_fs_get_target(fs) : "?");
	}
	mnt_unref_table(tb);
	free(mountinfo);
	return fs != NULL;
}

/* err for an exclusive open of path that failed with errno rc. */
static void blockdev_open_error(const char *path, int rc, char *err,
				size_t errlen)
{
	char on[256];

	if (rc == EBUSY)
		snprintf(err, errlen, "cannot open '%s' exclusively: %s "
			 "(mounted or in use)", path, strerror(rc));
	else if (blockdev_mounted_on(path, on, sizeof(on)))
		snprintf(err, errlen, "cannot open '%s' exclusively: %s "
			 "(mounted or in use: mounted on '%s')", path,
			 strerror(rc), on);
	else
		snprintf(err, errlen, "cannot open '%s' exclusively: %s",
			 path, strerror(rc));
}

int blockdev_open_excl(const char *path, int access, int *fd, uint64_t *size,
		       char *err, size_t errlen)
{
	struct stat st;
	int rc;

	*fd = open(path, access | O_EXCL);
	if (*fd < 0) {
		rc = errno;
		blockdev_open_error(path, rc, err, errlen);
		return -rc;
	}
	if (fstat(*fd, &st) || !S_ISBLK(st.st_mode)) {
		close(*fd);
		*fd = -1;
		snprintf(err, errlen, "'%s' is not a block device", path);
		return -ENOTBLK;
	}
	if (ioctl(*fd, BLKGETSIZE64, size)) {
		rc = errno;
		close(*fd);
		*fd = -1;
		snprintf(err, errlen, "cannot get the size of '%s': %s", path,
			 strerror(rc));
		return -rc;
	}
	return 0;
}

int blockdev_open(const char *path, int flags, int force, int *fd,
		  uint64_t *size, char *err, size_t errlen)
{
	int rc = blockdev_open_excl(path, O_RDWR | flags, fd, size, err,
				    errlen);

	if (rc)
		return rc;
	if (force)
		return 0;
	rc = blockdev_check_free(path, *size, err, errlen);
	if (rc) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}
