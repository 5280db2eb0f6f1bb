// SPDX-License-Identifier: GPL-2.0-only
/*
 * The long CSV of `clyde report`: a header row, then one row per run and
 * test, RFC 4180 quoting, for spreadsheets and scripts.  Also the
 * bonnie++ 1.98 lines of every run (report/csv.c writes each).
 */
#include "report/write/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/bonnie.h"
#include "report/analyze/compare_matrix.h"
#include "report/analyze/figures.h"
#include "report/analyze/criteria.h"
#include "report/model/matrix.h"
#include "report/model/record_util.h"
#include "report/model/zones.h"
#include "lib/xalloc.h"
#include "lib/diag.h"

static void csv_str(FILE *f, const char *s, int last)
{
	record_csv_field(f, s);
	putc(last ? '\n' : ',', f);
}

/* Figure k of the latency summary (hist_summarize) in us. */
static void lat_us(FILE *f, const struct result *res, int k)
{
	struct hist_summary s;
	char buf[32];

	hist_summarize_exact(&res->lat, res->exact, &s);
	/* a test a signal stopped has no figures, as in the text (bonnie++'s
	 * +++++, skipped as too fast, keeps the latency it printed) */
	if (!s.count || (s.count == 1 && res->ops != 1 && k != HIST_S_MAX) ||
	    (res->status == RESULT_SKIPPED &&
	     !(res->flags & RESULT_LOW_PRECISION)) || isnan(s.v[k])) {
		putc(',', f);
		return;
	}
	snprintf(buf, sizeof(buf), "%.3f", s.v[k] / 1e3);
	fprintf(f, "%s,", buf);
}

/*
 * The matrix latency figures with columns of their own before the row's
 * end (mx_read_ms, mx_read_p99_ms and the write pair); the others come
 * last, so the columns of earlier versions kept their places.
 */
static int mx_lat_before(int k)
{
	return k == HIST_S_MEAN || k == HIST_S_P99;
}

/* The rest of a matrix row's read and write latency summary in ms (f
 * NULL: empty), before the reason that ends every row. */
static void mx_lat_columns(FILE *out, const struct matrix_figures *f)
{
	int i, k;

	for (i = 0; i < 2; i++)
		for (k = 0; k < HIST_SUMMARY_N; k++) {
			const double *v = !f ? NULL : i ? f->wlat : f->rlat;

			if (mx_lat_before(k))
				continue;
			if (v && !isnan(v[k]))
				fprintf(out, "%.6f", v[k]);
			putc(',', out);
		}
}

static void csv_num(FILE *f, const char *fmt, double v)
{
	if (!isnan(v))
		fprintf(f, fmt, v);
	putc(',', f);
}

static void verdict_columns(FILE *out, const struct crit_verdicts *v,
			    size_t g, size_t t,
			    const struct matrix_cell *cell);
static void dims_columns(FILE *out, const struct compare *c, size_t g);
static void stats_columns(FILE *out, const struct compare *c, size_t g,
			  size_t t);

/* Ratio of run r's figure to the matrix baseline configuration's mean. */
static double mx_ratio(const struct compare *c, const struct cmpm *m,
		       const struct matrix_cell *cell, int pt, double v)
{
	size_t ti, k;

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];
		struct cmpm_fig b;

		if (t->bs != cell->bs || t->threads != cell->threads ||
		    t->qd != cell->qd)
			continue;
		for (k = 0; k < t->ncells; k++)
			if (t->cells[k].random == !!cell->random &&
			    t->cells[k].read_pct == cell->read_pct)
				break;
		if (k == t->ncells)
			return NAN;
		cmpm_figures(c, t, k, m->baseline, pt, &b);
		return b.iops > 0 ? v / b.iops : NAN;
	}
	return NAN;
}

/* One row per matrix cell of run r, and one per curve point. */

/* The columns that say which run a row belongs to. */
static void run_columns(FILE *out, const struct compare *c, size_t r,
			const struct record *rec)
{
	fprintf(out, "%zu,%zu,", r + 1, c->run_group[r] + 1);
	csv_str(out, rec->label, 0);
	csv_str(out, rec->tool, 0);
	csv_str(out, rec->version, 0);
	csv_str(out, rec->source, 0);
	csv_str(out, rec->host.hostname, 0);
	csv_str(out, rec->target.fstype, 0);
	csv_str(out, rec->start, 0);
	fprintf(out, "%d,", rec->repetition);
}

