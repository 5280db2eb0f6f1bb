// SPDX-License-Identifier: GPL-2.0-only
/* The regression watch as text; see regress.h. */
#include "report/analyze/regress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/write/report.h"
#include "lib/textcols.h"
#include "lib/xalloc.h"

/* The configuration column: the rows of the table are then 80 wide. */
#define REGRESS_NAME_W 20

/*
 * The verdict of a row: a change for the worse in capitals (DOWN, or UP
 * for a latency); "*" where the noise band decided it (a single run).
 */
static const char *regress_word(const struct regress_item *it, int better)
{
	static const char *const w[2][4] = {
		{ "up", "UP", "down", "DOWN" },
		{ "up*", "UP*", "down*", "DOWN*" },
	};

	if (it->d.verdict == STATS_DIFFERENT)
		return w[it->d.by_band][(it->d.sign > 0 ? 0 : 2) + !better];
	if (it->d.verdict == STATS_SAME)
		return it->d.by_band ? "same*" : "same";
	return "untested";
}

int regress_write_text(const struct regress *r, const char *name,
		       FILE *out)
{
	struct cmp_names names;
	char *head, **fit;
	size_t i;

	/* the file's name may be long: wrapped, as every line, to 80 */
	head = xasprintf("Regression watch against %s: %zu significant change%s "
			 "in %zu compared figure%s", name, r->nsig,
			 r->nsig == 1 ? "" : "s", r->n, r->n == 1 ? "" : "s");
	text_wrap(out, head, 80, 4);
	free(head);
	text_wrapf(out, 80, 0, "(Welch's t-test at 95 %%; * a side has a "
		   "single run: a change only beyond the +-%g %% noise band)",
		   100 * r->new->noise_band);
	if (r->unmatched)
		fprintf(out, "(%zu configuration%s not in the baseline set)\n",
			r->unmatched, r->unmatched == 1 ? "" : "s");
	compare_names_init(&names, r->new);
	fit = compare_names_fit_all(&names, r->new, REGRESS_NAME_W);
	if (r->n && names.common_virt)
		report_text_common_virt(names.common_virt, out);
	if (r->n)
		fprintf(out, "%-3s %-*s %-17s %10s %10s %6s %s\n", "cfg",
			REGRESS_NAME_W,
			"configuration", "test", "baseline", "now", "ratio",
			"verdict");
	for (i = 0; i < r->n; i++) {
		const struct regress_item *it = &r->v[i];
		const char *unit = fig_unit(&it->fig, r->new);
		const char *n = fit[it->g_new];
		char a[32], b[32], ra[16], what[64], cell[96];
		int better = it->d.sign > 0 ? it->higher_better :
			     !it->higher_better;

		if (i == r->nsig && r->nsig)
			fputs("--- not significant or untested:\n", out);
		report_fmt_value(a, sizeof(a), it->old_mean, unit);
		report_fmt_value(b, sizeof(b), it->new_mean, unit);
		if (isnan(it->ratio))
			snprintf(ra, sizeof(ra), "-");
		else
			snprintf(ra, sizeof(ra), "%.2f", it->ratio);
		/* a matrix cell's name on a line of its own, the figure
		 * ("IO/s", "mean read ms") in the test column */
		fig_what_name(what, sizeof(what), &it->fig, r->new);
		if (it->fig.kind != FIG_TEST) {
			fig_cell_name(cell, sizeof(cell), &it->fig.cell);
			text_wrapf(out, 80, 8, "    %s:", cell);
		}
		/* the name padded by columns (UTF-8), never cut again; a
		 * change for the worse in capitals (a latency up: UP) */
		fprintf(out, "%-3zu %s%*s %-17.17s %10.10s %10.10s %6s "
			"%s\n", it->g_new + 1, n, text_cols(n) <
			REGRESS_NAME_W ? (int)(REGRESS_NAME_W - text_cols(n)) :
			0, "", what, a, b, ra, regress_word(it, better));
	}
	compare_names_free_all(fit, names.n);
	compare_names_release(&names);
	return ferror(out) ? -1 : 0;
}
