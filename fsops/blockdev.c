// SPDX-License-Identifier: GPL-2.0-only
/* Exclusive, signature-checked opening of block devices. */
#include "blockdev.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

enum blockdev_sig blockdev_check_signatures(const char *path, char *what,
					    size_t whatlen)
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

int blockdev_open(const char *path, int flags, int force, int *fd,
		  uint64_t *size, char *err, size_t errlen)
{
	enum blockdev_sig sig;
	char what[96];
	struct stat st;
	int rc;

	*fd = open(path, O_RDWR | O_EXCL | flags);
	if (*fd < 0) {
		rc = errno;
		snprintf(err, errlen, "cannot open '%s' exclusively: %s%s",
			 path, strerror(rc),
			 rc == EBUSY ? " (mounted or in use)" : "");
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
	if (force)
		return 0;
	sig = blockdev_check_signatures(path, what, sizeof(what));
	if (sig == BLOCKDEV_EMPTY)
		return 0;
	close(*fd);
	*fd = -1;
	snprintf(err, errlen, "'%s' carries %s; --force to destroy it", path,
		 what);
	return -EEXIST;
}
