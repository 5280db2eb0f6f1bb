// SPDX-License-Identifier: GPL-2.0-only
/* The pivot of a comparison by dimensions; see pivot.h. */
#include "pivot.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "record_util.h"
#include "textcols.h"
#include "../lib/xalloc.h"

static void split(const char *list, struct pivot_axis *a)
{
	char *copy = xstrdup(list), *save = NULL, *w;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
		*(char **)record_append(&a->dims, &a->ndims,
					sizeof(*a->dims)) = xstrdup(w);
	free(copy);
}

/* Natural order: runs of digits by value, "-" (absent) last. */
static int natcmp(const char *a, const char *b)
{
	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return !strcmp(a, b) ? 0 : !strcmp(a, "-") ? 1 : -1;
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			double x = strtod(a, &ea), y = strtod(b, &eb);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return tolower((unsigned char)*a) -
			       tolower((unsigned char)*b);
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int keycmp(char **a, char **b, size_t n)
{
	size_t i;
	int d;

	for (i = 0; i < n; i++)
		if ((d = natcmp(a[i], b[i])))
			return d;
	return 0;
}

/* The place of group g's key on axis a, added in order when new. */
static void place(struct pivot_axis *a, const struct cmp_group *grp)
{
	char **key = xcalloc(a->ndims, sizeof(*key));
	size_t i, k;

	for (i = 0; i < a->ndims; i++) {
		const char *v = dims_get(&grp->dims, a->dims[i]);

		key[i] = xstrdup(v ? v : "-");
	}
	for (k = 0; k < a->nkeys; k++) {
		int d = keycmp(key, a->keys[k], a->ndims);

		if (!d) {
			for (i = 0; i < a->ndims; i++)
				free(key[i]);
			free(key);
			return;
		}
		if (d < 0)
			break;
	}
	a->keys = xrealloc(a->keys, (a->nkeys + 1) * sizeof(*a->keys));
	memmove(a->keys + k + 1, a->keys + k,
		(a->nkeys - k) * sizeof(*a->keys));
	a->keys[k] = key;
	a->nkeys++;
}

static size_t find_key(const struct pivot_axis *a, const struct cmp_group *g)
{
	size_t k, i;

	for (k = 0; k < a->nkeys; k++) {
		for (i = 0; i < a->ndims; i++) {
			const char *v = dims_get(&g->dims, a->dims[i]);

			if (strcmp(v ? v : "-", a->keys[k][i]))
				break;
		}
		if (i == a->ndims)
			return k;
	}
	return 0;	/* not reached: every group was placed */
}

int pivot_build(struct pivot *p, const struct compare *c, const char *rows,
		const char *cols, char *err, size_t errlen)
{
	size_t g, i;

	memset(p, 0, sizeof(*p));
	split(rows ? rows : "", &p->rows);
	split(cols ? cols : "", &p->cols);
	if (!p->rows.ndims || !p->cols.ndims) {
		snprintf(err, errlen, "a pivot needs both --rows and "
			 "--columns, each a comma-separated list of "
			 "dimensions");
		pivot_release(p);
		return -1;
	}
	for (i = 0; i < p->rows.ndims + p->cols.ndims; i++) {
		const char *d = i < p->rows.ndims ? p->rows.dims[i] :
				p->cols.dims[i - p->rows.ndims];
		int any = 0;

		for (g = 0; g < c->ngroups; g++)
			any |= dims_get(&c->groups[g].dims, d) != NULL;
		if (!any) {
			snprintf(err, errlen, "no run has the dimension '%s' "
				 "(tags, detected facts or inferred from the "
				 "label)", d);
			pivot_release(p);
			return -1;
		}
	}
	p->ngroups = c->ngroups;
	p->grow = xcalloc(c->ngroups, sizeof(*p->grow));
	p->gcol = xcalloc(c->ngroups, sizeof(*p->gcol));
	for (g = 0; g < c->ngroups; g++) {
		place(&p->rows, &c->groups[g]);
		place(&p->cols, &c->groups[g]);
	}
	for (g = 0; g < c->ngroups; g++) {
		p->grow[g] = find_key(&p->rows, &c->groups[g]);
		p->gcol[g] = find_key(&p->cols, &c->groups[g]);
	}
	return 0;
}

static void axis_release(struct pivot_axis *a)
{
	size_t k, i;

	for (k = 0; k < a->nkeys; k++) {
		for (i = 0; i < a->ndims; i++)
			free(a->keys[k][i]);
		free(a->keys[k]);
	}
	for (i = 0; i < a->ndims; i++)
		free(a->dims[i]);
	free(a->keys);
	free(a->dims);
}

void pivot_release(struct pivot *p)
{
	axis_release(&p->rows);
	axis_release(&p->cols);
	free(p->grow);
	free(p->gcol);
	memset(p, 0, sizeof(*p));
}

void pivot_cell(const struct pivot *p, const struct compare *c, size_t row,
		size_t col, size_t t, struct pivot_cell *cell)
{
	double *v = xcalloc(c->nrecs + 1, sizeof(*v));
	size_t g, r, n = 0;

	memset(cell, 0, sizeof(*cell));
	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		int used = 0;

		if (p->grow[g] != row || p->gcol[g] != col)
			continue;
		for (r = 0; r < grp->nruns; r++) {
			const struct result *res =
				compare_result(c, grp->runs[r], t);

			if (!res)
				continue;
			if (res->status == RESULT_SKIPPED &&
			    (res->flags & RESULT_LOW_PRECISION)) {
				cell->too_fast++;
				used = 1;
			}
			if (res->status != RESULT_OK)
				continue;
			v[n++] = res->value;
			used = 1;
		}
		cell->nconfigs += used;
	}
	stats_summarise(v, n, &cell->sum);
	free(v);
}

