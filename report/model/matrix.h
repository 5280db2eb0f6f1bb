/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_REPORT_MATRIX_H
#define CLYDE_REPORT_MATRIX_H

/*
 * The matrix section of a run record (`clyde matrix`): one cell per block
 * size x threads x pattern x read percentage, with its rates and its read
 * and write latency histograms, and the writers of that section: JSON (as
 * the "matrix" member of the record's object), the XDISK-layout text tables
 * and the long CSV.  Like the rest of report/, it works on records only.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/histogram.h"
#include "report/model/record.h"


/* One point of a cell's rate curve: the cell rerun rate-limited. */
struct matrix_point {
	unsigned pct;		/* % of the cell's maximum IO/s */
	double target_iops;	/* pct x the maximum */
	enum result_status status;
	int low_precision;	/* matrix_low_precision() when measured */
	double elapsed, iops, mbps, cpu;
	struct histogram rlat;
	struct histogram wlat;
};

/* One target's share of a cell (several -d): its threads' I/Os. */
struct matrix_target_row {
	struct histogram rlat, wlat;	/* ns; counts are its I/Os */
	double iops, mbps;		/* over the cell's elapsed */
};

/* --steady: what the cell's steady-state check found. */
struct matrix_steady {
	int checked;		/* --steady applied to this cell */
	int attained;
	double at;		/* s of measured time when attained (or the
				 * cell's end) */
	double window;		/* s: the cell's figures come from it */
	double mean;		/* of the window's samples (IO/s or MiB/s) */
	double value;		/* max deviation, or slope per s; in % of
				 * the mean when the limit is */
};

struct matrix_cell {
	uint64_t bs;		/* bytes per I/O */
	unsigned threads;
	unsigned qd;		/* per thread */
	int random;		/* 1 random, 0 sequential */
	unsigned read_pct;	/* 0..100 */
	enum result_status status;
	int low_precision;	/* matrix_low_precision() when measured */
	int stopped;		/* stopped and continued while it ran, as
				 * a result's RESULT_STOPPED (record.h) */
	char *reason;		/* failed: why (owned) */
	enum reason_kind reason_kind;	/* as a result's (record.h) */
	int signal;
	double elapsed;		/* measured seconds (after the ramp) */
	double iops;		/* (reads + writes) / elapsed */
	double mbps;		/* iops * bs / 2^20 */
	double cpu;		/* % of one CPU, whole process */
	struct histogram rlat;	/* read latency, ns; count = reads */
	struct histogram wlat;	/* write latency, ns; count = writes */
	uint64_t hit_area;	/* --hit-area bytes (0: none) */
	unsigned hit_pct;	/* % of I/Os sent to the hit area */
	uint64_t hits;		/* measured I/Os that went there */
	struct matrix_point *curve;	/* --curve points, in order */
	size_t ncurve;
	struct matrix_target_row *targets;	/* several -d: per target, in
						 * -d order; NULL with one */
	size_t ntargets;
	struct matrix_steady steady;
	/*
	 * -c N: a row per worker (value IO/s, ops, bytes, elapsed, cpu,
	 * first_s/last_s from the cell's release), kept in the worker rows
	 * of this result (report/worker_rows.h, JSON "workers"); NULL when
	 * one process ran the cell.  Owned.
	 */
	struct result *workers;
	/* imported cells: the tool's own read and write latency summary
	 * of rlat and wlat (report/model/histogram.h; NULL: from the
	 * histograms); owned */
	struct hist_exact *rrep, *wrep;
	/* imported cells: the shape an importer derived from the figures,
	 * the tool having printed no option for it (MATRIX_DERIVED_*) */
	unsigned derived;
};

#define MATRIX_DERIVED_BS	0x1u	/* bytes moved / I/Os */
#define MATRIX_DERIVED_QD	0x2u	/* fio's latency_depth, iodepth_level */

/* The prefill: sequential writes of unique data over every file, timed
 * from the first write to the last file's fsync. */
