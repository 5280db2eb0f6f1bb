// SPDX-License-Identifier: GPL-2.0-only
/*
 * The matrix as text, laid out as seed 000's XDISK tables: per block size
 * and thread count a table of one row per (pattern, profile) with IO/s,
 * MB/s and mean read and write latency, numbers formatted as XDISK prints
 * them; below it the percentiles and CPU, then the rate curves, one row per
 * point.  Everything fits 80 columns.
 */
#include "report/model/matrix.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/record_util.h"
#include "lib/textcols.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

/* What XDISK prints for a side of the workload that does not apply. */
#define DASH "\xe2\x80\x94"	/* U+2014 EM DASH */

/* v >= 0 rounded to an integer, with thousands separators. */
static void thousands(char *buf, size_t len, double v)
{
	char digits[32];
	size_t n, i, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

void matrix_fmt_iops(char *buf, size_t len, double v)
{
	if (isnan(v) || v < 0)
		snprintf(buf, len, DASH);
	else
		thousands(buf, len, v);
}

void matrix_fmt_mbps(char *buf, size_t len, double v)
{
	if (isnan(v) || v < 0)
		snprintf(buf, len, DASH);
	else if (v >= 999.95)
		thousands(buf, len, v);
	else if (v >= 0.995 || v == 0)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

void matrix_fmt_ms(char *buf, size_t len, double v)
{
	if (isnan(v) || v < 0)
		snprintf(buf, len, DASH);
	else if (v < 0.00095 && v > 0)
		snprintf(buf, len, "%.4f", v);	/* below XDISK's resolution */
	else if (v < 0.9995)
		snprintf(buf, len, "%.3f", v);
	else if (v < 9.995)
		snprintf(buf, len, "%.2f", v);
	else if (v < 99.95)
		snprintf(buf, len, "%.1f", v);
	else
		thousands(buf, len, v);
}

/* "8K", "16K", "1MB", as seed 000 names its block sizes. */
static void bs_name(char *buf, size_t len, uint64_t bs)
{
	if (bs % (1024 * 1024) == 0)
		snprintf(buf, len, "%" PRIu64 "MB", bs >> 20);
	else if (bs % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "K", bs >> 10);
	else
		snprintf(buf, len, "%" PRIu64 "B", bs);
}

void matrix_table_title(char *buf, size_t len, uint64_t bs, unsigned threads,
			unsigned qd)
{
	char name[24];

	bs_name(name, sizeof(name), bs);
	if (qd > 1)
		snprintf(buf, len, "%s block size " DASH " %u thread%s, queue "
			 "depth %u", name, threads, threads == 1 ? "" : "s",
			 qd);
	else
		snprintf(buf, len, "%s block size " DASH " %u thread%s", name,
			 threads, threads == 1 ? "" : "s");
}

void matrix_cell_title(char *buf, size_t len, const struct matrix_cell *c)
{
	size_t n;

	matrix_table_title(buf, len, c->bs, c->threads, c->qd);
	n = strlen(buf);
	if (c->derived && n < len)
		snprintf(buf + n, len - n, " (%s%s%s derived)",
			 c->derived & MATRIX_DERIVED_BS ? "bs" : "",
			 (c->derived & MATRIX_DERIVED_BS) &&
			 (c->derived & MATRIX_DERIVED_QD) ? ", " : "",
			 c->derived & MATRIX_DERIVED_QD ? "qd" : "");
}

/* Columns a UTF-8 string takes (one per code point). */
static size_t columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s in a field of width columns, right-aligned (left when left is set). */
static void field(FILE *out, const char *s, size_t width, int left)
{
	size_t n = columns(s);

	if (left)
		fputs(s, out);
	for (; n < width; n++)
		fputc(' ', out);
	if (!left)
		fputs(s, out);
}

const char *matrix_pattern_name(int random)
{
	return random ? "Random" : "Sequential";
}

/* A status as the tables show it: "not run", "failed", "skipped". */
static const char *status_word(const char *status)
{
	return !strcmp(status, "not_run") ? "not run" : status;
}

#define PAT_W 10
#define PROF_W 10

static void labels(FILE *out, const char *pattern, const char *profile)
{
	field(out, pattern, PAT_W, 1);
	fputc(' ', out);
	field(out, profile, PROF_W, 1);
}

/*
 * The four figures of an XDISK row after its labels, and the newline; a
 * low-precision figure has its mark (MATRIX_LOW_MARK) in the blank column
 * after the IO/s, as the bonnie++ tables mark theirs, so no column moves.
 */
static void xdisk_figures(FILE *out, double iops, double mbps,
			  double read_ms, double write_ms, int low)
{
	char buf[4][32];

	matrix_fmt_iops(buf[0], sizeof(buf[0]), iops);
	matrix_fmt_mbps(buf[1], sizeof(buf[1]), mbps);
	matrix_fmt_ms(buf[2], sizeof(buf[2]), read_ms);
	matrix_fmt_ms(buf[3], sizeof(buf[3]), write_ms);
	fputc(' ', out);
	field(out, buf[0], 11, 0);
	fputs(low ? MATRIX_LOW_MARK : " ", out);
	field(out, buf[1], 9, 0);
	fputc(' ', out);
	field(out, buf[2], 10, 0);
	fputc(' ', out);
	field(out, buf[3], 11, 0);
	fputc('\n', out);
}

void matrix_xdisk_header(FILE *out)
{
	labels(out, "Pattern", "Profile");
	fputs("        IO/s      MB/s  Read (ms)  Write (ms)\n", out);
}

void matrix_xdisk_row(FILE *out, const char *pattern, const char *profile,
		      const struct matrix_figures *f)
{
	labels(out, pattern, profile);
	if (strcmp(f->status, "ok")) {
		fputc(' ', out);
		field(out, status_word(f->status), 11, 0);
		fputc('\n', out);
		return;
	}
	xdisk_figures(out, f->iops, f->mbps, f->rlat[HIST_S_MEAN],
		      f->wlat[HIST_S_MEAN], f->low_precision);
}

/*
 * The latency tables below the XDISK one, which has the means: read and
 * write min, p50, p90, then p99, p99.9, max and the CPU, so every cell
 * shows the summary every writer has.
 */
static const int pct_keys[2][3] = {
	{ HIST_S_MIN, HIST_S_P50, HIST_S_P90 },
	{ HIST_S_P99, HIST_S_P99_9, HIST_S_MAX },
};

/*
 * The latency tables below it: read and write min, p50, p90 (tail 0), then
 * p99, p99.9, max (ms) and CPU % (tail 1).
 */
static void matrix_pct_header(FILE *out, int tail)
{
	int d, i;

	labels(out, "", "");
	fputs(" ------ Read (ms) ------ ------ Write (ms) -----\n", out);
	labels(out, "Pattern", "Profile");
	for (d = 0; d < 2; d++)
		for (i = 0; i < 3; i++) {
			fputc(' ', out);
			field(out, hist_summary_label[pct_keys[tail][i]], 7, 0);
		}
	if (tail) {
		fputc(' ', out);
		field(out, "CPU %", 7, 0);
	}
	fputc('\n', out);
}

static void matrix_pct_row(FILE *out, const char *pattern, const char *profile,
			   const struct matrix_figures *f, int tail)
{
	char buf[32];
	int d, i;

	labels(out, pattern, profile);
	if (strcmp(f->status, "ok")) {
		fputc(' ', out);
		field(out, status_word(f->status), 7, 0);
		fputc('\n', out);
		return;
	}
	for (d = 0; d < 2; d++)
		for (i = 0; i < 3; i++) {
			matrix_fmt_ms(buf, sizeof(buf), (d ? f->wlat : f->rlat)
				      [pct_keys[tail][i]]);
			fputc(' ', out);
			field(out, buf, 7, 0);
		}
	if (tail) {
		if (isnan(f->cpu))
			snprintf(buf, sizeof(buf), DASH);
		else
			snprintf(buf, sizeof(buf), "%.1f", f->cpu);
		fputc(' ', out);
		field(out, buf, 7, 0);
	}
	fputc('\n', out);
}

void matrix_curve_header(FILE *out)
{
	fputs("Target      Target    Achieved -- Read (ms) --  -- Write "
	      "(ms) -\n"
	      "     %        IO/s        IO/s    mean     p99     mean     "
	      "p99\n", out);
}

void matrix_curve_row(FILE *out, unsigned pct, double target_iops,
		      const struct matrix_figures *f)
{
	char buf[32];
	const double v[4] = {
		f->rlat[HIST_S_MEAN], f->rlat[HIST_S_P99],
		f->wlat[HIST_S_MEAN], f->wlat[HIST_S_P99],
	};
	int i;

	snprintf(buf, sizeof(buf), "%u", pct);
	field(out, buf, 6, 0);
	matrix_fmt_iops(buf, sizeof(buf), target_iops);
	fputs("  ", out);
	field(out, buf, 10, 0);
	fputs("  ", out);
	if (strcmp(f->status, "ok")) {
		field(out, status_word(f->status), 10, 0);
		fputc('\n', out);
		return;
	}
	matrix_fmt_iops(buf, sizeof(buf), f->iops);
	field(out, buf, 10, 0);
	for (i = 0; i < 4; i++) {
		matrix_fmt_ms(buf, sizeof(buf), v[i]);
		/* the mark in the blank after the achieved IO/s */
		fputs(i == 2 ? "  " : !i && f->low_precision ?
		      MATRIX_LOW_MARK : " ", out);
		field(out, buf, 7, 0);
	}
	if (!f->reached)
		fputs("  not reached", out);
	fputc('\n', out);
}

/* The curve of cell c, when it has one. */
static void curve_table(FILE *out, const struct matrix_cell *c)
{
	struct matrix_figures f;
	char prof[16], max[32];
	double base;
	size_t k;

	if (!c->ncurve)
		return;
	matrix_profile_name(prof, sizeof(prof), c->read_pct);
	matrix_fmt_iops(max, sizeof(max), c->status == RESULT_OK ||
			c->iops > 0 ? c->iops : NAN);
	fprintf(out, "\nRate curve, %s %s (maximum %s IO/s",
		matrix_pattern_name(c->random), prof, max);
	base = c->curve[0].pct ? c->curve[0].target_iops * 100.0 /
	       c->curve[0].pct : NAN;
	/* --curve-max: the targets are not of the cell's maximum */
	if (base > 0 && !(fabs(base - c->iops) <= 1e-9 * base)) {
		matrix_fmt_iops(max, sizeof(max), base);
		fprintf(out, "; targets %% of %s IO/s", max);
	}
	fputs(")\n", out);
	matrix_curve_header(out);
	for (k = 0; k < c->ncurve; k++) {
		matrix_point_figures(c, &c->curve[k], &f);
		matrix_curve_row(out, c->curve[k].pct, c->curve[k].target_iops,
				 &f);
	}
}

/* Several targets: a row per cell and target. */
static void target_table(FILE *out, const struct matrix_cell *const *group,
			 size_t n)
{
	char prof[16], num[24];
	size_t i, k;

	if (!group[0]->ntargets)
		return;
	fputs("\nPer -d (its threads' I/Os over the cell's time)\n", out);
	labels(out, "Pattern", "Profile");
	fputs("   -d #        IO/s      MB/s  Read (ms)  Write (ms)\n", out);
	for (i = 0; i < n; i++) {
		const struct matrix_cell *c = group[i];

		matrix_profile_name(prof, sizeof(prof), c->read_pct);
		for (k = 0; k < c->ntargets; k++) {
			const struct matrix_target_row *t = &c->targets[k];
			struct matrix_figures f;
			double r[HIST_SUMMARY_N], w[HIST_SUMMARY_N];

			matrix_cell_figures(c, &f);
			labels(out, matrix_pattern_name(c->random), prof);
			snprintf(num, sizeof(num), "%zu", k + 1);
			fputc(' ', out);
			field(out, num, 6, 0);
			if (strcmp(f.status, "ok")) {
				fputc(' ', out);
				field(out, status_word(f.status), 11, 0);
				fputc('\n', out);
				continue;
			}
			hist_summary_ms(&t->rlat, r);
			hist_summary_ms(&t->wlat, w);
			xdisk_figures(out, t->iops, t->mbps, r[HIST_S_MEAN],
				      w[HIST_S_MEAN], f.low_precision);
		}
	}
}

/* --steady: per cell whether it was attained, when, and the figures. */
static void steady_table(FILE *out, const char *steady,
			 const struct matrix_cell *const *group, size_t n)
{
	char prof[16], buf[3][32];
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++)
		any |= group[i]->steady.checked;
	if (!any)
		return;
	fprintf(out, "\nSteady state (--steady %s)\nThe figures above are "
		"those of each cell's last window.\n", steady ? steady : "?");
	labels(out, "Pattern", "Profile");
	fputs(" Attained     At (s)  Window (s)        Mean    Found\n", out);
	for (i = 0; i < n; i++) {
		const struct matrix_steady *st = &group[i]->steady;

		if (!st->checked)
			continue;
		matrix_profile_name(prof, sizeof(prof), group[i]->read_pct);
		labels(out, matrix_pattern_name(group[i]->random), prof);
		snprintf(buf[0], sizeof(buf[0]), "%.2f", st->at);
		snprintf(buf[1], sizeof(buf[1]), "%.2f", st->window);
		snprintf(buf[2], sizeof(buf[2]), "%.4g", st->value);
		fputc(' ', out);
		field(out, st->attained ? "yes" : "no", 8, 0);
		fputc(' ', out);
		field(out, buf[0], 10, 0);
		fputc(' ', out);
		field(out, buf[1], 11, 0);
		matrix_fmt_iops(buf[1], sizeof(buf[1]), st->mean);
		fputc(' ', out);
		field(out, buf[1], 11, 0);
		fputc(' ', out);
		field(out, buf[2], 8, 0);
		fputc('\n', out);
	}
}

/* Table lines of the cells in group[0..n). */
static void group_tables(FILE *out, const struct record_matrix *m,
			 const struct matrix_cell *const *group, size_t n)
{
	struct matrix_figures f;
	char title[96], prof[16];
	size_t i;
	int any_ok = 0, tail;

	matrix_cell_title(title, sizeof(title), group[0]);
	fprintf(out, "\n%s\n\n", title);
	matrix_xdisk_header(out);
	for (i = 0; i < n; i++) {
		matrix_cell_figures(group[i], &f);
		matrix_profile_name(prof, sizeof(prof), group[i]->read_pct);
		matrix_xdisk_row(out, matrix_pattern_name(group[i]->random),
				 prof, &f);
		any_ok |= group[i]->status == RESULT_OK;
	}
	for (i = 0; i < n; i++)
		if (group[i]->status != RESULT_OK && group[i]->reason) {
			const char *st = status_word(result_status_name(
						group[i]->status));
			const char *why = group[i]->reason;

			matrix_profile_name(prof, sizeof(prof),
					    group[i]->read_pct);
			/* "not run: ..." reasons name their status */
			if (group[i]->reason_kind == REASON_NOT_RUN)
				st = NULL;
			text_wrapf(out, 80, 4, "%s %s: %s%s%s",
				   matrix_pattern_name(group[i]->random), prof,
				   st ? st : "", st ? ": " : "", why);
		}
	for (tail = 0; any_ok && tail < 2; tail++) {
		fputc('\n', out);
		matrix_pct_header(out, tail);
		for (i = 0; i < n; i++) {
			matrix_cell_figures(group[i], &f);
			matrix_profile_name(prof, sizeof(prof),
					    group[i]->read_pct);
			matrix_pct_row(out,
				       matrix_pattern_name(group[i]->random),
				       prof, &f, tail);
		}
	}
	target_table(out, group, n);
	steady_table(out, m->steady, group, n);
	for (i = 0; i < n; i++)
		curve_table(out, group[i]);
}

/* "on A, B, C": every -d, wrapped to 80 columns, escaped. */
static void header_targets(FILE *out, const struct record *rec)
{
	size_t i, n = rec->ntargets > 1 ? rec->ntargets : 1;
	char *on = xasprintf("on"), *more;

	for (i = 0; i < n; free(on), on = more, i++) {
		const char *p = rec->ntargets > 1 ? rec->targets[i].path :
				rec->target.path;

		more = xasprintf("%s %s%s", on, p ? p : "?",
				 i + 1 < n ? "," : "");
	}
	text_wrapf(out, 80, 3, "%s", on);
	free(on);
}

void matrix_hit_name(char *buf, size_t len, uint64_t hit_area,
		     unsigned hit_pct)
{
	char area[24];

	if (!len)
		return;
	buf[0] = '\0';
	if (!hit_area)
		return;
	matrix_size_name(area, sizeof(area), hit_area);
	snprintf(buf, len, "hit %s %u%%", area, hit_pct);
}

void matrix_workload_name(char *buf, size_t len,
			  const struct record_matrix *m)
{
	const struct matrix_cell *c = m->ncells ? &m->cells[0] : NULL;
	char area[32], hits[64] = "";

	if (c && c->hit_area) {
		matrix_size_name(area, sizeof(area), c->hit_area);
		snprintf(hits, sizeof(hits), "hit area %s, %u %% hits", area,
			 c->hit_pct);
	} else if (m->profile && !strcmp(m->profile, "vdbench-hit")) {
		snprintf(hits, sizeof(hits), "no hit area");
	}
	if (m->profile)
		snprintf(buf, len, "--profile %s%s%s", m->profile,
			 hits[0] ? ", " : "", hits);
	else
		snprintf(buf, len, "%s", hits);
}

/* "Workload: --profile vdbench-hit, hit area 1M, 0 % hits" */
static void workload(FILE *out, const struct record_matrix *m)
{
	char buf[256];

	matrix_workload_name(buf, sizeof(buf), m);
	if (buf[0])
		text_wrapf(out, 80, 2, "Workload: %s", buf);
}

/* What ran before the cells: the profile, the targets, the prefill. */
static void preamble(FILE *out, const struct record *rec,
		     const struct record_matrix *m)
{
	const struct matrix_prefill *p = &m->prefill;
	char bs[32], bytes[32];
	size_t i;

	workload(out, m);
	if (rec->ntargets > 1) {
		fprintf(out, "Targets (-d #; a cell's threads spread over them "
			"round robin):\n");
		for (i = 0; i < rec->ntargets; i++) {
			const struct record_target *t = &rec->targets[i];
			int on = t->source && (!t->path ||
					       strcmp(t->source, t->path));

			text_wrapf(out, 80, 6, "%3zu %s (%s%s%s)", i + 1,
				t->path ? t->path : "?",
				t->fstype ? t->fstype : "block device",
				on ? " on " : "", on ? t->source : "");
		}
	}
	if (p->status == RESULT_NOT_RUN)
		return;
	matrix_size_name(bs, sizeof(bs), p->bs);
	matrix_fmt_mbps(bytes, sizeof(bytes), (double)p->bytes / 1048576.0);
	if (p->scan)
		fprintf(out, "Prefill: none (--no-prefill); verify read: %s "
			"MiB in %s reads", bytes, bs);
	else
		fprintf(out, "Prefill: %s MiB of unique data, %s sequential "
			"writes", bytes, bs);
	matrix_fmt_mbps(bytes, sizeof(bytes), p->mbps);
	if (p->status == RESULT_OK)
		fprintf(out, ":\n  %.2f s with fsync, %s MB/s\n", p->elapsed,
			bytes);
	else
		fprintf(out, ":\n  %s after %.2f s\n",
			status_word(result_status_name(p->status)), p->elapsed);
}

/* The record's warnings (a VM, -d of different kinds, the null engine's
 * own cost), as clyde run ends its text; O_DIRECT's is in the header. */
static void warnings(FILE *out, const struct record *rec)
{
	size_t i, blank = 0;

	for (i = 0; i < rec->nwarnings; i++) {
		if (rec->matrix->direct && rec->matrix->direct_ignored &&
		    !strncmp(rec->warnings[i], "O_DIRECT not honoured: ", 23))
			continue;
		if (!blank++)
			fputc('\n', out);
		text_wrapf(out, 80, 9, "warning: %s", rec->warnings[i]);
	}
}

int matrix_write_text(const struct record *rec, FILE *out)
{
	const struct record_matrix *m = rec->matrix;
	const struct matrix_cell **group;
	char *done;
	size_t i, j, n;

	if (!m)
		return 0;
	group = xcalloc(m->ncells + 1, sizeof(*group));
	done = xcalloc(m->ncells + 1, 1);
	/* a long label is wrapped as report -f text wraps its run heading */
	text_wrapf(out, 80, 4, "%s, label %s (%s%s)",
		rec->tool && strcmp(rec->tool, "clyde") ? rec->tool :
		"clyde matrix", rec->label ? rec->label : "",
		m->engine ? m->engine : "?", !m->direct ? ", buffered" :
		m->direct_ignored ? ", O_DIRECT not honoured" : ", O_DIRECT");
	header_targets(out, rec);
	if (m->direct && m->direct_ignored) {
		text_wrapf(out, 80, 2, "warning: O_DIRECT not honoured: %s;",
			m->direct_ignored);
		fputs("the figures are memory (page cache) speed, not the "
		      "device's.\n", out);
	}
	fputs("IO/s: all threads' I/Os per second; MB/s: MiB/s; Read and "
	      "Write (ms): mean\nlatency (" DASH ": no such I/O)", out);
	for (i = 0; i < m->ncells && !m->cells[i].ncurve; i++)
		;
	if (i < m->ncells)
		fputs(".\nRate curve: the cell rerun at a % of its maximum "
		      "IO/s; not reached: it\nachieved less than 95 % of "
		      "that target", out);
	fputs(".\n", out);
	preamble(out, rec, m);
	for (i = 0; i < m->ncells; i++) {
		const struct matrix_cell *c = &m->cells[i];

		if (done[i])
			continue;
		n = 0;
		for (j = i; j < m->ncells; j++)
			if (!done[j] && matrix_cell_same_shape(&m->cells[j], c)) {
				group[n++] = &m->cells[j];
				done[j] = 1;
			}
		group_tables(out, m, group, n);
	}
	if (m->error) {
		fputc('\n', out);
		text_wrapf(out, 80, 2, "failed: %s", m->error);
	}
	if (matrix_any_low_precision(m)) {
		fputc('\n', out);
		text_wrapf(out, 80, 2, "%s (raise --time).", MATRIX_LOW_NOTE);
	}
	warnings(out, rec);
	free(group);
	free(done);
	return ferror(out) ? -1 : 0;
}