static void matrix_rows(const struct compare *c,
			const struct crit_verdicts *verdicts, size_t r,
			const char *mark, FILE *out)
{
	const struct record *rec = c->recs[r];
	const struct record_matrix *mx = rec->matrix;
	struct cmpm m;
	size_t i;
	int pt;

	if (!mx)
		return;
	cmpm_build(&m, c);
	for (i = 0; i < mx->ncells; i++) {
		const struct matrix_cell *cell = &mx->cells[i];

		for (pt = -1; pt < (int)cell->ncurve; pt++) {
			const struct matrix_point *p = pt < 0 ? NULL :
						       &cell->curve[pt];
			const struct histogram *rl = p ? &p->rlat :
							 &cell->rlat;
			const struct histogram *wl = p ? &p->wlat :
							 &cell->wlat;
			struct matrix_figures f;
			struct fig_cell id;
			char title[128];
			uint64_t ops = rl->count + wl->count;
			double el = p ? p->elapsed : cell->elapsed;

			if (p)
				matrix_point_figures(cell, p, &f);
			else
				matrix_cell_figures(cell, &f);
			fig_cell_of(cell, pt, &id);
			fig_cell_name(title, sizeof(title), &id);
			run_columns(out, c, r, rec);
			csv_str(out, p ? "matrix_curve" : "matrix", 0);
			csv_str(out, title, 0);
			csv_str(out, "IO/s", 0);
			csv_str(out, f.status, 0);
			csv_num(out, "%.3f", f.iops);
			csv_num(out, "%.1f", f.cpu);
			/* bytes: a block size derived from fio's figures
			 * is rounded to sectors, ops * bs not fio's */
			fprintf(out, "%d,0,,%" PRIu64 ",", f.low_precision,
				ops);
			if (!(cell->derived & MATRIX_DERIVED_BS))
				fprintf(out, "%" PRIu64, ops * cell->bs);
			putc(',', out);
			csv_num(out, "%.6f", el > 0 ? el : NAN);
			fputs(",,,,", out);	/* see mx_read_ms, mx_write_ms */
			csv_num(out, "%.4f", isnan(f.iops) ? NAN :
				mx_ratio(c, &m, cell, pt, f.iops));
			csv_str(out, mark, 0);
			fprintf(out, "%u,%" PRIu64 ",%u,%u,%s,%u,", cell->threads,
				cell->bs, cell->threads, cell->qd,
				cell->random ? "random" : "seq",
				cell->read_pct);
			if (p)
				fprintf(out, "%u", p->pct);
			putc(',', out);
			csv_num(out, "%.3f", f.mbps);
			csv_num(out, "%.6f", f.rlat[HIST_S_MEAN]);
			if (!isnan(f.wlat[HIST_S_MEAN]))
				fprintf(out, "%.6f", f.wlat[HIST_S_MEAN]);
			fputs(",,,,,,,,,,", out);
			csv_num(out, "%.6f", f.rlat[HIST_S_P99]);
			if (!isnan(f.wlat[HIST_S_P99]))
				fprintf(out, "%.6f", f.wlat[HIST_S_P99]);
			verdict_columns(out, pt < 0 ? verdicts : NULL,
					c->run_group[r], (size_t)-1, cell);
			dims_columns(out, c, c->run_group[r]);
			fputs(",,,", out);	/* lat_min_us .. lat_p99_9_us */
			mx_lat_columns(out, &f);
			putc(',', out);	/* stopped: a cell's is a warning */
			csv_str(out, p ? NULL : cell->reason, 1);
		}
	}
	cmpm_release(&m);
}

/*
 * One row per zone and sweep of a `clyde zones` run: test "zones", value
 * the zone's MiB/s, low_precision its ~ mark (time below its I/Os' mean
 * latency), a title saying the sweep, the zone, its offset and whether it
 * read holes (H).
 */
