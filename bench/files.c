// SPDX-License-Identifier: GPL-2.0-only
/*
 * The small-file tests: sequential and random create, stat (bonnie++'s
 * "read") and delete, with bonnie++ 2.00's file-name scheme and the
 * -n num:max:min:dirs shape.
 *
 * Each family works in FILES_DIR, a directory of its own under ctx->dir,
 * with cfg->num_dirs sub-directories "%05u" when num_dirs > 0; file i goes
 * to sub-directory i * num_dirs / num_files, so the files are spread evenly
 * in index order.  A file's name is its index as "%010x" with 0 to 12
 * random characters of [a-zA-Z0-9] after it (sequential family) or before
 * it (random family).
 *
 * Differences from bonnie++, on purpose:
 * - create and delete end with syncfs() of the filesystem under test inside
 *   the timed period, not sync() of the whole machine;
 * - file data is unique in every 4 KiB (datagen: one stream per family,
 *   file after file) and incompressible, not zeros;
 * - one clock read per operation: an operation's latency runs from the end
 *   of the one before, so the phase's latencies add up to its time.
 * - -b fsyncs each file and then its directory after every create, link
 *   and unlink (as bonnie++ does for the file tests), and a failing
 *   directory fsync fails the test instead of silently turning itself off;
 * - symlinks point to the first file by a path relative to the link's own
 *   directory, so they resolve with sub-directories too (bonnie++'s dangle);
 * - a sequential phase that does not find exactly num_files files fails.
 */
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fsops/cache.h"
#include "../fsops/clock.h"
#include "../fsops/datagen.h"
#include "../fsops/file.h"
#include "../lib/xalloc.h"
#include "ioutil.h"

#define FILES_DIR	"files"
#define RAND_LEN	12	/* at most this many random characters */
#define HEX_LEN		10	/* "%010x" */
#define SUBDIR_LEN	5	/* "%05u" */
/* "ddddd/" + random part + index + NUL, and "../" before it for symlinks */
#define REL_MAX		(SUBDIR_LEN + 1 + RAND_LEN + HEX_LEN + 1)
#define DEFAULT_CHUNK	8192

static const char name_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

enum files_family {
	FAMILY_SEQ,
	FAMILY_RAN,
};

static const char *const family_create[] = { "seq_create", "ran_create" };

/* rng streams, so that names, sizes and each shuffle differ */
#define SEED_NAMES	0x6e616d6573000000ull	/* "names" */
#define SEED_STAT	0x7374617400000000ull	/* "stat" */
#define SEED_DELETE	0x64656c6500000000ull	/* "dele" */

/* datagen stream of file i of a family; the I/O tests use 1 and 2 */
/*
 * What create leaves for stat and delete.  The names' random parts live in
 * one arena of RAND_LEN bytes per file, NUL-padded (the index part is
 * computed), so a few million files cost 12 bytes each, plus 4 for the
 * shuffled order of the random family.
 */
struct files_state {
	enum files_family family;
	int made;		/* FILES_DIR exists: we made it */
	int created;		/* the family's create completed */
	int famfd;		/* open on FILES_DIR, or -1 */
	uint32_t n;		/* files asked for (-n): the names' layout */
	uint32_t count;		/* files made: 0..count-1 (< n: stonewall) */
	uint32_t ndirs;		/* sub-directories; 0: none */
	char *rand;		/* n * RAND_LEN random name parts */
	uint32_t *order;	/* shuffled indexes (random stat, delete) */
	int syncfd;		/* -b: open sub-directory syncdir, or -1 */
	uint32_t syncdir;
	/* the family's data: one stream, file after file at sector-aligned
	 * positions, so the files walk the pool (fsops/datagen.h) */
	uint64_t data_pos;
};

static struct files_state *state_get(struct bench_ctx *ctx)
{
	struct files_state *st = ctx->files;

	if (!st) {
		st = xcalloc(1, sizeof(*st));
		st->famfd = -1;
		st->syncfd = -1;
		ctx->files = st;
	}
	return st;
}

