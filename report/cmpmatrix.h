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

#include "compare.h"
#include "matrix.h"

struct cmpm_cell {
	int random;
	unsigned read_pct;
};

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

/* Figures of one cell (or curve point) of one configuration. */
struct cmpm_fig {
	size_t n;		/* runs with the cell ok (0: see status) */
	const char *status;	/* of the first run with the cell, or NULL
				 * when no run of the configuration has it */
	double iops, mbps, read_ms, write_ms;	/* means; NAN: none */
	double cpu;
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

/* Table t's title: "4K blocks, 2 threads, queue depth 1". */
void cmpm_title(char *buf, size_t len, const struct cmpm_table *t);

/*
 * The matrix of a comparison as text: per shape (block size, threads,
 * queue depth) one XDISK table with each configuration's rows under its
 * name and the IO/s ratio to the matrix baseline, cells of different
 * shapes never in one table; then the rate curves, a table per
 * configuration and cell; then each run's own tables (the appendix).
 */
int cmpm_write_text(const struct compare *c, FILE *out);

#endif
