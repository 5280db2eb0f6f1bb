/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CMPMATRIX_H
#define CLYDE_CMPMATRIX_H

/*
 * The matrix part of a comparison (`clyde report` over `clyde matrix`
 * records): the XDISK tables of every run lined up, one table per block
 * size, thread count and queue depth, a column per cell (pattern x mix)
 * and configuration, figures averaged over a configuration's runs, ratios
 * to a matrix baseline.  Works on compare.h and matrix.h only.
 */

#include <stddef.h>
#include <stdint.h>

#include "report/analyze/compare.h"
#include "report/model/matrix.h"

struct cmpm_cell {
	int random;
	unsigned read_pct;
	uint64_t hit_area;	/* cells of other hit areas or % are others */
	unsigned hit_pct;
};

struct fig_cell;

struct cmpm_table {
	uint64_t bs;
	unsigned threads, qd;
	struct cmpm_cell *cells;	/* in first-seen order */
	size_t ncells;
	unsigned *pcts;		/* curve points by position (first seen) */
	size_t npts;
};

struct cmpm {
	struct cmpm_table *tables;
	size_t ntables;
	size_t *groups;		/* configurations with a matrix, in order */
	size_t ngroups;
	size_t baseline;	/* the compare baseline when it has a matrix,
				 * else the first such configuration */
};

/* The four figures of a cell in the XDISK tables' order. */
enum { CMPM_IOPS, CMPM_MBPS, CMPM_READ_MS, CMPM_WRITE_MS, CMPM_NFIGS };

/* Figures of one cell (or curve point) of one configuration. */
struct cmpm_fig {
	size_t n;		/* runs with the cell ok (0: see status) */
	const char *status;	/* of the first run with the cell, or NULL
				 * when no run of the configuration has it */
	double iops, mbps, read_ms, write_ms;	/* means; NAN: none */
	double cpu;
	/*
	 * The runs' values of each figure (CMPM_IOPS..), summarised
	 * (report/analyze/stats.h) for the difference to the baseline.
	 */
	struct stats_summary sum[CMPM_NFIGS];
	/*
	 * Everything the XDISK tables show: one run's own figures (exact,
	 * an importer's reported percentiles included), or over several
	 * runs the mean IO/s, MB/s and CPU with latency from their merged
	 * histograms; target_iops the mean target of a curve point.
	 */
	struct matrix_figures fig;
};

/* Build over c; ntables 0 when no record has a matrix. */
void cmpm_build(struct cmpm *m, const struct compare *c);
void cmpm_release(struct cmpm *m);

/*
 * Configuration g's figures of cell k of table t; pt < 0 the cell, else
 * its curve point at position pt.
 */
void cmpm_figures(const struct compare *c, const struct cmpm_table *t,
		  size_t k, size_t g, int pt, struct cmpm_fig *f);

/*
 * Whether a run of configuration g has a cell of table t's shape (block
 * size, threads, depth), ok or not (else it has nothing in that table).
 */
int cmpm_group_has(const struct compare *c, const struct cmpm_table *t,
		   size_t g);

/*
 * Whether figure fig (CMPM_IOPS..) of f differs from the baseline's,
 * base, by the report's one rule (stats_difference with c's noise band);
 * UNTESTED when either has no value.
 */
void cmpm_diff(const struct compare *c, const struct cmpm_fig *f,
	       const struct cmpm_fig *base, int fig, struct stats_diff *d);

/* The identity of cell k of table t (report/analyze/figures.h). */
void cmpm_cell_id(const struct cmpm_table *t, size_t k, struct fig_cell *id);

/*
 * The matrix of a comparison as text: per shape (block size, threads,
 * queue depth) one XDISK table with each configuration's rows under its
 * name and the IO/s ratio to the matrix baseline, cells of different
 * shapes never in one table; then the rate curves, a table per
 * configuration and cell; then each run's own tables (the appendix).
 */
int cmpm_write_text(const struct compare *c, FILE *out);

#endif
