/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_IMPORT_H
#define CLYDE_IMPORT_H

/*
 * Reading results into run records, by content, not by file name: clyde
 * JSON lines, bonnie++ CSV (1.03, 1.96/1.97, 1.98, header lines) and fio
 * JSON (normal and json+, text before the first '{', several documents,
 * client/server output).  Every record gets its source ("FILE:LINE
 * (format)").  A malformed line becomes a warning "FILE:LINE: ..." and the
 * rest is still read (after IMPORT_WARN_LIMIT warnings of one file, one
 * more says how many were not shown); nothing here prints.
 */

#include <stddef.h>

#include "record.h"

struct import {
	struct record **recs;
	size_t nrecs, recs_alloc;
	char **warnings;	/* "FILE:LINE: what is wrong" */
	size_t nwarnings, warnings_alloc;
	/* the file being read: its warnings, and those past
	 * IMPORT_WARN_LIMIT, only counted ("N more ... not shown") */
	size_t file_warnings, file_hidden;
};

/* Warnings kept per input file; a binary or foreign file would give one
 * per line. */
#define IMPORT_WARN_LIMIT 5

void import_init(struct import *im);
/* Frees the records still held and the warnings. */
void import_release(struct import *im);

/*
 * Read one file (or "-" for stdin).  Returns the number of records it
 * gave (0: nothing usable, with a warning saying why), or -1 when it
 * cannot be read (a warning with the system's reason).
 */
int import_file(struct import *im, const char *path);

/* The same for text already in memory; name is used in messages. */
int import_buffer(struct import *im, const char *name, const char *buf,
		  size_t len);

/* For the importers (report/import_*.c). */
__attribute__((format(printf, 2, 3)))
void import_warn(struct import *im, const char *fmt, ...);
void import_add(struct import *im, struct record *rec);

/* bonnie++ CSV lines; returns records added. */
int import_bonnie(struct import *im, const char *name, const char *buf,
		  size_t len);
/* The same, buf's first line being line lineno of the file name. */
int import_bonnie_at(struct import *im, const char *name,
		     unsigned long lineno, const char *buf, size_t len);
/* fio JSON documents; returns records added. */
int import_fio(struct import *im, const char *name, const char *buf,
	       size_t len);
/*
 * clyde JSON lines and bonnie++ CSV lines, mixed, in file order: a line
 * starting with '{' is JSON, '#' lines and blank lines are skipped, any
 * other line is read as bonnie++ CSV (a warning when it is not one).
 */
int import_lines(struct import *im, const char *name, const char *buf,
		 size_t len);
/* clyde JSON lines; returns records added. */
int import_clyde(struct import *im, const char *name, const char *buf,
		 size_t len);

#endif
