// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page's per-run matrix appendix in seed 000's XDISK layout: for each
 * run with a matrix (clyde matrix, fio jobs), one table per block size,
 * thread count and queue depth, a row per pattern and profile with IO/s,
 * MB/s, Read (ms) and Write (ms), the numbers formatted as the text tables
 * format them (matrix_fmt_*), and under it the whole latency summary of
 * its cells.  Written through the emitter (html_emit.h) only.
 */
#include "report/write/html_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/write/html_emit.h"
#include "report/model/matrix.h"
#include "lib/xalloc.h"

/* A figure cell: its text by fmt, its value in data-v; none: a dash. */
void html_fig_td_low(FILE *f, double v,
		     void (*fmt)(char *, size_t, double), int low)
{
	char buf[32];

	if (isnan(v) || v < 0) {
		h_lit(f, "<td class=\"none\">&#8212;</td>");
		return;
	}
	fmt(buf, sizeof(buf), v);
	h_start(f, "td");
	h_attr(f, "class", "num");
	h_attrf(f, "data-v", "%.10g", v);
	h_end(f, 0);
	h_text(f, buf);
	if (low)
		html_mx_low_mark(f);
	h_close(f, "td");
}

void html_fig_td(FILE *f, double v, void (*fmt)(char *, size_t, double))
{
	html_fig_td_low(f, v, fmt, 0);
}

#define LOW_TITLE "low precision: fewer than 10 I/Os per thread, a count " \
	"rather than a rate"

void html_mx_low_mark(FILE *f)
{
	html_mark(f, "*", LOW_TITLE);
}

void html_mx_low_note(FILE *f)
{
	h_lit(f, "<p class=\"note\"><b>*</b> ");
	h_text(f, LOW_TITLE " (raise --time).");
	h_lit(f, "</p>\n");
}

int html_mx_any_low(const struct compare *c)
{
	size_t r;

	for (r = 0; r < c->nrecs; r++)
		if (matrix_any_low_precision(c->recs[r]->matrix))
			return 1;
	return 0;
}

/*
 * The latency summary of the cells of one table (cells[0..n)), reads then
 * writes, in ms: what the text prints in its two tables under the XDISK
 * one, here in one table folded in a details element.
 */
static void latency_table(FILE *f, const struct matrix_cell *const *cells,
			  size_t n)
{
	size_t i;
	int d, k;

	h_lit(f, "<details><summary>Latency (ms): the whole summary</summary>"
	      "<table class=\"xdisk-lat\"><thead><tr><th rowspan=\"2\">"
	      "Pattern</th><th rowspan=\"2\">Profile</th><th colspan=\"7\">"
	      "Read (ms)</th><th colspan=\"7\">Write (ms)</th></tr><tr>");
	for (d = 0; d < 2; d++)
		for (k = 0; k < HIST_SUMMARY_N; k++)
			h_elem(f, "th", hist_summary_label[k]);
	h_lit(f, "</tr></thead><tbody>\n");
	for (i = 0; i < n; i++) {
		struct matrix_figures fig;

		matrix_cell_figures(cells[i], &fig);
		if (strcmp(fig.status, "ok"))
			continue;
		h_lit(f, "<tr>");
		h_elem(f, "td", matrix_pattern_name(cells[i]->random));
		h_elem(f, "td", fig.profile);
		for (d = 0; d < 2; d++)
			for (k = 0; k < HIST_SUMMARY_N; k++)
				html_fig_td(f, d ? fig.wlat[k] : fig.rlat[k],
					    matrix_fmt_ms);
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table></details>\n");
}

static void run_tables(struct page *p, size_t r)
{
	const struct record *rec = p->c->recs[r];
	const struct record_matrix *m = rec->matrix;
	char *done = xcalloc(m->ncells + 1, 1);
	const struct matrix_cell **cells = xcalloc(m->ncells + 1,
						   sizeof(*cells));
	FILE *f = p->f;
	size_t i, j, n;
	char wl[256];

	h_start(f, "h3");
	h_attrf(f, "id", "mxrun%zu", r + 1);
	h_end(f, 0);
	h_textf(f, "Run %zu: %s, label ", r + 1, rec->tool ? rec->tool : "?");
	h_text(f, rec->label);
	h_textf(f, " (%s, %s)", m->engine ? m->engine : "?",
		m->direct ? "O_DIRECT" : "buffered");
	html_run_mark(f, rec);
	h_close(f, "h3");
	matrix_workload_name(wl, sizeof(wl), m);
	if (wl[0]) {
		h_open(f, "p", "class", "workload", NULL);
		h_textf(f, "Workload: %s", wl);
		h_close(f, "p");
	}
	for (i = 0; i < m->ncells; i++) {
		const struct matrix_cell *c = &m->cells[i];
		char title[96];

		if (done[i])
			continue;
		matrix_cell_title(title, sizeof(title), c);
		h_open(f, "table", "class", "xdisk", NULL);
		h_open(f, "caption", NULL);
		h_text(f, title);
		h_close(f, "caption");
		h_lit(f, "<thead><tr><th>Pattern</th><th>Profile</th>"
		      "<th>IO/s</th><th>MB/s</th><th>Read (ms)</th>"
		      "<th>Write (ms)</th></tr></thead><tbody>\n");
		for (j = i, n = 0; j < m->ncells; j++) {
			const struct matrix_cell *d = &m->cells[j];
			struct matrix_figures fig;

			if (done[j] || d->bs != c->bs ||
			    d->threads != c->threads || d->qd != c->qd)
				continue;
			done[j] = 1;
			cells[n++] = d;
			matrix_cell_figures(d, &fig);
			h_lit(f, "<tr>");
			h_elem(f, "td", matrix_pattern_name(d->random));
			h_elem(f, "td", fig.profile);
			if (strcmp(fig.status, "ok")) {
				h_open(f, "td", "class", "none", "colspan",
				       "4", NULL);
				h_text(f, fig.status);
				if (d->reason) {
					h_text(f, ": ");
					h_text(f, d->reason);
				}
				h_close(f, "td");
			} else {
				html_fig_td_low(f, fig.iops, matrix_fmt_iops,
						fig.low_precision);
				html_fig_td_low(f, fig.mbps, matrix_fmt_mbps,
						fig.low_precision);
				html_fig_td(f, fig.rlat[HIST_S_MEAN], matrix_fmt_ms);
				html_fig_td(f, fig.wlat[HIST_S_MEAN], matrix_fmt_ms);
			}
			h_lit(f, "</tr>\n");
		}
		h_lit(f, "</tbody></table>\n");
		latency_table(f, cells, n);
	}
	free(cells);
	free(done);
}

void html_matrix_appendix(struct page *p)
{
	size_t r;
	int head = 0;

	for (r = 0; r < p->c->nrecs; r++) {
		if (!p->c->recs[r]->matrix || !p->c->recs[r]->matrix->ncells)
			continue;
		if (!head++)
			h_lit(p->f, "<h2 id=\"matrix-runs\">Each run's matrix "
			      "(XDISK layout)</h2>\n<p class=\"note\">IO/s: all "
			      "threads' I/Os per second; MB/s: MiB/s; Read and "
			      "Write (ms): mean latency; &#8212;: no such "
			      "I/O.</p>\n");
		run_tables(p, r);
	}
	if (head && html_mx_any_low(p->c))
		html_mx_low_note(p->f);
}
