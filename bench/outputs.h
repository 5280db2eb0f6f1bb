/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_OUTPUTS_H
#define CLYDE_OUTPUTS_H

/*
 * The files a benchmark command appends its record to (--json, --csv):
 * one set, opened together once every check has passed, and then either
 * committed (each written, flushed, a failure said) or aborted (bad
 * input after all: closed, and the files this run created removed).
 * Opening refuses one file named for two outputs, and a non-empty file
 * of another format.  The command layer: messages go to stderr.
 */

#include <stddef.h>
#include <stdio.h>

/* What an output file holds: an existing one must start the same way. */
enum output_format {
	OUT_JSON,		/* JSON lines: each a '{' record */
	OUT_BONNIE_CSV,		/* bonnie++ 1.98 lines of clyde run */
	OUT_MATRIX_CSV,		/* clyde matrix's long CSV, its header first */
	OUT_ZONES_CSV,		/* clyde zones' CSV, "# clyde zones" first */
};

#define OUTPUTS_MAX 4

struct output {
	const char *opt;	/* the option naming it: "--json" */
	const char *path;	/* NULL: not asked for */
	enum output_format fmt;
	FILE *f;		/* open to append, after outputs_open() */
	int fresh;		/* new or empty: a CSV header goes first */
	int created;		/* this run made it */
};

struct outputs {
	struct output out[OUTPUTS_MAX];
	size_t n;
};

/* Add output opt at path (NULL: not given) of format fmt; its index. */
size_t outputs_add(struct outputs *s, const char *opt, const char *path,
		   enum output_format fmt);

/*
 * Check that no file is named twice (the same device and inode when it
 * exists, else the same resolved path) and open every output to append.
 * 0, or EXIT_USAGE after a one-line message with nothing left behind.
 */
int outputs_open(struct outputs *s);

/* The open file of output i, or NULL when it was not asked for. */
FILE *outputs_file(const struct outputs *s, size_t i);

/*
 * After writing output i (rc: the writer's result, nonzero when it
 * failed): flush it and say a failure.  0, or -1 when it failed.
 */
int outputs_done(struct outputs *s, size_t i, int rc);

/* Close every file (the record is written). */
void outputs_commit(struct outputs *s);

/* Close every file and remove those this run created (no record). */
void outputs_abort(struct outputs *s);

#endif
