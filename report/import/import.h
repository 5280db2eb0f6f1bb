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

#include "report/model/record.h"

struct import {
	struct record **recs;
	size_t nrecs, recs_alloc;
	char **warnings;	/* "FILE:LINE: what is wrong" */
	size_t nwarnings, warnings_alloc;
	/* the file being read: its warnings, and those past
	 * IMPORT_WARN_LIMIT, only counted ("N more ... not shown") */
	size_t file_warnings, file_hidden;
	size_t file_foreign;	/* of them, lines of no format clyde reads */
	size_t file_first;	/* its first warning in warnings */
	/* its lines of a tool's own text, said once at its end:
	 * bonnie++'s tables and progress messages, fio's messages (the
	 * first kept to quote) */
	size_t file_bonnie_text, file_bonnie_progress, file_fio_text;
	char *file_fio_first;
	/* lines of other text outside fio's JSON documents (fio's normal
	 * output of --output-format=normal,json, a note), the first kept
	 * to quote; file_fio_normal: some are fio's normal output */
	size_t file_fio_other;
	char *file_fio_other_first;
	int file_fio_normal;
	/* lines of fio's normal or terse text where no fio JSON was found */
	size_t file_fio_plain;
	/* its bonnie++ CSV lines so far (a line written twice is read
	 * once): a hash of each line's text, and the text */
	struct import_seen { unsigned long long hash; unsigned long line;
			     char *text; } *seen;
	size_t nseen, seen_alloc;
	struct record_reader *reader;	/* clyde JSON lines, made once */
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
 * cannot be read (a warning with the system's reason).  Read a line at
 * a time: each clyde JSON line becomes a record and its JSON tree is
 * freed before the next, so memory holds records, not the file; a fio
 * JSON document is read whole (a file again from its start, a pipe
 * from the text kept as it was read, the one case where it is kept).
 */
int import_file(struct import *im, const char *path);

/* The same for text already in memory; name is used in messages. */
int import_buffer(struct import *im, const char *name, const char *buf,
		  size_t len);

/* For the importers (report/import_*.c). */
__attribute__((format(printf, 2, 3)))
void import_warn(struct import *im, const char *fmt, ...);
/* A warning outside the per-file limit (one per file, said once). */
__attribute__((format(printf, 2, 3)))
void import_note(struct import *im, const char *fmt, ...);
/*
 * A bonnie++ CSV line of the file being read, its text: 0 the first of
 * its kind, else the number of the earlier line it repeats.
 */
unsigned long import_seen_line(struct import *im, const char *text,
			       unsigned long lineno);
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
 * Whether the line p (l bytes, no newline) is one only fio's normal or
 * terse text output prints: its version line ("fio-3.33"), a job's head
 * ("seqw: (g=0): rw=...", "seqw: (groupid=0, jobs=1): err= 0: ..."),
 * "Run status group N", a terse line ("3;fio-3.33;...").
 */
int fio_text_line(const char *p, size_t l);
/* clyde JSON lines; returns records added. */
int import_clyde(struct import *im, const char *name, const char *buf,
		 size_t len);

#endif
