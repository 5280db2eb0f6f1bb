// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio JSON into run records: one record per job (per client with
 * --client), one result per direction that moved data.  Reads normal and
 * json+ output, text before the first '{' and between documents, several
 * concatenated documents (json_tokener), and client/server output
 * ("client_stats").  Sequential write and read jobs land in bonnie++'s
 * block write and block read columns; other patterns get tests of their
 * own ("fio_randread_read").  Throughput in KiB/s (fio's bw_bytes / 1024);
 * completion latency from json+ bins when present, else from fio's
 * percentiles.
 */
#include "import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "matrix.h"
#include "record_util.h"
#include "../lib/xalloc.h"

struct doc {
	struct import *im;
	const char *file;
	unsigned long lineno;
	const char *version;
	int several;		/* a jobname printed more than once */
	struct json_object *global;
	/* without group_reporting: the first record of each job name, so
	 * that its other entries (its threads) are summed into it */
	struct clone { const char *name; struct record *rec; } *clones;
	size_t nclones;
	int64_t timestamp;
};

static struct json_object *get(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return NULL;
	return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* The member key when it is an object (what json_object_object_foreach
 * may walk: anything else from a damaged file would crash it). */
static struct json_object *get_obj(struct json_object *obj, const char *key)
{
	struct json_object *v = get(obj, key);

	return v && json_object_is_type(v, json_type_object) ? v : NULL;
}

static const char *get_str(struct json_object *obj, const char *key)
{
	struct json_object *v = get(obj, key);

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

static double get_num(struct json_object *obj, const char *key)
{
	struct json_object *v = get(obj, key);

	if (!v)
		return 0;
	if (json_object_is_type(v, json_type_string))
		return strtod(json_object_get_string(v), NULL);
	return json_object_get_double(v);
}

/* A job option from the job, else from the global options. */
static const char *option(const struct doc *d, struct json_object *job,
			  const char *key)
{
	const char *v = get_str(get(job, "job options"), key);

	return v ? v : get_str(d->global, key);
}

static void copy_options(struct record *rec, struct json_object *opts)
{
	if (!opts || !json_object_is_type(opts, json_type_object))
		return;
	{
		json_object_object_foreach(opts, key, val) {
			if (json_object_is_type(val, json_type_string))
				record_set_param(rec, key,
						 json_object_get_string(val),
						 0);
		}
	}
}

static void hist_from_bins(struct histogram *h, struct json_object *clat,
			   double scale)
{
	struct json_object *bins = get_obj(clat, "bins");

	json_object_object_foreach(bins, key, val) {
		uint64_t ns = record_u64(strtod(key, NULL) * scale);
		uint64_t c = (uint64_t)json_object_get_int64(val);

		h->bucket[hist_index(ns)] += c;
		h->count += c;
		h->sum += ns * c;
		if (ns < h->min)
			h->min = ns;
		if (ns > h->max)
			h->max = ns;
	}
}

/*
 * fio's normal output keeps only percentiles: put the share of samples
 * between two percentiles into the bucket of the upper one, so the
 * percentiles computed back are fio's.
 */
static void hist_from_percentiles(struct histogram *h,
				  struct json_object *clat, double scale,
				  uint64_t ios)
{
	struct json_object *pct = get_obj(clat, "percentile");
	uint64_t n = record_u64(get_num(clat, "N")), done = 0, want, ns;

	if (!n)
		n = ios;	/* fio before 3.0 has no "N" */
	if (!pct || !n)
		return;
	{
		json_object_object_foreach(pct, key, val) {
			double p = strtod(key, NULL);

			ns = record_u64(json_object_get_double(val) * scale);
			want = (uint64_t)llround((double)n * p / 100.0);
			if (want > n)
				want = n;
			if (want > done) {
				h->bucket[hist_index(ns)] += want - done;
				done = want;
			}
		}
	}
	ns = record_u64(get_num(clat, "max") * scale);
	if (done < n)
		h->bucket[hist_index(ns)] += n - done;
	h->count = n;
	h->sum = record_u64(round(get_num(clat, "mean") * scale * (double)n));
	h->min = record_u64(get_num(clat, "min") * scale);
	h->max = ns;
}

/*
 * Completion latency of a direction: fio 3.x "clat_ns" in ns, fio 2.x
 * "clat" in us.  *scale is set to the factor to ns.
 */
static struct json_object *clat_of(struct json_object *st, double *scale)
{
	struct json_object *c = get(st, "clat_ns");

	*scale = 1;
	if (c)
		return c;
	*scale = 1000;
	return get(st, "clat");
}

static void latency_hist(struct histogram *h, struct json_object *st)
{
	double scale;
	struct json_object *clat = clat_of(st, &scale);

	if (!clat)
		return;
	if (get_obj(clat, "bins"))
		hist_from_bins(h, clat, scale);
	else
		hist_from_percentiles(h, clat, scale,
				      record_u64(get_num(st, "total_ios")));
}

static void direction(struct record *rec,
		      struct json_object *job, const char *dir,
		      const char *rw, const char *bs)
{
	struct json_object *st = get(job, dir);
	char name[32], title[64];
	struct result *res;
	double bw;

	if (!st || get_num(st, "io_bytes") <= 0)
		return;
	if (!strcmp(rw, "write") && !strcmp(dir, "write")) {
		snprintf(name, sizeof(name), "put_block");
		snprintf(title, sizeof(title), "Block write");
	} else if (!strcmp(rw, "read") && !strcmp(dir, "read")) {
		snprintf(name, sizeof(name), "get_block");
		snprintf(title, sizeof(title), "Block read");
	} else {
		snprintf(name, sizeof(name), "fio_%.12s_%s", rw, dir);
		snprintf(title, sizeof(title), "fio %.20s, %s%s%.10s", rw, dir,
			 bs ? " bs " : "", bs ? bs : "");
	}
	res = record_add_result(rec, name, title, "KiB/s");
	bw = get_num(st, "bw_bytes");
	res->value = bw > 0 ? bw / 1024.0 : get_num(st, "bw");
	res->cpu = get_num(job, "usr_cpu") + get_num(job, "sys_cpu");
	res->ops = record_u64(get_num(st, "total_ios"));
	res->bytes = record_u64(get_num(st, "io_bytes"));
	res->elapsed = get_num(st, "runtime") / 1000.0;
	if (res->elapsed < 0.5 && res->elapsed > 0)
		res->flags |= RESULT_LOW_PRECISION;
	result_set_status(res, RESULT_OK, NULL);
	latency_hist(&res->lat, st);
}

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
	struct json_object *p = get(get_obj(clat, "percentile"), key);

	if (p)
		return json_object_get_double(p) * scale;
	if (get_obj(clat, "bins"))
		return bins_percentile(get_obj(clat, "bins"), pct, scale);
	return NAN;
}

static struct matrix_reported *reported_of(struct json_object *st)
{
	double scale;
	struct json_object *clat = clat_of(st, &scale);
	struct matrix_reported *r;

	if (!clat || (get_num(clat, "N") <= 0 && !get(clat, "mean")))
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->mean = get(clat, "mean") ? get_num(clat, "mean") * scale : NAN;
	r->max = get(clat, "max") ? get_num(clat, "max") * scale : NAN;
	r->p50 = listed(clat, "50.000000", 50, scale);
	r->p99 = listed(clat, "99.000000", 99, scale);
	r->p99_9 = listed(clat, "99.900000", 99.9, scale);
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
static void fio_cell(const struct doc *d, struct json_object *j,
		     struct record *rec, const char *rw)
{
	struct json_object *r = get(j, "read"), *w = get(j, "write");
	const char *mix = option(d, j, "rwmixread"), *mixw;
	const char *gr = option(d, j, "group_reporting");
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
	if (!rec->matrix) {
		rec->matrix = matrix_new();
		record_set_str(&rec->matrix->engine, option(d, j, "ioengine") ?
			       option(d, j, "ioengine") : "psync");
		rec->matrix->direct = count_of(option(d, j, "direct"), 0) > 0;
	}
	cell = matrix_add_cell(rec->matrix);
	cell->bs = size_of(option(d, j, "bs") ? option(d, j, "bs") :
			   option(d, j, "blocksize"));
	if (!cell->bs)
		cell->bs = 4096;	/* fio's default */
	cell->qd = count_of(option(d, j, "iodepth"), 1);
	cell->threads = gr && strcmp(gr, "0") ?
			count_of(option(d, j, "numjobs"), 1) :
			count_of(option(d, j, "numjobs"), 1) > 1 &&
			!d->several ? count_of(option(d, j, "numjobs"), 1) : 1;
	cell->random = random;
	mixw = option(d, j, "rwmixwrite");
	if (mixed)
		cell->read_pct = mix ? count_of(mix, 0) : mixw ?
				 100 - count_of(mixw, 0) : 50;
	else
		cell->read_pct = pat[n - 1] == 'd' ? 100 : 0;
	if (cell->read_pct > 100)
		cell->read_pct = 100;
	cell->iops = get_num(r, "iops") + get_num(w, "iops");
	rbw = get_num(r, "bw_bytes") > 0 ? get_num(r, "bw_bytes") :
	      get_num(r, "bw") * 1024;
	wbw = get_num(w, "bw_bytes") > 0 ? get_num(w, "bw_bytes") :
	      get_num(w, "bw") * 1024;
	cell->mbps = (rbw + wbw) / (1024.0 * 1024.0);
	cell->cpu = get_num(j, "usr_cpu") + get_num(j, "sys_cpu");
	cell->elapsed = fmax(get_num(r, "runtime"), get_num(w, "runtime")) /
			1000.0;
	if (get_num(r, "total_ios") > 0) {
		latency_hist(&cell->rlat, r);
		if (!cell->rlat.count)
			cell->rlat.count = record_u64(get_num(r, "total_ios"));
		cell->rrep = reported_of(r);
	}
	if (get_num(w, "total_ios") > 0) {
		latency_hist(&cell->wlat, w);
		if (!cell->wlat.count)
			cell->wlat.count = record_u64(get_num(w, "total_ios"));
		cell->wrep = reported_of(w);
	}
	if (get_num(j, "error") != 0) {
		cell->status = RESULT_FAILED;
		cell->reason = xasprintf("fio error %.0f", get_num(j, "error"));
	} else {
		cell->status = RESULT_OK;
	}
}

/*
 * Without group_reporting fio prints each of a job's numjobs threads as an
 * entry of its own: add src's figures to dst's (rates summed, latency
 * histograms merged; fio's own percentiles no longer apply to the sum).
 */
static void sum_clone(struct record *dst, const struct record *src)
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

static int job(struct doc *d, struct json_object *j, int client)
{
	const char *name = get_str(j, "jobname"), *rw, *bs, *host;
	struct record *rec;
	char when[32];
	time_t t;
	struct tm tm;

	if (!name) {
		import_warn(d->im, "%s:%lu: fio job without a jobname", d->file,
			    d->lineno);
		return 0;
	}
	if (client && !strcmp(name, "All clients"))
		return 0;	/* fio's sum; each client is its own run */
	rec = record_new();
	record_set_str(&rec->tool, "fio");
	record_set_str(&rec->version, d->version);
	record_set_str(&rec->label, name);
	rec->repetition = 1;
	rec->source = xasprintf("%s:%lu (fio JSON%s)", d->file, d->lineno,
				client ? ", client/server" : "");
	host = get_str(j, "hostname");
	if (host)
		record_set_str(&rec->host.hostname, host);
	if (d->timestamp > 0) {
		t = (time_t)d->timestamp;
		/* a timestamp past year 2^31 has no broken-down time */
		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
			record_set_str(&rec->start, when);
	}
	copy_options(rec, d->global);
	copy_options(rec, get(j, "job options"));
	rw = option(d, j, "rw");
	if (!rw)
		rw = option(d, j, "readwrite");
	if (!rw)
		rw = "read";	/* fio's default */
	bs = option(d, j, "bs");
	if (option(d, j, "directory"))
		record_set_str(&rec->target.path, option(d, j, "directory"));
	else if (option(d, j, "filename"))
		record_set_str(&rec->target.path, option(d, j, "filename"));
	if (get_num(j, "error") != 0)
		record_warn(rec, "fio job '%s' ended with error %.0f", name,
			    get_num(j, "error"));
	direction(rec, j, "read", rw, bs);
	direction(rec, j, "write", rw, bs);
	direction(rec, j, "trim", rw, bs);
	fio_cell(d, j, rec, rw);
	if (!rec->nresults) {
		import_warn(d->im, "%s:%lu: fio job '%s' moved no data",
			    d->file, d->lineno, name);
		record_free(rec);
		return 0;
	}
	if (d->several && !client) {
		const char *gr = option(d, j, "group_reporting");
		size_t k;

		for (k = 0; k < d->nclones; k++)
			if (!strcmp(d->clones[k].name, name))
				break;
		if (k < d->nclones && !(gr && strcmp(gr, "0"))) {
			sum_clone(d->clones[k].rec, rec);
			record_free(rec);
			return 0;
		}
		d->clones = xrealloc(d->clones, (d->nclones + 1) *
				     sizeof(*d->clones));
		d->clones[d->nclones].name = name;
		d->clones[d->nclones++].rec = rec;
	}
	import_add(d->im, rec);
	return 1;
}

static int document(struct doc *d, struct json_object *obj)
{
	struct json_object *jobs = get(obj, "jobs");
	int client = 0, n = 0;
	size_t i;

	d->version = get_str(obj, "fio version");
	if (!d->version) {
		import_warn(d->im, "%s:%lu: JSON document is not fio output "
			    "(no \"fio version\")", d->file, d->lineno);
		return 0;
	}
	d->global = get(obj, "global options");
	d->timestamp = record_i64(get_num(obj, "timestamp"));
	if (!jobs) {
		jobs = get(obj, "client_stats");
		client = 1;
	}
	if (!jobs || !json_object_is_type(jobs, json_type_array)) {
		import_warn(d->im, "%s:%lu: fio output without jobs", d->file,
			    d->lineno);
		return 0;
	}
	d->several = 0;
	d->nclones = 0;
	for (i = 0; i < json_object_array_length(jobs); i++) {
		const char *a = get_str(json_object_array_get_idx(jobs, i),
					"jobname");
		size_t k;

		for (k = 0; a && k < i; k++) {
			const char *b = get_str(
				json_object_array_get_idx(jobs, k), "jobname");

			if (b && !strcmp(a, b))
				d->several = 1;
		}
	}
	for (i = 0; i < json_object_array_length(jobs); i++)
		n += job(d, json_object_array_get_idx(jobs, i), client);
	return n;
}

static unsigned long count_lines(const char *from, const char *to,
				 unsigned long line)
{
	for (; from < to; from++)
		if (*from == '\n')
			line++;
	return line;
}

int import_fio(struct import *im, const char *name, const char *buf,
	       size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	const char *p = buf, *end = buf + len, *counted = buf;
	struct doc d = { .im = im, .file = name, .lineno = 1 };
	int n = 0;

	if (!tok) {
		import_warn(im, "%s: out of memory", name);
		return 0;
	}
	while (p < end) {
		struct json_object *obj;
		const char *brace = memchr(p, '{', (size_t)(end - p));
		size_t used;

		if (!brace)
			break;	/* trailing text: fio's own messages */
		d.lineno = count_lines(counted, brace, d.lineno);
		counted = brace;
		json_tokener_reset(tok);
		obj = json_tokener_parse_ex(tok, brace, (int)(end - brace));
		used = json_tokener_get_parse_end(tok);
		if (!obj) {
			enum json_tokener_error e = json_tokener_get_error(tok);

			import_warn(im, "%s:%lu: not valid fio JSON: %s", name,
				    count_lines(brace, brace + used, d.lineno),
				    e == json_tokener_continue ?
				    "unexpected end of file" :
				    json_tokener_error_desc(e));
			/* resynchronise at the next line starting with '{' */
			p = brace + 1;
			while (p < end && !(p[-1] == '\n' && *p == '{'))
				p++;
			continue;
		}
		n += document(&d, obj);
		json_object_put(obj);
		p = brace + (used ? used : 1);
	}
	json_tokener_free(tok);
	free(d.clones);
	return n;
}
