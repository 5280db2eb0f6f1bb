// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report: bonnie++ 2.00a's 80-column table, column for column,
 * with correct figures, then what bonnie++ does not tell: latency
 * percentiles, page cache residency, tests that failed or were skipped,
 * warnings.
 *
 * Unlike bonnie++, a test shorter than 0.5 s prints its number (never
 * "+++++"), followed by a mark in the column between the rate and %CP:
 *   ~  low precision: the test took less than 0.5 s
 *   *  cached: the read started with more than 10 % of its data in memory
 *   !  O_DIRECT was asked for but the page cache filled anyway
 * The mark sits where bonnie++ has a blank, so every column stays where
 * bonnie++ puts it; the legend below the table explains the marks used.
 */
#include "report/model/record.h"
#include "report/model/target_rec.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/bonnie.h"
#include "report/model/record_util.h"
#include "lib/textcols.h"
#include "lib/textesc.h"

#define MARK_LOW_PRECISION '~'
#define MARK_CACHED '*'
#define MARK_DIRECT_IGNORED '!'

static const char rate_header[] =
	" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP";

/* One output line, right-trimmed when written. */
struct tline {
	char buf[512];
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void add(struct tline *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
	if (t->len >= sizeof(t->buf))
		t->len = sizeof(t->buf) - 1;
}

static void flush(struct tline *t, FILE *f)
{
	while (t->len && t->buf[t->len - 1] == ' ')
		t->len--;
	t->buf[t->len] = '\0';
	fputs(t->buf, f);
	putc('\n', f);
	t->len = 0;
}

static int is_cached(const struct result *res)
{
	return (res->flags & RESULT_CACHED) ||
	       res->residency > RESULT_CACHED_FRACTION;
}

static char mark_of(const struct result *res)
{
	if (res->flags & RESULT_DIRECT_IGNORED)
		return MARK_DIRECT_IGNORED;
	if (is_cached(res))
		return MARK_CACHED;
	if (res->flags & RESULT_LOW_PRECISION)
		return MARK_LOW_PRECISION;
	return ' ';
}

/* bonnie++'s abbreviation of a KiB/s rate to five columns. */
static void kib_rate(char *buf, size_t len, double v)
{
	double m = v / 1024.0;

	if (v < 10000.0)
		snprintf(buf, len, "%4dk", record_int(v));
	else if (m < 100.0)
		snprintf(buf, len, "%4.1fm", m);
	else if (m < 1000.0)
		snprintf(buf, len, "%4dm", record_int(m + 0.5));
	else
		snprintf(buf, len, "%4.1fg", m / 1024.0);
}

/* A count per second in five columns: thousands and millions abbreviated. */
static void count_rate(char *buf, size_t len, double v, int seeks)
{
	if (v >= 99999.5) {
		if (v / 1e3 < 9999.5)
			snprintf(buf, len, "%4dk", record_int(v / 1e3 + 0.5));
		else
			snprintf(buf, len, "%4dm", record_int(v / 1e6 + 0.5));
	} else if (!seeks) {
		snprintf(buf, len, "%5d", record_int(v));
	} else if (v >= 1000.0) {
		snprintf(buf, len, "%5.0f", v);
	} else {
		snprintf(buf, len, "%5.1f", v);
	}
}

/* " rate" + mark + "cpu": ten columns, as bonnie++'s " %5s %3s". */
static void cell(struct tline *t, const struct record *rec, const char *name,
		 int kind)
{
	const struct result *res = record_find(rec, name);
	char rate[32];

	if (res && res->status == RESULT_FAILED) {
		add(t, " %5s    ", "fail");
		return;
	}
	if (!res || res->status != RESULT_OK) {
		add(t, "%10s", "");
		return;
	}
	if (kind == 0)
		kib_rate(rate, sizeof(rate), res->value);
	else
		count_rate(rate, sizeof(rate), res->value, kind == 1);
	add(t, " %5s%c%3d", rate, mark_of(res), record_int(res->cpu));
}

/* The latencies of bonnie_tests[from .. to - 1]. */
static void latency_row(struct tline *t, FILE *f, const struct record *rec,
			size_t from, size_t to)
{
	char buf[32];
	size_t i;

	add(t, "Latency          ");
	for (i = from; i < to; i++) {
		bonnie_latency(buf, sizeof(buf),
			       bonnie_result(rec, bonnie_tests[i].name));
		add(t, " %9s", buf);
	}
	flush(t, f);
}

/* "Version 2.00a       ": twenty columns whatever the version's length. */
static void version_prefix(struct tline *t, const struct record *rec)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "Version %5s",
		 rec->version ? rec->version : "");
	add(t, "%-19.19s ", buf);
}

