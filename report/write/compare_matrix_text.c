// SPDX-License-Identifier: GPL-2.0-only
/*
 * The matrix of a comparison as text (compare_matrix.h): the XDISK layout of
 * seed 000 with the configurations one under another per shape, their
 * rate curves, then each run's own tables through matrix_write_text(),
 * the one writer of the run's XDISK tables.
 */
#include "report/analyze/compare_matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/matrix.h"
#include "report/write/report.h"
#include "lib/textcols.h"
#include "lib/xalloc.h"

/* An XDISK row with the IO/s ratio to the baseline after it. */
static void row_with_ratio(FILE *out, const struct cmpm_fig *f,
			   const struct cmpm_fig *base, int is_base)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	char pattern[16], profile[16];

	if (!mem)
		return;
	snprintf(pattern, sizeof(pattern), "%s",
		 matrix_pattern_name(strcmp(f->fig.pattern, "Seq") != 0));
	snprintf(profile, sizeof(profile), "%s", f->fig.profile);
	matrix_xdisk_row(mem, pattern, profile, &f->fig);
	fclose(mem);
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (is_base)
		fprintf(out, "%-66s %6s\n", buf, "base");
	else if (f->n && base->n && base->iops > 0)
		fprintf(out, "%-66s %6.2f\n", buf, f->iops / base->iops);
	else
		fprintf(out, "%s\n", buf);
	free(buf);
}

static void header_with_ratio(FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	matrix_xdisk_header(mem);
	fclose(mem);
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	fprintf(out, "%-66s  ratio\n", buf);
	free(buf);
}

/*
 * Configuration g's name line: its number in the list, name and tool, the
 * name fitted to 80 columns keeping what tells it from the others.
 */
static void name_line(const struct compare *c, const struct cmp_names *nm,
		      size_t g, FILE *out)
{
	const struct record *rec = c->recs[c->groups[g].runs[0]];
	const char *engine = rec->matrix ? rec->matrix->engine : NULL;
	char *tail = xasprintf(" (%s%s%s)", rec->tool ? rec->tool : "?",
			       engine ? ", " : "", engine ? engine : "");
	char head[32], *n, *line;
	size_t used;

	snprintf(head, sizeof(head), "[%zu] ", g + 1);
	used = strlen(head) + text_cols(tail);
	n = compare_names_fit(nm, c, g, used < 80 - 8 ? 80 - used : 8);
	line = xasprintf("%s%s%s", head, n, tail);
	/* a tool or engine name from a file: escaped, and never past 80 */
	text_wrap(out, line, 80, 4);
	free(line);
	free(n);
	free(tail);
}

/*
 * Side by side: the columns each configuration gets, the richest set
 * whose table fits 80 columns: pattern and profile (21), then per
 * configuration 2 apart, IO/s 9, MB/s 8, read and write ms 14, and after
 * all but the baseline the IO/s ratio to it 6.
 */
enum { SB_MBPS = 1, SB_LAT = 2 };

static size_t sb_group(unsigned set, int ratio)
{
	return 2 + 9 + (set & SB_MBPS ? 8 : 0) + (set & SB_LAT ? 14 : 0) +
	       (ratio ? 6 : 0);
}

/* The set that fits n configurations (one the baseline), -1 if none. */
static int sb_set(size_t n, int has_base)
{
	static const unsigned sets[] = { SB_MBPS | SB_LAT, SB_LAT, 0 };
	size_t i;

	for (i = 0; i < 3; i++) {
		size_t w = 21 + n * sb_group(sets[i], 1) -
			   (has_base ? 6 : 0);

		if (w <= 80)
			return (int)sets[i];
	}
	return -1;
}

static void sb_num(FILE *out, const char *s, int w)
{
	int pad = w - (int)text_cols(s);

	fprintf(out, " %*s%s", pad > 0 ? pad : 0, "", s);
}

/* Configuration's figures of a cell, or what it has instead. */
static void sb_figures(FILE *out, const struct cmpm_fig *f,
		       const struct cmpm_fig *base, unsigned set, int ratio)
{
	char buf[40];

	fputc(' ', out);
	if (!f->n) {
		snprintf(buf, sizeof(buf), "%s", !f->status ? "—" :
			 !strcmp(f->status, "not_run") ? "not run" : f->status);
		sb_num(out, buf, 9);
		fprintf(out, "%*s", (int)sb_group(set, ratio) - 11, "");
		return;
	}
	matrix_fmt_iops(buf, sizeof(buf), f->fig.iops);
	if (f->fig.low_precision)
		strcat(buf, MATRIX_LOW_MARK);
	sb_num(out, buf, 9);
	if (set & SB_MBPS) {
		matrix_fmt_mbps(buf, sizeof(buf), f->fig.mbps);
		sb_num(out, buf, 7);
	}
	if (set & SB_LAT) {
		matrix_fmt_ms(buf, sizeof(buf), f->fig.rlat[HIST_S_MEAN]);
		sb_num(out, buf, 6);
		matrix_fmt_ms(buf, sizeof(buf), f->fig.wlat[HIST_S_MEAN]);
		sb_num(out, buf, 6);
	}
	if (ratio && base->n && base->iops > 0) {
		double r = f->iops / base->iops;

		fprintf(out, " %5.*f", r >= 99.95 ? 0 : r >= 9.995 ? 1 : 2, r);
	} else if (ratio)
		sb_num(out, "—", 5);
}

