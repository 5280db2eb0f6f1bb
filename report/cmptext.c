// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 80-column text comparison of `clyde report`: the configurations,
 * then per test one line per configuration with mean, standard
 * deviation, count, CPU, ratio to the baseline and marks.
 */
#include "cmplat.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpmatrix.h"
#include "matrix.h"
#include "textcols.h"
#include "zones.h"
#include "../lib/xalloc.h"

#define NAME_W 34

/*
 * Under a configuration's line when the test has repeats anywhere: the
 * 95 % interval, cv and noisy mark, and the verdict against the baseline;
 * "single run" for n = 1, never an interval.
 */
static void stats_line(const struct compare *c, size_t g, size_t t,
		       FILE *out)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const char *unit = c->tests[t].unit;
	struct stats_welch w;
	char lo[32], hi[32], half[32], ci[200], vs[96] = "";

	if (!s->n)
		return;
	compare_welch(c, g, t, &w);
	if (w.verdict != STATS_UNTESTED)
		snprintf(vs, sizeof(vs), "%s (Welch p %.2g, df %.1f)",
			 compare_verdict_word(&w), w.p, w.df);
	else if (g != c->baseline && s->n > 1)
		snprintf(vs, sizeof(vs), "significance untested");
	if (s->n < 2) {
		snprintf(ci, sizeof(ci), "single run");
	} else {
		if (s->mean - s->sum.ci_half < 0)
			/* the t interval is symmetric; a rate is not */
			snprintf(lo, sizeof(lo), "%.0f",
				 s->mean - s->sum.ci_half);
		else
			report_fmt_value(lo, sizeof(lo),
					 s->mean - s->sum.ci_half, unit);
		report_fmt_value(hi, sizeof(hi), s->mean + s->sum.ci_half,
				 unit);
		report_fmt_value(half, sizeof(half), s->sum.ci_half, unit);
		snprintf(ci, sizeof(ci), "95%% CI %s..%s (+-%s, %.1f %%), "
			 "cv %.1f %%%s", lo, hi, half, s->mean ?
			 100 * s->sum.ci_half / fabs(s->mean) : 0,
			 100 * s->sum.cv, s->sum.noisy ? ", noisy" : "");
	}
	if (!*vs)
		fprintf(out, "    %s\n", ci);
	else if (4 + strlen(ci) + 2 + strlen(vs) <= 80)
		fprintf(out, "    %s; %s\n", ci, vs);
	else
		fprintf(out, "    %s\n      %s\n", ci, vs);
}

/*
 * The configuration's dimensions under its name ("fs=xfs~ raid=5~", ~
 * inferred from the label), mount options left out (they are long and in
 * the record); 1 when one was inferred.
 */
static int dims_line(const struct dims *d, FILE *out)
{
	char line[160] = "", part[96];
	size_t i, used = 0;
	int inferred = 0;

	for (i = 0; i < d->n; i++) {
		if (!strcmp(d->v[i].key, "mount"))
			continue;
		snprintf(part, sizeof(part), "%s%s=%s%s", used ? " " : "",
			 d->v[i].key, d->v[i].value,
			 d->v[i].source == DIM_INFERRED ? "~" : "");
		if (used + strlen(part) > 72)
			break;
		memcpy(line + used, part, strlen(part) + 1);
		used += strlen(part);
		inferred |= d->v[i].source == DIM_INFERRED;
	}
	for (i = 0; line[i]; i++)
		if ((unsigned char)line[i] < 0x20)
			line[i] = '?';
	if (used)
		fprintf(out, "      %s\n", line);
	return inferred;
}

/*
 * When every configuration has the same VM mark, it is said once here
 * rather than on every row, where it would take the room of what tells
 * the configurations apart.
 */
void report_text_common_virt(const char *mark, FILE *out)
{
	char *line = xasprintf("Every configuration [%s]: measured in a "
			       "virtual machine or on an emulated CPU, not "
			       "the storage's own speed (the tables below leave "
			       "the mark out)", mark);

	text_wrap(out, line, 80, 0);
	free(line);
}

