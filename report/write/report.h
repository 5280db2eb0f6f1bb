/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_REPORT_H
#define CLYDE_REPORT_H

/*
 * The writers of `clyde report`, each a function of a comparison
 * (compare.h): the HTML page, the long CSV, bonnie++ 1.98 lines and the
 * 80-column text.  Each returns 0, or -1 with err set (errno kept for
 * stream errors).
 */

#include <stddef.h>
#include <stdio.h>

#include "report/analyze/compare.h"

struct crit_verdicts;
struct pivot;
struct regress;
#include "report/write/numfmt.h"

struct report_opts {
	const char *title;		/* page title */
	const char *template_dir;	/* NULL: the built-in templates */
	char *const *inputs;		/* file names, for the page */
	size_t ninputs;
	char *const *warnings;		/* import warnings, shown on the page */
	size_t nwarnings;
	/* --criteria: the verdicts and the file (NULL: none) */
	const struct crit_verdicts *verdicts;
	const char *criteria;
	/* --rows/--columns: the pivot and its figures (NULL: none) */
	const struct pivot *pivot;
	/* --baseline-file: the regression watch (NULL: none) */
	const struct regress *regress;
	const char *baseline_file;
};

/* One self-contained polyglot HTML5 page (well-formed XML). */
int report_write_html(const struct compare *c, const struct report_opts *o,
		      FILE *out, char *err, size_t errlen);

/*
 * Long CSV: a header row, then one row per run and test; with verdicts
 * (NULL: none) each row's checks and verdict in the last two columns.
 */
int report_write_longcsv(const struct compare *c,
			 const struct crit_verdicts *verdicts, FILE *out);

/* bonnie++ 1.98 lines, one per run, that bon_csv2html renders. */
int report_write_bonnie(const struct compare *c, FILE *out);

/* The 80-column text comparison. */
int report_write_cmptext(const struct compare *c, FILE *out);

/*
 * The line of the text tables that leave a VM mark out of their rows
 * because every configuration has it (compare_common_virt).
 */
void report_text_common_virt(const char *mark, FILE *out);

/*
 * A run's own text (writer: matrix_write_text, zones_write_text) in a
 * comparison, after head ("\nRun 3: "): the first line, which head
 * lengthens and which names the run's label, wrapped to 80 columns.
 */
int report_text_run(FILE *out, const char *head,
		    int (*writer)(const struct record *, FILE *),
		    const struct record *rec);

#endif
