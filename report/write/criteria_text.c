// SPDX-License-Identifier: GPL-2.0-only
/* The criteria's verdicts as text, and the verdicts of one figure. */
#include "report/analyze/criteria.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/textcols.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

/* The widest of a column's texts, escaped, within [least, most]. */
static size_t col_width(const struct crit_verdicts *v, size_t off,
			int inline_text, size_t least, size_t most)
{
	size_t i, w = least;

	for (i = 0; i < v->n; i++) {
		const char *f = (const char *)&v->v[i] + off;
		char *e = text_escaped(inline_text ? f : *(const char *const *)f);
		size_t k = text_cols(e);

		free(e);
		if (k > w)
			w = k;
	}
	return w < most ? w : most;
}

/* s escaped in w columns, clipped with "...", padded, then a space. */
static void put_col(FILE *out, const char *s, size_t w, int ends)
{
	char buf[4 * 80 + 8];
	size_t k;

	if (ends)
		text_fit_ends(buf, sizeof(buf), s, w);
	else
		text_fit(buf, sizeof(buf), s, w);
	fputs(buf, out);
	for (k = text_cols(buf); k <= w; k++)
		fputc(' ', out);
}

/* The figure in its column; one wider than it whole on a line of its
 * own, the check under it (a cell's name cut loses its pattern or its
 * hit area). */
static void figure_col(FILE *out, const char *figure, size_t w)
{
	char *e = text_escaped(figure);
	size_t k = text_cols(e);

	free(e);
	if (k <= w) {
		put_col(out, figure, w, 0);
		return;
	}
	/* after "cfg ": 5 columns in */
	text_wrapf(out, 80 - 5, 5, "%s", figure);
	fprintf(out, "%*s", (int)(5 + w + 1), "");
}

/* The summary line: "Verdict: FAIL, 1 of 5 checks failed, 2 inconclusive
 * (criteria FILE)", wrapped. */
static void summary(const struct crit_verdicts *v, const char *path,
		    FILE *out)
{
	char inc[96] = "";
	char *line;

	if (v->ninconclusive)
		snprintf(inc, sizeof(inc), ", %zu inconclusive%s",
			 v->ninconclusive, v->allow_inconclusive ?
			 ", allowed" : "");
	line = xasprintf("Verdict: %s, %zu of %zu check%s failed%s (criteria "
			 "%s)", crit_verdicts_failed(v) ? "FAIL" : "PASS",
			 v->nfail, v->n, v->n == 1 ? "" : "s", inc, path);
	text_wrap(out, line, 80, 4);
	free(line);
}

/*
 * The verdict table in 80 columns: check, bound and measured as wide as
 * their widest text (within a cap), the figure (a test's title, a matrix
 * cell, or the section for a figure no configuration has) the room left,
 * one wider on a line of its own with its check under it; failures
 * first, then inconclusive checks, then passes; under a check decided by an interval, how (indented).
 * Every text from the inputs (titles, sections, bounds) is escaped.
 */
int criteria_write_text(const struct crit_verdicts *v,
			const struct compare *c, const char *path, FILE *out)
{
	size_t kw = col_width(v, offsetof(struct crit_verdict, key), 0, 5, 16);
	/* 22: a bound at a response time whole ("28.6M IO/s at 0.21 ms") */
	size_t bw = col_width(v, offsetof(struct crit_verdict, bound_shown),
			      1, 5, 22);
	size_t vw = v->ninconclusive ? 12 : 4;
	/*
	 * The line: "cfg " figure " " key " " bound " " measured " FAIL", at
	 * most 80 columns; the measured figure whole when it can, the
	 * figure's name the rest.
	 */
	size_t room = 80 - 5 - (kw + 1) - (bw + 1) - 2 - vw;
	size_t mw = col_width(v, offsetof(struct crit_verdict, measured), 1,
			      8, 20);
	size_t fw, i;

	if (mw + 12 > room)
		mw = room > 20 ? room - 12 : 8;
	fw = col_width(v, offsetof(struct crit_verdict, figure), 1, 6,
		       room - mw);

	summary(v, path, out);
	fprintf(out, "%-4s ", "cfg");
	put_col(out, "figure", fw, 0);
	put_col(out, "check", kw, 0);
	put_col(out, "bound", bw, 0);
	put_col(out, "measured", mw, 0);
	fputc('\n', out);
	for (i = 0; i < v->n; i++) {
		const struct crit_verdict *x = &v->v[i];
		char cfg[24];

		if (x->group == CRIT_NO_GROUP)
			snprintf(cfg, sizeof(cfg), "-");
		else
			snprintf(cfg, sizeof(cfg), "%zu%s", x->group + 1,
				 x->group == c->baseline ? "*" : "");
		fprintf(out, "%-4.4s ", cfg);
		figure_col(out, x->figure, fw);
		put_col(out, x->key, kw, 0);
		put_col(out, x->bound_shown, bw, 0);
		put_col(out, x->measured, mw, 0);
		fprintf(out, "%s\n", crit_outcome_word(x->outcome));
		if (*x->note) {
			char *line = xasprintf("      %s", x->note);

			text_wrap(out, line, 80, 6);
			free(line);
		}
	}
	return ferror(out) ? -1 : 0;
}

int criteria_for(const struct crit_verdicts *v, size_t g, size_t t,
		 uint64_t bs, unsigned threads, unsigned qd, int random,
		 unsigned read_pct, char *buf, size_t len)
{
	size_t i, used = 0;
	int rc = -1;

	buf[0] = '\0';
	for (i = 0; v && i < v->n; i++) {
		const struct crit_verdict *x = &v->v[i];

		if (x->group != g)
			continue;
		if (t != (size_t)-1 ? x->test != t :
		    x->test != (size_t)-1 || x->bs != bs ||
		    x->threads != threads || x->qd != qd ||
		    x->random != random || x->read_pct != read_pct)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s %s: %s", used ? "; " :
						 "", x->key, x->bound,
						 x->outcome == CRIT_PASS ? "pass" :
						 x->outcome == CRIT_FAIL ? "fail" :
						 "inconclusive");
		if (x->outcome == CRIT_FAIL)
			rc = 0;
		else if (x->outcome == CRIT_INCONCLUSIVE)
			rc = rc ? 2 : 0;
		else if (rc < 0)
			rc = 1;
	}
	return rc;
}
