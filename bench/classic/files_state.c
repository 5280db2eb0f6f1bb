// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the small-file phases share (files_state.h): the state between
 * create, stat and delete, the names' random parts, failures named by
 * path, syncs, leftovers removed and metadata dropped outside timing.
 */
#include "bench/classic/files_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsops/cache.h"
#include "fsops/datagen.h"
#include "lib/xalloc.h"
#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"

static const char name_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* The test that creates each family's files (enum files_family order). */
static const enum bonnie_test_id family_create[] = {
	BONNIE_SEQ_CREATE, BONNIE_RAN_CREATE,
};

struct files_state *files_state_get(struct bench_ctx *ctx)
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
void files_state_release(struct files_state *st)
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
	files_state_release(st);
	free(st);
}
/* "<dir>/files/<rel>" for messages; the caller frees it. */
char *files_full_path(const struct bench_ctx *ctx, const char *rel)
{
	return rel ? xasprintf("%s/%s/%s", ctx->dir, FILES_DIR, rel)
		   : xasprintf("%s/%s", ctx->dir, FILES_DIR);
}

/* bench_fail() naming FILES_DIR/rel (or FILES_DIR itself). */
int files_fail_rel(const struct bench_ctx *ctx, struct result *res, int err,
		   const char *what, const char *rel)
{
	char *path = files_full_path(ctx, rel);

	err = bench_fail(res, err, what, path);
	free(path);
	return err;
}

/* bench_fail() naming sub-directory d (or FILES_DIR when flat). */
int files_fail_sub(const struct bench_ctx *ctx, struct result *res, int err,
		   const char *what, const struct files_state *st,
		   uint32_t d)
{
	char name[SUBDIR_LEN + 1];

	if (!st->ndirs)
		return files_fail_rel(ctx, res, err, what, NULL);
	subdir_name(name, d);
	return files_fail_rel(ctx, res, err, what, name);
}

int files_sync_fs(const struct bench_ctx *ctx, struct result *res)
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
int files_sync_dir(const struct bench_ctx *ctx, struct files_state *st,
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
				return files_fail_sub(ctx, res, -errno,
						"cannot open directory", st, d);
			st->syncdir = d;
		}
		fd = st->syncfd;
	}
	if (fsync(fd))
		return files_fail_sub(ctx, res, -errno, "cannot sync directory", st,
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
int files_remove_leftovers(const struct bench_ctx *ctx,
			   struct files_state *st, struct result *res)
{
	int fd, rc;

	files_state_release(st);
	if (!st->made)
		return 0;
	fd = openat(ctx->dirfd, FILES_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ENOENT) {
			st->made = 0;
			return 0;
		}
		return files_fail_rel(ctx, res, rc, "cannot open", NULL);
	}
	rc = remove_contents(fd, 1);
	close(fd);
	if (!rc && unlinkat(ctx->dirfd, FILES_DIR, AT_REMOVEDIR))
		rc = -errno;
	if (rc)
		return files_fail_rel(ctx, res, rc, "cannot remove old files in",
				NULL);
	st->made = 0;
	return 0;
}

/*
 * The random parts of all names, before the timed period (as bonnie++
 * makes its names before starting the clock).
 */
void files_make_names(struct files_state *st, struct rng *r)
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

/*
 * The stat and delete tests of a family whose create did not complete (it
 * failed, was interrupted, was not run, or the files were already deleted)
 * have nothing to work on.  They are recorded as skipped with the reason
 * "needs seq_create" (or ran_create) and return 0: the create's own result
 * already carries the failure, and counting it again would blame a test
 * that never ran.  Whatever a failed create left is removed by the next
 * create (remove_leftovers) or with the run's directory.
 */
struct files_state *files_state_ready(struct bench_ctx *ctx,
				      struct result *res,
				      enum files_family family)
{
	struct files_state *st = ctx->files;

	res->residency = -1;
	if (!st || !st->created || st->family != family) {
		result_set_status(res, RESULT_SKIPPED, "needs %s",
				  bonnie_tests[family_create[family]].name);
		return NULL;
	}
	return st;
}

/* --drop-caches: dentries and inodes out before a stat or delete phase. */
void files_drop_metadata(struct bench_ctx *ctx)
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
