// SPDX-License-Identifier: GPL-2.0-only
/* A sampled check that a block device holds nothing but zeros and clyde's
 * own data: where filesystems keep their superblock copies, and spread. */
#include "fsops/devcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsops/datagen.h"
#include "fsops/file.h"
#include "fsops/verify.h"
#include "lib/units.h"
#include "lib/xalloc.h"


#define BLOCK 512u		/* the unit of the walk */
#define PAGE 4096u		/* windows start on these */
#define EDGE_LEN MiB		/* the first and the last MiB */
#define COPY_LEN (64 * KiB)	/* at a superblock copy's place */
#define SPREAD 64u		/* at least this many spread windows */
#define SPREAD_LEN (64 * KiB)
#define MAX_WINDOWS 384u
#define MAX_LOOKBACKS 256u	/* header reads to place --verify data */
#define NONE UINT64_MAX

struct window {
	uint64_t off, len;
};

/* Nonzero data not yet placed: [from, to) of one window. */
struct pending {
	uint64_t from, to;
};

struct devcheck {
	int fd;
	uint64_t size;
	unsigned char *buf;		/* one window */
	unsigned char *page;		/* one look-back read */
	struct window win[MAX_WINDOWS];
	unsigned nwin;
	struct pending pend[MAX_WINDOWS];
	unsigned npend;
	uint64_t unit;			/* --verify's unit, once seen twice */
	unsigned lookback_log;		/* where the last look-back found one */
	unsigned lookbacks;
	int clyde;			/* some of clyde's data was seen */
	char *what;
	size_t whatlen;
};

