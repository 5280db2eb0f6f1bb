/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_HTML_INTERNAL_H
#define CLYDE_HTML_INTERNAL_H

/*
 * The sections of the HTML page (report_write_html in html.c assembles
 * them): html_tables.c (configurations, the bonnie++ and other tables,
 * the runs), html_matrix.c (XDISK tables), html_charts.c (bar charts,
 * latency), html_env.c (each run's environment and workers).  Every
 * section writes through the emitter (html_emit.h) only.
 */

#include <stddef.h>
#include <stdio.h>

#include "report/model/bonnie.h"
#include "report/analyze/compare.h"
#include "report/write/report.h"

struct page {
	const struct compare *c;
	const struct report_opts *o;
	FILE *f;
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

/*
 * A <td class="num"> of figure v as fmt prints it, with v in data-v for
 * sorting; NaN or negative (not measured): a dash in a "none" cell.
 */
void html_fig_td(FILE *f, double v, void (*fmt)(char *, size_t, double));
/* The same with the low-precision mark after the figure when low. */
void html_fig_td_low(FILE *f, double v,
		     void (*fmt)(char *, size_t, double), int low);

/* A matrix figure of too few I/Os (matrix_low_precision): its mark "*";
 * the note under a table that has one. */
void html_mx_low_mark(FILE *f);
void html_mx_low_note(FILE *f);
/* Whether an ok cell or curve point of a run of c is of low precision. */
int html_mx_any_low(const struct compare *c);

/*
 * A figure's difference d from the baseline's (compare_diff, cmpm_diff:
 * Welch where both have repeats, else the noise band), the only thing a
 * table's colours and arrows say: the cell's class ("better", "worse",
 * else NULL; with num "num better", "num worse", else "num"; higher_better
 * 0 for CPU and response times), its
 * data-diff attribute ("higher", "lower", "same"; none untested) and the
 * mark after the figure (an arrow whose title says the test).  The page
 * says once what they mean (#diff-legend, html_configurations).
 */
const char *html_diff_class(const struct stats_diff *d, int higher_better,
			    int num);
void html_diff_attr(FILE *f, const struct stats_diff *d);
void html_diff_mark(FILE *f, const struct stats_diff *d);

/* A mark: <span class="mark" title="title">text</span>. */
void html_mark(FILE *f, const char *text, const char *title);

/* Configuration g's VM mark, left out when every configuration has it. */
void html_vm_group(struct page *p, size_t g);

/* The VM mark of one run. */
void html_run_mark(FILE *f, const struct record *rec);

/* The configuration's name cell, linked to its row of the config table. */
void html_group_cell(struct page *p, size_t g);

/* Whether a run of configuration g has a result of a test in [t0, t1). */
int html_group_has(const struct compare *c, size_t g, size_t t0, size_t t1);

/* Whether test t has a bar to draw / a latency histogram somewhere. */
int html_chart_has(const struct compare *c, size_t t);
int html_latency_has(const struct compare *c, size_t t);

/* --- line charts (html_curves.c; html_matrix_chart.c draws with them) --- */

/* The colour of a chart's i-th line. */
const char *html_line_colour(size_t i);
/* <svg class="cls" width height role="img"> and its <title>; close it
 * with h_close(f, "svg"). */
void html_svg_open(FILE *f, const char *cls, int w, int h, const char *title);
/* A <text> at (x, y), anchored ("middle", "end"; NULL: start). */
void html_svg_text(FILE *f, double x, double y, const char *anchor,
		   const char *text);
/* The plot area of a chart, in pixels from the svg's top left. */
struct html_plot {
	int left, top, w, h;
};
/* The x and y axes of the plot area and their titles (below, and turned
 * up the left edge). */
void html_svg_axes(FILE *f, const struct html_plot *pl, const char *xtitle,
		   const char *ytitle);
/* A point's marker: a dot, the uncapped maximum (an open circle), a
 * point that fell short of its target (a triangle pointing down), a
 * square. */
enum html_marker { HM_DOT, HM_MAX, HM_SHORT, HM_SQUARE };
/* The marker's element at (x, y) begun, for more attributes: end it with
 * h_end() and close the tag it returns. */
const char *html_marker_start(FILE *f, enum html_marker k, double x, double y,
			      const char *col);
/* A legend entry: its marker (and a line through it, dashed by dash when
 * set), colour, text, and configuration (g + 1; 0: none). */
struct html_key {
	enum html_marker marker;
	int line;
	const char *colour, *dash;
	const char *text;
	size_t group;
};
/*
 * The legend: an entry a line at (x, y), each text wrapped at its spaces
 * and hyphens to fit width pixels, never cut (a <g class="key"> each);
 * returns its height in pixels, writing nothing when f is NULL.
 */
int html_legend(FILE *f, int x, int y, int width,
		const struct html_key *k, size_t n);
/* The response time of a matrix point: reads' and writes' means
 * weighted by the mix (read_pct % reads). */
struct matrix_figures;
double html_response_ms(const struct matrix_figures *f, unsigned read_pct);
/* html_matrix_chart.c: IO/s and response time against block size and
 * threads, a line per configuration, under the matrix tables. */
struct cmpm;
void html_matrix_chart(struct page *p, const struct cmpm *m);
/* "[N] name" of configuration g for a legend, in full (the VM mark
 * unless every configuration has it); free it. */
char *html_key_name(const struct compare *c, size_t g);

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
