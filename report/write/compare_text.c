// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 80-column text comparison of `clyde report`: the configurations,
 * then per test one line per configuration with mean, standard
 * deviation, count, CPU, ratio to the baseline and marks.
 */
#include "report/write/compare_latency_text.h"
#include "report/write/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/compare_matrix.h"
#include "report/model/matrix.h"
#include "lib/textcols.h"
#include "lib/textesc.h"
#include "report/model/zones.h"
#include "lib/xalloc.h"

#define NAME_W 34

/*
 * Under a configuration's line when the test has repeats anywhere: the
 * 95 % interval (of the geometric mean, stats.c says why), cv and noisy
 * mark, and whether it differs from the baseline (compare_diff: Welch
 * with repeats on both sides, else the noise band); "single run" for
 * n = 1, never an interval.
 */
static void stats_line(const struct compare *c, size_t g, size_t t,
		       FILE *out)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	struct stats_diff d;
	char range[96], ci[200], vs[128] = "";

	if (!s->n)
		return;
	compare_diff(c, g, t, &d);
	if (d.verdict != STATS_UNTESTED)
		compare_diff_words(&d, vs, sizeof(vs));
	else if (g != c->baseline && s->n > 1)
		snprintf(vs, sizeof(vs), "significance untested");
	report_fmt_ci(range, sizeof(range), &s->sum, c->tests[t].unit);
	if (stats_has_interval(&s->sum))
		snprintf(ci, sizeof(ci), "95%% CI %s, cv %.1f %%%s", range,
			 100 * s->sum.cv, s->sum.noisy ? ", noisy" : "");
	else
		snprintf(ci, sizeof(ci), "%s", range);
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
 * the record), escaped as every text (textesc.h) and in 72 columns of
 * their escaped form; 1 when one was inferred.
 */
static int dims_line(const struct dims *d, FILE *out)
{
	char *line = xstrdup(""), *raw, *part, *n;
	size_t i, used = 0, cols;
	int inferred = 0;

	for (i = 0; i < d->n; i++) {
		if (!strcmp(d->v[i].key, "mount"))
			continue;
		raw = xasprintf("%s=%s%s", d->v[i].key, d->v[i].value,
				d->v[i].source == DIM_INFERRED ? "~" : "");
		part = text_escaped(raw);
		free(raw);
		cols = (used ? 1 : 0) + text_cols(part);
		if (used + cols > 72) {	/* the next may fit */
			free(part);
			continue;
		}
		n = xasprintf("%s%s%s", line, used ? " " : "", part);
		free(part);
		free(line);
		line = n;
		used += cols;
		inferred |= d->v[i].source == DIM_INFERRED;
	}
	if (used)
		fprintf(out, "      %s\n", line);
	free(line);
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
			if (res->reason_kind == REASON_NOT_RUN) {
				word = "not run";	/* said once */
				why = result_reason_rest(res->reason_kind, why);
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

/* Whether some figure of c was stopped and continued inside its test. */
static int any_stopped(const struct compare *c)
{
	size_t g, t;

	for (g = 0; g < c->ngroups; g++)
		for (t = 0; t < c->ntests; t++)
			if (c->groups[g].stats[t].n &&
			    (c->groups[g].stats[t].marks & CMP_STOPPED))
				return 1;
	return 0;
}

/* What "*" and the marks mean, how intervals and differences are found. */
static void legend(const struct compare *c, int figures, FILE *out)
{
	/* runs with only a matrix have no test figures, nor their marks */
	if (!figures) {
		fputs("* baseline\n", out);
		return;
	}
	fprintf(out, "* baseline; marks: L low precision, C cached, S per-char "
		"via stdio,\n  N noisy (95 %% interval beyond +-5 %% of the "
		"mean); intervals: Student's t on\n  the logarithms (of the "
		"geometric mean, never below 0); differences: Welch's\n  "
		"t-test at 95 %% against the baseline, a single run only beyond "
		"the +-%g %%\n  noise band\n", 100 * c->noise_band);
	/* as ps(1) says a stopped process: T */
	if (any_stopped(c))
		text_wrap(out, "  T stopped: " RECORD_STOPPED_TEXT, 80, 2);
}

/*
 * The list naming each configuration whole, with its VM mark, wrapped to
 * 80 columns, and its dimensions; the tables refer to it.  1 when a
 * dimension was inferred from a label.
 */
static int config_list(const struct compare *c, const struct cmp_names *names,
		       FILE *out)
{
	size_t g;
	int inferred = 0;

	fprintf(out, "%zu run%s in %zu configuration%s\n", c->nrecs,
		c->nrecs == 1 ? "" : "s", c->ngroups,
		c->ngroups == 1 ? "" : "s");
	for (g = 0; g < c->ngroups; g++) {
		char workers[64] = "", *line;
		size_t w = compare_group_workers(c, g);
		const char *mark = compare_group_virt(c, g);

		if (w > 1)
			snprintf(workers, sizeof(workers), ", %zu %s", w,
				 compare_group_copies(c, g));
		line = xasprintf("%3zu %c %s%s%s%s (%zu run%s%s)", g + 1,
				 g == c->baseline ? '*' : ' ', names->label[g],
				 mark ? " [" : "", mark ? mark : "",
				 mark ? "]" : "", c->groups[g].nruns,
				 c->groups[g].nruns == 1 ? "" : "s", workers);
		text_wrap(out, line, 80, 8);
		free(line);
		inferred |= dims_line(&c->groups[g].dims, out);
	}
	return inferred;
}

/* The notes under the list: ~, the legend, the VM mark. */
static void notes(const struct compare *c, const struct cmp_names *names,
		  int inferred, FILE *out)
{
	size_t g, t;
	int figures = 0;

	for (t = 0; t < c->ntests; t++)
		for (g = 0; g < c->ngroups; g++)
			figures |= has_figure(c, g, t);
	if (inferred)
		fputs("~ inferred from the label\n", out);
	legend(c, figures, out);
	if (names->common_virt) {
		report_text_common_virt(names->common_virt, out);
		return;
	}
	for (g = 0; g < c->ngroups; g++)
		if (compare_group_virt(c, g)) {
			fputs("[VM: ...]: measured in a virtual machine or on "
			      "an emulated CPU, not the\nstorage's own "
			      "speed\n", out);
			break;
		}
}

/* The marks of configuration g in test t (legend()) into mk (8 bytes). */
static void row_marks(const struct compare *c, size_t g, size_t t, char *mk)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];

	mk[0] = '\0';
	if (s->marks & CMP_LOW_PRECISION)
		strcat(mk, "L");
	if (s->marks & CMP_CACHED)
		strcat(mk, "C");
	if (c->tests[t].per_char && s->mode && strcmp(s->mode, "syscall"))
		strcat(mk, "S");
	if (s->marks & CMP_NOISY)
		strcat(mk, "N");
	if (s->marks & CMP_STOPPED)
		strcat(mk, "T");
}