static const char *label_of(const struct record *rec)
{
	if (rec->label)
		return rec->label;
	return rec->host.hostname ? rec->host.hostname : "";
}

/*
 * The label in exactly cols columns.  A label of printable ASCII is cut
 * silently, as bonnie++ cuts it (its layout, byte for byte); any other is
 * escaped (textesc.h), cut at a character with text_fit's "..." and padded
 * by columns, so that no control character reaches the terminal and no
 * character is cut in two.
 */
static void add_label(struct tline *t, const char *label, size_t cols)
{
	char buf[256];
	const unsigned char *p;
	size_t n;

	for (p = (const unsigned char *)label; *p >= 0x20 && *p < 0x7f; p++)
		;
	if (!*p) {
		add(t, "%-*.*s", (int)cols, (int)cols, label);
		return;
	}
	text_fit(buf, sizeof(buf), label, cols);
	n = text_cols(buf);
	add(t, "%s%*s", buf, (int)(n < cols ? cols - n : 0), "");
}

static void io_table(FILE *f, const struct record *rec,
		     const struct bonnie_shape *s)
{
	struct tline t = { .len = 0 };
	char size[128], tmp[32];
	size_t len, i;

	version_prefix(&t, rec);
	add(&t, "------Sequential Output------ --Sequential Input- --Random-");
	flush(&t, f);
	add(&t, "%20s", "");
	add(&t, "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--");
	flush(&t, f);
	add(&t, "Name:Size etc       ");
	add(&t, "%s", rate_header);
	flush(&t, f);

	/* size[:chunk[:concurrency[:seeks[:seekers]]]], defaults left out */
	size[0] = '\0';
	if (s->file_size > 0)
		bonnie_file_size(size, sizeof(size), s->file_size);
	len = strlen(size);
	if (s->chunk_size != BONNIE_DEFAULT_CHUNK) {
		bonnie_print_size(tmp, sizeof(tmp), (uint64_t)s->chunk_size,
				  " km");
		len += (size_t)snprintf(size + len, sizeof(size) - len,
					":%s", tmp);
	} else {
		len += (size_t)snprintf(size + len, sizeof(size) - len, ":");
	}
	if (s->concurrency != 1)
		len += (size_t)snprintf(size + len, sizeof(size) - len,
					":%" PRId64, s->concurrency);
	else
		len += (size_t)snprintf(size + len, sizeof(size) - len, ":");
	if (s->seeks != BONNIE_DEFAULT_SEEKS)
		len += (size_t)snprintf(size + len, sizeof(size) - len,
					":%" PRId64, s->seeks);
	else
		len += (size_t)snprintf(size + len, sizeof(size) - len, ":");
	if (s->seekers != BONNIE_DEFAULT_SEEKERS)
		len += (size_t)snprintf(size + len, sizeof(size) - len,
					":%" PRId64, s->seekers);
	if (len >= sizeof(size))
		len = sizeof(size) - 1;
	while (len && size[len - 1] == ':')
		size[--len] = '\0';

	/* the name, cut to leave room for " size", in nineteen columns */
	if (len + 1 >= 19)
		add(&t, "%s", size);
	else {
		add_label(&t, label_of(rec), 18 - len);
		add(&t, " %s", size);
	}
	for (i = 0; i < BONNIE_NIO; i++)
		cell(&t, rec, bonnie_tests[i].name, i == BONNIE_SEEKS);
	flush(&t, f);
	latency_row(&t, f, rec, 0, BONNIE_NIO);
}

static void file_table(FILE *f, const struct record *rec,
		       const struct bonnie_shape *s)
{
	struct tline t = { .len = 0 };
	char shape[128];
	size_t len, i;

	version_prefix(&t, rec);
	add(&t, "------Sequential Create------ --------Random Create--------");
	flush(&t, f);
	add_label(&t, label_of(rec), 19);
	add(&t, " -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--");
	flush(&t, f);
	if (s->min_size)
		add(&t, "files:max:min       ");
	else if (s->max_size)
		add(&t, "files:max           ");
	else
		add(&t, "              files ");
	add(&t, "%s", rate_header);
	flush(&t, f);

	bonnie_num_files(shape, sizeof(shape), s->num_files);
	len = strlen(shape);
	if (s->max_size == -1)
		snprintf(shape + len, sizeof(shape) - len, ":link");
	else if (s->max_size == -2)
		snprintf(shape + len, sizeof(shape) - len, ":symlink");
	else if (s->max_size)
		snprintf(shape + len, sizeof(shape) - len,
			 ":%" PRId64 ":%" PRId64, s->max_size, s->min_size);
	len = strlen(shape);
	if (s->num_dirs > 1)
		snprintf(shape + len, sizeof(shape) - len, "/%" PRId64,
			 s->num_dirs);
	add(&t, "%19s", shape);
	for (i = BONNIE_NIO; i < BONNIE_NTESTS; i++)
		cell(&t, rec, bonnie_tests[i].name, 2);
	flush(&t, f);
	latency_row(&t, f, rec, BONNIE_NIO, BONNIE_NTESTS);
}