struct matrix_prefill {
	enum result_status status;	/* NOT_RUN: none (--no-prefill) */
	int scan;		/* --no-prefill --verify: a checking read */
	uint64_t bs;		/* bytes per write */
	uint64_t bytes;		/* written (or read) */
	double elapsed;		/* s */
	double mbps;		/* bytes / elapsed / 2^20 */
};

struct record_matrix {
	char *engine;		/* "psync", "libaio" */
	int direct;		/* O_DIRECT */
	int verify;		/* --verify: every read checked */
	char *error;		/* a failure outside the cells (prefill,
				 * validation of existing data), or NULL */
	struct matrix_cell *cells;	/* in run order */
	size_t ncells, alloc;
	struct matrix_prefill prefill;
	char *steady;		/* --steady as given ("iops:5%"), or NULL */
	char *profile;		/* --profile, or NULL */
	/* O_DIRECT asked but not honoured (a memory filesystem, or the
	 * files were in the page cache after the cells): why, or NULL.  The
	 * figures are then page-cache (memory) speed. */
	char *direct_ignored;
};

struct record_matrix *matrix_new(void);
void matrix_free(struct record_matrix *m);

/* Append a cell in state RESULT_NOT_RUN with empty histograms; the pointer
 * is valid until the next matrix_add_cell(). */
struct matrix_cell *matrix_add_cell(struct record_matrix *m);

/* Set status, reason kind, signal and the reason worded from them, as
 * result_set_reason() does for a result. */
void matrix_cell_set_reason(struct matrix_cell *c, enum result_status status,
			    enum reason_kind kind, int sig,
			    const char *detail);

/* Recompute iops and mbps (the cell's and its targets') from the
 * histograms' counts and elapsed. */
void matrix_cell_rates(struct matrix_cell *c);

/* Give c n target rows with empty histograms. */
void matrix_cell_targets(struct matrix_cell *c, size_t n);


/* Append a curve point (zeroed, RESULT_NOT_RUN) to c. */
struct matrix_point *matrix_add_point(struct matrix_cell *c);

/* As matrix_cell_rates() for a point of a cell of block size bs. */
void matrix_point_rates(struct matrix_point *p, uint64_t bs);

/*
 * A cell's (or a curve point's) figures as the tables show them, for
 * writers outside this file (the HTML report): labels and numbers, with
 * NAN for a latency that does not apply (no reads, no writes) or a cell
 * that did not run.
 */
struct matrix_figures {
	char bs[16];		/* "8K", "1M" */
	char pattern[8];	/* "Random", "Seq" */
	char profile[16];	/* "100% read", "80/20" */
	const char *status;	/* "ok", "failed", "not_run", "skipped",
				 * "interrupted" (a skipped cell a signal
				 * cut short) */
	double iops, mbps, cpu;
	double target_iops;	/* a curve point's target; NAN for a cell */
	int reached;		/* a point: 1 reached, 0 not, -1 n/a */
	int low_precision;	/* an ok figure of too few I/Os: marked */
	/* read and write latency in ms, indexed as a struct hist_summary's
	 * v: rlat[HIST_S_MEAN] is the mean read latency, then min, p50,
	 * p90, p99, p99.9, max */
	double rlat[HIST_SUMMARY_N], wlat[HIST_SUMMARY_N];
};

/*
 * The latency summary of h (hist_summarize) in ms, all NAN without
 * samples; an importer's exact figures rep (NULL: none) replace the
 * histogram's where they apply (hist_summarize_exact).
 */
void matrix_lat_ms(const struct histogram *h, const struct hist_exact *rep,
		   double ms[HIST_SUMMARY_N]);

void matrix_cell_figures(const struct matrix_cell *c,
			 struct matrix_figures *f);
/* The same for point p of cell c (labels are the cell's). */
void matrix_point_figures(const struct matrix_cell *c,
			  const struct matrix_point *p,
			  struct matrix_figures *f);

/*
 * A curve point reached its target when it achieved at least this share of
 * the target IO/s.
 */
#define MATRIX_REACHED 0.95

/*
 * Fewer I/Os per thread than this in a cell or curve point: low precision,
 * a count rather than a rate ("144 I/Os in 1.19 s"); the record flags it
 * (low_precision) and every table marks it (text "~", HTML "*").
 */
