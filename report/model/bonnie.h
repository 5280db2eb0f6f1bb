/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BONNIE_H
#define CLYDE_BONNIE_H

/*
 * bonnie++'s tests and formats: the one table of its twelve tests (name,
 * title, unit, per-char, place in the CSV line) that the suite
 * (bench/classic), the readers and the writers all use; the run's shape
 * read from the record's params with bonnie++'s defaults; and bonnie++'s
 * ways of printing sizes and latencies.
 */

#include <stddef.h>
#include <stdint.h>

#include "report/model/record.h"

/*
 * bonnie++'s twelve tests in its order (the run order, the CSV's and the
 * text table's columns): the I/O part, then the file part.
 */
enum bonnie_test_id {
	BONNIE_PUTC,
	BONNIE_PUT_BLOCK,
	BONNIE_REWRITE,
	BONNIE_GETC,
	BONNIE_GET_BLOCK,
	BONNIE_SEEKS,
	BONNIE_SEQ_CREATE,
	BONNIE_SEQ_STAT,
	BONNIE_SEQ_DEL,
	BONNIE_RAN_CREATE,
	BONNIE_RAN_STAT,
	BONNIE_RAN_DEL,
	BONNIE_NTESTS
};

#define BONNIE_NIO BONNIE_SEQ_CREATE		/* putc .. seeks */
#define BONNIE_NFILE (BONNIE_NTESTS - BONNIE_NIO)	/* seq_create .. */

/*
 * What the suite, the readers and the writers know of one test: the one
 * place each fact is stated.  bench/classic's tests point at their entry.
 */
struct bonnie_test {
	const char *name;	/* the result's name, bonnie++'s CSV stem:
				   "put_block" */
	const char *title;	/* "Block write" */
	const char *unit;	/* "KiB/s", "seeks/s", "files/s" */
	const char *head;	/* its column's heading in bonnie++'s tables
				   (bon_csv2html): "Per Chr" */
	int per_char;		/* one byte per call (putc, getc) */
};

/* Indexed by enum bonnie_test_id. */
extern const struct bonnie_test bonnie_tests[BONNIE_NTESTS];

/* The test of that name, NULL when it is none of bonnie++'s. */
const struct bonnie_test *bonnie_test_find(const char *name);

/* Whether name is one of the I/O part's tests (putc .. seeks). */
int bonnie_test_io(const char *name);

/* Whether name is one of the file part's tests (seq_create .. ran_del). */
int bonnie_test_files(const char *name);

/*
 * Whether the test of that name is a per-char one (putc, getc): the
 * one place the report knows it (a record from bonnie++ has only names).
 */
int bonnie_test_per_char(const char *name);

/*
 * Where a CSV line has test id's rate (its CPU % follows): the I/O part
 * from field io on, the file part from field files on, two fields a test.
 * Its maximum latency is at latency + id.  bonnie++ 1.98's positions:
 */
#define BONNIE_CSV198_IO 9
#define BONNIE_CSV198_FILES 26
#define BONNIE_CSV198_LATENCY 38
int bonnie_csv_rate_field(enum bonnie_test_id id, int io, int files);

#define BONNIE_DEFAULT_CHUNK 8192
#define BONNIE_DEFAULT_SEEKS 8192
#define BONNIE_DEFAULT_SEEKERS 5

/* The run's shape; absent params take bonnie++'s defaults. */
struct bonnie_shape {
	int64_t file_size;	/* bytes; 0: no I/O tests */
	int64_t chunk_size;
	int64_t seeks;
	int64_t seekers;
	int64_t num_files;	/* real count; 0: no file tests */
	int64_t max_size;	/* -1 hard links, -2 symlinks */
	int64_t min_size;
	int64_t num_dirs;
	int64_t file_chunk_size;
	int64_t concurrency;
	int io;			/* print the I/O part */
	int files;		/* print the file part */
};

void bonnie_shape(const struct record *rec, struct bonnie_shape *shape);

/*
 * A result with a number to print: ok (low precision, cached and direct
 * ignored ones included).  NULL when absent or not run, skipped, failed.
 */
const struct result *bonnie_result(const struct record *rec,
				   const char *name);

/*
 * bonnie++'s print_size(): the largest of units that divides the value,
 * units[0] being the value's own unit ("MG" for MiB, " km" for bytes, a
 * space meaning no suffix).
 */
void bonnie_print_size(char *buf, size_t len, uint64_t size,
		       const char *units);

/*
 * The file size as bonnie++ writes it: "<N>M", or "<N>G" when N divides by
 * 1024.  bonnie++ only knows whole MiB; clyde writes "<N>k" for a size that
 * is not one (and plain bytes for a size that is not whole KiB).
 */
void bonnie_file_size(char *buf, size_t len, int64_t bytes);

/*
 * bonnie++'s -n count: num_files / 1024 ("16"); a count that does not
 * divide by 1024 keeps its fraction ("0.5").
 */
void bonnie_num_files(char *buf, size_t len, int64_t num_files);

/*
 * A maximum latency as bonnie++ prints it: "<n>us" below 0.1 s, "<n>ms"
 * below 100 s, else "<n>s", truncated; empty for no samples.
 */
void bonnie_latency(char *buf, size_t len, const struct result *res);

#endif