/* The head: each configuration's number over its columns (its name on
 * its line above), then the columns' names. */
static void sb_head(const size_t *gs, size_t n, size_t base, unsigned set,
		    FILE *out)
{
	size_t i;

	fprintf(out, "%21s", "");
	for (i = 0; i < n; i++) {
		char num[24];
		int w = (int)sb_group(set, gs[i] != base) - 2;

		snprintf(num, sizeof(num), "[%zu]", gs[i] + 1);
		fprintf(out, "  %9s", num);	/* over its IO/s */
		if (i + 1 < n)
			fprintf(out, "%*s", w - 9, "");
	}
	fprintf(out, "\n%-10s %-10s", "Pattern", "Profile");
	for (i = 0; i < n; i++) {
		fprintf(out, "  %9s", "IO/s");
		if (set & SB_MBPS)
			fprintf(out, " %7s", "MB/s");
		if (set & SB_LAT)
			fprintf(out, " %6s %6s", "Rd ms", "Wr ms");
		if (gs[i] != base)
			fprintf(out, " %5s", "ratio");
	}
	fputc('\n', out);
}

/* Under a row's profile, the cell's hit area and hit % when it has a hit
 * area: cells that differ only by them read apart. */
static void hit_line(FILE *out, const struct cmpm_cell *cell)
{
	char hit[48];

	matrix_hit_name(hit, sizeof(hit), cell->hit_area, cell->hit_pct);
	if (hit[0])
		fprintf(out, "%-10s %s\n", "", hit);
}

/* One table side by side: a row per cell any configuration has. */
static void sb_table(const struct compare *c, const struct cmpm *m,
		     const struct cmpm_table *t,
		     const size_t *gs, size_t n, unsigned set, FILE *out)
{
	size_t k, i;

	sb_head(gs, n, m->baseline, set, out);
	for (k = 0; k < t->ncells; k++) {
		struct cmpm_fig f, base;
		char prof[16];
		int any = 0;

		for (i = 0; i < n && !any; i++) {
			cmpm_figures(c, t, k, gs[i], -1, &f);
			any = f.status != NULL;
		}
		if (!any)
			continue;
		matrix_profile_name(prof, sizeof(prof), t->cells[k].read_pct);
		fprintf(out, "%-10s %-10s",
			matrix_pattern_name(t->cells[k].random), prof);
		cmpm_figures(c, t, k, m->baseline, -1, &base);
		for (i = 0; i < n; i++) {
			cmpm_figures(c, t, k, gs[i], -1, &f);
			sb_figures(out, &f, &base, set, gs[i] != m->baseline);
		}
		fputc('\n', out);
		hit_line(out, &t->cells[k]);
	}
}

/* The configurations stacked, one under another, each under its name. */
static void stacked(const struct compare *c, const struct cmpm *m,
		    const struct cmp_names *nm, const struct cmpm_table *t,
		    FILE *out)
{
	size_t k, i;

	header_with_ratio(out);
	for (i = 0; i < m->ngroups; i++) {
		size_t g = m->groups[i];
		int named = 0;

		for (k = 0; k < t->ncells; k++) {
			struct cmpm_fig f, base;

			cmpm_figures(c, t, k, g, -1, &f);
			if (!f.status)
				continue;
			if (!named++)
				name_line(c, nm, g, out);
			cmpm_figures(c, t, k, m->baseline, -1, &base);
			row_with_ratio(out, &f, &base, g == m->baseline);
			hit_line(out, &t->cells[k]);
		}
	}
}

/*
 * Per shape, the configurations that have it side by side where 80
 * columns hold them (2 with latencies, 3 with IO/s alone), else stacked,
 * as the title says.
 */
