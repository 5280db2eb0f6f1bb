// SPDX-License-Identifier: GPL-2.0-only
/*
 * The matrix of a comparison as text (cmpmatrix.h): the XDISK layout of
 * seed 000 with the configurations one under another per shape, their
 * rate curves, then each run's own tables through matrix_write_text(),
 * the one writer of the run's XDISK tables.
 */
#include "cmpmatrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "report.h"
#include "textcols.h"
#include "../lib/xalloc.h"

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

static void side_by_side(const struct compare *c, const struct cmpm *m,
			 const struct cmp_names *nm, FILE *out)
{
	size_t ti, k, i;

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];
		char title[96];
		size_t present = 0;

		for (i = 0; i < m->ngroups; i++)
			for (k = 0; k < t->ncells; k++) {
				struct cmpm_fig f;

				cmpm_figures(c, t, k, m->groups[i], -1, &f);
				if (f.status) {
					present++;
					break;
				}
			}
		if (present < 2)
			continue;
		matrix_table_title(title, sizeof(title), t->bs, t->threads,
				   t->qd);
		fprintf(out, "\nMatrix side by side: %s\n", title);
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
				row_with_ratio(out, &f, &base,
					       g == m->baseline);
			}
		}
	}
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
			char prof[16];
			int head = 0;

			matrix_profile_name(prof, sizeof(prof),
					    t->cells[k].read_pct);
			for (i = 0; i < m->ngroups; i++) {
				size_t g = m->groups[i];
				int named = 0;

				for (p = 0; p < t->npts; p++) {
					struct cmpm_fig f;

					cmpm_figures(c, t, k, g, (int)p, &f);
					if (!f.status)
						continue;
					if (!head++) {
						fprintf(out, "\nRate curve: %s, "
							"%s %s\n", title,
							matrix_pattern_name(
							t->cells[k].random),
							prof);
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

int cmpm_write_text(const struct compare *c, FILE *out)
{
	struct cmp_names names;
	struct cmpm m;
	size_t r;

	cmpm_build(&m, c);
	compare_names_init(&names, c);
	if (m.ngroups > 1) {
		fputs("\nMatrix: IO/s, MB/s (MiB/s) and mean latency per "
		      "configuration [N] of the list\nabove; ratio: IO/s to "
		      "the baseline's same cell.  Only cells of one shape\n"
		      "(block size, threads, queue depth, pattern, profile) "
		      "are compared.\n", out);
		side_by_side(c, &m, &names, out);
	}
	curves(c, &m, &names, out);
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
