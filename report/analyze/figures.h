/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_FIGURES_H
#define CLYDE_FIGURES_H

/*
 * The names of a comparison's figures: a test's (its name "put_block" or
 * title "Block write"), and every figure of every matrix cell and curve
 * point, one grammar built here and read here, so that --figure, the
 * pivot, criteria sections, the regression watch, the CSVs and
 * --list-figures all say and take the same thing.
 *
 * A cell's name (fig_cell_name):
 *
 *   8K 16 thr qd 1 Random 80/20 [hit 1M 100%] [curve 50%]
 *
 * block size (K, M, G: binary), threads, queue depth per thread, pattern
 * (Random or Seq), profile (read/write %: "100% read", "100% write",
 * "80/20"), the cache-hit area and % when the cell had one, the curve
 * point (% of the cell's maximum IO/s) when it is one.  A figure of it
 * (fig_name) adds one of: IO/s, MB/s, CPU %, or "STAT read ms" / "STAT
 * write ms" with STAT mean, min, p50, p90, p99, p99.9 or max.
 *
 * Reading (fig_parse) takes any case, the words in any order and the
 * spellings the text and HTML print: "8K block size — 16 threads, queue
 * depth 4", "blocks", "threads", "Sequential", "Read (ms)" (= mean read
 * ms), "read p99", "iops", "MiB/s", "16x4" (threads x queue depth), and
 * the older criteria form "matrix 8k 16 random 100" (a bare number
 * before the pattern is the threads, after it the read %).  What a name
 * leaves out matches anything, except the curve point: without one it
 * names the cell itself; "hit 0" names a cell without a hit area.  A
 * name exactly as fig_name() writes it is that one figure (fig_select).
 */

#include <stddef.h>
#include <stdint.h>

#include "report/analyze/compare.h"
#include "report/model/matrix.h"

/* What identifies a matrix cell or curve point across runs. */
struct fig_cell {
	uint64_t bs;
	unsigned threads, qd;
	int random;
	unsigned read_pct;
	uint64_t hit_area;
	unsigned hit_pct;
	unsigned curve_pct;	/* 0: the cell; else its point at this % */
};

enum fig_kind {
	FIG_TEST,		/* a test's value */
	FIG_IOPS, FIG_MBPS, FIG_CPU,
	FIG_READ, FIG_WRITE,	/* a figure (lat) of the latency summary */
};

struct fig_id {
	enum fig_kind kind;
	size_t test;		/* FIG_TEST: index in compare.tests */
	int lat;		/* FIG_READ, FIG_WRITE: HIST_S_* */
	struct fig_cell cell;	/* the others */
};

/* which parts of a name were given (fig_sel.has) */
#define FIGS_BS		0x01u
#define FIGS_THREADS	0x02u
#define FIGS_QD		0x04u
#define FIGS_PATTERN	0x08u
#define FIGS_MIX	0x10u
#define FIGS_HIT	0x20u	/* hit area given */
#define FIGS_HITPCT	0x40u
#define FIGS_FIGURE	0x80u
#define FIGS_CELL	0x7fu	/* any part of a cell */

/* A name as read: the parts given, the others match anything. */
struct fig_sel {
	unsigned has;
	struct fig_cell cell;
	enum fig_kind kind;	/* with FIGS_FIGURE */
	int lat;
};

/*
 * Read a cell or figure name: 0 and sel, or -1 with "what is wrong" in
 * err.  A name with no part of a cell in it is refused.
 */
int fig_parse(const char *name, struct fig_sel *sel, char *err,
	      size_t errlen);

/* Whether cell c (and figure kind/lat) is one the selector names. */
int fig_sel_cell(const struct fig_sel *sel, const struct fig_cell *c);
int fig_sel_matches(const struct fig_sel *sel, const struct fig_id *f);

/* The identity of cell mc, or of its point pt (pt < 0: the cell). */
void fig_cell_of(const struct matrix_cell *mc, int pt, struct fig_cell *c);
/* The same shape and mix, curve point aside. */
int fig_cell_same_cell(const struct fig_cell *a, const struct fig_cell *b);

/* "8K 16 thr qd 1 Random 80/20" (+ " hit 1M 100%", " curve 50%"). */
void fig_cell_name(char *buf, size_t len, const struct fig_cell *c);

/* "... IO/s", "... p99 read ms"; a test's title.  c: for a test. */
void fig_name(char *buf, size_t len, const struct fig_id *f,
	      const struct compare *c);
/* The figure alone: "IO/s", "p99 read ms"; a test's title. */
void fig_what_name(char *buf, size_t len, const struct fig_id *f,
		   const struct compare *c);
/* Its unit: the test's, "IO/s", "MiB/s", "%", "ms". */
const char *fig_unit(const struct fig_id *f, const struct compare *c);
/* Whether a higher value is the better one. */
int fig_higher_better(const struct fig_id *f);

/*
 * The response time of a cell or point in ms, as seed 001 states its
 * result ("28.6M IO/s at 0.21 ms"): for the mean, reads' and writes'
 * means weighted by the mix; for a percentile or the maximum, the higher
 * of the two sides'.  NAN without reads and writes.
 */
double fig_response_ms(const struct matrix_figures *f, unsigned read_pct,
		       int lat);

/* Every figure of a comparison, tests first, then cells in table order. */
struct fig_list {
	struct fig_id *v;
	size_t n;
};

void fig_list_build(struct fig_list *l, const struct compare *c);
void fig_list_release(struct fig_list *l);

/*
 * The figures a name selects: a test by name or title, else the cell
 * figures fig_parse() reads in it (a cell without a figure word: its
 * IO/s, MB/s and mean read and write ms); a name exactly as fig_name()
 * writes it selects that figure alone.  0 with out filled (none is no
 * error), -1 with err when the name is neither.
 */
int fig_select(const struct fig_list *all, const struct compare *c,
	       const char *name, struct fig_list *out, char *err,
	       size_t errlen);

/*
 * The value of figure f in run r (an index into c->recs); NAN when the run
 * has no such figure or it did not run ok.  *too_fast (may be NULL) is set
 * for a bonnie++ +++++.
 */
double fig_run_value(const struct compare *c, size_t r,
		     const struct fig_id *f, int *too_fast);

/* The values of f over group g's runs (NAN: none): a summary. */
void fig_group_summary(const struct compare *c, size_t g,
		       const struct fig_id *f, struct stats_summary *s);

#endif
