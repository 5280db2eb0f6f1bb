/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BENCH_FILES_STATE_H
#define CLYDE_BENCH_FILES_STATE_H

/*
 * What the small-file tests' phases share (bench/classic/files_state.c):
 * the files' names and layout, the state create leaves for stat and
 * delete, and the untimed chores around a phase.  files_create.c and
 * files_walk.c (the phases) include it; files.c (the tests) includes
 * their headers.  The few helpers the timed loops call for every file are
 * static inline here, as they were file-local before.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fsops/clock.h"
#include "bench/classic/tests.h"
#include "bench/measure.h"

struct rng;

#define FILES_DIR	"files"
#define RAND_LEN	12	/* at most this many random characters */
#define HEX_LEN		10	/* "%010x" */
#define SUBDIR_LEN	5	/* "%05u" */
/* "ddddd/" + random part + index + NUL, and "../" before it for symlinks */
#define REL_MAX		(SUBDIR_LEN + 1 + RAND_LEN + HEX_LEN + 1)
#define DEFAULT_CHUNK	8192

enum files_family {
	FAMILY_SEQ,
	FAMILY_RAN,
};

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

static inline uint32_t dir_of(const struct files_state *st, uint32_t i)
{
	return st->ndirs ? (uint32_t)((uint64_t)i * st->ndirs / st->n) : 0;
}

static inline char *put_dec5(char *p, uint32_t v)
{
	int k;

	for (k = SUBDIR_LEN - 1; k >= 0; k--) {
		p[k] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + SUBDIR_LEN;
}

static inline char *put_hex10(char *p, uint32_t v)
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
static inline void subdir_name(char *buf, uint32_t d)
{
	*put_dec5(buf, d) = '\0';
}

/* Path of file i relative to FILES_DIR into buf (REL_MAX bytes). */
static inline void rel_path(const struct files_state *st, uint32_t i, char *buf)
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


static inline int interrupted(struct result *res)
{
	return bench_fail(res, -EINTR, NULL, NULL);
}

/*
 * --stonewall: 1 when this phase must end before its next operation,
 * because it has run cfg->stonewall seconds or another worker's has (the
 * shared *ctx->wall, set here for the others).  The phase then ends as a
 * success with the work done so far, flagged RESULT_STONEWALLED.
 */
static inline int stonewalled(const struct bench_ctx *ctx, const struct measure *m,
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
static inline void phase_end(const struct measure *m, struct result *res,
		      uint64_t ops, uint64_t bytes)
{
	double elapsed = measure_end(m, res);

	res->ops = ops;
	res->bytes = bytes;
	res->value = elapsed > 0 ? (double)ops / elapsed : 0;
}

/* The state between create, stat and delete (bench->files). */
struct files_state *files_state_get(struct bench_ctx *ctx);
/* Close what st holds open and free its tables; the files stay. */
void files_state_release(struct files_state *st);
/*
 * The family's state for its stat or delete, or NULL (res recorded as
 * skipped, "needs seq_create") when its create did not complete.
 */
struct files_state *files_state_ready(struct bench_ctx *ctx,
				      struct result *res,
				      enum files_family family);

/* "<dir>/files/<rel>" (rel NULL: FILES_DIR) for messages; caller frees. */
char *files_full_path(const struct bench_ctx *ctx, const char *rel);
/* bench_fail() naming FILES_DIR/rel (or FILES_DIR itself). */
int files_fail_rel(const struct bench_ctx *ctx, struct result *res, int err,
		   const char *what, const char *rel);
/* bench_fail() naming sub-directory d (or FILES_DIR when flat). */
int files_fail_sub(const struct bench_ctx *ctx, struct result *res, int err,
		   const char *what, const struct files_state *st,
		   uint32_t d);

/* syncfs() of the filesystem under test; 0 or the failure in res. */
int files_sync_fs(const struct bench_ctx *ctx, struct result *res);
/* -b: fsync the directory holding file i after a create, link or unlink. */
int files_sync_dir(const struct bench_ctx *ctx, struct files_state *st,
		   uint32_t i, struct result *res);
/* Remove what an earlier family left in FILES_DIR, outside timing. */
int files_remove_leftovers(const struct bench_ctx *ctx,
			   struct files_state *st, struct result *res);
/* The random parts of all st->n names, before the timed period. */
void files_make_names(struct files_state *st, struct rng *r);
/* --drop-caches: dentries and inodes out before a stat or delete phase. */
void files_drop_metadata(struct bench_ctx *ctx);

#endif
