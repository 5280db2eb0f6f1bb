// SPDX-License-Identifier: GPL-2.0-only
/* The pivot of a comparison as text and CSV; see pivot.h. */
#include "report/analyze/pivot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/write/report.h"
#include "report/model/record_util.h"
#include "lib/textcols.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

/* The room of a clipped name: at most 24 columns, 4 bytes a column. */
#define CLIP_LEN (4 * 24 + 4)

/*
 * s escaped as every text (textesc.h) into buf (CLIP_LEN bytes), in at
 * most w columns of its escaped form, a cut ended by "...".
 */
static void clip(char *buf, size_t w, const char *s)
{
	text_fit(buf, CLIP_LEN, s, w);
}

/* buf (escaped) in w columns, padded by columns: left, or right. */
static void put_col(FILE *out, const char *buf, size_t w, int right)
{
	size_t cols = text_cols(buf);
	int pad = cols < w ? (int)(w - cols) : 0;

	if (right)
		fprintf(out, "%*s%s", pad, "", buf);
	else
		fprintf(out, "%s%*s", buf, pad, "");
}

/* The columns of s escaped. */
static size_t esc_cols(const char *s)
{
	char *e = text_escaped(s);
	size_t n = text_cols(e);

	free(e);
	return n;
}

static void cell_text(char *buf, size_t len, const struct pivot_cell *cell,
		      const char *unit)
{
	char v[32];

	if (!cell->sum.n) {
		snprintf(buf, len, "%s", cell->too_fast ? "+++++" : "");
		return;
	}
	report_fmt_value(v, sizeof(v), cell->sum.mean, unit);
	snprintf(buf, len, "%s%s%s", v, cell->sum.noisy ? "N" : "",
		 cell->nconfigs > 1 ? "+" : "");
}

#define PIVOT_COL_W 11

/* Which of the pivot's dimensions some configuration got from its label. */
static void inferred_note(const struct pivot *p, const struct compare *c,
			  FILE *out)
{
	size_t i, g, n = 0;
	char *line = xstrdup(""), *s;

	for (i = 0; i < p->rows.ndims + p->cols.ndims; i++) {
		const char *d = i < p->rows.ndims ? p->rows.dims[i] :
				p->cols.dims[i - p->rows.ndims];

		for (g = 0; g < c->ngroups; g++) {
			const struct dim *x = dims_find(&c->groups[g].dims, d);

			if (x && x->source == DIM_INFERRED)
				break;
		}
		if (g == c->ngroups)
			continue;
		s = xasprintf("%s%s%s", line, n++ ? ", " : "inferred from "
			      "labels: ", d);
		free(line);
		line = s;
	}
	if (n) {
		s = xasprintf("%s (clyde(1), Dimensions)", line);
		fputc('\n', out);
		text_wrap(out, s, 80, 2);
		free(s);
	}
	free(line);
}

/* "TITLE (UNIT): rows A,B, columns C,D" wrapped in 80 columns. */
static void heading(FILE *out, const char *title, const char *unit,
		    const struct pivot *p)
{
	char *h = unit ? xasprintf("%s (%s): rows", title, unit) :
		  xasprintf("%s: rows", title), *n;
	size_t d;

	for (d = 0; d < p->rows.ndims; d++) {
		n = xasprintf("%s%s%s", h, d ? "," : " ", p->rows.dims[d]);
		free(h);
		h = n;
	}
	n = xasprintf("%s, columns", h);
	free(h);
	h = n;
	for (d = 0; d < p->cols.ndims; d++) {
		n = xasprintf("%s%s%s", h, d ? "," : " ", p->cols.dims[d]);
		free(h);
		h = n;
	}
	fputc('\n', out);
	text_wrap(out, h, 80, 2);
	free(h);
}

/* The row label column: dimension names and values (at most 24). */
static size_t label_width(const struct pivot *p)
{
	size_t d, r, w0 = 0;

	for (d = 0; d < p->rows.ndims; d++)
		w0 += esc_cols(p->rows.dims[d]) + (d ? 1 : 0);
	for (r = 0; r < p->rows.nkeys; r++) {
		char *n = pivot_key_name(&p->rows, r);

		if (esc_cols(n) + 4 > w0)
			w0 = esc_cols(n) + 4;	/* room for " [a]" */
		free(n);
	}
	for (d = 0; d < p->cols.ndims; d++)
		if (esc_cols(p->cols.dims[d]) > w0)
			w0 = esc_cols(p->cols.dims[d]);
	return w0 > 24 ? 24 : w0;
}

/* "[a]" .. "[z]", then "[27]": the mark of class k. */
static void class_mark(char *buf, size_t len, size_t k)
{
	if (k < 26)
		snprintf(buf, len, "[%c]", (int)('a' + k));
	else
		snprintf(buf, len, "[%zu]", k + 1);
}

struct ptext {
	const struct pivot *p;
	const struct compare *c;
	FILE *out;
	size_t w0, dimw, percol;
	int pooled, noisy;
};

