// SPDX-License-Identifier: GPL-2.0-only
/*
 * The matrix section of the run record: the figures the writers show and
 * the long CSV.  The cells themselves are the record's (record.c), their
 * JSON is json_matrix.c, the text tables matrix_text.c.
 */
#include "report/model/matrix.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/record_util.h"
#include "report/model/worker_rows.h"
#include "lib/xalloc.h"

void matrix_profile_name(char *buf, size_t len, unsigned read_pct)
{
	if (read_pct >= 100)
		snprintf(buf, len, "100%% read");
	else if (read_pct == 0)
		snprintf(buf, len, "100%% write");
	else
		snprintf(buf, len, "%u/%u", read_pct, 100 - read_pct);
}

/* ---- figures ---- */

void matrix_size_name(char *buf, size_t len, uint64_t bytes)
{
	if (bytes && bytes % (1024 * 1024) == 0)
		snprintf(buf, len, "%" PRIu64 "M", bytes >> 20);
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "K", bytes >> 10);
	else
		snprintf(buf, len, "%" PRIu64 "B", bytes);
}

int matrix_cell_same_shape(const struct matrix_cell *a,
			   const struct matrix_cell *b)
{
	return a->bs == b->bs && a->threads == b->threads && a->qd == b->qd;
}

void matrix_lat_ms(const struct histogram *h, const struct hist_exact *rep,
		   double ms[HIST_SUMMARY_N])
{
	struct hist_summary s;
	int k;

	if (!hist_summarize_exact(h, rep, &s)) {
		hist_summary_ms(h, ms);
		return;
	}
	for (k = 0; k < HIST_SUMMARY_N; k++)
		ms[k] = s.v[k] / 1e6;
}

/* The labels and rates of a cell or point in state st; latency NAN. */
static void figures(const struct matrix_cell *c, enum result_status st,
		    double iops, double mbps, double cpu,
		    struct matrix_figures *f)
{
	int ok = st == RESULT_OK, k;

	memset(f, 0, sizeof(*f));
	matrix_size_name(f->bs, sizeof(f->bs), c->bs);
	snprintf(f->pattern, sizeof(f->pattern), "%s",
		 c->random ? "Random" : "Seq");
	matrix_profile_name(f->profile, sizeof(f->profile), c->read_pct);
	f->status = result_status_name(st);
	f->iops = ok ? iops : NAN;
	f->mbps = ok ? mbps : NAN;
	f->cpu = ok ? cpu : NAN;
	for (k = 0; k < HIST_SUMMARY_N; k++)
		f->rlat[k] = f->wlat[k] = NAN;
}

void matrix_cell_set_reason(struct matrix_cell *c, enum result_status status,
			    enum reason_kind kind, int sig, const char *detail)
{
	c->status = status;
	result_reason_store(&c->reason, &c->reason_kind, &c->signal, kind,
			    sig, detail);
}

void matrix_cell_figures(const struct matrix_cell *c,
			 struct matrix_figures *f)
{
	figures(c, c->status, c->iops, c->mbps, c->cpu, f);
	f->target_iops = NAN;
	f->reached = -1;
	/* a stop is not a failure of the device: say which it was */
	if (c->status == RESULT_SKIPPED &&
	    result_interrupted(c->reason_kind, c->signal))
		f->status = "interrupted";
	if (c->status != RESULT_OK)
		return;
	f->low_precision = c->low_precision;
	matrix_lat_ms(&c->rlat, c->rrep, f->rlat);
	matrix_lat_ms(&c->wlat, c->wrep, f->wlat);
}

int matrix_low_precision(uint64_t ios, unsigned threads)
{
	return ios < (uint64_t)MATRIX_MIN_IOS * (threads ? threads : 1);
}

int matrix_any_low_precision(const struct record_matrix *m)
{
	size_t i, k;

	for (i = 0; m && i < m->ncells; i++) {
		const struct matrix_cell *c = &m->cells[i];

		if (c->status == RESULT_OK && c->low_precision)
			return 1;
		for (k = 0; k < c->ncurve; k++)
			if (c->curve[k].status == RESULT_OK &&
			    c->curve[k].low_precision)
				return 1;
	}
	return 0;
}

int matrix_point_reached(const struct matrix_point *p)
{
	if (p->status != RESULT_OK || !(p->target_iops > 0))
		return -1;
	return p->iops >= MATRIX_REACHED * p->target_iops;
}

void matrix_point_figures(const struct matrix_cell *c,
			  const struct matrix_point *p,
			  struct matrix_figures *f)
{
	figures(c, p->status, p->iops, p->mbps, p->cpu, f);
	f->target_iops = p->target_iops;
	f->reached = matrix_point_reached(p);
	if (p->status != RESULT_OK)
		return;
	f->low_precision = p->low_precision;
	matrix_lat_ms(&p->rlat, NULL, f->rlat);
	matrix_lat_ms(&p->wlat, NULL, f->wlat);
}

/* ---- long CSV ---- */


static void csv_lat(FILE *out, const struct histogram *h,
		    const struct hist_exact *rep)
{
	double ms[HIST_SUMMARY_N];
	int k;

	matrix_lat_ms(h, rep, ms);
	for (k = 0; k < HIST_SUMMARY_N; k++)
		if (!isnan(ms[k]))
			fprintf(out, ",%.6f", ms[k]);
		else
			fputc(',', out);
}

static void csv_lat_head(FILE *out, const char *dir)
{
	int k;

	for (k = 0; k < HIST_SUMMARY_N; k++)
		fprintf(out, "%s_%s_ms,", dir, hist_summary_key[k]);
}

int matrix_write_csv(const struct record *rec, FILE *out, int header)
{
	const struct record_matrix *m = rec->matrix;
	size_t i;

	if (header) {
		fputs("label,start,engine,direct,bs,threads,qd,pattern,"
		      "read_pct,status,low_precision,elapsed_s,iops,mbps,"
		      "cpu_pct,reads,"
		      "writes,", out);
		csv_lat_head(out, "read");
		csv_lat_head(out, "write");
		fputs("hit_area,hit_pct,hits\n", out);
	}
	for (i = 0; m && i < m->ncells; i++) {
		const struct matrix_cell *c = &m->cells[i];
		const int ok = c->status == RESULT_OK;

		record_csv_field(out, rec->label);
		fputc(',', out);
		record_csv_field(out, rec->start);
		fputc(',', out);
		record_csv_field(out, m->engine);
		fprintf(out, ",%d,%" PRIu64 ",%u,%u,%s,%u,%s,%d,%.6f,",
			m->direct, c->bs, c->threads, c->qd,
			c->random ? "random" : "seq", c->read_pct,
			result_status_name(c->status), ok && c->low_precision,
			c->elapsed);
		/* a cell not ok (failed, cut by a signal, not run) has no
		 * rate and no latency: its I/Os and time only */
		if (ok)
			fprintf(out, "%.3f,%.3f,%.1f,", c->iops, c->mbps,
				c->cpu);
		else
			fputs(",,,", out);
		fprintf(out, "%" PRIu64 ",%" PRIu64, c->rlat.count,
			c->wlat.count);
		if (ok) {
			csv_lat(out, &c->rlat, c->rrep);
			csv_lat(out, &c->wlat, c->wrep);
		} else {
			int k;

			for (k = 0; k < 2 * HIST_SUMMARY_N; k++)
				fputc(',', out);
		}
		fprintf(out, ",%" PRIu64 ",%u,%" PRIu64 "\n", c->hit_area,
			c->hit_pct, c->hits);
	}
	if (fflush(out) == EOF || ferror(out))
		return -1;
	return 0;
}