static void zones_rows(const struct compare *c, size_t r, const char *mark,
		       FILE *out)
{
	const struct record *rec = c->recs[r];
	const struct record_zones *z = rec->zones;
	size_t i, k;

	for (i = 0; z && i < z->nsweeps; i++) {
		const struct zones_sweep *s = &z->sweeps[i];
		char name[32], title[128];

		zones_sweep_name(z, s, name, sizeof(name));
		for (k = 0; k < s->nzones; k++) {
			const struct zone_row *zr = &s->zones[k];

			snprintf(title, sizeof(title), "%s zone %zu at %.3f "
				 "GiB%s", name, k + 1, (double)zr->offset /
				 1073741824.0, zr->unalloc ? " over holes (H)" :
				 "");
			run_columns(out, c, r, rec);
			csv_str(out, "zones", 0);
			csv_str(out, title, 0);
			csv_str(out, "MiB/s", 0);
			csv_str(out, zr->errors ? "failed" : "ok", 0);
			csv_num(out, "%.3f", zr->errors ? NAN : zr->mibps);
			fprintf(out, ",%d,0,,%" PRIu64 ",%" PRIu64 ",",
				zones_row_coarse(zr), zr->ios, zr->bytes);
			csv_num(out, "%.6f", zr->elapsed > 0 ? zr->elapsed :
				NAN);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_MEAN] * 1e3);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_P50] * 1e3);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_P99] * 1e3);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_MAX] * 1e3);
			putc(',', out);
			csv_str(out, mark, 0);
			fputs("1,,,,,,,,,", out);
			stats_columns(out, c, c->run_group[r], (size_t)-1);
			verdict_columns(out, NULL, c->run_group[r], (size_t)-2,
					NULL);
			dims_columns(out, c, c->run_group[r]);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_MIN] * 1e3);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_P90] * 1e3);
			csv_num(out, "%.1f", zr->lat_ms[HIST_S_P99_9] * 1e3);
			mx_lat_columns(out, NULL);
			putc(',', out);	/* stopped: a sweep's is a warning */
			csv_str(out, zr->err ? strerror(zr->err) : NULL, 1);
		}
	}
}

/*
 * The configuration's repeat statistics of test t (the same on each of
 * its runs' rows): n, mean, sd, the 95 % interval (of the geometric mean,
 * stats.c), cv, noisy, and Welch's
 * verdict against the baseline; empty where n < 2 makes them meaningless.
 */
static void stats_columns(FILE *out, const struct compare *c, size_t g,
			  size_t t)
{
	const struct cmp_stat *s;
	struct stats_welch w;

	if (t >= c->ntests || !c->groups[g].stats[t].n) {
		fputs(",,,,,,,,,,,", out);
		return;
	}
	s = &c->groups[g].stats[t];
	fprintf(out, ",%zu,%.3f,", s->n, s->mean);
	if (s->n > 1) {
		/* the interval of the geometric mean (stats.c): positive */
		fprintf(out, "%.3f,", s->sum.sd);
		csv_num(out, "%.3f", s->sum.ci_lo);
		csv_num(out, "%.3f", s->sum.ci_hi);
		fprintf(out, "%.5f,%d,", s->sum.cv, s->sum.noisy);
	} else
		fputs(",,,,,", out);
	compare_welch(c, g, t, &w);
	if (s->n < 2)
		fputs("single run,", out);
	else if (g == c->baseline)
		fputs("baseline,", out);
	else
		fprintf(out, "%s,", w.verdict == STATS_DIFFERENT ?
			"significant" : w.verdict == STATS_SAME ?
			"not significant" : "untested");
	if (!isnan(w.p))
		fprintf(out, "%.6g", w.p);
	fputs(",,", out);
}

/* The last two columns: the checks of this row and the verdict. */
static void verdict_columns(FILE *out, const struct crit_verdicts *v,
			    size_t g, size_t t, const struct matrix_cell *cell)
{
	char buf[512];
	int rc = criteria_for(v, g, t, cell ? cell->bs : 0,
			      cell ? cell->threads : 0, cell ? cell->qd : 0,
			      cell ? !!cell->random : 0,
			      cell ? cell->read_pct : 0, buf, sizeof(buf));

	putc(',', out);
	csv_str(out, buf, 0);
	fputs(rc < 0 ? "" : rc == 0 ? "fail" : rc == 2 ? "inconclusive" :
	      "pass", out);
	putc(',', out);
}

/* The configuration's dimensions as "key=value;..." and the keys that
 * were inferred from the label. */
