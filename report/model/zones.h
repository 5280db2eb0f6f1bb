/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_REPORT_ZONES_H
#define CLYDE_REPORT_ZONES_H

/*
 * The zones section of a run record (`clyde zones`, bonnie++'s zcav with a
 * plot): the target read (and with --write, written) from start to end in
 * zones, one sweep after another; per sweep and zone the bytes moved, the
 * time, MiB/s and the latency summary every writer shows (histogram.h).
 * The section carries its own schema version ("zones": {"schema": 1,
 * ...}) so its readers can refuse a layout they do not know.  The writers
 * here: JSON (the record's "zones" member), the text tables and summary,
 * and the gnuplot-friendly CSV.  Like the rest of report/, it works on
 * records only.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/histogram.h"
#include "report/model/record.h"

#define ZONES_SCHEMA_VERSION 1

struct json_object;
struct jval;

/* One zone of one sweep. */
struct zone_row {
	uint64_t offset;	/* bytes from the start of the target */
	uint64_t length;	/* the zone's size (the last may be short) */
	uint64_t bytes;		/* moved without error */
	uint64_t ios;		/* I/Os that completed whole */
	uint64_t errors;	/* I/Os that failed */
	int err;		/* errno of the first failure, 0: none */
	uint64_t err_offset;	/* where it was (the failed I/O's offset) */
	/*
	 * The first unreadable unit of that I/O, found by reading it again
	 * unit by unit (bad_unit bytes, the direct I/O alignment) after the
	 * sweep, outside its time; bad_unit 0: not located (a write, or
	 * every unit read well the second time).
	 */
	uint64_t bad_offset, bad_unit;
	double elapsed;		/* seconds */
	double mibps;		/* bytes / elapsed / 2^20 */
	/*
	 * The latency summary of the zone's I/Os (hist_summarize: mean,
	 * min, p50, p90, p99, p99.9, max), in ms, indexed by HIST_S_*; NAN
	 * when it had no I/O, or for the figures a record of an older clyde
	 * did not carry (it kept mean, p99 and max only).
	 */
	double lat_ms[HIST_SUMMARY_N];
	/*
	 * Bytes of the zone that were unallocated (holes) in the file read,
	 * or in a loop device's backing file, when a read sweep was done: a
	 * read of a hole moves no data from the storage, so its rate
	 * flatters it.  0: all allocated, or not known (a write sweep).
	 */
	uint64_t unalloc;
	/*
	 * The zone's share (0..1) in the host page cache at the start of
	 * the sweep (of the file, or of a loop device's backing file): its
	 * reads may come from memory, not from the storage.  <0: not
	 * measured.
	 */
	double resident;
};

/* At least this share of a zone in the page cache marks it cached. */
#define ZONES_CACHED_SHARE 0.5

/*
 * A zone whose measured time is below its own I/Os' mean latency: the
 * queue ran across its boundaries (completions of the zone before counted
 * in it), so its rate is of low precision; it is marked, and left out of
 * min/max and the slowest zones.
 */
int zones_row_coarse(const struct zone_row *r);
/* A zone whose rate counts in min/mean/max and the slowest zones: no
 * error, bytes moved, and not coarse. */
int zones_row_rated(const struct zone_row *r);

/* One sweep over the target: a read or a write, in zone order. */
struct zones_sweep {
	unsigned pass;		/* 1..--passes */
	int write;		/* 1 a write sweep, 0 a read sweep */
	enum result_status status;	/* ok, failed (errors or stop) */
	char *reason;		/* failed: why (owned) */
	double elapsed;		/* seconds, first submit to last completion */
	uint64_t bytes;		/* moved without error */
	double mibps;
	double residency;	/* page cache share of the file (or the
				 * loop's backing file) at the start; <0:
				 * not measured */
	int stopped;		/* the process was stopped (SIGSTOP) and
				 * continued inside the sweep: the time it
				 * stood still is in its figures */
	struct histogram lat;	/* every I/O of the sweep, ns */
	struct zone_row *zones;	/* the zones done, in order */
	size_t nzones, alloc;
};

struct record_zones {
	int schema;		/* ZONES_SCHEMA_VERSION when written here */
	char *kind;		/* "device" or "file" */
	int created;		/* clyde created and filled the file */
	char *engine;		/* "psync", "libaio" */
	unsigned qd;
	int direct;		/* O_DIRECT */
	uint64_t size;		/* bytes covered by the sweeps */
	uint64_t bs;		/* bytes per I/O */
	uint64_t zone_size;	/* bytes per zone (the last may be short) */
	size_t nzones;		/* zones per sweep */
	unsigned passes;	/* asked for */
	char *error;		/* a failure outside the sweeps, or NULL */
	struct zones_sweep *sweeps;	/* in run order */
	size_t nsweeps, alloc;
};

struct record_zones *zones_new(void);
void zones_free(struct record_zones *z);

/* Append a sweep (RESULT_NOT_RUN, empty); valid until the next call. */
struct zones_sweep *zones_add_sweep(struct record_zones *z, unsigned pass,
				    int write);
/* Append a zero zone row to s; valid until the next call. */
struct zone_row *zones_add_row(struct zones_sweep *s);

/* Set a row's mibps and latency figures from its counts and h. */
void zones_row_finish(struct zone_row *r, const struct histogram *h);
/* Set a sweep's bytes and mibps from its rows and elapsed. */
void zones_sweep_finish(struct zones_sweep *s);

/* "pass 2 read", "pass 1 write" (or "read" alone with one pass). */
void zones_sweep_name(const struct record_zones *z,
		      const struct zones_sweep *s, char *buf, size_t len);

/*
 * A sweep's zone figures for the summaries: the slowest, mean and fastest
 * zone MiB/s (zones with errors or nothing moved left out) and the index
 * of the slowest and fastest; n the zones counted (0: the rest are NAN
 * and -1).
 */
struct zones_stats {
	size_t n;
	double min, mean, max;
	long imin, imax;
	size_t nerr;		/* zones with a failed I/O */
	size_t ncoarse;		/* zones left out as coarse */
};
void zones_sweep_stats(const struct zones_sweep *s, struct zones_stats *st);

/* The section as a JSON object (NULL when z is NULL). */
struct json_object *zones_json_object(const struct record_zones *z);

/*
 * Read the "zones" member obj (NULL: nothing to read) into rec->zones.
 * 0, or -1 with a message in err (a schema this clyde does not know, a
 * malformed member).
 */
int zones_json_read(const struct jval *obj, struct record *rec, char *err,
		    size_t errlen);

/*
 * The text: a line saying what was measured, a compact table with a row
 * per zone (MiB/s of every sweep, the spread between passes, latency),
 * the zones with errors, then the summary per sweep.
 */
int zones_write_text(const struct record *rec, FILE *out);

/*
 * CSV, one row per zone and sweep, for gnuplot and spreadsheets: '#'
 * comment lines say what was measured and name the columns, a blank line
 * separates sweeps (gnuplot data blocks: `every :::1::1` is the second).
 * offset_gib first, so `plot 'f.csv' using 1:5 with lines` draws MiB/s
 * against the offset.
 */
int zones_write_csv(const struct record *rec, FILE *out);

#endif
