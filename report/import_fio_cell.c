// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio jobs as matrix cells (import_fio.h): block size, pattern and
 * profile, depth and threads, IO/s and MB/s as fio measured them, and
 * fio's own latency mean and percentiles; the threads of a job printed
 * one by one summed.
 */
#include "import_fio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "record_util.h"
#include "../lib/xalloc.h"

/* "4k" "4K" "1m" "4096" "4k,64k" (the read size): bytes, 0 if unknown */
static uint64_t size_of(const char *s)
{
	char *end;
	double v;

	if (!s)
		return 0;
	v = strtod(s, &end);
	if (v <= 0)
		return 0;
	switch (*end) {
	case 'k': case 'K':
		v *= 1024;
		break;
	case 'm': case 'M':
		v *= 1024 * 1024;
		break;
	case 'g': case 'G':
		v *= 1024.0 * 1024 * 1024;
		break;
	default:
		break;
	}
	return record_u64(v);
}

static unsigned count_of(const char *s, unsigned dflt)
{
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 ? (unsigned)v : dflt;
}

/*
 * The exact figures fio gave for a direction: mean, max and the
 * percentiles of its list, or computed from json+ bins as the value of
 * the bin holding the ceil(p/100 * N)-th sample when fio listed none.
 */
static double bins_percentile(struct json_object *bins, double pct,
			      double scale)
{
	uint64_t total = 0, want, seen = 0;
	double best = NAN;
	size_t n = 0, i, k;
	double *v;
	uint64_t *c;

	{
		json_object_object_foreach(bins, key, val) {
			(void)key;
			total += (uint64_t)json_object_get_int64(val);
			n++;
		}
	}
	if (!total)
		return NAN;
	v = xcalloc(n, sizeof(*v));
	c = xcalloc(n, sizeof(*c));
	i = 0;
	{
		json_object_object_foreach(bins, key, val) {
			v[i] = strtod(key, NULL);
			c[i++] = (uint64_t)json_object_get_int64(val);
		}
	}
	/* insertion sort by value: bins are few hundred at most */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
			double tv = v[k];
			uint64_t tc = c[k];

			v[k] = v[k - 1];
			c[k] = c[k - 1];
			v[k - 1] = tv;
			c[k - 1] = tc;
		}
	want = record_u64(ceil(pct / 100.0 * (double)total));
	if (!want)
		want = 1;
	for (i = 0; i < n; i++) {
		seen += c[i];
		if (seen >= want) {
			best = v[i] * scale;
			break;
		}
	}
	free(v);
	free(c);
	return best;
}

static double listed(struct json_object *clat, const char *key, double pct,
		     double scale)
{
	struct json_object *p = fio_get(fio_get_obj(clat, "percentile"), key);

	if (p)
		return json_object_get_double(p) * scale;
	if (fio_get_obj(clat, "bins"))
		return bins_percentile(fio_get_obj(clat, "bins"), pct, scale);
	return NAN;
}

/* Member key of clat (mean, min, max) in ns, or NAN. */
static double given(struct json_object *clat, const char *key, double scale)
{
	return fio_get(clat, key) ? fio_get_num(clat, key) * scale : NAN;
}

static struct matrix_reported *reported_of(struct json_object *st)
{
	double scale;
	struct json_object *clat = fio_clat_of(st, &scale);
	struct matrix_reported *r;

	if (!clat || (fio_get_num(clat, "N") <= 0 && !fio_get(clat, "mean")))
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->v[HIST_S_MEAN] = given(clat, "mean", scale);
	r->v[HIST_S_MIN] = given(clat, "min", scale);
	r->v[HIST_S_P50] = listed(clat, "50.000000", 50, scale);
	r->v[HIST_S_P90] = listed(clat, "90.000000", 90, scale);
	r->v[HIST_S_P99] = listed(clat, "99.000000", 99, scale);
	r->v[HIST_S_P99_9] = listed(clat, "99.900000", 99.9, scale);
	r->v[HIST_S_MAX] = given(clat, "max", scale);
	r->only_these = !fio_get_obj(clat, "bins");
	return r;
}

/*
 * The job as a matrix cell: bs, rw and rwmixread give the block size,
 * pattern and profile, iodepth and numjobs the queue depth and threads
 * (with group_reporting one entry stands for all numjobs; without it fio
 * prints the jobs one by one and each is one thread); IO/s and MB/s as
 * fio measured them, completion latency with fio's own mean and
 * percentiles.  Trim jobs have no cell.
 */
void fio_cell(const struct doc *d, struct json_object *j,
		     struct record *rec, const char *rw)
{
	struct json_object *r = fio_get(j, "read"), *w = fio_get(j, "write");
	const char *mix = fio_option(d, j, "rwmixread"), *mixw;
	const char *gr = fio_option(d, j, "group_reporting");
	struct matrix_cell *cell;
	char pat[32];
	size_t n;
	double rbw, wbw;
	int random, mixed;