/* Close what st holds open and free its tables; the files stay. */
static void state_release(struct files_state *st)
{
	if (st->syncfd >= 0)
		close(st->syncfd);
	st->syncfd = -1;
	if (st->famfd >= 0)
		close(st->famfd);
	st->famfd = -1;
	free(st->rand);
	st->rand = NULL;
	free(st->order);
	st->order = NULL;
	st->created = 0;
}

void files_state_free(struct files_state *st)
{
	if (!st)
		return;
	state_release(st);
	free(st);
}

static uint32_t dir_of(const struct files_state *st, uint32_t i)
{
	return st->ndirs ? (uint32_t)((uint64_t)i * st->ndirs / st->n) : 0;
}

static char *put_dec5(char *p, uint32_t v)
{
	int k;

	for (k = SUBDIR_LEN - 1; k >= 0; k--) {
		p[k] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + SUBDIR_LEN;
}

static char *put_hex10(char *p, uint32_t v)
{
	static const char hex[] = "0123456789abcdef";
	int k;

	for (k = HEX_LEN - 1; k >= 0; k--) {
		p[k] = hex[v & 0xf];
		v >>= 4;
	}
	return p + HEX_LEN;
}

/* Name of sub-directory d into buf (SUBDIR_LEN + 1 bytes). */
static void subdir_name(char *buf, uint32_t d)
{
	*put_dec5(buf, d) = '\0';
}

/* Path of file i relative to FILES_DIR into buf (REL_MAX bytes). */
static void rel_path(const struct files_state *st, uint32_t i, char *buf)
{
	const char *rnd = st->rand + (size_t)i * RAND_LEN;
	size_t len = strnlen(rnd, RAND_LEN);
	char *p = buf;

	if (st->ndirs) {
		p = put_dec5(p, dir_of(st, i));
		*p++ = '/';
	}
	if (st->family == FAMILY_SEQ) {
		p = put_hex10(p, i);
		memcpy(p, rnd, len);
		p += len;
	} else {
		memcpy(p, rnd, len);
		p = put_hex10(p + len, i);
	}
	*p = '\0';
}

/* "<dir>/files/<rel>" for messages; the caller frees it. */
static char *full_path(const struct bench_ctx *ctx, const char *rel)
{
	return rel ? xasprintf("%s/%s/%s", ctx->dir, FILES_DIR, rel)
		   : xasprintf("%s/%s", ctx->dir, FILES_DIR);
}

/* bench_fail() naming FILES_DIR/rel (or FILES_DIR itself). */
static int fail_rel(const struct bench_ctx *ctx, struct result *res, int err,
		    const char *what, const char *rel)
{
	char *path = full_path(ctx, rel);

	err = bench_fail(res, err, what, path);
	free(path);
	return err;
}

/* bench_fail() naming sub-directory d (or FILES_DIR when flat). */
static int fail_sub(const struct bench_ctx *ctx, struct result *res, int err,
		    const char *what, const struct files_state *st,
		    uint32_t d)
{
	char name[SUBDIR_LEN + 1];

	if (!st->ndirs)
		return fail_rel(ctx, res, err, what, NULL);
	subdir_name(name, d);
	return fail_rel(ctx, res, err, what, name);
}

static int interrupted(struct result *res)
{
	return bench_fail(res, -EINTR, NULL, NULL);
}

/*
 * --stonewall: 1 when this phase must end before its next operation,
 * because it has run cfg->stonewall seconds or another worker's has (the
 * shared *ctx->wall, set here for the others).  The phase then ends as a
 * success with the work done so far, flagged RESULT_STONEWALLED.
 */
static int stonewalled(const struct bench_ctx *ctx, const struct measure *m,
		       struct result *res)
{
	double wall = ctx->cfg->stonewall;

	if (!ctx->wall || wall <= 0)
		return 0;
	if (!*ctx->wall && (double)(clock_ns() - m->start_ns) < wall * 1e9)
		return 0;
	*ctx->wall = 1;
	res->flags |= RESULT_STONEWALLED;
	return 1;
}

/* Fill in the phase's figures, complete or partial. */
static void phase_end(const struct measure *m, struct result *res,
		      uint64_t ops, uint64_t bytes)
{
	double elapsed = measure_end(m, res);

	res->ops = ops;
	res->bytes = bytes;
	res->value = elapsed > 0 ? (double)ops / elapsed : 0;
}

static int sync_fs(const struct bench_ctx *ctx, struct result *res)
{
	if (syncfs(ctx->dirfd))
		return bench_fail(res, -errno, "cannot sync the filesystem of",
				  ctx->dir);
	return 0;
}

/*
 * -b: fsync the directory holding file i after a create, link or unlink.
 * The last sub-directory stays open, so index order opens each once.
 */
static int sync_dir(const struct bench_ctx *ctx, struct files_state *st,
		    uint32_t i, struct result *res)
{
	uint32_t d = dir_of(st, i);
	char name[SUBDIR_LEN + 1];
	int fd = st->famfd;

	if (st->ndirs) {
		if (st->syncfd < 0 || st->syncdir != d) {
			if (st->syncfd >= 0)
				close(st->syncfd);
			subdir_name(name, d);
			st->syncfd = openat(st->famfd, name,
					    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (st->syncfd < 0)
				return fail_sub(ctx, res, -errno,
						"cannot open directory", st, d);
			st->syncdir = d;
		}
		fd = st->syncfd;
	}
	if (fsync(fd))
		return fail_sub(ctx, res, -errno, "cannot sync directory", st,
				d);
	return 0;
}

/* Unlink everything below dfd, one sub-directory level deep at most. */
static int remove_contents(int dfd, int depth)
{
	DIR *dir;
	struct dirent *de;
	int fd, rc = 0;

	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while ((errno = 0, de = readdir(dir))) {
		int isdir = de->d_type == DT_DIR;
		struct stat sb;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN &&
		    !fstatat(fd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW))
			isdir = S_ISDIR(sb.st_mode);
		if (isdir && depth > 0) {
			int sub = openat(fd, de->d_name,
					 O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub < 0) {
				rc = -errno;
				break;
			}
			rc = remove_contents(sub, depth - 1);
			close(sub);
			if (rc)
				break;
		}
		if (unlinkat(fd, de->d_name, isdir ? AT_REMOVEDIR : 0)) {
			rc = -errno;
			break;
		}
	}
	if (!rc && errno)
		rc = -errno;
	closedir(dir);
	return rc;
}

/*
 * Remove what an earlier family left in FILES_DIR (its create, stat or
 * delete failed), outside any timed period, so that a new create starts
 * from an empty directory.  FILES_DIR is ours: made by an earlier create.
 */
static int remove_leftovers(const struct bench_ctx *ctx,
			    struct files_state *st, struct result *res)
{
	int fd, rc;

	state_release(st);
	if (!st->made)
		return 0;
	fd = openat(ctx->dirfd, FILES_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ENOENT) {
			st->made = 0;
			return 0;
		}
		return fail_rel(ctx, res, rc, "cannot open", NULL);
	}
	rc = remove_contents(fd, 1);
	close(fd);
	if (!rc && unlinkat(ctx->dirfd, FILES_DIR, AT_REMOVEDIR))
		rc = -errno;
	if (rc)
		return fail_rel(ctx, res, rc, "cannot remove old files in",
				NULL);
	st->made = 0;
	return 0;
}