int report_text_run(FILE *out, const char *head,
		    int (*writer)(const struct record *, FILE *),
		    const struct record *rec)
{
	char *buf = NULL, *nl, *first;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return -1;
	rc = writer(rec, mem);
	if (fclose(mem) == EOF) {
		free(buf);
		return -1;
	}
	nl = strchr(buf, '\n');
	first = xasprintf("%s%.*s", head, nl ? (int)(nl - buf) :
			  (int)strlen(buf), buf);
	text_wrap(out, first, 80, 4);
	if (nl)
		fputs(nl + 1, out);
	free(first);
	free(buf);
	return rc;
}

/* Whether configuration g has a figure (or a +++++) of test t. */
static int has_figure(const struct compare *c, size_t g, size_t t)
{
	return c->groups[g].stats[t].n || c->groups[g].stats[t].too_fast;
}

/*
 * Every test a run did not finish, per run, with its reason: a failed or
 * stopped test has no figure in the tables, and its absence alone would
 * read as a test never asked for.  Escaped and wrapped (text_wrap).
 */
static void unfinished(const struct compare *c, FILE *out)
{
	size_t r, i;
	int any = 0;

	for (r = 0; r < c->nrecs; r++) {
		const struct record *rec = c->recs[r];

		for (i = 0; i < rec->nresults; i++) {
			const struct result *res = &rec->results[i];
			const char *why, *word;
			char *line;

			if (res->status != RESULT_FAILED &&
			    res->status != RESULT_SKIPPED)
				continue;
			if (!any++)
				fputs("\nTests that failed or were stopped, with "
				      "no figure in the tables\n", out);
			why = res->reason ? res->reason : "no reason given";
			word = res->status == RESULT_FAILED ? "failed" :
			       "skipped";
			if (!strncmp(why, "not run: ", 9)) {
				word = "not run";	/* said once */
				why += 9;
			}
			line = xasprintf("Run %zu (%s): %s %s: %s", r + 1,
					 rec->label ? rec->label : "no label",
					 res->title[0] ? res->title : res->name,
					 word, why);
			text_wrap(out, line, 80, 4);
			free(line);
		}
	}
}