static void dims_columns(FILE *out, const struct compare *c, size_t g)
{
	const struct dims *d = &c->groups[g].dims;
	char *all = xstrdup(""), *inf = xstrdup(""), *n;
	size_t i;

	for (i = 0; i < d->n; i++) {
		n = xasprintf("%s%s%s=%s", all, *all ? ";" : "", d->v[i].key,
			      d->v[i].value);
		free(all);
		all = n;
		if (d->v[i].source != DIM_INFERRED)
			continue;
		n = xasprintf("%s%s%s", inf, *inf ? ";" : "", d->v[i].key);
		free(inf);
		inf = n;
	}
	csv_str(out, all, 0);
	csv_str(out, inf, 0);
	free(all);
	free(inf);
}

/* The row of test result res of run r. */
static void test_row(FILE *out, const struct compare *c,
		     const struct crit_verdicts *verdicts, size_t r,
		     const struct result *res, const char *mark)
{
	const struct record *rec = c->recs[r];
	const char *mode = record_param(rec, "char_io");
	size_t t;
	double ratio = NAN;

	for (t = 0; t < c->ntests; t++)
		if (!strcmp(c->tests[t].name, res->name))
			break;
	if (t < c->ntests && res->status == RESULT_OK)
		ratio = compare_ratio(c, c->run_group[r], t);
	run_columns(out, c, r, rec);
	csv_str(out, res->name, 0);
	csv_str(out, res->title, 0);
	csv_str(out, res->unit, 0);
	csv_str(out, result_status_name(res->status), 0);
	if (res->status == RESULT_OK)
		fprintf(out, "%.3f,%.1f,", res->value, res->cpu);
	else
		fputs(",,", out);
	fprintf(out, "%d,%d,", !!(res->flags & RESULT_LOW_PRECISION),
		!!(res->flags & RESULT_CACHED));
	csv_str(out, bonnie_test_per_char(res->name) ?
		(mode ? mode : "syscall") : "", 0);
	fprintf(out, "%" PRIu64 ",%" PRIu64 ",", res->ops, res->bytes);
	if (res->elapsed > 0)
		fprintf(out, "%.6f,", res->elapsed);
	else
		putc(',', out);
	lat_us(out, res, HIST_S_MEAN);
	lat_us(out, res, HIST_S_P50);
	lat_us(out, res, HIST_S_P99);
	lat_us(out, res, HIST_S_MAX);
	if (!isnan(ratio))
		fprintf(out, "%.4f,", ratio);
	else
		putc(',', out);
	csv_str(out, mark, 0);
	fprintf(out, "%zu,,,,,,,,,", res->nworkers ? res->nworkers : 1);
	stats_columns(out, c, c->run_group[r], t);
	verdict_columns(out, verdicts, c->run_group[r],
			t < c->ntests ? t : (size_t)-2, NULL);
	dims_columns(out, c, c->run_group[r]);
	lat_us(out, res, HIST_S_MIN);
	lat_us(out, res, HIST_S_P90);
	lat_us(out, res, HIST_S_P99_9);
	mx_lat_columns(out, NULL);
	/* the time the process stood still is in the figure */
	fprintf(out, "%d,", !!(res->flags & RESULT_STOPPED));
	csv_str(out, res->reason, 1);
}

int report_write_longcsv(const struct compare *c,
			 const struct crit_verdicts *verdicts, FILE *out)
{
	size_t r, i;
	int k;

	fputs("run,config,label,tool,version,source,host,fs,start,repetition,"
	      "test,title,unit,status,value,cpu,low_precision,cached,"
	      "char_io,ops,bytes,elapsed,lat_mean_us,lat_p50_us,lat_p99_us,"
	      "lat_max_us,ratio_to_baseline,virt,workers,mx_bs,mx_threads,"
	      "mx_qd,mx_pattern,mx_read_pct,mx_curve_pct,mx_mbps,"
	      "mx_read_ms,mx_write_ms,cfg_n,cfg_mean,cfg_sd,cfg_ci95_low,"
	      "cfg_ci95_high,cfg_cv,cfg_noisy,significance,welch_p,"
	      "mx_read_p99_ms,mx_write_p99_ms,criteria,verdict,dims,"
	      "dims_inferred,lat_min_us,lat_p90_us,lat_p99_9_us", out);
	for (i = 0; i < 2; i++)
		for (k = 0; k < HIST_SUMMARY_N; k++)
			if (!mx_lat_before(k))
				fprintf(out, ",mx_%s_%s_ms", i ? "write" :
					"read", hist_summary_key[k]);
	fputs(",stopped,reason\n", out);
	for (r = 0; r < c->nrecs; r++) {
		const struct record *rec = c->recs[r];
		char *mark = compare_virt_mark(rec);

		for (i = 0; i < rec->nresults; i++)
			if (rec->results[i].status != RESULT_NOT_RUN)
				test_row(out, c, verdicts, r,
					 &rec->results[i], mark);
		matrix_rows(c, verdicts, r, mark, out);
		zones_rows(c, r, mark, out);
		free(mark);
	}
	return fflush(out) == EOF || ferror(out) ? -1 : 0;
}

