// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio jobs as matrix cells (import_fio.h): block size, pattern and
 * profile, depth and threads, IO/s and MB/s as fio measured them, and
 * fio's own latency mean and percentiles; the threads of a job printed
 * one by one summed.
 */
#include "report/import/import_fio.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/matrix.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"

/* "4k" "4K" "1m" "4096" "4k,64k" (the read size): bytes, 0 if unknown */
uint64_t fio_size_of(const char *s)
{
	char *end;
	double v;

	if (!s)
		return 0;
	v = strtod(s, &end);
	if (v <= 0 || *end == '%')
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

/* Percentile pct (key as fio lists it) of clat in ns, or NAN; *bins set
 * when fio did not list it and it came from the json+ bins. */
static double listed(struct json_object *clat, const char *key, double pct,
		     double scale, int *bins)
{
	struct json_object *p = fio_get(fio_get_obj(clat, "percentile"), key);

	*bins = 0;
	if (p)
		return json_object_get_double(p) * scale;
	if (fio_get_obj(clat, "bins")) {
		*bins = 1;
		return bins_percentile(fio_get_obj(clat, "bins"), pct, scale);
	}
	return NAN;
}

/* Member key of clat (mean, min, max) in ns, or NAN. */
static double given(struct json_object *clat, const char *key, double scale)
{
	return fio_get(clat, key) ? fio_get_num(clat, key) * scale : NAN;
}

struct hist_exact *fio_exact_of(struct json_object *st,
				const struct histogram *h)
{
	static const struct { int k; const char *key; double pct; } pcts[] = {
		{ HIST_S_P50, "50.000000", 50 },
		{ HIST_S_P90, "90.000000", 90 },
		{ HIST_S_P99, "99.000000", 99 },
		{ HIST_S_P99_9, "99.900000", 99.9 },
	};
	double scale;
	struct json_object *clat = fio_clat_of(st, &scale);
	struct hist_exact *r;
	size_t i;
	int bins;

	if (!clat || !h->count ||
	    (fio_get_num(clat, "N") <= 0 && !fio_get(clat, "mean")))
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->count = h->count;
	r->v[HIST_S_MEAN] = given(clat, "mean", scale);
	r->v[HIST_S_MIN] = given(clat, "min", scale);
	r->v[HIST_S_MAX] = given(clat, "max", scale);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		r->v[pcts[i].k] = listed(clat, pcts[i].key, pcts[i].pct, scale,
					 &bins);
		if (bins && !isnan(r->v[pcts[i].k]))
			r->from_bins |= 1u << pcts[i].k;
	}
	r->only_these = !fio_get_obj(clat, "bins");
	return r;
}

/* The block size the figures say: bytes moved / I/Os (else the rates'
 * quotient), to a multiple of 512; 0 when they say nothing. */
static uint64_t derived_bs(const struct doc *d, struct json_object *r,
			   struct json_object *w)
{
	double bytes = (double)(fio_io_bytes(d, r) + fio_io_bytes(d, w));
	double ios = fio_get_num(r, "total_ios") + fio_get_num(w, "total_ios");
	double iops = fio_get_num(r, "iops") + fio_get_num(w, "iops");
	double bw = fio_get_num(r, "bw") + fio_get_num(w, "bw");

	double v = bytes > 0 && ios > 0 ? bytes / ios :
		   iops > 0 && bw > 0 ? bw * 1024 / iops : 0;

	/* to whole sectors: fio's KiB counts and rates are rounded (pbench's
	 * 21067712 KiB in 329152 I/Os are 65542 bytes each) */
	if (v >= 512)
		v = round(v / 512) * 512;
	return record_u64(round(v));
}

/* The queue depth the figures say: fio's latency_depth (the job's
 * iodepth unless a latency target lowered it), else the iodepth_level
 * bucket most I/Os were issued at; 0 when neither is there. */
static unsigned derived_qd(struct json_object *j)
{
	struct json_object *lv = fio_get_obj(j, "iodepth_level");
	double best = 0;
	unsigned qd = 0;

	if (fio_get_num(j, "latency_depth") >= 1 &&
	    fio_get_num(j, "latency_depth") <= 1 << 20)
		return (unsigned)fio_get_num(j, "latency_depth");
	if (!lv)	/* absent or not an object: foreach would walk NULL */
		return 0;
	{
		json_object_object_foreach(lv, key, val) {
			const char *k = key[0] == '>' ? key + 2 : key;
			long v = strtol(k, NULL, 10);

			if (json_object_get_double(val) > best && v > 0 &&
			    v <= 1 << 20) {
				best = json_object_get_double(val);
				qd = (unsigned)v;
			}
		}
	}
	return qd;
}

