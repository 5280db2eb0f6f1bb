// SPDX-License-Identifier: GPL-2.0-only
/*
 * The small-file tests' create phases (bench/classic/files.c says how): the
 * directories, then one file (or link) after another in index order, timed.
 */
#include "bench/classic/files_create.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "fsops/file.h"
#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"

/* FILES_DIR and its sub-directories, before the timed period. */
static int make_dirs(const struct bench_ctx *ctx, struct files_state *st,
		     struct result *res)
{
	char name[SUBDIR_LEN + 1];
	uint32_t d;

	if (mkdirat(ctx->dirfd, FILES_DIR, 0700))
		return files_fail_rel(ctx, res, -errno, "cannot create directory",
				NULL);
	st->made = 1;
	st->famfd = openat(ctx->dirfd, FILES_DIR,
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->famfd < 0)
		return files_fail_rel(ctx, res, -errno, "cannot open", NULL);
	for (d = 0; d < st->ndirs; d++) {
		subdir_name(name, d);
		if (mkdirat(st->famfd, name, 0700))
			return files_fail_sub(ctx, res, -errno,
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
		return files_fail_rel(ctx, res, -errno, "cannot create", rel);
	for (off = 0; off < size; off += chunk) {
		size_t len = size - off < chunk ? (size_t)(size - off) : chunk;

		rc = write_full(fd, datagen_block(g, len, stream, 0,
						  st->data_pos + off), len);
		if (rc) {
			close(fd);
			return files_fail_rel(ctx, res, rc, "cannot write", rel);
		}
	}
	if (cfg->sync_writes && fsync(fd)) {
		rc = -errno;
		close(fd);
		return files_fail_rel(ctx, res, rc, "cannot sync", rel);
	}
	if (close(fd))
		return files_fail_rel(ctx, res, -errno, "cannot close", rel);
	st->data_pos += (size + DATAGEN_SECTOR - 1) / DATAGEN_SECTOR *
			DATAGEN_SECTOR;
	if (cfg->sync_writes)
		return files_sync_dir(ctx, st, i, res);
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
			return files_fail_rel(ctx, res, -errno, "cannot link", rel);
	} else {
		snprintf(target, sizeof(target), "%s%s",
			 st->ndirs ? "../" : "", first);
		if (symlinkat(target, st->famfd, rel))
			return files_fail_rel(ctx, res, -errno, "cannot symlink",
					rel);
	}
	if (ctx->cfg->sync_writes)
		return files_sync_dir(ctx, st, i, res);
	return 0;
}

/*
 * Before the timed period: the limits checked, what an earlier family
 * left removed, the state set for family, the names drawn from r and the
 * sub-directories made.  0, 1 when there are no files to make (res says
 * skipped), or a negative errno with the failure in res.
 */
static int create_setup(struct bench_ctx *ctx, struct files_state *st,
			struct result *res, enum files_family family,
			struct rng *r)
{
	const struct bench_config *cfg = ctx->cfg;
	int rc;

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
	rc = files_remove_leftovers(ctx, st, res);
	if (rc)
		return rc;
	st->family = family;
	st->data_pos = 0;
	st->n = (uint32_t)cfg->num_files;
	st->ndirs = (uint32_t)cfg->num_dirs;
	if (!st->n) {
		result_set_status(res, RESULT_SKIPPED, "no files (-n 0)");
		return 1;
	}
	rng_seed(r, ctx->seed ^ SEED_NAMES ^ family);
	files_make_names(st, r);
	return make_dirs(ctx, st, res);
}

int files_create(struct bench_ctx *ctx, struct result *res,
		 enum files_family family)
{
	const struct bench_config *cfg = ctx->cfg;
	int links = cfg->max_size == FILES_HARDLINKS ||
		    cfg->max_size == FILES_SYMLINKS;
	uint64_t min = 0, span = 0, bytes = 0;
	size_t chunk = cfg->file_chunk_size ? cfg->file_chunk_size
					    : DEFAULT_CHUNK;
	struct files_state *st = files_state_get(ctx);
	char rel[REL_MAX];
	struct datagen g = { 0 };
	struct measure m;
	uint64_t t0;
	struct rng r;
	uint32_t i;
	int rc;

	res->residency = -1;
	rc = create_setup(ctx, st, res, family, &r);
	if (rc)
		return rc > 0 ? 0 : rc;
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
		uint64_t size;

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
		io_lap(&res->lat, &t0);
		bytes += size;
	}
	if (!rc)
		rc = files_sync_fs(ctx, res);
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