/*
 * The random parts of all names, before the timed period (as bonnie++
 * makes its names before starting the clock).
 */
static void make_names(struct files_state *st, struct rng *r)
{
	size_t i, k, len;
	char *p;

	st->rand = xmalloc((size_t)st->n * RAND_LEN);
	for (i = 0, p = st->rand; i < st->n; i++, p += RAND_LEN) {
		len = (size_t)rng_below(r, RAND_LEN + 1);
		for (k = 0; k < len; k++)
			p[k] = name_chars[rng_below(r, sizeof(name_chars) - 1)];
		memset(p + len, 0, RAND_LEN - len);
	}
}

/* FILES_DIR and its sub-directories, before the timed period. */
static int make_dirs(const struct bench_ctx *ctx, struct files_state *st,
		     struct result *res)
{
	char name[SUBDIR_LEN + 1];
	uint32_t d;

	if (mkdirat(ctx->dirfd, FILES_DIR, 0700))
		return fail_rel(ctx, res, -errno, "cannot create directory",
				NULL);
	st->made = 1;
	st->famfd = openat(ctx->dirfd, FILES_DIR,
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->famfd < 0)
		return fail_rel(ctx, res, -errno, "cannot open", NULL);
	for (d = 0; d < st->ndirs; d++) {
		subdir_name(name, d);
		if (mkdirat(st->famfd, name, 0700))
			return fail_sub(ctx, res, -errno,
					"cannot create directory", st, d);
	}
	return 0;
}