/* Configuration g's line in test t's table (its row name in row). */
static void test_row(const struct compare *c, size_t g, size_t t,
		     const char *row, FILE *out)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	char val[32], sd[32], ratio[16], mk[8];
	double r = compare_ratio(c, g, t);

	/* padded by columns: a UTF-8 label lines up too */
	fprintf(out, "%s%*s", row, text_cols(row) < NAME_W ?
		(int)(NAME_W - text_cols(row)) : 0, "");
	if (!s->n) {
		fprintf(out, " %11s\n", "+++++");
		return;
	}
	report_fmt_value(val, sizeof(val), s->mean, c->tests[t].unit);
	if (s->n > 1)
		report_fmt_value(sd, sizeof(sd), s->sd, c->tests[t].unit);
	else
		strcpy(sd, "-");
	if (g == c->baseline)
		strcpy(ratio, "base");
	else if (isnan(r))
		strcpy(ratio, "-");
	else
		snprintf(ratio, sizeof(ratio), "%.2f", r);
	row_marks(c, g, t, mk);
	fprintf(out, " %11.11s %9.9s %3zu %4.0f %6s %s\n", val, sd, s->n,
		s->cpu, ratio, mk);
}

/* Test t's table: its heading, one line per configuration with a figure
 * (and its interval line when the test has repeats). */
static void test_table(const struct compare *c, size_t t, char **rows,
		       FILE *out)
{
	char title[4 * NAME_W + 4], unit[4 * 10 + 4];
	int any = 0, repeats = 0;
	size_t g;

	for (g = 0; g < c->ngroups; g++) {
		any |= has_figure(c, g, t);
		repeats |= c->groups[g].stats[t].n > 1;
	}
	if (!any)
		return;
	/* the title as every text prints input: escaped, fitted */
	text_fit(title, sizeof(title), c->tests[t].title, NAME_W);
	text_fit(unit, sizeof(unit), c->tests[t].unit, 10);
	fprintf(out, "\n%s%*s %*s%s %9s %3s %4s %6s %s\n", title,
		(int)(NAME_W - text_cols(title)), "",
		(int)(11 - text_cols(unit)), "", unit, "sd", "n", "%CP",
		"ratio", "mk");
	for (g = 0; g < c->ngroups; g++) {
		if (!has_figure(c, g, t))
			continue;
		test_row(c, g, t, rows[g], out);
		if (repeats && c->groups[g].stats[t].n)
			stats_line(c, g, t, out);
	}
}

int report_write_cmptext(const struct compare *c, FILE *out)
{
	struct cmp_names names;
	size_t t;
	char **rows;

	compare_names_init(&names, c);
	rows = compare_names_fit_all(&names, c, NAME_W);
	notes(c, &names, config_list(c, &names, out), out);
	unfinished(c, out);
	for (t = 0; t < c->ntests; t++)
		test_table(c, t, rows, out);
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
