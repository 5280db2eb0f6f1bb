/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BONNIE_FMT_H
#define CLYDE_BONNIE_FMT_H

/*
 * What bonnie++'s CSV line and its text table have in common: the order of
 * the twelve tests, the run's shape read from the record's params with
 * bonnie++'s defaults, and bonnie++'s ways of printing sizes and
 * latencies.  Internal to report/.
 */

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#define BONNIE_NIO 6
#define BONNIE_NFILE 6

/* CSV stems in bonnie++'s column order: putc .. seeks, seq_create .. */
extern const char *const bonnie_io_tests[BONNIE_NIO];
extern const char *const bonnie_file_tests[BONNIE_NFILE];

/*
 * Whether the test of CSV stem name is a per-char one (putc, getc): the
 * one place the report knows it (a record from bonnie++ has only names).
 */
int bonnie_test_per_char(const char *name);

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
