// SPDX-License-Identifier: GPL-2.0-only
/*
 * The comparison's latency in text: per test, a row per configuration
 * with the summary every writer shows (hist_summarize: mean, min, p50,
 * p90, p99, p99.9, max) of its runs' histograms merged, as the HTML
 * report's latency tables have it.  Each table opens with "Latency:
 * TITLE" on a line of its own, so that no line of it starts like the
 * rate table of the same test; the names are the comparison's
 * (compare_names_fit: apart where labels differ, a VM mark every
 * configuration has left to the line above the tables).
 */
#include "report/write/compare_latency_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "report/model/histogram.h"
#include "lib/textcols.h"

#define LAT_NAME_W 17	/* 17 + 7 + 7 x (1 + 7) = 80 columns */

/* s in LAT_NAME_W columns, clipped with a mark, padded. */
static void put_name(FILE *out, const char *s)
{
	char buf[4 * LAT_NAME_W + 4];
	size_t k;

	text_fit(buf, sizeof(buf), s, LAT_NAME_W);
	fputs(buf, out);
	for (k = text_cols(buf); k < LAT_NAME_W; k++)
		fputc(' ', out);
}

/* A sample count in at most 6 columns: 123456, 1.23M, 12.3G. */
static void fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n < 1000000)
		snprintf(buf, len, "%" PRIu64, n);
	else if (n < 1000000000)
		snprintf(buf, len, "%.3gM", (double)n / 1e6);
	else
		snprintf(buf, len, "%.3gG", (double)n / 1e9);
}

static void lat_row(const struct compare *c, const char *name, size_t g,
		    size_t t, FILE *out)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	int max_only = !!(s->marks & CMP_MAX_ONLY), k;
	char buf[32];
	struct hist_summary sum;

	put_name(out, name);
	cmp_lat_summary(s, &sum);
	if (max_only)
		snprintf(buf, sizeof(buf), "max");
	else
		fmt_count(buf, sizeof(buf), sum.count);
	fprintf(out, " %6s", buf);
	for (k = 0; k < HIST_SUMMARY_N; k++) {
		if ((max_only && k != HIST_S_MAX) || isnan(sum.v[k]))
			snprintf(buf, sizeof(buf), "-");
		else
			text_fmt_ns(buf, sizeof(buf), sum.v[k]);
		fprintf(out, " %*s", TEXT_NS_COLS, buf);
	}
	fputc('\n', out);
}

/*
 * The configurations of test t whose runs' own figures (fio's) were
 * merged: their percentiles are the merged histograms', within a bucket
 * (1.6 %) of the samples, not a figure the tool printed.
 */
static void merged_note(const struct compare *c, char **fit, size_t t,
			FILE *out)
{
	size_t g, n = 0;

	for (g = 0; g < c->ngroups; g++) {
		if (!(c->groups[g].stats[t].marks & CMP_LAT_MERGED))
			continue;
		if (!n++)
			fputs("percentiles from the merged histograms of runs "
			      "that each gave their own:\n", out);
		text_wrapf(out, 80, 4, "  %s (%zu runs)", fit[g],
			   c->groups[g].stats[t].n);
	}
}

void cmplat_write_text(const struct compare *c, FILE *out)
{
	struct cmp_names names;
	char buf[4 * 64 + 4], **fit;
	size_t t, g;
	int k, any = 0;

	compare_names_init(&names, c);
	fit = compare_names_fit_all(&names, c, LAT_NAME_W);
	for (t = 0; t < c->ntests; t++) {
		int have = 0;

		for (g = 0; g < c->ngroups; g++)
			have |= c->groups[g].stats[t].lat.count > 0;
		if (!have)
			continue;
		if (!any)
			fputs("\nLatency per operation: a tool's own figures "
			      "where one run gave them (fio's\nlisted "
			      "percentiles), else the runs' histograms merged "
			      "(never averaged);\n\"max\": a bonnie++ line, "
			      "which keeps only the maximum\n", out);
		any = 1;
		text_fit(buf, sizeof(buf), c->tests[t].title, 80 - 9);
		fprintf(out, "\nLatency: %s\n%*s %6s", buf, LAT_NAME_W, "",
			"ops");
		for (k = 0; k < HIST_SUMMARY_N; k++)
			fprintf(out, " %*s", TEXT_NS_COLS,
				hist_summary_label[k]);
		fputc('\n', out);
		for (g = 0; g < c->ngroups; g++)
			if (c->groups[g].stats[t].lat.count)
				lat_row(c, fit[g], g, t, out);
		merged_note(c, fit, t, out);
	}
	compare_names_free_all(fit, names.n);
	compare_names_release(&names);
}
