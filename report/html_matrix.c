// SPDX-License-Identifier: GPL-2.0-only
/*
 * The matrix tables of the page (clyde matrix records) in the XDISK
 * layout: one table per block size, thread count and depth, a row per
 * figure, a column per cell and configuration.  Written through hout.h.
 */
#include "html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpmatrix.h"
#include "hout.h"
#include "matrix.h"
#include "../lib/xalloc.h"

static const char *const mx_rows[] = { "IO/s", "MB/s", "Read (ms)",
				       "Write (ms)" };
static const char *const mx_keys[] = { "iops", "mbps", "read_ms",
				       "write_ms" };

static double mx_val(const struct cmpm_fig *f, int row)
{
	return row == 0 ? f->iops : row == 1 ? f->mbps :
	       row == 2 ? f->read_ms : f->write_ms;
}

/* One figure of one configuration in one cell. */
static void mx_cell(struct page *p, const struct cmpm *m,
		    const struct cmpm_table *t, size_t k, int pt, int row,
		    size_t i, const struct cmpm_fig *fig, double b)
{
	FILE *f = p->f;
	double v = p->vals[i];
	size_t g = m->groups[i];

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
	h_attr(f, "class", "num");
	h_attrf(f, "data-v", "%.10g", v);
	html_colour(f, compare_rank(p->vals, p->ns, NULL, m->ngroups, i,
				    row < 2));
	h_end(f, 0);
	h_textf(f, row == 0 ? "%.0f" : row == 1 ? "%.2f" : "%.3f", v);
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

/* One row of a table: a cell per (matrix cell, configuration). */
static void mx_row(struct page *p, const struct cmpm *m,
		   const struct cmpm_table *t, int pt, int row)
{
	const struct compare *c = p->c;
	struct cmpm_fig *figs, base;
	size_t k, i, ng = m->ngroups;

	if (pt < 0)
		h_open(p->f, "tr", NULL);
	else
		h_open(p->f, "tr", "class", "curve", NULL);
	h_open(p->f, "th", NULL);
	if (pt < 0)
		h_text(p->f, mx_rows[row]);
	else
		h_textf(p->f, "%u%% %s", t->pcts[pt], mx_rows[row]);
	h_close(p->f, "th");
	figs = xcalloc(ng, sizeof(*figs));
	for (k = 0; k < t->ncells; k++) {
		for (i = 0; i < ng; i++) {
			cmpm_figures(c, t, k, m->groups[i], pt, &figs[i]);
			p->vals[i] = mx_val(&figs[i], row);
			p->ns[i] = !isnan(p->vals[i]);
		}
		cmpm_figures(c, t, k, m->baseline, pt, &base);
		for (i = 0; i < ng; i++)
			mx_cell(p, m, t, k, pt, row, i, &figs[i],
				mx_val(&base, row));
	}
	free(figs);
	h_lit(p->f, "</tr>\n");
}

/* The header rows: pattern, profile and (when several) configuration. */
static void mx_head(struct page *p, const struct cmpm *m,
		    const struct cmpm_table *t)
{
	const struct compare *c = p->c;
	FILE *f = p->f;
	size_t k, i;

	h_lit(f, "<tr><th>Pattern</th>");
	for (k = 0; k < t->ncells; k++) {
		h_start(f, "th");
		h_attrf(f, "colspan", "%zu", m->ngroups);
		h_end(f, 0);
		h_text(f, t->cells[k].random ? "Random" : "Seq");
		h_close(f, "th");
	}
	h_lit(f, "</tr>\n<tr><th>Profile</th>");
	for (k = 0; k < t->ncells; k++) {
		char prof[32];

		matrix_profile_name(prof, sizeof(prof), t->cells[k].read_pct);
		h_start(f, "th");
		h_attrf(f, "colspan", "%zu", m->ngroups);
		h_end(f, 0);
		h_text(f, prof);
		h_close(f, "th");
	}
	h_lit(f, "</tr>\n");
	if (m->ngroups <= 1 && c->ngroups <= 1)
		return;
	h_lit(f, "<tr><th>Configuration</th>");
	for (k = 0; k < t->ncells; k++)
		for (i = 0; i < m->ngroups; i++) {
			size_t g = m->groups[i];
			char *name = compare_group_label(c, g, 0);

			h_open(f, "th", "class", "cfg", "data-baseline",
			       g == m->baseline ? "1" : NULL, NULL);
			h_start(f, "a");
			h_attrf(f, "href", "#cfg%zu", g + 1);
			h_end(f, 0);
			h_text(f, name);
			h_close(f, "a");
			html_vm_mark(f, compare_group_virt(c, g));
			h_close(f, "th");
			free(name);
		}
	h_lit(f, "</tr>\n");
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
	int row, pt;

	cmpm_build(&m, c);
	if (!m.ntables) {
		cmpm_release(&m);
		return;
	}
	h_lit(f, "<h2 id=\"matrix\">Matrix (XDISK layout)</h2>\n"
	      "<p class=\"note\">clyde matrix: per block size and thread "
	      "count, a column per cell and configuration (mean of its runs); "
	      "MB/s is MiB/s, latencies are means in ms; &#215; is the ratio "
	      "to the baseline configuration <b>");
	name = compare_group_name(c, m.baseline);
	h_text(f, name);
	free(name);
	h_lit(f, "</b>.  Colours rank the configurations of each cell; rows "
	      "with a percentage are the rate curve (the cell rerun at that "
	      "% of its maximum IO/s).</p>\n");
	for (ti = 0; ti < m.ntables; ti++) {
		const struct cmpm_table *t = &m.tables[ti];
		char title[96];

		cmpm_title(title, sizeof(title), t);
		h_elem(f, "h3", title);
		h_lit(f, "\n");
		h_start(f, "table");
		h_attr(f, "class", "matrix");
		h_attrf(f, "id", "mx-%" PRIu64 "-%u-%u", t->bs, t->threads,
			t->qd);
		h_end(f, 0);
		h_lit(f, "<thead>\n");
		mx_head(p, &m, t);
		h_lit(f, "</thead><tbody>\n");
		for (row = 0; row < 4; row++)
			mx_row(p, &m, t, -1, row);
		for (pt = 0; pt < (int)t->npts; pt++)
			for (row = 0; row < 4; row++)
				if (row != 1)
					mx_row(p, &m, t, pt, row);
		h_lit(f, "</tbody></table>\n");
	}
	mx_notes(p);
	cmpm_release(&m);
}
