/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_DIMS_H
#define CLYDE_DIMS_H

/*
 * The named dimensions of a run, one set from three sources: the user's
 * tags (--tag controller=fc), what clyde detected (fs, RAID level and
 * btrfs profile, number of disks, controller transport, mount options),
 * and what the label says (inferred, marked so).  A tag wins over a
 * detected fact, which wins over an inference.
 *
 * Inference from a label, when no --label-pattern matches it: the label
 * is cut into words at '-', '_', '.' and spaces, and each word is tried
 * in turn (case does not matter):
 *   a filesystem name (xfs, jfs, ext2, ext3, ext4, reiserfs, reiser4,
 *   btrfs, zfs, f2fs, ocfs2, gfs2, nilfs2, bcachefs, tmpfs)   -> fs
 *   raidN, raid-N as two words, raidz, raidz2, raidz3           -> raid
 *   Ndisks, Ndisk, Ndrives, Ndrive                              -> disks
 *   NkbSegment, NkSegment, NkSeg, NmbSegment (any case)         -> segment
 *   a controller word (fc, scsi, sas, sata, nvme, iscsi, ide, usb,
 *   virtio, fcoe, srp, iser)                                    -> controller
 * Sizes are written lower case without the b: 8kbSegment -> "8k".
 *
 * A pattern (--label-pattern '{controller}-raid{raid}-{fs}-{disks}disks-
 * {segment}Segment') is literal text with {NAME} fields; a label that
 * matches it as a whole gives exactly those fields (segment sizes
 * normalised as above), and the rules above are not applied to it.
 */

#include <stddef.h>

#include "report/model/record.h"

enum dim_source {
	DIM_TAG,		/* --tag */
	DIM_DETECTED,		/* from the record's target and stack */
	DIM_INFERRED,		/* from the label */
};

struct dim {
	char *key;
	char *value;
	enum dim_source source;
};

struct dims {
	struct dim *v;
	size_t n;
};

struct dims_pattern;

/*
 * Compile a label pattern; NULL with a message in err when it is
 * malformed (an unclosed brace, an empty or repeated name, two fields
 * with no literal text between them).
 */
struct dims_pattern *dims_pattern_new(const char *pattern, char *err,
				      size_t errlen);
void dims_pattern_free(struct dims_pattern *p);

/* The dimensions of rec (pattern may be NULL). */
void dims_of(const struct record *rec, const struct dims_pattern *pat,
	     struct dims *d);

void dims_release(struct dims *d);

/* The dimension named key, or NULL. */
const struct dim *dims_find(const struct dims *d, const char *key);
/* Its value, or NULL. */
const char *dims_get(const struct dims *d, const char *key);

/* "tag", "detected", "inferred". */
const char *dims_source_name(enum dim_source s);

#endif