#define MATRIX_MIN_IOS 10

/* 1 when ios I/Os of threads threads are of low precision. */
int matrix_low_precision(uint64_t ios, unsigned threads);

/* 1 when an ok cell or curve point of m is of low precision. */
int matrix_any_low_precision(const struct record_matrix *m);

/* The mark of a low-precision figure in the text tables, and its note. */
#define MATRIX_LOW_MARK "~"
#define MATRIX_LOW_NOTE "~ low precision: fewer than 10 I/Os per thread, " \
	"a count rather than a rate"

/* 1 point p reached its target, 0 it fell short, -1 it did not run ok. */
int matrix_point_reached(const struct matrix_point *p);

/* "100% read", "100% write", "80/20": the XDISK profile name of a mix. */
void matrix_profile_name(char *buf, size_t len, unsigned read_pct);

/* "hit 1M 100%": a cell's hit area and hit %, "" for a cell without a
 * hit area (matrix_text.c). */
void matrix_hit_name(char *buf, size_t len, uint64_t hit_area,
		     unsigned hit_pct);

/* What a matrix run's cells ran: "--profile vdbench-hit, hit area 1M, 0 %
 * hits" (options given override a profile's), "no hit area" when the
 * profile's was switched off, "" when nothing of it is to say
 * (matrix_text.c; the text's "Workload:" line and the HTML's). */
void matrix_workload_name(char *buf, size_t len,
			  const struct record_matrix *m);

/* "8K", "1M", "512B": a block size or area as every matrix name says it. */
void matrix_size_name(char *buf, size_t len, uint64_t bytes);

/* Whether two cells are of one shape (block size, threads, queue depth):
 * the cells a table of the text and of a comparison holds. */
int matrix_cell_same_shape(const struct matrix_cell *a,
			   const struct matrix_cell *b);

/*
 * The text tables (matrix_text.c), laid out as seed 000 prints them.  Every
 * matrix printed as text uses these, so the run's own tables and the
 * report's look alike.
 *
 * Numbers as XDISK prints them: IO/s rounded with thousands separators
 * ("1,505,683"); MB/s with one decimal below 1000, else as IO/s ("31.4",
 * "11,763"); milliseconds with three significant digits ("0.003", "2.40",
 * "13.0"); NAN (does not apply) as an em dash.
 */
void matrix_fmt_iops(char *buf, size_t len, double v);
void matrix_fmt_mbps(char *buf, size_t len, double v);
void matrix_fmt_ms(char *buf, size_t len, double v);

/* "8K block size — 16 threads" (", queue depth N" when N > 1). */
/* The same for a cell, with what of it was derived: "... (bs, qd
 * derived)". */
void matrix_cell_title(char *buf, size_t len, const struct matrix_cell *c);
void matrix_table_title(char *buf, size_t len, uint64_t bs, unsigned threads,
			unsigned qd);

/* "Random" or "Sequential". */
const char *matrix_pattern_name(int random);

/*
 * The XDISK table: header, then a row per (pattern, profile): Pattern,
 * Profile, IO/s, MB/s, Read (ms), Write (ms); a figure whose status is not
 * "ok" shows the status in the IO/s column.  66 columns.
 */
void matrix_xdisk_header(FILE *out);
void matrix_xdisk_row(FILE *out, const char *pattern, const char *profile,
		      const struct matrix_figures *f);

/*
 * A rate curve: a row per point with target %, target IO/s, achieved IO/s,
 * read and write mean and p99 (ms), and "not reached" when the point fell
 * short (matrix_point_reached()).
 */
void matrix_curve_header(FILE *out);
void matrix_curve_row(FILE *out, unsigned pct, double target_iops,
		      const struct matrix_figures *f);

/*
 * A run's matrix: per block size, thread count and queue depth the XDISK
 * table, below it the percentiles and CPU, then each cell's rate curve;
 * failures under the table they belong to, failures outside the cells
 * last.
 */
int matrix_write_text(const struct record *rec, FILE *out);

/* Long CSV: one row per cell; the header row first when header is set. */
int matrix_write_csv(const struct record *rec, FILE *out, int header);

#endif