/* The header lines of columns first..last, one per column dimension. */
static void col_header(struct ptext *x, size_t first, size_t last)
{
	const struct pivot *p = x->p;
	char buf[CLIP_LEN];
	size_t d, k, j;

	for (d = 0; d < p->cols.ndims; d++) {
		char *rn = xstrdup("");

		for (j = 0; d + 1 == p->cols.ndims && j < p->rows.ndims; j++) {
			char *t = xasprintf("%s%s%s", rn, j ? " " : "",
					    p->rows.dims[j]);
			free(rn);
			rn = t;
		}
		clip(buf, x->w0, rn);
		free(rn);
		put_col(x->out, buf, x->w0, 0);
		for (k = first; k < last; k++) {
			clip(buf, PIVOT_COL_W, p->cols.keys[k][d]);
			fputc(' ', x->out);
			put_col(x->out, buf, PIVOT_COL_W, 1);
		}
		clip(buf, x->dimw, p->cols.dims[d]);
		fprintf(x->out, "  %s\n", buf);
	}
}

/* Row r of class k (PIVOT_ALL: one class), columns first..last. */
static void row_line(struct ptext *x, const struct fig_id *f,
		     const struct pivot_classes *cls, size_t r, size_t k,
		     size_t first, size_t last)
{
	char *n = pivot_key_name(&x->p->rows, r), buf[CLIP_LEN + 24];
	char mark[24];
	size_t col;

	if (k != PIVOT_ALL) {
		class_mark(mark, sizeof(mark), k);
		clip(buf, x->w0 > 8 ? x->w0 - strlen(mark) - 1 : 24, n);
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s",
			 mark);
	} else {
		clip(buf, x->w0, n);
	}
	free(n);
	put_col(x->out, buf, x->w0, 0);
	for (col = first; col < last; col++) {
		struct pivot_cell cell;
		char v[48];

		pivot_cell(x->p, x->c, r, col, f, cls, k, &cell);
		cell_text(v, sizeof(v), &cell, fig_unit(f, x->c));
		x->pooled |= cell.nconfigs > 1;
		x->noisy |= cell.sum.noisy;
		fprintf(x->out, " %*.*s", PIVOT_COL_W, PIVOT_COL_W, v);
	}
	fputs("\n", x->out);
}

static void figure_table(struct ptext *x, const struct fig_id *f)
{
	const struct pivot *p = x->p;
	struct pivot_classes cls;
	char title[160], mark[24];
	size_t first, last, r, k;

	pivot_classes(x->c, f, &cls);
	fig_name(title, sizeof(title), f, x->c);
	/* a cell's figure names its unit already: "... IO/s" */
	heading(x->out, title, f->kind == FIG_TEST ? fig_unit(f, x->c) : NULL,
		p);
	for (first = 0; first < p->cols.nkeys; first = last) {
		last = first + x->percol < p->cols.nkeys ?
		       first + x->percol : p->cols.nkeys;
		col_header(x, first, last);
		for (r = 0; r < p->rows.nkeys; r++) {
			if (cls.n == 1) {
				row_line(x, f, NULL, r, PIVOT_ALL, first, last);
				continue;
			}
			for (k = 0; k < cls.n; k++)
				if (pivot_row_has(p, x->c, r, f, &cls, k))
					row_line(x, f, &cls, r, k, first,
						 last);
		}
	}
	if (cls.n > 1) {
		fputs("Not pooled: runs that differ in", x->out);
		fputs(" what they measured\n", x->out);
		for (k = 0; k < cls.n; k++) {
			class_mark(mark, sizeof(mark), k);
			text_wrapf(x->out, 80, 4, "%s %s", mark, cls.name[k]);
		}
	}
	pivot_classes_release(&cls);
}

int pivot_write_text(const struct pivot *p, const struct compare *c,
		     FILE *out)
{
	struct ptext x = { .p = p, .c = c, .out = out };
	size_t i, d;

	x.w0 = label_width(p);
	/* the column dimensions' names end their header lines */
	for (d = 0; d < p->cols.ndims; d++)
		if (esc_cols(p->cols.dims[d]) > x.dimw)
			x.dimw = esc_cols(p->cols.dims[d]);
	if (x.dimw > 16)
		x.dimw = 16;
	x.percol = (80 - x.w0 - 2 - x.dimw) / (PIVOT_COL_W + 1);
	if (!x.percol)
		x.percol = 1;
	for (i = 0; i < p->figs.n; i++)
		figure_table(&x, &p->figs.v[i]);
	inferred_note(p, c, out);
	if (x.pooled || x.noisy)
		fprintf(out, "\n%s%s%s\n", x.pooled ? "+ several "
			"configurations pooled in the cell" : "",
			x.pooled && x.noisy ? "; " : "",
			x.noisy ? "N noisy (95 % interval wider than 5 % of "
			"the mean)" : "");
	return fflush(out) == EOF || ferror(out) ? -1 : 0;
}


