// SPDX-License-Identifier: GPL-2.0-only
/*
 * The matrix tables of the page (clyde matrix records) in the XDISK
 * layout: one table per block size, thread count and depth, a row per
 * figure, a column per cell and configuration.  Written through html_emit.h.
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/compare_matrix.h"
#include "report/write/html_emit.h"
#include "report/model/matrix.h"
#include "lib/xalloc.h"

static const char *const mx_rows[] = { "IO/s", "MB/s", "Read (ms)",
				       "Write (ms)" };
static const char *const mx_keys[] = { "iops", "mbps", "read_ms",
				       "write_ms" };

static double mx_val(const struct cmpm_fig *f, int row)
{
	return row == 0 ? f->iops : row == 1 ? f->mbps :
	       row == 2 ? f->read_ms : f->write_ms;
}

/* One figure of one configuration in one cell, coloured and marked only
 * where it differs from the baseline's (cmpm_diff). */
static void mx_cell(struct page *p, const struct cmpm *m,
		    const struct cmpm_table *t, size_t k, int pt, int row,
		    size_t g, const struct cmpm_fig *fig,
		    const struct cmpm_fig *base)
{
	FILE *f = p->f;
	double v = mx_val(fig, row), b = mx_val(base, row);
	struct stats_diff d;

	h_start(f, "td");
	h_attrf(f, "data-mx", "%" PRIu64 ":%u:%u:%s:%u", t->bs, t->threads,
		t->qd, t->cells[k].random ? "random" : "seq",
		t->cells[k].read_pct);
	h_attr(f, "data-row", mx_keys[row]);
	h_attrf(f, "data-group", "%zu", g + 1);
	if (pt >= 0)
		h_attrf(f, "data-pt", "%u", t->pcts[pt]);
	if (isnan(v)) {
		h_attr(f, "class", "none");
		h_end(f, 0);
		if (row == 0 && fig->status && strcmp(fig->status, "ok"))
			h_text(f, fig->status);
		else
			h_lit(f, "&#8212;");
		h_close(f, "td");
		return;
	}
	cmpm_diff(p->c, fig, base, row, &d);
	if (g == m->baseline)
		d.verdict = STATS_UNTESTED;
	h_attr(f, "class", html_diff_class(&d, row < 2, 1));
	h_attrf(f, "data-v", "%.10g", v);
	html_diff_attr(f, &d);
	h_end(f, 0);
	h_textf(f, row == 0 ? "%.0f" : row == 1 ? "%.2f" : "%.3f", v);
	html_diff_mark(f, &d);
	if (fig->fig.low_precision)
		html_mx_low_mark(f);
	if (fig->n > 1) {
		h_open(f, "span", "class", "n", NULL);
		h_textf(f, "n=%zu", fig->n);
		h_close(f, "span");
	}
	if (g != m->baseline && !isnan(b) && b > 0) {
		h_start(f, "span");
		h_attr(f, "class", "ratio");
		h_attrf(f, "data-ratio", "%.4f", v / b);
		h_end(f, 0);
		h_lit(f, "&#215;");
		h_textf(f, "%.2f", v / b);
		h_close(f, "span");
	}
	h_close(f, "td");
}

/* The pattern and profile heads of a row (seed 000's first columns). */
static void mx_row_heads(FILE *f, const struct cmpm_table *t, size_t k,
			 int pt)
{
	char prof[32], hit[48];

	matrix_profile_name(prof, sizeof(prof), t->cells[k].read_pct);
	matrix_hit_name(hit, sizeof(hit), t->cells[k].hit_area,
			t->cells[k].hit_pct);
	h_open(f, "th", NULL);
	h_text(f, t->cells[k].random ? "Random" : "Sequential");
	h_close(f, "th");
	h_open(f, "th", NULL);
	h_text(f, prof);
	if (pt >= 0)
		h_textf(f, " at %u%%", t->pcts[pt]);
	if (hit[0]) {	/* cells that differ only by it read apart */
		h_lit(f, "<br>");
		h_text(f, hit);
	}
	h_close(f, "th");
}

/*
 * One row of a table: a matrix cell (or one point of its rate curve),
 * the four figures of each configuration shown (in[i]) side by side.
 */
static void mx_row(struct page *p, const struct cmpm *m,
		   const struct cmpm_table *t, const char *in, size_t k,
		   int pt)
{
	const struct compare *c = p->c;
	struct cmpm_fig fig, base;
	size_t i;
	int row;

	if (pt < 0)
		h_open(p->f, "tr", NULL);
	else
		h_open(p->f, "tr", "class", "curve", NULL);
	mx_row_heads(p->f, t, k, pt);
	cmpm_figures(c, t, k, m->baseline, pt, &base);
	for (i = 0; i < m->ngroups; i++) {
		if (!in[i])
			continue;
		cmpm_figures(c, t, k, m->groups[i], pt, &fig);
		for (row = 0; row < 4; row++)
			mx_cell(p, m, t, k, pt, row, m->groups[i], &fig,
				&base);
	}
	h_lit(p->f, "</tr>\n");
}

/* The header rows: a column group per configuration shown (in[i]), its
 * four figures. */