static const char *title_of(const struct result *res)
{
	return res->title[0] ? res->title : res->name;
}

static void legend(FILE *f, const struct record *rec)
{
	int low = 0, cached = 0, direct = 0, failed = 0;
	size_t i;

	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		if (res->status == RESULT_FAILED)
			failed = 1;
		if (res->status != RESULT_OK)
			continue;
		switch (mark_of(res)) {
		case MARK_LOW_PRECISION:
			low = 1;
			break;
		case MARK_CACHED:
			cached = 1;
			break;
		case MARK_DIRECT_IGNORED:
			direct = 1;
			break;
		}
	}
	if (!low && !cached && !direct && !failed)
		return;
	fputs("\n", f);
	if (low)
		fprintf(f, "%c    low precision: the test took less than %.1f s\n",
			MARK_LOW_PRECISION, RESULT_MIN_ELAPSED);
	if (cached)
		fprintf(f, "%c    cached: the read started with more than %.0f %% of its data in memory\n",
			MARK_CACHED, RESULT_CACHED_FRACTION * 100);
	if (direct)
		fprintf(f, "%c    O_DIRECT was asked for, but the page cache filled anyway\n",
			MARK_DIRECT_IGNORED);
	if (failed)
		fputs("fail the test failed; the reason is below\n", f);
}

/*
 * The latency summary (hist_summarize) per test, the seven figures every
 * writer shows in hist_summary_label's order: a title of 20 columns and
 * seven of " %7s" make 76, and text_fmt_ns is never wider than 7.
 */
static void latency_table(FILE *f, const struct record *rec)
{
	char buf[32], title[96];
	size_t i;
	int header = 0, k;

	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];
		struct hist_summary sum;

		if ((res->status != RESULT_OK &&
		     res->status != RESULT_FAILED) || !res->lat.count)
			continue;
		if (!header) {
			fprintf(f, "\n%-20s", "Latency");
			for (k = 0; k < HIST_SUMMARY_N; k++)
				fprintf(f, " %*s", TEXT_NS_COLS,
					hist_summary_label[k]);
			fputc('\n', f);
			header = 1;
		}
		/* an importer's own figures (fio's percentiles) where given */
		hist_summarize_exact(&res->lat, res->exact, &sum);
		text_fit(title, sizeof(title), title_of(res), 20);
		fprintf(f, "%s%*s", title, (int)(20 - text_cols(title)), "");
		for (k = 0; k < HIST_SUMMARY_N; k++) {
			if (isnan(sum.v[k]))
				snprintf(buf, sizeof(buf), "-");
			else
				text_fmt_ns(buf, sizeof(buf), sum.v[k]);
			fprintf(f, " %*s", TEXT_NS_COLS, buf);
		}
		fputc('\n', f);
	}
}

/*
 * With several workers (-c, several -d, MPI ranks): each worker's own rate
 * and when its first and last operation ran after the test's barrier, so
 * a worker that lagged or started late shows.
 */
static void worker_table(FILE *f, const struct record *rec)
{
	char rate[32];
	size_t i, j;
	int header = 0;

	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		if (res->nworkers < 2)
			continue;
		if (!header) {
			fprintf(f, "\n%-20s %6s %-20s %12s %8s %8s\n",
				"Per worker", "worker", "directory", "rate",
				"first", "last");
			header = 1;
		}
		for (j = 0; j < res->nworkers; j++) {
			const struct worker_row *w = &res->workers[j];
			const char *dir = w->dir ? w->dir : "-";
			size_t dl = strlen(dir);

			if (w->status == RESULT_OK)
				snprintf(rate, sizeof(rate), "%.0f", w->value);
			else
				snprintf(rate, sizeof(rate), "%s",
					 w->status == RESULT_FAILED ? "failed"
								    : "-");
			fprintf(f, "%-20.20s %6d %-20.20s %12s %7.3fs %7.3fs\n",
				j ? "" : title_of(res), w->worker,
				dl > 20 ? dir + dl - 20 : dir, rate,
				w->first_s, w->last_s);
		}
	}
	if (header)
		fputs("(rates in each test's unit; first and last operation in "
		      "seconds after the\n barrier released the test)\n", f);
}