/* Field of test i's rate in a 1.98 line */
static int bonnie_field(size_t i)
{
	return bonnie_csv_rate_field((enum bonnie_test_id)i, BONNIE_CSV198_IO,
				     BONNIE_CSV198_FILES);
}

/*
 * The 1.98 line of a run, with "+++++" and "+++" put back where an
 * imported bonnie++ line had them (report/csv.c leaves a result without
 * a number empty, which bonnie++'s tools read as not run).
 */
static int bonnie_line(const struct record *rec, FILE *out)
{
	char *buf = NULL, *field[64], *p;
	size_t len = 0, i;
	FILE *mem = open_memstream(&buf, &len);
	int n = 0, rc;

	if (!mem)
		return -1;
	rc = record_write_bonnie_csv(rec, mem);
	if (fclose(mem) == EOF || rc) {
		free(buf);
		return -1;
	}
	for (p = buf; n < 64;) {
		field[n++] = p;
		p = strpbrk(p, ",\n");
		if (!p || *p == '\n') {
			if (p)
				*p = '\0';
			break;
		}
		*p++ = '\0';
	}
	for (i = 0; i < (size_t)n; i++) {
		size_t t;
		const char *s = field[i];
		char lat[32];

		for (t = 0; t < BONNIE_NTESTS; t++) {
			const struct result *res = record_find(rec,
							bonnie_tests[t].name);

			if (!res || res->status != RESULT_SKIPPED ||
			    !(res->flags & RESULT_LOW_PRECISION))
				continue;
			if ((int)i == bonnie_field(t))
				s = "+++++";
			else if ((int)i == bonnie_field(t) + 1)
				s = "+++";
			else if ((int)i == BONNIE_CSV198_LATENCY + (int)t) {
				bonnie_latency(lat, sizeof(lat), res);
				s = lat;
			}
		}
		fprintf(out, "%s%s", i ? "," : "", s);
	}
	putc('\n', out);
	free(buf);
	return ferror(out) ? -1 : 0;
}

/* Whether rec has a figure of one of bonnie++'s tests. */
static int has_bonnie_test(const struct record *rec)
{
	size_t i;

	for (i = 0; i < BONNIE_NTESTS; i++)
		if (record_find(rec, bonnie_tests[i].name))
			return 1;
	return 0;
}

int report_write_bonnie(const struct compare *c, FILE *out)
{
	size_t r, nzones = 0, nother = 0;

	for (r = 0; r < c->nrecs; r++) {
		const struct record *rec = c->recs[r];

		/* a bonnie++ line has no place for zones, matrix cells or a
		 * fio job's own tests: all its fields would be empty */
		if (!has_bonnie_test(rec)) {
			if (rec->zones)
				nzones++;
			else
				nother++;
			continue;
		}
		if (bonnie_line(rec, out))
			return -1;
	}
	if (nzones)
		diag_warning("%zu clyde zones run%s left out: a bonnie++ line "
			     "has no place for zones (use -f csv or text)",
			     nzones, nzones == 1 ? "" : "s");
	if (nother)
		diag_warning("%zu run%s without a bonnie++ test (matrix cells, "
			     "fio jobs other than sequential read or write) "
			     "left out (use -f csv or text)", nother,
			     nother == 1 ? "" : "s");
	return fflush(out) == EOF ? -1 : 0;
}