static void side_by_side(const struct compare *c, const struct cmpm *m,
			 const struct cmp_names *nm, FILE *out)
{
	size_t ti, k, i, *gs = xcalloc(m->ngroups + 1, sizeof(*gs));

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];
		size_t n = 0;
		int set, has_base = 0;
		char title[96];

		for (i = 0; i < m->ngroups; i++)
			for (k = 0; k < t->ncells; k++) {
				struct cmpm_fig f;

				cmpm_figures(c, t, k, m->groups[i], -1, &f);
				if (f.status) {
					gs[n++] = m->groups[i];
					has_base |= m->groups[i] == m->baseline;
					break;
				}
			}
		if (n < 2)
			continue;
		matrix_table_title(title, sizeof(title), t->bs, t->threads,
				   t->qd);
		set = sb_set(n, has_base);
		if (set < 0) {
			fprintf(out, "\nMatrix stacked: %s\n(%zu "
				"configurations, one under another: too many "
				"side by side in 80 columns)\n", title, n);
			stacked(c, m, nm, t, out);
			continue;
		}
		fprintf(out, "\nMatrix side by side: %s\n", title);
		for (i = 0; i < n; i++)
			name_line(c, nm, gs[i], out);
		sb_table(c, m, t, gs, n, (unsigned)set, out);
	}
	free(gs);
}

/* "Rate curve: 8K block size — 8 threads, Random 100% read, hit 1M 0%" */
static void curve_head(FILE *out, const char *title,
		       const struct cmpm_cell *cell)
{
	char prof[16], hit[48];

	matrix_profile_name(prof, sizeof(prof), cell->read_pct);
	matrix_hit_name(hit, sizeof(hit), cell->hit_area, cell->hit_pct);
	fputc('\n', out);
	text_wrapf(out, 80, 2, "Rate curve: %s, %s %s%s%s", title,
		   matrix_pattern_name(cell->random), prof, hit[0] ? ", " : "",
		   hit);
}

static void curves(const struct compare *c, const struct cmpm *m,
		   const struct cmp_names *nm, FILE *out)
{
	size_t ti, k, i, p;

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];
		char title[96];

		if (!t->npts)
			continue;
		matrix_table_title(title, sizeof(title), t->bs, t->threads,
				   t->qd);
		for (k = 0; k < t->ncells; k++) {
			int head = 0;

			for (i = 0; i < m->ngroups; i++) {
				size_t g = m->groups[i];
				int named = 0;

				for (p = 0; p < t->npts; p++) {
					struct cmpm_fig f;

					cmpm_figures(c, t, k, g, (int)p, &f);
					if (!f.status)
						continue;
					if (!head++) {
						curve_head(out, title,
							   &t->cells[k]);
						matrix_curve_header(out);
					}
					if (!named++)
						name_line(c, nm, g, out);
					matrix_curve_row(out, t->pcts[p],
							 f.fig.target_iops,
							 &f.fig);
				}
			}
		}
	}
}

static int curves_any(const struct cmpm *m)
{
	size_t ti;

	for (ti = 0; ti < m->ntables; ti++)
		if (m->tables[ti].npts)
			return 1;
	return 0;
}

int cmpm_write_text(const struct compare *c, FILE *out)
{
	struct cmp_names names;
	struct cmpm m;
	size_t r;

	cmpm_build(&m, c);
	compare_names_init(&names, c);
	if (m.ngroups > 1) {
		fputs("\nMatrix: IO/s, MB/s (MiB/s) and mean read and write "
		      "latency (Rd ms, Wr ms)\nper configuration [N] of the "
		      "list above, side by side where 80 columns\nhold them; "
		      "ratio: IO/s to the baseline's same cell.  Only cells of "
		      "one\nshape (block size, threads, queue depth, pattern, "
		      "profile) are compared.\n", out);
		side_by_side(c, &m, &names, out);
	}
	curves(c, &m, &names, out);
	for (r = 0; r < c->nrecs && (m.ngroups > 1 || curves_any(&m)); r++)
		if (matrix_any_low_precision(c->recs[r]->matrix)) {
			fputc('\n', out);
			text_wrapf(out, 80, 2, "%s; a mean with such a run "
				   "in it is marked.", MATRIX_LOW_NOTE);
			break;
		}
	compare_names_release(&names);
	cmpm_release(&m);
	for (r = 0; r < c->nrecs; r++) {
		char *mark, *head;

		if (!c->recs[r]->matrix)
			continue;
		mark = compare_virt_mark(c->recs[r]);
		head = xasprintf("\nRun %zu%s%s%s: ", r + 1, mark ? " [" : "",
				 mark ? mark : "", mark ? "]" : "");
		free(mark);
		report_text_run(out, head, matrix_write_text, c->recs[r]);
		free(head);
	}
	return ferror(out) ? -1 : 0;
}