/* Create file i at rel with size bytes of its unique data: the pool's
 * window for each chunk, stamped (fsops/datagen.h), written as it is. */
static int create_file(const struct bench_ctx *ctx, struct files_state *st,
		       uint32_t i, const char *rel, uint64_t size,
		       struct datagen *g, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	size_t chunk = cfg->file_chunk_size ? cfg->file_chunk_size
					    : DEFAULT_CHUNK;
	uint64_t off, stream = (uint64_t)(0x10 + st->family) << 40;
	int fd, rc;

	fd = openat(st->famfd, rel, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return fail_rel(ctx, res, -errno, "cannot create", rel);
	for (off = 0; off < size; off += chunk) {
		size_t len = size - off < chunk ? (size_t)(size - off) : chunk;

		rc = write_full(fd, datagen_block(g, len, stream, 0,
						  st->data_pos + off), len);
		if (rc) {
			close(fd);
			return fail_rel(ctx, res, rc, "cannot write", rel);
		}
	}
	if (cfg->sync_writes && fsync(fd)) {
		rc = -errno;
		close(fd);
		return fail_rel(ctx, res, rc, "cannot sync", rel);
	}
	if (close(fd))
		return fail_rel(ctx, res, -errno, "cannot close", rel);
	st->data_pos += (size + DATAGEN_SECTOR - 1) / DATAGEN_SECTOR *
			DATAGEN_SECTOR;
	if (cfg->sync_writes)
		return sync_dir(ctx, st, i, res);
	return 0;
}

/* Link i to file 0: a hard link, or a symlink relative to its directory. */
static int create_link(const struct bench_ctx *ctx, struct files_state *st,
		       uint32_t i, const char *rel, struct result *res)
{
	char first[REL_MAX], target[REL_MAX + 3];

	rel_path(st, 0, first);
	if (ctx->cfg->max_size == FILES_HARDLINKS) {
		if (linkat(st->famfd, first, st->famfd, rel, 0))
			return fail_rel(ctx, res, -errno, "cannot link", rel);
	} else {
		snprintf(target, sizeof(target), "%s%s",
			 st->ndirs ? "../" : "", first);
		if (symlinkat(target, st->famfd, rel))
			return fail_rel(ctx, res, -errno, "cannot symlink",
					rel);
	}
	if (ctx->cfg->sync_writes)
		return sync_dir(ctx, st, i, res);
	return 0;
}

static int files_create(struct bench_ctx *ctx, struct result *res,
			enum files_family family)
{
	const struct bench_config *cfg = ctx->cfg;
	int links = cfg->max_size == FILES_HARDLINKS ||
		    cfg->max_size == FILES_SYMLINKS;
	uint64_t min = 0, span = 0, bytes = 0;
	size_t chunk = cfg->file_chunk_size ? cfg->file_chunk_size
					    : DEFAULT_CHUNK;
	struct files_state *st = state_get(ctx);
	char rel[REL_MAX];
	struct datagen g = { 0 };
	struct measure m;
	uint64_t t0;
	struct rng r;
	uint32_t i;
	int rc;

	res->residency = -1;
	if (cfg->num_files > UINT32_MAX) {
		result_set_status(res, RESULT_FAILED,
				  "at most %u files, not %llu", UINT32_MAX,
				  (unsigned long long)cfg->num_files);
		return -EINVAL;
	}
	if (cfg->num_dirs > 100000) {
		result_set_status(res, RESULT_FAILED,
				  "at most 100000 directories, not %llu",
				  (unsigned long long)cfg->num_dirs);
		return -EINVAL;
	}
	rc = remove_leftovers(ctx, st, res);
	if (rc)
		return rc;
	st->family = family;
	st->data_pos = 0;
	st->n = (uint32_t)cfg->num_files;
	st->ndirs = (uint32_t)cfg->num_dirs;
	if (!st->n) {
		result_set_status(res, RESULT_SKIPPED, "no files (-n 0)");
		return 0;
	}
	rng_seed(&r, ctx->seed ^ SEED_NAMES ^ family);
	make_names(st, &r);
	rc = make_dirs(ctx, st, res);
	if (rc)
		return rc;
	if (cfg->max_size > 0) {
		min = cfg->min_size > 0 ? (uint64_t)cfg->min_size : 0;
		if (min > (uint64_t)cfg->max_size)
			min = (uint64_t)cfg->max_size;
		span = (uint64_t)cfg->max_size - min;
		datagen_init(&g, ctx->seed, chunk);
	}

	measure_begin(&m);
	t0 = m.start_ns;
	for (i = 0; i < st->n; i++) {
		uint64_t t1, size;

		if (*ctx->stop) {
			rc = interrupted(res);
			break;
		}
		if (stonewalled(ctx, &m, res))
			break;
		size = cfg->max_size > 0 ? min + (span ? rng_below(&r, span + 1)
						      : 0)
					 : 0;
		rel_path(st, i, rel);
		if (links && i > 0)
			rc = create_link(ctx, st, i, rel, res);
		else
			rc = create_file(ctx, st, i, rel, size, &g, res);
		if (rc)
			break;
		t1 = clock_ns();
		hist_add(&res->lat, t1 - t0);
		t0 = t1;
		bytes += size;
	}
	if (!rc)
		rc = sync_fs(ctx, res);
	phase_end(&m, res, i, bytes);
	datagen_release(&g);
	if (rc)
		return rc;
	st->count = i;
	st->created = 1;
	/* the sequential family's stat and delete go by readdir */
	if (family == FAMILY_SEQ) {
		free(st->rand);
		st->rand = NULL;
	}
	result_set_status(res, RESULT_OK, NULL);
	return 0;
}

/*
 * The stat and delete tests of a family whose create did not complete (it
 * failed, was interrupted, was not run, or the files were already deleted)
 * have nothing to work on.  They are recorded as skipped with the reason
 * "needs seq_create" (or ran_create) and return 0: the create's own result
 * already carries the failure, and counting it again would blame a test
 * that never ran.  Whatever a failed create left is removed by the next
 * create (remove_leftovers) or with the run's directory.
 */
static struct files_state *state_ready(struct bench_ctx *ctx,
				       struct result *res,
				       enum files_family family)
{
	struct files_state *st = ctx->files;

	res->residency = -1;
	if (!st || !st->created || st->family != family) {
		result_set_status(res, RESULT_SKIPPED, "needs %s",
				  family_create[family]);
		return NULL;
	}
	return st;
}

/* --drop-caches: dentries and inodes out before a stat or delete phase. */
static void drop_metadata(struct bench_ctx *ctx)
{
	char msg[160];
	int rc;

	if (!ctx->cfg->drop_caches)
		return;
	rc = cache_drop_metadata(ctx->dirfd);
	if (rc) {
		snprintf(msg, sizeof(msg),
			 "--drop-caches: cannot drop dentries and inodes: %s",
			 strerror(-rc));
		io_warn_once(ctx, msg);
	}
}

/* stat one file and read its data when it has any. */
static int stat_one(const struct bench_ctx *ctx, int dfd, const char *name,
		    const char *rel, char *buf, size_t chunk,
		    uint64_t *bytes, struct result *res)
{
	struct stat sb;
	uint64_t left;
	ssize_t n;
	int fd;

	if (fstatat(dfd, name, &sb, 0))
		return fail_rel(ctx, res, -errno, "cannot stat", rel);
	if (sb.st_size <= 0)
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail_rel(ctx, res, -errno, "cannot open", rel);
	for (left = (uint64_t)sb.st_size; left; left -= (uint64_t)n) {
		size_t len = left < chunk ? (size_t)left : chunk;

		n = read_full(fd, buf, len);
		if (n < 0 || (size_t)n != len) {
			close(fd);
			return fail_rel(ctx, res, n < 0 ? (int)n : -EIO,
					n < 0 ? "cannot read"
					      : "unexpected end of file in",
					rel);
		}
		*bytes += (uint64_t)n;
	}
	close(fd);
	return 0;
}

/*
 * Open sub-directory d (or FILES_DIR itself) for readdir, inside the timed
 * period as bonnie++ does.
 */
static DIR *open_subdir(const struct bench_ctx *ctx,
			const struct files_state *st, uint32_t d,
			struct result *res, int *rc)
{
	char name[SUBDIR_LEN + 1];
	DIR *dir;
	int fd;

	if (st->ndirs)
		subdir_name(name, d);
	fd = openat(st->famfd, st->ndirs ? name : ".",
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		*rc = fail_sub(ctx, res, -errno, "cannot open directory", st,
			       d);
		return NULL;
	}
	dir = fdopendir(fd);
	if (!dir) {
		*rc = fail_sub(ctx, res, -errno, "cannot open directory", st,
			       d);
		close(fd);
	}
	return dir;
}

/* The entries of a sub-directory are our files: none starts with a dot. */
static int is_ours(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

static int count_mismatch(const struct bench_ctx *ctx,
			  const struct files_state *st, uint64_t found,
			  struct result *res)
{
	char *path = full_path(ctx, NULL);

	result_set_status(res, RESULT_FAILED,
			  "expected %u files in '%s', found %llu", st->count,
			  path,
			  (unsigned long long)found);
	free(path);
	return -EIO;
}

/* Walk the sub-directories in readdir order; stat (and read) or unlink. */
static int walk_seq(struct bench_ctx *ctx, struct files_state *st,
		    int unlink_them, struct result *res, struct measure *m,
		    uint64_t *done, uint64_t *bytes)
{
	size_t chunk = ctx->cfg->file_chunk_size ? ctx->cfg->file_chunk_size
						 : DEFAULT_CHUNK;
	uint32_t d, nd = st->ndirs ? st->ndirs : 1;
	char *buf = unlink_them ? NULL : xmalloc(chunk);
	char rel[REL_MAX + 256];
	struct dirent *de;
	uint64_t t0;
	int rc = 0, walled = 0;

	measure_begin(m);
	t0 = m->start_ns;
	for (d = 0; d < nd && !rc && !walled; d++) {
		DIR *dir = open_subdir(ctx, st, d, res, &rc);

		if (!dir)
			break;
		while (!rc && (errno = 0, de = readdir(dir))) {
			uint64_t t1;

			if (!is_ours(de))
				continue;
			if (*ctx->stop) {
				rc = interrupted(res);
				break;
			}
			if (stonewalled(ctx, m, res)) {
				walled = 1;
				break;
			}
			if (st->ndirs)
				snprintf(rel, sizeof(rel), "%05u/%s", d,
					 de->d_name);
			else
				snprintf(rel, sizeof(rel), "%s", de->d_name);
			if (!unlink_them) {
				rc = stat_one(ctx, dirfd(dir), de->d_name, rel,
					      buf, chunk, bytes, res);
			} else if (unlinkat(dirfd(dir), de->d_name, 0)) {
				rc = fail_rel(ctx, res, -errno,
					      "cannot delete", rel);
			} else if (ctx->cfg->sync_writes &&
				   fsync(dirfd(dir))) {
				rc = fail_sub(ctx, res, -errno,
					      "cannot sync directory", st, d);
			}
			if (rc)
				break;
			t1 = clock_ns();
			hist_add(&res->lat, t1 - t0);
			t0 = t1;
			(*done)++;
		}
		if (!rc && errno)
			rc = fail_sub(ctx, res, -errno,
				      "cannot read directory", st, d);
		closedir(dir);
		if (!rc && !walled && unlink_them && st->ndirs) {
			subdir_name(rel, d);
			if (unlinkat(st->famfd, rel, AT_REMOVEDIR))
				rc = fail_sub(ctx, res, -errno,
					      "cannot remove directory", st, d);
		}
	}
	if (!rc && !walled && *done != st->count)
		rc = count_mismatch(ctx, st, *done, res);
	free(buf);
	return rc;
}

/* A new shuffled order of the indexes (Fisher-Yates), before timing. */
static void shuffle(struct files_state *st, uint64_t seed)
{
	struct rng r;
	uint32_t i, j, t;

	if (!st->order)
		st->order = xmalloc((size_t)st->n * sizeof(*st->order));
	for (i = 0; i < st->count; i++)
		st->order[i] = i;
	rng_seed(&r, seed);
	for (i = st->count ? st->count - 1 : 0; i > 0; i--) {
		j = (uint32_t)rng_below(&r, (uint64_t)i + 1);
		t = st->order[i];
		st->order[i] = st->order[j];
		st->order[j] = t;
	}
}

/* stat (and read) or unlink every file in the shuffled order. */
static int walk_random(struct bench_ctx *ctx, struct files_state *st,
		       int unlink_them, struct result *res, struct measure *m,
		       uint64_t *done, uint64_t *bytes)
{
	size_t chunk = ctx->cfg->file_chunk_size ? ctx->cfg->file_chunk_size
						 : DEFAULT_CHUNK;
	char *buf = unlink_them ? NULL : xmalloc(chunk);
	char rel[REL_MAX];
	uint64_t t0;
	uint32_t k;
	int rc = 0, walled = 0;

	shuffle(st, ctx->seed ^ (unlink_them ? SEED_DELETE : SEED_STAT));
	measure_begin(m);
	t0 = m->start_ns;
	for (k = 0; k < st->count; k++) {
		uint32_t i = st->order[k];
		uint64_t t1;

		/* random order: fetch a later name now, not on a cache miss */
		if (st->rand && k + 4 < st->count)
			__builtin_prefetch(st->rand + (size_t)st->order[k + 4] *
					   RAND_LEN);

		if (*ctx->stop) {
			rc = interrupted(res);
			break;
		}
		if (stonewalled(ctx, m, res)) {
			walled = 1;
			break;
		}
		rel_path(st, i, rel);
		if (!unlink_them) {
			rc = stat_one(ctx, st->famfd, rel, rel, buf, chunk,
				      bytes, res);
		} else if (unlinkat(st->famfd, rel, 0)) {
			rc = fail_rel(ctx, res, -errno, "cannot delete", rel);
		} else if (ctx->cfg->sync_writes) {
			rc = sync_dir(ctx, st, i, res);
		}
		if (rc)
			break;
		t1 = clock_ns();
		hist_add(&res->lat, t1 - t0);
		t0 = t1;
		(*done)++;
	}
	if (!rc && unlink_them && st->syncfd >= 0) {
		close(st->syncfd);
		st->syncfd = -1;
	}
	for (k = 0; !rc && !walled && unlink_them && k < st->ndirs; k++) {
		subdir_name(rel, k);
		if (unlinkat(st->famfd, rel, AT_REMOVEDIR))
			rc = fail_sub(ctx, res, -errno,
				      "cannot remove directory", st, k);
	}
	free(buf);
	return rc;
}

static int files_stat(struct bench_ctx *ctx, struct result *res,
		      enum files_family family)
{
	struct files_state *st = state_ready(ctx, res, family);
	uint64_t done = 0, bytes = 0;
	struct measure m;
	int rc;

	if (!st)
		return 0;
	drop_metadata(ctx);
	if (family == FAMILY_SEQ)
		rc = walk_seq(ctx, st, 0, res, &m, &done, &bytes);
	else
		rc = walk_random(ctx, st, 0, res, &m, &done, &bytes);
	phase_end(&m, res, done, bytes);
	if (rc)
		return rc;
	result_set_status(res, RESULT_OK, NULL);
	return 0;
}

static int files_delete(struct bench_ctx *ctx, struct result *res,
			enum files_family family)
{
	struct files_state *st = state_ready(ctx, res, family);
	uint64_t done = 0, bytes = 0;
	struct measure m;
	int rc;

	if (!st)
		return 0;
	drop_metadata(ctx);
	if (family == FAMILY_SEQ)
		rc = walk_seq(ctx, st, 1, res, &m, &done, &bytes);
	else
		rc = walk_random(ctx, st, 1, res, &m, &done, &bytes);
	if (!rc && (res->flags & RESULT_STONEWALLED)) {
		/* the rest goes after the timed period */
		rc = sync_fs(ctx, res);
		phase_end(&m, res, done, bytes);
		if (!rc)
			rc = remove_leftovers(ctx, st, res);
		if (rc)
			return rc;
		result_set_status(res, RESULT_OK, NULL);
		return 0;
	}
	if (!rc) {
		if (unlinkat(ctx->dirfd, FILES_DIR, AT_REMOVEDIR))
			rc = fail_rel(ctx, res, -errno,
				      "cannot remove directory", NULL);
		else
			st->made = 0;
	}
	if (!rc)
		rc = sync_fs(ctx, res);
	phase_end(&m, res, done, bytes);
	if (rc)
		return rc;
	state_release(st);
	result_set_status(res, RESULT_OK, NULL);
	return 0;
}

static int seq_create(struct bench_ctx *ctx, struct result *res)
{
	return files_create(ctx, res, FAMILY_SEQ);
}

static int seq_stat(struct bench_ctx *ctx, struct result *res)
{
	return files_stat(ctx, res, FAMILY_SEQ);
}

static int seq_del(struct bench_ctx *ctx, struct result *res)
{
	return files_delete(ctx, res, FAMILY_SEQ);
}

static int ran_create(struct bench_ctx *ctx, struct result *res)
{
	return files_create(ctx, res, FAMILY_RAN);
}

static int ran_stat(struct bench_ctx *ctx, struct result *res)
{
	return files_stat(ctx, res, FAMILY_RAN);
}

static int ran_del(struct bench_ctx *ctx, struct result *res)
{
	return files_delete(ctx, res, FAMILY_RAN);
}

const struct bench_test bench_seq_create = {
	.name = "seq_create",
	.title = "Sequential create",
	.unit = "files/s",
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = seq_create,
};

const struct bench_test bench_seq_stat = {
	.name = "seq_stat",
	.title = "Sequential read",
	.unit = "files/s",
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = seq_stat,
};

const struct bench_test bench_seq_del = {
	.name = "seq_del",
	.title = "Sequential delete",
	.unit = "files/s",
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = seq_del,
};

const struct bench_test bench_ran_create = {
	.name = "ran_create",
	.title = "Random create",
	.unit = "files/s",
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = ran_create,
};

const struct bench_test bench_ran_stat = {
	.name = "ran_stat",
	.title = "Random read",
	.unit = "files/s",
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = ran_stat,
};

const struct bench_test bench_ran_del = {
	.name = "ran_del",
	.title = "Random delete",
	.unit = "files/s",
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = ran_del,
};
