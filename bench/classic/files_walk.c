// SPDX-License-Identifier: GPL-2.0-only
/*
 * The small-file tests' stat (bonnie++'s "read") and delete phases
 * (bench/classic/files.c says how): the sequential family by readdir, sub-directory
 * after sub-directory, the random family in a shuffled order of the names.
 */
#include "bench/classic/files_walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "fsops/file.h"
#include "lib/xalloc.h"
#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"

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
		return files_fail_rel(ctx, res, -errno, "cannot stat", rel);
	if (sb.st_size <= 0)
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return files_fail_rel(ctx, res, -errno, "cannot open", rel);
	for (left = (uint64_t)sb.st_size; left; left -= (uint64_t)n) {
		size_t len = left < chunk ? (size_t)left : chunk;

		n = read_full(fd, buf, len);
		if (n < 0 || (size_t)n != len) {
			close(fd);
			return files_fail_rel(ctx, res, n < 0 ? (int)n : -EIO,
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
		*rc = files_fail_sub(ctx, res, -errno, "cannot open directory", st,
			       d);
		return NULL;
	}
	dir = fdopendir(fd);
	if (!dir) {
		*rc = files_fail_sub(ctx, res, -errno, "cannot open directory", st,
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
	char *path = files_full_path(ctx, NULL);

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
				rc = files_fail_rel(ctx, res, -errno,
					      "cannot delete", rel);
			} else if (ctx->cfg->sync_writes &&
				   fsync(dirfd(dir))) {
				rc = files_fail_sub(ctx, res, -errno,
					      "cannot sync directory", st, d);
			}
			if (rc)
				break;
			io_lap(&res->lat, &t0);
			(*done)++;
		}
		if (!rc && errno)
			rc = files_fail_sub(ctx, res, -errno,
				      "cannot read directory", st, d);
		closedir(dir);
		if (!rc && !walled && unlink_them && st->ndirs) {
			subdir_name(rel, d);
			if (unlinkat(st->famfd, rel, AT_REMOVEDIR))
				rc = files_fail_sub(ctx, res, -errno,
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
			rc = files_fail_rel(ctx, res, -errno, "cannot delete", rel);
		} else if (ctx->cfg->sync_writes) {
			rc = files_sync_dir(ctx, st, i, res);
		}
		if (rc)
			break;
		io_lap(&res->lat, &t0);
		(*done)++;
	}
	if (!rc && unlink_them && st->syncfd >= 0) {
		close(st->syncfd);
		st->syncfd = -1;
	}
	for (k = 0; !rc && !walled && unlink_them && k < st->ndirs; k++) {
		subdir_name(rel, k);
		if (unlinkat(st->famfd, rel, AT_REMOVEDIR))
			rc = files_fail_sub(ctx, res, -errno,
				      "cannot remove directory", st, k);
	}
	free(buf);
	return rc;
}

/*
 * The walk of a stat or delete phase, from the family's order's
 * measure_begin in m: dentries and inodes dropped first (--drop-caches),
 * then stat (and read) or unlink each file.  0 or the failure in res.
 */
static int walk(struct bench_ctx *ctx, struct files_state *st,
		int unlink_them, struct result *res, struct measure *m,
		uint64_t *done, uint64_t *bytes)
{
	files_drop_metadata(ctx);
	if (st->family == FAMILY_SEQ)
		return walk_seq(ctx, st, unlink_them, res, m, done, bytes);
	return walk_random(ctx, st, unlink_them, res, m, done, bytes);
}

int files_stat(struct bench_ctx *ctx, struct result *res,
	       enum files_family family)
{
	struct files_state *st = files_state_ready(ctx, res, family);
	uint64_t done = 0, bytes = 0;
	struct measure m;
	int rc;

	if (!st)
		return 0;
	rc = walk(ctx, st, 0, res, &m, &done, &bytes);
	phase_end(&m, res, done, bytes);
	if (rc)
		return rc;
	result_set_status(res, RESULT_OK, NULL);
	return 0;
}

int files_delete(struct bench_ctx *ctx, struct result *res,
		 enum files_family family)
{
	struct files_state *st = files_state_ready(ctx, res, family);
	uint64_t done = 0, bytes = 0;
	struct measure m;
	int rc, walled;

	if (!st)
		return 0;
	rc = walk(ctx, st, 1, res, &m, &done, &bytes);
	walled = !!(res->flags & RESULT_STONEWALLED);
	if (!rc && !walled) {
		if (unlinkat(ctx->dirfd, FILES_DIR, AT_REMOVEDIR))
			rc = files_fail_rel(ctx, res, -errno,
				      "cannot remove directory", NULL);
		else
			st->made = 0;
	}
	if (!rc)
		rc = files_sync_fs(ctx, res);
	phase_end(&m, res, done, bytes);
	/* stonewalled: the rest goes after the timed period */
	if (!rc && walled)
		rc = files_remove_leftovers(ctx, st, res);
	if (rc)
		return rc;
	if (!walled)
		files_state_release(st);
	result_set_status(res, RESULT_OK, NULL);
	return 0;
}