/*
 * Block size and queue depth of a job fio printed without any option
 * ("job options" and "global options" absent, as pbench's fio 2.2.5
 * output): from its figures, marked derived, with a warning naming them.
 */
static void derive_shape(const struct doc *d, struct json_object *j,
			 struct record *rec, struct matrix_cell *cell)
{
	struct json_object *r = fio_get(j, "read"), *w = fio_get(j, "write");
	uint64_t bs = derived_bs(d, r, w);
	unsigned qd = derived_qd(j);

	if (bs) {
		cell->bs = bs;
		cell->derived |= MATRIX_DERIVED_BS;
	}
	if (qd) {
		cell->qd = qd;
		cell->derived |= MATRIX_DERIVED_QD;
	}
	record_set_str(&rec->matrix->engine, "unknown");
	record_warn(rec, "fio printed no job options for '%s': block size "
		    "%s%" PRIu64 " bytes (%s), queue depth %s%u (%s); engine "
		    "unknown, pattern and threads as fio's defaults",
		    rec->label ? rec->label : "?", bs ? "" : "not derived, ",
		    bs ? bs : cell->bs, bs ? "derived: bytes moved / I/Os, in sectors" :
		    "fio's default", qd ? "" : "not derived, ", cell->qd,
		    qd ? "derived: fio's latency_depth" : "fio's default");
}

/*
 * The job as a matrix cell: bs, rw and rwmixread give the block size,
 * pattern and profile, iodepth and numjobs the queue depth and threads
 * (with group_reporting one entry stands for all numjobs; without it fio
 * prints the jobs one by one and each is one thread); IO/s and MB/s as
 * fio measured them, completion latency with fio's own mean and
 * percentiles.  Trim jobs have no cell.
 */
/*
 * The latency of direction st (fio's "read" or "write") into h and its
 * exact figures into rep; a latency out of range keeps only the count of
 * I/Os.  Nothing for a direction that did none.
 */
static void cell_latency(struct json_object *st, struct histogram *h,
			 struct hist_exact **rep)
{
	double ios = fio_get_num(st, "total_ios");

	if (ios <= 0)
		return;
	if (!fio_latency_sane(st)) {
		h->count = record_u64(ios);
		return;
	}
	fio_latency_hist(h, st);
	if (!h->count)
		h->count = record_u64(ios);
	*rep = fio_exact_of(st, h);
}

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
	cell->bs = fio_size_of(fio_option(d, j, "bs") ? fio_option(d, j, "bs") :
			   fio_option(d, j, "blocksize"));
	if (!cell->bs)
		cell->bs = 4096;	/* fio's default */
	cell->qd = count_of(fio_option(d, j, "iodepth"), 1);
	if (!fio_get(j, "job options") && !d->global)
		derive_shape(d, j, rec, cell);
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
	cell_latency(r, &cell->rlat, &cell->rrep);
	cell_latency(w, &cell->wlat, &cell->wrep);
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
void fio_sum_figures(struct record *dst, const struct record *src)
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
		/* fio's own figures were of one thread: the sum's are the
		 * merged histogram's */
		free(t->exact);
		t->exact = NULL;
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
			a->reason_kind = b->reason_kind;
			a->signal = b->signal;
			a->reason = xstrdup_or_null(b->reason);
		}
	}
}

void fio_sum_clone(struct record *dst, const struct record *src)
{
	fio_sum_figures(dst, src);
	{
		const char *p = record_param(dst, "threads_summed");
		char buf[24];

		snprintf(buf, sizeof(buf), "%ld", (p ? atol(p) : 1) + 1);
		if (!p)
			record_warn(dst, "fio printed the threads of job '%s' "
				    "one by one (no group_reporting): summed "
				    "into one run, its latency percentiles "
				    "from the threads' histograms merged",
				    dst->label);
		record_set_param(dst, "threads_summed", buf, 1);
	}
}