char *pivot_key_name(const struct pivot_axis *a, size_t k)
{
	char *s = xstrdup(""), *n;
	size_t i;

	for (i = 0; i < a->ndims; i++) {
		n = xasprintf("%s%s%s", s, i ? " " : "", a->keys[k][i]);
		free(s);
		s = n;
	}
	return s;
}

int pivot_tests(const struct compare *c, const char *figure, size_t *out)
{
	size_t t, g, n = 0;

	for (t = 0; t < c->ntests; t++) {
		int any = 0;

		if (figure) {
			if (!strcmp(figure, c->tests[t].name) ||
			    !strcasecmp(figure, c->tests[t].title)) {
				out[0] = t;
				return 1;
			}
			continue;
		}
		for (g = 0; g < c->ngroups; g++)
			any |= c->groups[g].stats[t].n ||
			       c->groups[g].stats[t].too_fast;
		if (any)
			out[n++] = t;
	}
	return figure ? -1 : (int)n;
}

/* Copy s into buf, at most w columns, control characters as '?'. */
static void clip(char *buf, size_t w, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i < w; i++)
		buf[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	buf[i] = '\0';
	if (strlen(s) > w && w > 3)
		memcpy(buf + w - 3, "...", 3);
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
	char *h = xasprintf("%s (%s): rows", title, unit), *n;
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

int pivot_write_text(const struct pivot *p, const struct compare *c,
		     const size_t *tests, size_t ntests, FILE *out)
{
	size_t ti, k, r, d, first, last, w0 = 0, dimw = 0, percol;
	char buf[64];
	int pooled = 0, noisy = 0;

	/* the row label column: dimension names and values */
	for (d = 0; d < p->rows.ndims; d++)
		w0 += strlen(p->rows.dims[d]) + (d ? 1 : 0);
	for (r = 0; r < p->rows.nkeys; r++) {
		char *n = pivot_key_name(&p->rows, r);

		if (strlen(n) > w0)
			w0 = strlen(n);
		free(n);
	}
	for (d = 0; d < p->cols.ndims; d++)
		if (strlen(p->cols.dims[d]) > w0)
			w0 = strlen(p->cols.dims[d]);
	if (w0 > 24)
		w0 = 24;
	/* the column dimensions' names end their header lines */
	for (d = 0; d < p->cols.ndims; d++)
		if (strlen(p->cols.dims[d]) > dimw)
			dimw = strlen(p->cols.dims[d]);
	if (dimw > 16)
		dimw = 16;
	percol = (80 - w0 - 2 - dimw) / (PIVOT_COL_W + 1);
	if (!percol)
		percol = 1;
	for (ti = 0; ti < ntests; ti++) {
		size_t t = tests[ti];

		heading(out, c->tests[t].title, c->tests[t].unit, p);
		for (first = 0; first < p->cols.nkeys; first = last) {
			last = first + percol < p->cols.nkeys ?
			       first + percol : p->cols.nkeys;
			/* a header line per column dimension */
			for (d = 0; d < p->cols.ndims; d++) {
				char *rn = NULL;

				if (d + 1 == p->cols.ndims) {
					size_t j;

					rn = xstrdup("");
					for (j = 0; j < p->rows.ndims; j++) {
						char *x = xasprintf("%s%s%s",
							rn, j ? " " : "",
							p->rows.dims[j]);
						free(rn);
						rn = x;
					}
				}
				clip(buf, w0, rn ? rn : "");
				free(rn);
				fprintf(out, "%-*s", (int)w0, buf);
				for (k = first; k < last; k++) {
					clip(buf, PIVOT_COL_W,
					     p->cols.keys[k][d]);
					fprintf(out, " %*s", PIVOT_COL_W, buf);
				}
				clip(buf, dimw, p->cols.dims[d]);
				fprintf(out, "  %s\n", buf);
			}
			for (r = 0; r < p->rows.nkeys; r++) {
				char *n = pivot_key_name(&p->rows, r);

				clip(buf, w0, n);
				free(n);
				fprintf(out, "%-*s", (int)w0, buf);
				for (k = first; k < last; k++) {
					struct pivot_cell cell;
					char v[48];

					pivot_cell(p, c, r, k, t, &cell);
					cell_text(v, sizeof(v), &cell,
						  c->tests[t].unit);
					pooled |= cell.nconfigs > 1;
					noisy |= cell.sum.noisy;
					fprintf(out, " %*.*s", PIVOT_COL_W,
						PIVOT_COL_W, v);
				}
				fputs("\n", out);
			}
		}
	}
	inferred_note(p, c, out);
	if (pooled || noisy)
		fprintf(out, "\n%s%s%s\n", pooled ? "+ several configurations "
			"pooled in the cell" : "", pooled && noisy ? "; " : "",
			noisy ? "N noisy (95 % interval wider than 5 % of "
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

int pivot_write_csv(const struct pivot *p, const struct compare *c,
		    const size_t *tests, size_t ntests, FILE *out)
{
	size_t ti, r, k, d;

	for (ti = 0; ti < ntests; ti++) {
		size_t t = tests[ti];

		fputs("test,unit", out);
		for (d = 0; d < p->rows.ndims; d++) {
			putc(',', out);
			record_csv_field(out, p->rows.dims[d]);
		}
		for (k = 0; k < p->cols.nkeys; k++) {
			char *n = col_name(p, k);

			putc(',', out);
			record_csv_field(out, n);
			free(n);
		}
		putc('\n', out);
		for (r = 0; r < p->rows.nkeys; r++) {
			record_csv_field(out, c->tests[t].name);
			putc(',', out);
			record_csv_field(out, c->tests[t].unit);
			for (d = 0; d < p->rows.ndims; d++) {
				putc(',', out);
				record_csv_field(out, p->rows.keys[r][d]);
			}
			for (k = 0; k < p->cols.nkeys; k++) {
				struct pivot_cell cell;

				pivot_cell(p, c, r, k, t, &cell);
				putc(',', out);
				if (cell.sum.n)
					fprintf(out, "%.3f", cell.sum.mean);
				else if (cell.too_fast)
					fputs("+++++", out);
			}
			putc('\n', out);
		}
		putc('\n', out);
	}
	fputs("test,unit,row,column,n,mean,sd,ci95_low,ci95_high,noisy,"
	      "configurations\n", out);
	for (ti = 0; ti < ntests; ti++)
		for (r = 0; r < p->rows.nkeys; r++)
			for (k = 0; k < p->cols.nkeys; k++) {
				size_t t = tests[ti];
				struct pivot_cell cell;
				char *rn, *cn;

				pivot_cell(p, c, r, k, t, &cell);
				if (!cell.nconfigs)
					continue;
				rn = pivot_key_name(&p->rows, r);
				cn = col_name(p, k);
				record_csv_field(out, c->tests[t].name);
				putc(',', out);
				record_csv_field(out, c->tests[t].unit);
				putc(',', out);
				record_csv_field(out, rn);
				putc(',', out);
				record_csv_field(out, cn);
				fprintf(out, ",%zu,", cell.sum.n);
				if (cell.sum.n)
					fprintf(out, "%.3f", cell.sum.mean);
				putc(',', out);
				if (cell.sum.n > 1)
					fprintf(out, "%.3f,%.3f,%.3f,%d",
						cell.sum.sd, cell.sum.mean -
						cell.sum.ci_half,
						cell.sum.mean +
						cell.sum.ci_half,
						cell.sum.noisy);
				else
					fputs(",,,", out);
				fprintf(out, ",%zu\n", cell.nconfigs);
				free(rn);
				free(cn);
			}
	return fflush(out) == EOF || ferror(out) ? -1 : 0;
}