	snprintf(pat, sizeof(pat), "%s", rw);
	pat[strcspn(pat, ":")] = '\0';
	random = !strncmp(pat, "rand", 4);
	n = strlen(pat);
	mixed = !strcmp(pat, "rw") || !strcmp(pat, "readwrite") ||
		!strcmp(pat, "randrw");
	if (!mixed && strcmp(pat, "read") && strcmp(pat, "write") &&
	    strcmp(pat, "randread") && strcmp(pat, "randwrite"))
		return;
	if (!fio_rates_sane(r) || !fio_rates_sane(w))
		return;		/* the job's test rows said so */
	if (!rec->matrix) {
		rec->matrix = matrix_new();
		record_set_str(&rec->matrix->engine, fio_option(d, j, "ioengine") ?
			       fio_option(d, j, "ioengine") : "psync");
		rec->matrix->direct = count_of(fio_option(d, j, "direct"), 0) > 0;
	}
	cell = matrix_add_cell(rec->matrix);
	cell->bs = size_of(fio_option(d, j, "bs") ? fio_option(d, j, "bs") :
			   fio_option(d, j, "blocksize"));
	if (!cell->bs)
		cell->bs = 4096;	/* fio's default */
	cell->qd = count_of(fio_option(d, j, "iodepth"), 1);
	cell->threads = gr && strcmp(gr, "0") ?
			count_of(fio_option(d, j, "numjobs"), 1) :
			count_of(fio_option(d, j, "numjobs"), 1) > 1 &&
			!d->several ? count_of(fio_option(d, j, "numjobs"), 1) : 1;
	cell->random = random;
	mixw = fio_option(d, j, "rwmixwrite");
	if (mixed)
		cell->read_pct = mix ? count_of(mix, 0) : mixw ?
				 100 - count_of(mixw, 0) : 50;
	else
		cell->read_pct = pat[n - 1] == 'd' ? 100 : 0;
	if (cell->read_pct > 100)
		cell->read_pct = 100;
	cell->iops = fio_get_num(r, "iops") + fio_get_num(w, "iops");
	rbw = fio_get_num(r, "bw_bytes") > 0 ? fio_get_num(r, "bw_bytes") :
	      fio_get_num(r, "bw") * 1024;
	wbw = fio_get_num(w, "bw_bytes") > 0 ? fio_get_num(w, "bw_bytes") :
	      fio_get_num(w, "bw") * 1024;
	cell->mbps = (rbw + wbw) / (1024.0 * 1024.0);
	cell->cpu = fio_get_num(j, "usr_cpu") + fio_get_num(j, "sys_cpu");
	cell->elapsed = fmax(fio_get_num(r, "runtime"), fio_get_num(w, "runtime")) /
			1000.0;
	if (fio_get_num(r, "total_ios") > 0 && !fio_latency_sane(r)) {
		cell->rlat.count = record_u64(fio_get_num(r, "total_ios"));
	} else if (fio_get_num(r, "total_ios") > 0) {
		fio_latency_hist(&cell->rlat, r);
		if (!cell->rlat.count)
			cell->rlat.count = record_u64(fio_get_num(r, "total_ios"));
		cell->rrep = reported_of(r);
	}
	if (fio_get_num(w, "total_ios") > 0 && !fio_latency_sane(w)) {
		cell->wlat.count = record_u64(fio_get_num(w, "total_ios"));
	} else if (fio_get_num(w, "total_ios") > 0) {
		fio_latency_hist(&cell->wlat, w);
		if (!cell->wlat.count)
			cell->wlat.count = record_u64(fio_get_num(w, "total_ios"));
		cell->wrep = reported_of(w);
	}
	if (fio_get_num(j, "error") != 0) {
		cell->status = RESULT_FAILED;
		cell->reason = xasprintf("fio error %.0f", fio_get_num(j, "error"));
	} else {
		cell->status = RESULT_OK;
	}
}

/*
 * Without group_reporting fio prints each of a job's numjobs threads as an
 * entry of its own: add src's figures to dst's (rates summed, latency
 * histograms merged; fio's own percentiles no longer apply to the sum).
 */
void fio_sum_clone(struct record *dst, const struct record *src)
{
	size_t i;

	for (i = 0; i < src->nresults; i++) {
		const struct result *r = &src->results[i];
		struct result *t = record_find(dst, r->name);

		if (!t)
			continue;
		t->value += r->value;
		t->cpu += r->cpu;
		t->ops += r->ops;
		t->bytes += r->bytes;
		t->elapsed = fmax(t->elapsed, r->elapsed);
		hist_merge(&t->lat, &r->lat);
	}
	if (dst->matrix && src->matrix && dst->matrix->ncells &&
	    src->matrix->ncells) {
		struct matrix_cell *a = &dst->matrix->cells[0];
		const struct matrix_cell *b = &src->matrix->cells[0];

		a->threads += b->threads;
		a->iops += b->iops;
		a->mbps += b->mbps;
		a->cpu += b->cpu;
		a->elapsed = fmax(a->elapsed, b->elapsed);
		hist_merge(&a->rlat, &b->rlat);
		hist_merge(&a->wlat, &b->wlat);
		free(a->rrep);
		free(a->wrep);
		a->rrep = a->wrep = NULL;
		if (b->status != RESULT_OK && a->status == RESULT_OK) {
			a->status = b->status;
			a->reason = xstrdup_or_null(b->reason);
		}
	}
	{
		const char *p = record_param(dst, "threads_summed");
		char buf[24];

		snprintf(buf, sizeof(buf), "%ld", (p ? atol(p) : 1) + 1);
		if (!p)
			record_warn(dst, "fio printed the threads of job '%s' "
				    "one by one (no group_reporting): summed "
				    "into one run", dst->label);
		record_set_param(dst, "threads_summed", buf, 1);
	}
}