/* "128 MiB", "4 KiB", "8193 KiB", "1049600 bytes": an offset, exactly. */
static void offset_str(char *out, size_t len, uint64_t x)
{
	static const struct {
		uint64_t unit;
		const char *name;
	} units[] = {
		{ PiB, "PiB" }, { TiB, "TiB" }, { GiB, "GiB" },
		{ MiB, "MiB" }, { KiB, "KiB" },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (x && x % units[i].unit == 0) {
			snprintf(out, len, "%" PRIu64 " %s", x / units[i].unit,
				 units[i].name);
			return;
		}
	snprintf(out, len, "%" PRIu64 " bytes", x);
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* An xfs superblock (xfs_format.h: magic, sb_blocksize at 4, sb_agblocks
 * at 84, sb_agcount at 88, all big-endian) at device offset x. */
static int xfs_sb_at(struct devcheck *dc, const unsigned char *p, size_t n,
		     uint64_t x)
{
	uint32_t bs, agblocks, agcount;
	uint64_t agbytes;
	char at[32];

	if (n < 92 || memcmp(p, "XFSB", 4))
		return 0;
	bs = be32(p + 4);
	agblocks = be32(p + 84);
	agcount = be32(p + 88);
	if (bs < 512 || bs > 65536 || (bs & (bs - 1)) || !agblocks ||
	    !agcount)
		return 0;
	agbytes = (uint64_t)bs * agblocks;
	offset_str(at, sizeof(at), x);
	if (x && x % agbytes == 0)
		snprintf(dc->what, dc->whatlen, "an xfs secondary superblock "
			 "(AG %" PRIu64 " of %" PRIu32 ") at %s", x / agbytes,
			 agcount, at);
	else
		snprintf(dc->what, dc->whatlen, "an xfs superblock at %s", at);
	return 1;
}

/* An ext2/3/4 superblock (magic 0xEF53 at 56, s_log_block_size at 24,
 * s_blocks_per_group at 32, s_inodes_per_group at 40, s_block_group_nr
 * at 90, little-endian) at device offset x. */
static int ext_sb_at(struct devcheck *dc, const unsigned char *p, size_t n,
		     uint64_t x)
{
	char at[32];

	if (x % 1024 || n < 92 || le16(p + 56) != 0xEF53 ||
	    le32(p + 24) > 6 || !le32(p + 32) || !le32(p + 40))
		return 0;
	offset_str(at, sizeof(at), x);
	if (x == 1024)
		snprintf(dc->what, dc->whatlen, "an ext2/3/4 superblock at %s",
			 at);
	else
		snprintf(dc->what, dc->whatlen, "an ext2/3/4 backup superblock "
			 "(group %u) at %s", le16(p + 90), at);
	return 1;
}

/* A btrfs superblock ("_BHRfS_M" at 64, its own offset at 48) at x. */
static int btrfs_sb_at(struct devcheck *dc, const unsigned char *p,
		       size_t n, uint64_t x)
{
	char at[32];

	if (x % PAGE || n < 72 || memcmp(p + 64, "_BHRfS_M", 8) ||
	    le64(p + 48) != x)
		return 0;
	offset_str(at, sizeof(at), x);
	snprintf(dc->what, dc->whatlen, "a btrfs superblock%s at %s",
		 x == 64 * KiB ? "" : " mirror", at);
	return 1;
}

static int is_zero(const unsigned char *p, size_t n)
{
	return !n || (!p[0] && !memcmp(p, p + 1, n - 1));
}

/* Read [off, off + len) into buf.  0, or -1 with what set. */
static int read_at(struct devcheck *dc, void *buf, uint64_t off,
		   uint64_t len)
{
	ssize_t got = pread_full(dc->fd, buf, (size_t)len, (off_t)off);
	char at[32];

	if (got == (ssize_t)len)
		return 0;
	offset_str(at, sizeof(at), off);
	snprintf(dc->what, dc->whatlen, "cannot read %" PRIu64 " bytes at "
		 "%s: %s", len, at, got < 0 ? strerror((int)-got) :
		 "end of device");
	return -1;
}

/* Sample [off, off + len), clipped to the device, unless a window
 * already read covers it. */
static void add_window(struct devcheck *dc, uint64_t off, uint64_t len)
{
	unsigned i;

	off -= off % PAGE;
	if (off >= dc->size || dc->nwin == MAX_WINDOWS)
		return;
	if (len > dc->size - off)
		len = dc->size - off;
	for (i = 0; i < dc->nwin; i++)
		if (dc->win[i].off <= off &&
		    off + len <= dc->win[i].off + dc->win[i].len)
			return;
	dc->win[dc->nwin].off = off;
	dc->win[dc->nwin++].len = len;
}

/*
 * The starts of allocation groups 1 and 2 as mkfs.xfs lays them out by
 * default (xfsprogs calc_default_ag_geometry): dblocks >> shift blocks an
 * AG, one more when that leaves a remainder, shift 0 to 5 (1 to 32 AGs:
 * 4 on one disk from 128 MiB to 32 TiB, more on striped ones), and AGs
 * of 1 TiB less a block from 32 TiB up; for every block size.
 */
static void plan_xfs(struct devcheck *dc)
{
	unsigned blog, shift;
	uint64_t ag;

	for (blog = 9; blog <= 16; blog++) {
		uint64_t dblocks = dc->size >> blog;
		uint64_t maxag = (TiB - 1) >> blog, agblocks;

		for (shift = 0; shift <= 6; shift++) {
			if (shift == 6) {
				agblocks = maxag;
			} else {
				agblocks = dblocks >> shift;
				if (dblocks & ((1ull << shift) - 1))
					agblocks++;
			}
			if (agblocks > maxag || (agblocks << blog) < 16 * MiB)
				continue;
			for (ag = 1; ag <= 2; ag++)
				add_window(dc, (ag * agblocks) << blog,
					   COPY_LEN);
		}
	}
}

/*
 * Where to read: the edges, the btrfs mirrors, the ext2/3/4 backups of
 * groups 1..49 for 1, 2, 4 and 64 KiB blocks (mke2fs: 8 x block size
 * blocks a group; with 1 KiB blocks, block 0 is before group 0), the xfs
 * AG starts, then windows every power of two that gives 64 to 128 of them.
 */
static void plan_windows(struct devcheck *dc)
{
	static const unsigned groups[] = { 1, 3, 5, 7, 9, 25, 27, 49 };
	static const unsigned ext_logs[] = { 0, 1, 2, 6 };
	static const uint64_t btrfs[] = { 64 * MiB, 256 * GiB, PiB };
	uint64_t step = MiB, off;
	size_t i, j;

	add_window(dc, 0, EDGE_LEN);
	if (dc->size > EDGE_LEN)
		add_window(dc, dc->size - EDGE_LEN, EDGE_LEN);
	for (i = 0; i < sizeof(btrfs) / sizeof(btrfs[0]); i++)
		if (btrfs[i] + PAGE <= dc->size)
			add_window(dc, btrfs[i], PAGE);
	for (i = 0; i < sizeof(ext_logs) / sizeof(ext_logs[0]); i++) {
		uint64_t bs = KiB << ext_logs[i];

		for (j = 0; j < sizeof(groups) / sizeof(groups[0]); j++)
			add_window(dc, groups[j] * 8 * bs * bs +
				   (bs == KiB ? KiB : 0), COPY_LEN);
	}
	plan_xfs(dc);
	while (step <= dc->size / SPREAD / 2)
		step *= 2;
	for (off = step; off < dc->size; off += step)
		add_window(dc, off, SPREAD_LEN);
}

/* A block of a window: a superblock (1), clyde's or zero (0), or data
 * to place (-1).  *skip gets the bytes it covers (a datagen sector). */
static int walk_block(struct devcheck *dc, const unsigned char *p, size_t n,
		      uint64_t x, uint64_t *last_hdr, int *in_unit,
		      size_t *skip)
{
	*skip = BLOCK;
	if (xfs_sb_at(dc, p, n, x) || ext_sb_at(dc, p, n, x) ||
	    btrfs_sb_at(dc, p, n, x))
		return 1;
	if (is_zero(p, n < BLOCK ? n : BLOCK))
		return 0;
	if (x % DATAGEN_SECTOR == 0 && n >= DATAGEN_SECTOR &&
	    datagen_stamp_identify(p, x, NULL)) {
		dc->clyde = 1;
		*skip = DATAGEN_SECTOR;
		return 0;
	}
	if (n >= VERIFY_HDR_SIZE && verify_header_names(p, x)) {
		if (*last_hdr != NONE && !dc->unit)
			dc->unit = x - *last_hdr;
		*last_hdr = x;
		*in_unit = 1;
		dc->clyde = 1;
		return 0;
	}
	return *in_unit ? 0 : -1;
}

/* Walk the window [off, off + len) in dc->buf: 1 when it holds a
 * superblock (what names it); else 0, any data not placed as clyde's
 * kept as pending (the part before the window's first --verify header:
 * the tail of a unit that starts before the window, or foreign). */
static int walk_window(struct devcheck *dc, uint64_t off, uint64_t len)
{
	uint64_t last_hdr = NONE, from = NONE, to = off + len;
	int in_unit = 0, rc;
	size_t o, skip;

	for (o = 0; o < len; o += skip) {
		rc = walk_block(dc, dc->buf + o, (size_t)(len - o), off + o,
				&last_hdr, &in_unit, &skip);
		if (rc > 0)
			return 1;
		if (rc < 0 && from == NONE)
			from = off + o;
		if (from != NONE && last_hdr != NONE && last_hdr > from &&
		    to == off + len)
			to = last_hdr;
	}
	if (from != NONE) {
		dc->pend[dc->npend].from = from;
		dc->pend[dc->npend++].to = to;
	}
	return 0;
}

/* Is there a --verify header naming x?  1, 0, or -1 (read failed). */
static int header_at(struct devcheck *dc, uint64_t x)
{
	uint64_t page = x - x % PAGE;

	if (++dc->lookbacks > MAX_LOOKBACKS)
		return 0;
	if (read_at(dc, dc->page, page, dc->size - page < PAGE ?
		    dc->size - page : PAGE))
		return -1;
	return verify_header_names(dc->page + (x - page), x);
}

/*
 * Is [from, to) the inside of a --verify unit whose header is before it?
 * Units lie end to end from offset 0: with the unit known, its header is
 * at from rounded down to it; otherwise look at from rounded down to
 * powers of two (the unit is the gcd of the block sizes, mostly one).
 * 1, 0, or -1 (a read failed).
 */
static int place_pending(struct devcheck *dc, uint64_t from, uint64_t to)
{
	uint64_t u;
	unsigned k;
	int rc;

	if (dc->unit) {
		u = from - from % dc->unit;
		return to <= u + dc->unit ? header_at(dc, u) : 0;
	}
	if (dc->lookback_log) {
		u = from & ~((1ull << dc->lookback_log) - 1);
		if ((rc = header_at(dc, u)))
			return rc;
	}
	for (k = 9; k < 64 && (from >> k); k++) {
		u = from & ~((1ull << k) - 1);
		if ((rc = header_at(dc, u)) > 0)
			dc->lookback_log = k;
		if (rc)
			return rc;
	}
	return 0;
}

/* Read and walk every window, then place what is pending. */
static enum devcheck_verdict devcheck_run(struct devcheck *dc)
{
	char at[32];
	unsigned i;
	int rc;

	plan_windows(dc);
	for (i = 0; i < dc->nwin; i++) {
		if (read_at(dc, dc->buf, dc->win[i].off, dc->win[i].len))
			return DEVCHECK_UNREADABLE;
		if (walk_window(dc, dc->win[i].off, dc->win[i].len))
			return DEVCHECK_FOREIGN;
	}
	for (i = 0; i < dc->npend; i++) {
		rc = place_pending(dc, dc->pend[i].from, dc->pend[i].to);
		if (rc < 0)
			return DEVCHECK_UNREADABLE;
		if (!rc) {
			offset_str(at, sizeof(at), dc->pend[i].from);
			snprintf(dc->what, dc->whatlen, "data that is not "
				 "clyde's at %s", at);
			return DEVCHECK_FOREIGN;
		}
	}
	return dc->clyde ? DEVCHECK_CLYDE : DEVCHECK_BLANK;
}

enum devcheck_verdict devcheck_sample(const char *path, uint64_t size,
				      char *what, size_t whatlen)
{
	struct devcheck *dc = xcalloc(1, sizeof(*dc));
	enum devcheck_verdict v;

	dc->what = what;
	dc->whatlen = whatlen;
	dc->size = size;
	dc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (dc->fd < 0) {
		snprintf(what, whatlen, "cannot open it to read: %s",
			 strerror(errno));
		free(dc);
		return DEVCHECK_UNREADABLE;
	}
	/* no read-ahead around the samples */
	posix_fadvise(dc->fd, 0, 0, POSIX_FADV_RANDOM);
	dc->buf = xmalloc_aligned(EDGE_LEN, PAGE);
	dc->page = xmalloc_aligned(PAGE, PAGE);
	v = devcheck_run(dc);
	/* what was read leaves the cache: a benchmark must not find it */
	posix_fadvise(dc->fd, 0, 0, POSIX_FADV_DONTNEED);
	close(dc->fd);
	free(dc->buf);
	free(dc->page);
	free(dc);
	return v;
}