int report_write_cmptext(const struct compare *c, FILE *out)
{
	struct cmp_names names;
	size_t g, t;
	char **rows;
	int figures = 0, inferred = 0;

	compare_names_init(&names, c);
	rows = compare_names_fit_all(&names, c, NAME_W);

	fprintf(out, "%zu run%s in %zu configuration%s\n", c->nrecs,
		c->nrecs == 1 ? "" : "s", c->ngroups,
		c->ngroups == 1 ? "" : "s");
	/*
	 * The list names each configuration whole, with its VM mark, wrapped
	 * to 80 columns; the tables refer to it.
	 */
	for (g = 0; g < c->ngroups; g++) {
		char workers[64] = "", *line;
		size_t w = compare_group_workers(c, g);
		const char *mark = compare_group_virt(c, g);

		if (w > 1)
			snprintf(workers, sizeof(workers), ", %zu %s", w,
				 compare_group_copies(c, g) ?
				 "separately timed copies" : "workers");
		line = xasprintf("%3zu %c %s%s%s%s (%zu run%s%s)", g + 1,
				 g == c->baseline ? '*' : ' ', names.label[g],
				 mark ? " [" : "", mark ? mark : "",
				 mark ? "]" : "", c->groups[g].nruns,
				 c->groups[g].nruns == 1 ? "" : "s", workers);
		text_wrap(out, line, 80, 8);
		free(line);
		inferred |= dims_line(&c->groups[g].dims, out);
	}
	for (t = 0; t < c->ntests; t++)
		for (g = 0; g < c->ngroups; g++)
			figures |= has_figure(c, g, t);
	if (inferred)
		fputs("~ inferred from the label\n", out);
	/* runs with only a matrix have no test figures, nor their marks */
	fprintf(out, "* baseline%s\n", figures ? "; marks: L low precision, "
		"C cached, S per-char via stdio,\n  N noisy (95 % interval "
		"wider than 5 % of the mean); intervals: Student's t,\n  "
		"significance: Welch's t-test at 95 % against the baseline" :
		"");
	if (names.common_virt)
		report_text_common_virt(names.common_virt, out);
	else
		for (g = 0; g < c->ngroups; g++)
			if (compare_group_virt(c, g)) {
				fputs("[VM: ...]: measured in a virtual machine "
				      "or on an emulated CPU, not the\nstorage's "
				      "own speed\n", out);
				break;
			}
	unfinished(c, out);
	for (t = 0; t < c->ntests; t++) {
		int any = 0, repeats = 0;
		char title[4 * NAME_W + 4], unit[4 * 10 + 4];

		for (g = 0; g < c->ngroups; g++) {
			any |= has_figure(c, g, t);
			repeats |= c->groups[g].stats[t].n > 1;
		}
		if (!any)
			continue;
		/* the title as every text prints input: escaped, fitted */
		text_fit(title, sizeof(title), c->tests[t].title, NAME_W);
		text_fit(unit, sizeof(unit), c->tests[t].unit, 10);
		fprintf(out, "\n%s%*s %*s%s %9s %3s %4s %6s %s\n", title,
			(int)(NAME_W - text_cols(title)), "",
			(int)(10 - text_cols(unit)), "", unit, "sd", "n",
			"%CP", "ratio", "mk");
		for (g = 0; g < c->ngroups; g++) {
			const struct cmp_stat *s = &c->groups[g].stats[t];
			char val[32], sd[32], ratio[16], mk[8] = "";
			double r = compare_ratio(c, g, t);

			if (!has_figure(c, g, t))
				continue;
			/* padded by columns: a UTF-8 label lines up too */
			fprintf(out, "%s%*s", rows[g], text_cols(rows[g]) <
				NAME_W ? (int)(NAME_W - text_cols(rows[g])) :
				0, "");
			if (!s->n) {
				fprintf(out, " %10s\n", "+++++");
				continue;
			}
			report_fmt_value(val, sizeof(val), s->mean,
					 c->tests[t].unit);
			if (s->n > 1)
				report_fmt_value(sd, sizeof(sd), s->sd,
						 c->tests[t].unit);
			else
				strcpy(sd, "-");
			if (g == c->baseline)
				strcpy(ratio, "base");
			else if (isnan(r))
				strcpy(ratio, "-");
			else
				snprintf(ratio, sizeof(ratio), "%.2f", r);
			if (s->marks & CMP_LOW_PRECISION)
				strcat(mk, "L");
			if (s->marks & CMP_CACHED)
				strcat(mk, "C");
			if (c->tests[t].per_char && s->mode &&
			    strcmp(s->mode, "syscall"))
				strcat(mk, "S");
			if (s->marks & CMP_NOISY)
				strcat(mk, "N");
			fprintf(out, " %10.10s %9.9s %3zu %4.0f %6s %s\n",
				val, sd, s->n, s->cpu, ratio, mk);
			if (repeats)
				stats_line(c, g, t, out);
		}
	}
	compare_names_free_all(rows, names.n);
	compare_names_release(&names);
	cmplat_write_text(c, out);
	cmpm_write_text(c, out);
	for (t = 0; t < c->nrecs; t++)	/* clyde zones runs, each whole */
		if (c->recs[t]->zones) {
			char head[32];

			snprintf(head, sizeof(head), "\nRun %zu: ", t + 1);
			report_text_run(out, head, zones_write_text,
					c->recs[t]);
		}
	return fflush(out) == EOF || ferror(out) ? -1 : 0;
}