static void mx_head(struct page *p, const struct cmpm *m, const char *in)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t i;
	int row;

	h_lit(f, "<tr><th rowspan=\"2\">Pattern</th>"
	      "<th rowspan=\"2\">Profile</th>");
	for (i = 0; i < m->ngroups; i++) {
		size_t g = m->groups[i];
		char *name;

		if (!in[i])
			continue;
		name = compare_group_label(c, g, 0);
		h_open(f, "th", "class", "cfg", "colspan", "4",
		       "data-baseline", g == m->baseline ? "1" : NULL, NULL);
		h_start(f, "a");
		h_attrf(f, "href", "#cfg%zu", g + 1);
		h_end(f, 0);
		h_text(f, name);
		h_close(f, "a");
		html_vm_group(p, g);
		h_close(f, "th");
		free(name);
	}
	h_lit(f, "</tr>\n<tr>");
	for (i = 0; i < m->ngroups; i++)
		for (row = 0; in[i] && row < 4; row++)
			h_elem(f, "th", mx_rows[row]);
	h_lit(f, "</tr>\n");
}

/*
 * The configurations not in table t (no cell of its shape), in one line
 * under it: they get no empty column group.
 */
static void mx_missing(struct page *p, const struct cmpm *m, const char *in)
{
	size_t i, n = 0;

	for (i = 0; i < m->ngroups; i++) {
		char *name;

		if (in[i])
			continue;
		if (!n++)
			h_lit(p->f, "<p class=\"note mx-missing\">Not measured "
			      "in this shape: ");
		else
			h_lit(p->f, ", ");
		name = compare_group_label(p->c, m->groups[i], 0);
		h_text(p->f, name);
		free(name);
	}
	if (n)
		h_lit(p->f, ".</p>\n");
}

/* One table of the comparison: a block size, thread count and depth. */
static void mx_table(struct page *p, const struct cmpm *m,
		     const struct cmpm_table *t)
{
	FILE *f = p->f;
	char title[96], *in = xcalloc(m->ngroups + 1, 1);
	size_t i, k;
	int pt;

	for (i = 0; i < m->ngroups; i++)
		in[i] = (char)cmpm_group_has(p->c, t, m->groups[i]);
	/* the title the text tables print (seed 000's) */
	matrix_table_title(title, sizeof(title), t->bs, t->threads, t->qd);
	h_elem(f, "h3", title);
	h_lit(f, "\n");
	h_start(f, "table");
	h_attr(f, "class", "matrix");
	h_attrf(f, "id", "mx-%" PRIu64 "-%u-%u", t->bs, t->threads, t->qd);
	h_end(f, 0);
	h_lit(f, "<thead>\n");
	mx_head(p, m, in);
	h_lit(f, "</thead><tbody>\n");
	for (k = 0; k < t->ncells; k++)
		mx_row(p, m, t, in, k, -1);
	for (pt = 0; pt < (int)t->npts; pt++)
		for (k = 0; k < t->ncells; k++)
			mx_row(p, m, t, in, k, pt);
	h_lit(f, "</tbody></table>\n");
	mx_missing(p, m, in);
	free(in);
}

/* Failed runs and cells, with their reasons. */
static void mx_notes(struct page *p)
{
	const struct compare *c = p->c;
	size_t r, i;

	for (r = 0; r < c->nrecs; r++) {
		const struct record_matrix *mx = c->recs[r]->matrix;

		if (mx && mx->error) {
			h_open(p->f, "p", "class", "note", NULL);
			h_textf(p->f, "Run %zu failed: %s", r + 1, mx->error);
			h_lit(p->f, "</p>\n");
		}
		for (i = 0; mx && i < mx->ncells; i++) {
			if (!mx->cells[i].reason)
				continue;
			h_open(p->f, "p", "class", "note", NULL);
			h_textf(p->f, "Run %zu, cell %zu: %s", r + 1, i + 1,
				mx->cells[i].reason);
			h_lit(p->f, "</p>\n");
		}
	}
}

void html_matrix_tables(struct page *p)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	struct cmpm m;
	size_t ti;
	char *name;

	cmpm_build(&m, c);
	if (!m.ntables) {
		cmpm_release(&m);
		return;
	}
	h_lit(f, "<h2 id=\"matrix\">Matrix (XDISK layout)</h2>\n"
	      "<p class=\"note\">clyde matrix: per block size and thread "
	      "count, a row per cell (pattern and profile) and a column group per "
	      "configuration that has the shape (mean of its runs); "
	      "MB/s is MiB/s, latencies are means in ms; &#215; is the ratio "
	      "to the baseline configuration <b>");
	name = compare_group_name(c, m.baseline);
	h_text(f, name);
	free(name);
	h_lit(f, "</b>.  Colours and marks <a href=\"#diff-legend\">only "
	      "where a figure differs from the baseline's</a>; rows "
	      "with &#8220;at N%&#8221; are the rate curve (the cell rerun at that "
	      "% of its maximum IO/s).</p>\n");
	for (ti = 0; ti < m.ntables; ti++)
		mx_table(p, &m, &m.tables[ti]);
	html_matrix_chart(p, &m);
	if (html_mx_any_low(c))
		html_mx_low_note(f);
	mx_notes(p);
	cmpm_release(&m);
}
