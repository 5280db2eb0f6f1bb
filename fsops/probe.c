// SPDX-License-Identifier: GPL-2.0-only
/* libblkid probing of devices and image files. */
#include "fsops/probe.h"

#include <blkid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *tag;	/* libblkid's name */
	const char *key;	/* ours */
	int numeric;
} tags[] = {
	{ "TYPE", "type", 0 },
	{ "VERSION", "version", 0 },
	{ "UUID", "uuid", 0 },
	{ "LABEL", "label", 0 },
	{ "BLOCK_SIZE", "block_size", 1 },
	{ "FSBLOCKSIZE", "fs_block_size", 1 },
	{ "FSSIZE", "fs_size", 1 },
	{ "USAGE", "usage", 0 },
};

int probe_path(const char *path, struct stack_field **fields, size_t *n,
	       char *err, size_t errlen)
{
	blkid_probe pr;
	const char *v;
	size_t i;
	int ret;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		ret = errno ? -errno : -EINVAL;
		snprintf(err, errlen, "cannot probe '%s': %s", path,
			 strerror(-ret));
		return ret;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_VERSION |
					  BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_LABEL |
					  BLKID_SUBLKS_USAGE);
	ret = blkid_do_safeprobe(pr);
	if (ret == 1) {
		snprintf(err, errlen, "'%s': no filesystem or other known "
			 "signature found", path);
		blkid_free_probe(pr);
		return -ENODATA;
	}
	if (ret == -2) {
		snprintf(err, errlen, "'%s': conflicting signatures (more "
			 "than one filesystem type found)", path);
		blkid_free_probe(pr);
		return -EIO;
	}
	if (ret < 0) {
		snprintf(err, errlen, "cannot probe '%s'", path);
		blkid_free_probe(pr);
		return -EIO;
	}
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (!blkid_probe_lookup_value(pr, tags[i].tag, &v, NULL) &&
		    v && *v)
			stack_fields_set(fields, n, tags[i].key, v,
					 tags[i].numeric);
	blkid_free_probe(pr);
	return 0;
}