/* The caches under the file, as the read phase left them. */
static void layer_lines(FILE *f, const struct result *res)
{
	size_t i;

	for (i = 0; i < res->nlayers; i++) {
		const struct result_layer *l = &res->layers[i];

		if (l->residency >= 0)
			fprintf(f, "  below: %s: %.1f %% (%s)\n",
				l->name ? l->name : "?", l->residency * 100.0,
				l->state ? l->state : "?");
		else
			fprintf(f, "  below: %s: %s\n",
				l->name ? l->name : "?",
				l->state ? l->state : "?");
	}
}

static void residency_table(FILE *f, const struct record *rec)
{
	size_t i;
	int header = 0;

	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		if (res->residency < 0 || res->status == RESULT_NOT_RUN ||
		    res->status == RESULT_SKIPPED)
			continue;
		if (!header) {
			fputs("\nIn page cache at the start of the test\n", f);
			header = 1;
		}
		fprintf(f, "%-20.20s %6.1f %%%s%s\n", title_of(res),
			res->residency * 100.0,
			is_cached(res) ? "  cached" : "",
			res->flags & RESULT_DIRECT_IGNORED ?
			"  O_DIRECT not honoured" : "");
		layer_lines(f, res);
	}
	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		/* direct I/O not honoured where no residency was shown */
		if (!(res->flags & RESULT_DIRECT_IGNORED) ||
		    (res->residency >= 0 && res->status != RESULT_NOT_RUN &&
		     res->status != RESULT_SKIPPED))
			continue;
		text_wrapf(f, 80, 4, "%s: O_DIRECT was not honoured, the page cache filled anyway",
			title_of(res));
	}
}

static void problems(FILE *f, const struct record *rec)
{
	int low_io = 0, low_files = 0, low_other = 0, blank = 0;
	size_t i;

	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];
		const char *what;

		if (res->status == RESULT_FAILED)
			what = "failed";
		else if (res->status == RESULT_SKIPPED)
			what = "skipped";
		else
			continue;
		if (!blank++)
			fputs("\n", f);
		text_wrapf(f, 80, 4, "%s %s: %s", title_of(res), what,
			res->reason ? res->reason : "no reason given");
	}
	if (rec->exit_status >= 128) {
		if (!blank++)
			fputs("\n", f);
		fprintf(f, "Interrupted by signal %d: these are the tests finished before it.\n",
			rec->exit_status - 128);
	}
	for (i = 0; i < rec->nwarnings; i++) {
		if (!blank++)
			fputs("\n", f);
		text_wrapf(f, 80, 9, "warning: %s", rec->warnings[i]);
	}
	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		if (res->status != RESULT_OK ||
		    !(res->flags & RESULT_STONEWALLED))
			continue;
		if (!blank++)
			fputs("\n", f);
		text_wrapf(f, 80, 4, "%s: stonewalled: ended by --stonewall after %llu operations in %.3f s",
			title_of(res), (unsigned long long)res->ops,
			res->elapsed);
	}
	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		if (res->status != RESULT_OK || !(res->flags & RESULT_STOPPED))
			continue;
		if (!blank++)
			fputs("\n", f);
		text_wrapf(f, 80, 4, "%s: stopped: " RECORD_STOPPED_TEXT,
			   title_of(res));
	}

	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];

		if (res->status != RESULT_OK ||
		    !(res->flags & RESULT_LOW_PRECISION))
			continue;
		if (bonnie_test_io(res->name))
			low_io = 1;
		else if (bonnie_test_files(res->name))
			low_files = 1;
		else
			low_other = 1;
	}
	if (low_io && low_files)
		fputs("\nLow precision (~): to lengthen the tests, raise -s (I/O) and -n (files).\n",
		      f);
	else if (low_io)
		fputs("\nLow precision (~): to lengthen the I/O tests, raise -s.\n", f);
	else if (low_files)
		fputs("\nLow precision (~): to lengthen the file tests, raise -n.\n",
		      f);
	else if (low_other)
		fputs("\nLow precision (~): run the tests longer for precise figures.\n",
		      f);
}

int record_write_text(const struct record *rec, FILE *out)
{
	struct bonnie_shape s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;

	if (!f)
		return -1;
	bonnie_shape(rec, &s);
	if (s.io)
		io_table(f, rec, &s);
	if (s.files)
		file_table(f, rec, &s);
	legend(f, rec);
	latency_table(f, rec);
	worker_table(f, rec);
	residency_table(f, rec);
	fputc('\n', f);
	record_write_target_text(rec, f, 80);
	problems(f, rec);
	if (fclose(f) == EOF) {
		free(buf);
		return -1;
	}
	if (fwrite(buf, 1, len, out) != len || fflush(out) == EOF)
		rc = -1;
	free(buf);
	return rc;
}