static char *col_name(const struct pivot *p, size_t k)
{
	char *s = xstrdup(""), *n;
	size_t d;

	for (d = 0; d < p->cols.ndims; d++) {
		n = xasprintf("%s%s%s=%s", s, d ? ";" : "", p->cols.dims[d],
			      p->cols.keys[k][d]);
		free(s);
		s = n;
	}
	return s;
}

/* The figure's name and unit, the first two fields of its rows. */
static void csv_figure(FILE *out, const struct compare *c,
		       const struct fig_id *f)
{
	char name[160];

	if (f->kind == FIG_TEST)
		snprintf(name, sizeof(name), "%s", c->tests[f->test].name);
	else
		fig_name(name, sizeof(name), f, c);
	record_csv_field(out, name);
	putc(',', out);
	record_csv_field(out, fig_unit(f, c));
}

/* The wide table of figure f: a row per row key (and class). */
static void csv_wide(const struct pivot *p, const struct compare *c,
		     const struct fig_id *f, FILE *out)
{
	struct pivot_classes cls;
	size_t r, k, col, d;

	pivot_classes(c, f, &cls);
	fputs("test,unit", out);
	for (d = 0; d < p->rows.ndims; d++) {
		putc(',', out);
		record_csv_field(out, p->rows.dims[d]);
	}
	for (col = 0; col < p->cols.nkeys; col++) {
		char *n = col_name(p, col);

		putc(',', out);
		record_csv_field(out, n);
		free(n);
	}
	fputs(cls.n > 1 ? ",runs\n" : "\n", out);
	for (r = 0; r < p->rows.nkeys; r++)
		for (k = 0; k < cls.n; k++) {
			if (cls.n > 1 && !pivot_row_has(p, c, r, f, &cls, k))
				continue;
			csv_figure(out, c, f);
			for (d = 0; d < p->rows.ndims; d++) {
				putc(',', out);
				record_csv_field(out, p->rows.keys[r][d]);
			}
			for (col = 0; col < p->cols.nkeys; col++) {
				struct pivot_cell cell;

				pivot_cell(p, c, r, col, f, &cls,
					   cls.n > 1 ? k : PIVOT_ALL, &cell);
				putc(',', out);
				if (cell.sum.n)
					fprintf(out, "%.3f", cell.sum.mean);
				else if (cell.too_fast)
					fputs("+++++", out);
			}
			if (cls.n > 1) {
				putc(',', out);
				record_csv_field(out, cls.name[k]);
			}
			putc('\n', out);
		}
	putc('\n', out);
	pivot_classes_release(&cls);
}

/* The long rows of figure f: one per cell (and class) with runs. */
static void csv_long(const struct pivot *p, const struct compare *c,
		     const struct fig_id *f, FILE *out)
{
	struct pivot_classes cls;
	size_t r, col, k;

	pivot_classes(c, f, &cls);
	for (r = 0; r < p->rows.nkeys; r++)
		for (col = 0; col < p->cols.nkeys; col++)
			for (k = 0; k < cls.n; k++) {
				struct pivot_cell cell;
				char *rn, *cn;

				pivot_cell(p, c, r, col, f, &cls, cls.n > 1 ?
					   k : PIVOT_ALL, &cell);
				if (!cell.nconfigs)
					continue;
				rn = pivot_key_name(&p->rows, r);
				cn = col_name(p, col);
				csv_figure(out, c, f);
				putc(',', out);
				record_csv_field(out, rn);
				putc(',', out);
				record_csv_field(out, cn);
				fprintf(out, ",%zu,", cell.sum.n);
				if (cell.sum.n)
					fprintf(out, "%.3f", cell.sum.mean);
				putc(',', out);
				if (cell.sum.n > 1 &&
				    stats_has_interval(&cell.sum))
					fprintf(out, "%.3f,%.3f,%.3f,%d",
						cell.sum.sd, cell.sum.ci_lo,
						cell.sum.ci_hi,
						cell.sum.noisy);
				else if (cell.sum.n > 1)
					fprintf(out, "%.3f,,,%d", cell.sum.sd,
						cell.sum.noisy);
				else
					fputs(",,,", out);
				fprintf(out, ",%zu,", cell.nconfigs);
				record_csv_field(out, cls.name[k]);
				putc('\n', out);
				free(rn);
				free(cn);
			}
	pivot_classes_release(&cls);
}

int pivot_write_csv(const struct pivot *p, const struct compare *c,
		    FILE *out)
{
	size_t i;

	for (i = 0; i < p->figs.n; i++)
		csv_wide(p, c, &p->figs.v[i], out);
	fputs("test,unit,row,column,n,mean,sd,ci95_low,ci95_high,noisy,"
	      "configurations,runs\n", out);
	for (i = 0; i < p->figs.n; i++)
		csv_long(p, c, &p->figs.v[i], out);
	return fflush(out) == EOF || ferror(out) ? -1 : 0;
}
