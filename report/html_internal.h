/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_HTML_INTERNAL_H
#define CLYDE_HTML_INTERNAL_H

/*
 * The sections of the HTML page (report_write_html in html.c assembles
 * them): html_tables.c (configurations, the bonnie++ and other tables,
 * the runs), html_matrix.c (XDISK tables), html_charts.c (bar charts,
 * latency), html_env.c (each run's environment and workers).  Every
 * section writes through the emitter (hout.h) only.
 */

#include <stddef.h>
#include <stdio.h>

#include "bonnie_fmt.h"
#include "compare.h"
#include "report.h"

struct page {
	const struct compare *c;
	const struct report_opts *o;
	FILE *f;
	double *vals;		/* scratch [ngroups] */
	size_t *ns;
	const char **cls;
	int has_bonnie;		/* some run has a bonnie++ result */
	int has_matrix;		/* some run has matrix tables */
	int has_zones;		/* some run is a clyde zones record */
	int has_charts;		/* some test has a figure to draw */
	int has_latency;	/* some test has a histogram */
};

/* The first of the tests after the bonnie++ ones (compare adds those first). */
#define OTHER_TESTS (BONNIE_NIO + BONNIE_NFILE)

/* --- shared pieces (html_tables.c) --- */

/* A style attribute colouring by rank (0 worst .. 1 best); none if < 0. */
void html_colour(FILE *f, double rank);

/*
 * A <td class="num"> of figure v as fmt prints it, with v in data-v for
 * sorting; NaN or negative (not measured): a dash in a "none" cell.
 */
void html_fig_td(FILE *f, double v, void (*fmt)(char *, size_t, double));

/* A mark: <span class="mark" title="title">text</span>. */
void html_mark(FILE *f, const char *text, const char *title);

/* The marks of the CMP_* flags in m. */
void html_marks(FILE *f, unsigned m);

/* The VM mark of a configuration or run, styled; nothing when NULL. */
void html_vm_mark(FILE *f, const char *mark);

/* The VM mark of one run. */
void html_run_mark(FILE *f, const struct record *rec);

/* The configuration's name cell, linked to its row of the config table. */
void html_group_cell(struct page *p, size_t g);

/* Whether a run of configuration g has a result of a test in [t0, t1). */
int html_group_has(const struct compare *c, size_t g, size_t t0, size_t t1);

/* Whether test t has a bar to draw / a latency histogram somewhere. */
int html_chart_has(const struct compare *c, size_t t);
int html_latency_has(const struct compare *c, size_t t);

/* --- the sections, in page order --- */

void html_configurations(struct page *p);
void html_bonnie_table(struct page *p);
void html_other_table(struct page *p);
void html_matrix_tables(struct page *p);
/* clyde zones records (html_zones.c): whether there are any; the chart
 * and tables */
int html_zones_has(const struct compare *c);
void html_zones(struct page *p);
void html_charts(struct page *p);
void html_latency(struct page *p);
void html_runs(struct page *p);
/* html_compare.c: --criteria, --baseline-file, the pivot, dimensions,
 * repeat statistics; html_curves.c: rate curves and their chart */
void html_verdicts(struct page *p);
void html_regress(struct page *p);
void html_pivot(struct page *p);
void html_dims(struct page *p);
void html_stats(struct page *p);
void html_curves(struct page *p);
/* html_mxrun.c: each run's matrix in the XDISK layout */
void html_matrix_appendix(struct page *p);
void html_environment(struct page *p);

#endif
