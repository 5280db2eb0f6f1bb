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
#include "report/import/import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "report/import/import_fio.h"
#include "report/model/bonnie.h"
#include "report/model/matrix.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"


struct json_object *fio_get(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return NULL;
	return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* The member key when it is an object (what json_object_object_foreach
 * may walk: anything else from a damaged file would crash it). */
struct json_object *fio_get_obj(struct json_object *obj, const char *key)
{
	struct json_object *v = fio_get(obj, key);

	return v && json_object_is_type(v, json_type_object) ? v : NULL;
}

const char *fio_get_str(struct json_object *obj, const char *key)
{
	struct json_object *v = fio_get(obj, key);

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

double fio_get_num(struct json_object *obj, const char *key)
{
	struct json_object *v = fio_get(obj, key);

	if (!v)
		return 0;
	if (json_object_is_type(v, json_type_string))
		return strtod(json_object_get_string(v), NULL);
	return json_object_get_double(v);
}

/* A job option from the job, else from the global options. */
const char *fio_option(const struct doc *d, struct json_object *job,
			  const char *key)
{
	const char *v = fio_get_str(fio_get(job, "job options"), key);

	return v ? v : fio_get_str(d->global, key);
}

/* The major version of "fio-3.19-10-g3bd2": 3; 0 when unknown. */
static int fio_major(const char *version)
{
	if (!version || strncmp(version, "fio-", 4))
		return 0;
	return atoi(version + 4);
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

/* (The two below fill h in its measuring form, h->dense.) */
static void hist_from_bins(struct histogram *h, struct json_object *clat,
			   double scale)
{
	struct json_object *bins = fio_get_obj(clat, "bins");

	json_object_object_foreach(bins, key, val) {
		uint64_t ns = record_u64(strtod(key, NULL) * scale);
		uint64_t c = (uint64_t)json_object_get_int64(val);

		h->dense[hist_index(ns)] += c;
		h->count += c;
		h->sum += ns * c;
		if (ns < h->min)
			h->min = ns;
		if (ns > h->max)
			h->max = ns;
	}
}

/*
 * fio's own min, max and mean over the bins' values, which are bucket
 * values of fio's own histogram: the ends and the sum exact.
 */
static void exact_ends(struct histogram *h, struct json_object *clat,
		       double scale)
{
	if (!h->count)
		return;
	if (fio_get(clat, "min") && fio_get(clat, "max") &&
	    fio_get_num(clat, "min") <= fio_get_num(clat, "max")) {
		h->min = record_u64(fio_get_num(clat, "min") * scale);
		h->max = record_u64(fio_get_num(clat, "max") * scale);
	}
	if (fio_get(clat, "mean"))
		h->sum = record_u64(round(fio_get_num(clat, "mean") * scale *
					  (double)h->count));
}

/*
 * fio's normal output keeps only percentiles: put the share of samples
 * between two percentiles into the bucket of the upper one, as many as
 * hist_percentile() counts to (its rank), so the percentiles computed back
 * fall in the buckets of fio's (within a bucket's width of its values).
 * One sample sits at fio's min and one at its max, each value is kept
 * between them, and fio 2.x's "0.00" entry is no percentile: the record's
 * JSON reader accepts only a histogram whose min and max lie in its first
 * and last buckets.
 */
static void hist_from_percentiles(struct histogram *h,
				  struct json_object *clat, double scale,
				  uint64_t ios)
{
	struct json_object *pct = fio_get_obj(clat, "percentile");
	uint64_t n = record_u64(fio_get_num(clat, "N")), done = 0, want, ns;
	uint64_t lo = record_u64(fio_get_num(clat, "min") * scale);
	uint64_t hi = record_u64(fio_get_num(clat, "max") * scale);
	unsigned last = hist_index(hi);

	if (!n)
		n = ios;	/* fio before 3.0 has no "N" */
	if (!pct || !n || lo > hi)
		return;
	{
		json_object_object_foreach(pct, key, val) {
			double p = strtod(key, NULL);

			if (!(p > 0))
				continue;
			ns = record_u64(json_object_get_double(val) * scale);
			ns = ns < lo ? lo : ns > hi ? hi : ns;
			want = hist_rank(n, p);
			if (want > n)
				want = n;
			if (want > done && !done) {
				h->dense[hist_index(lo)]++;
				done++;
			}
			if (want > done) {
				last = hist_index(ns);
				h->dense[last] += want - done;
				done = want;
			}
		}
	}
	if (done < n) {
		h->dense[hist_index(hi)] += n - done;
	} else if (last != hist_index(hi) && h->dense[last]) {
		h->dense[last]--;	/* the n-th sample is fio's max */
		h->dense[hist_index(hi)]++;
	}
	h->count = n;
	h->sum = record_u64(round(fio_get_num(clat, "mean") * scale * (double)n));
	h->min = lo;
	h->max = hi;
}

/*
 * Completion latency of a direction: fio 3.x "clat_ns" in ns, fio 2.x
 * "clat" in us.  *scale is set to the factor to ns.
 */
struct json_object *fio_clat_of(struct json_object *st, double *scale)
{
	struct json_object *c = fio_get(st, "clat_ns");

	*scale = 1;
	if (c)
		return c;
	*scale = 1000;
	return fio_get(st, "clat");
}

/* A latency of fio's in ns that a histogram can hold: 0 to 2^64. */
static int lat_ok(double ns)
{
	return ns >= 0 && ns < 18446744073709551615.0;
}

int fio_rates_sane(struct json_object *st)
{
	static const char *const keys[] = {
		"iops", "bw", "bw_bytes", "io_bytes", "runtime", "total_ios",
	};
	size_t i;

	for (i = 0; st && i < sizeof(keys) / sizeof(keys[0]); i++) {
		double v = fio_get_num(st, keys[i]);

		if (fio_get(st, keys[i]) && !(v >= 0 && v <= 1e15))
			return 0;
	}
	return 1;
}

int fio_latency_sane(struct json_object *st)
{
	double scale;
	struct json_object *clat = fio_clat_of(st, &scale), *pct;
	static const char *const keys[] = { "min", "max", "mean" };
	size_t i;

	if (!clat)
		return 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (fio_get(clat, keys[i]) &&
		    !lat_ok(fio_get_num(clat, keys[i]) * scale))
			return 0;
	pct = fio_get_obj(clat, "percentile");
	if (pct) {
		json_object_object_foreach(pct, key, val) {
			(void)key;
			if (!lat_ok(json_object_get_double(val) * scale))
				return 0;
		}
	}
	return 1;
}

void fio_latency_hist(struct histogram *h, struct json_object *st)
{
	double scale;
	struct json_object *clat = fio_clat_of(st, &scale);

	if (!clat)
		return;
	hist_measure(h);	/* filled bucket by bucket, then packed */
	if (fio_get_obj(clat, "bins")) {
		hist_from_bins(h, clat, scale);
		exact_ends(h, clat, scale);
	} else
		hist_from_percentiles(h, clat, scale,
				      record_u64(fio_get_num(st, "total_ios")));
	hist_compact(h);
}

/*
 * Bytes direction st moved.  fio 3.x writes "io_bytes" in bytes beside
 * "io_kbytes"; fio 2.x has only "io_bytes", in KiB (its stat.c:
 * ts->io_bytes[ddir] >> 10).
 */
uint64_t fio_io_bytes(const struct doc *d, struct json_object *st)
{
	double b = fio_get_num(st, "io_bytes");

	if (!fio_get(st, "io_kbytes") && fio_major(d->version) < 3)
		b *= 1024;
	return record_u64(b);
}

/* Say which figures of direction dir fio did not list (clyde computed
 * them from its json+ bins, as fio computes its list). */
static void warn_from_bins(struct record *rec, const char *dir,
			   unsigned bits)
{
	char names[64] = "";
	int k;

	for (k = 0; k < HIST_SUMMARY_N; k++)
		if (bits & (1u << k))
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 *names ? ", " : "", hist_summary_label[k]);
	record_warn(rec, "fio job '%s': %s latency %s not in fio's "
		    "percentile list: computed from its json+ bins as fio "
		    "computes its list", rec->label ? rec->label : "?", dir,
		    names);
}

/*
 * The bonnie++ test a job's direction is (a sequential write job's write is
 * put_block, a sequential read job's read get_block), NULL for none.
 */
static const struct bonnie_test *fio_bonnie_test(const char *rw,
						 const char *dir)
{
	if (!strcmp(rw, "write") && !strcmp(dir, "write"))
		return &bonnie_tests[BONNIE_PUT_BLOCK];
	if (!strcmp(rw, "read") && !strcmp(dir, "read"))
		return &bonnie_tests[BONNIE_GET_BLOCK];
	return NULL;
}

/* The result of direction dir of a job: 0, or -1 when it was left out
 * with a warning. */
static int direction(const struct doc *d, struct record *rec,
		     struct json_object *job, const char *dir,
		     const char *rw, const char *bs)
{
	struct json_object *st = fio_get(job, dir);
	const struct bonnie_test *bt;
	char name[32], title[64];
	struct result *res;
	double bw;

	if (!st || fio_get_num(st, "io_bytes") <= 0)
		return 0;
	if (!fio_rates_sane(st)) {
		import_warn(d->im, "%s:%lu: fio job '%s': a %s rate out of "
			    "range (negative, infinite or past 1e15 a "
			    "second): left out", d->file, d->lineno,
			    rec->label ? rec->label : "?", dir);
		return -1;
	}
	bt = fio_bonnie_test(rw, dir);
	if (bt) {
		res = record_add_result(rec, bt->name, bt->title, bt->unit);
	} else {
		snprintf(name, sizeof(name), "fio_%.12s_%s", rw, dir);
		snprintf(title, sizeof(title), "fio %.20s, %s%s%.10s", rw, dir,
			 bs ? " bs " : "", bs ? bs : "");
		res = record_add_result(rec, name, title, "KiB/s");
	}
	bw = fio_get_num(st, "bw_bytes");
	res->value = bw > 0 ? bw / 1024.0 : fio_get_num(st, "bw");
	res->cpu = fio_get_num(job, "usr_cpu") + fio_get_num(job, "sys_cpu");
	res->ops = record_u64(fio_get_num(st, "total_ios"));
	res->bytes = fio_io_bytes(d, st);
	res->elapsed = fio_get_num(st, "runtime") / 1000.0;
	if (res->elapsed < 0.5 && res->elapsed > 0)
		res->flags |= RESULT_LOW_PRECISION;
	result_set_status(res, RESULT_OK, NULL);
	if (!fio_latency_sane(st)) {
		import_warn(d->im, "%s:%lu: fio job '%s': a %s latency out of "
			    "range (negative, infinite or past 2^64 ns): its "
			    "latency left out", d->file, d->lineno,
			    rec->label ? rec->label : "?", dir);
		return 0;
	}
	fio_latency_hist(&res->lat, st);
	res->exact = fio_exact_of(st, &res->lat);
	if (res->exact && res->exact->from_bins)
		warn_from_bins(rec, dir, res->exact->from_bins);
	return 0;
}

/* fio's time option ("5m", "60", "10s", "500ms", "1h") in s; fio reads
 * a bare number as seconds.  0 when absent or not a time. */
static double fio_seconds(const char *s)
{
	char *end;
	double v = s ? strtod(s, &end) : 0;

	if (!(v > 0))
		return 0;
	if (!strncmp(end, "ms", 2))
		return v / 1e3;
	if (!strncmp(end, "us", 2))
		return v / 1e6;
	switch (*end) {
	case 'm': case 'M':
		return v * 60;
	case 'h': case 'H':
		return v * 3600;
	case 'd': case 'D':
		return v * 86400;
	default:
		return v;
	}
}

/* How long job j ran, in s: fio 3.x's job_runtime, else its longest
 * direction. */
static double job_ran(struct json_object *j)
{
	double ms = fio_get_num(j, "job_runtime");

	ms = fmax(ms, fio_get_num(fio_get(j, "read"), "runtime"));
	ms = fmax(ms, fio_get_num(fio_get(j, "write"), "runtime"));
	ms = fmax(ms, fio_get_num(fio_get(j, "trim"), "runtime"));
	return ms / 1000;
}

/*
 * Whether job j, in a document fio printed when a signal stopped it, had
 * got as far as it was asked before: its runtime (to 1 %: fio counts
 * whole ms), or, with no runtime, its size moved (size x loops, x numjobs
 * with group_reporting).  Nothing saying so: it had not.
 */
static int job_complete(const struct doc *d, struct json_object *j,
			double ran)
{
	double want = fio_seconds(fio_option(d, j, "runtime"));
	uint64_t size = fio_size_of(fio_option(d, j, "size"));
	const char *gr = fio_option(d, j, "group_reporting");
	const char *loops = fio_option(d, j, "loops");
	const char *nj = fio_option(d, j, "numjobs");
	double moved;

	if (want > 0)
		return ran >= 0.99 * want;
	if (!size)
		return 0;
	moved = (double)(fio_io_bytes(d, fio_get(j, "read")) +
			 fio_io_bytes(d, fio_get(j, "write")) +
			 fio_io_bytes(d, fio_get(j, "trim")));
	return moved >= (double)size * (loops ? fmax(atof(loops), 1) : 1) *
			(gr && strcmp(gr, "0") && nj ? fmax(atof(nj), 1) : 1);
}

/* The job's results and cell in status st with reason "WHY; until then
 * VALUE UNIT" (the figures fio printed, which the writers leave out of
 * the tables of a test that did not finish). */
static void mark_results(struct record *rec, enum result_status st,
			 enum reason_kind kind, int sig, const char *why)
{
	char *detail;
	size_t i;

	for (i = 0; i < rec->nresults; i++) {
		struct result *res = &rec->results[i];

		if (res->status != RESULT_OK)
			continue;
		detail = xasprintf("%s; until then %.1f %s", why, res->value,
				   res->unit);
		result_set_reason(res, st, kind, sig, detail);
		free(detail);
		/* skipped and low precision reads as bonnie++'s +++++ */
		res->flags &= ~RESULT_LOW_PRECISION;
	}
	for (i = 0; rec->matrix && i < rec->matrix->ncells; i++) {
		struct matrix_cell *c = &rec->matrix->cells[i];

		if (c->status != RESULT_OK && c->status != RESULT_FAILED)
			continue;
		detail = xasprintf("%s; until then %.0f IO/s", why, c->iops);
		matrix_cell_set_reason(c, st, kind, sig, detail);
		free(detail);
	}
}

/* fio's "error" (an errno): "fio error 28 (No space left on device)" */
static char *fio_error_text(double err)
{
	return err > 0 && err < 4096 ?
	       xasprintf("fio error %.0f (%s)", err, strerror((int)err)) :
	       xasprintf("fio error %.0f", err);
}

/*
 * A job fio says did not finish: ended with an error (its "error", an
 * errno: failed, as a test of clyde's that an I/O error ended), or
 * stopped by the signal fio printed before the document before it had
 * run its time or moved its size (skipped, "interrupted by signal N",
 * as clyde marks a test a signal stopped).
 */
static void mark_job(const struct doc *d, struct json_object *j,
		     struct record *rec)
{
	double err = fio_get_num(j, "error"), ran = job_ran(j);
	const char *rt = fio_option(d, j, "runtime");
	char *why;

	if (err != 0) {
		why = fio_error_text(err);
		mark_results(rec, RESULT_FAILED, REASON_NONE, 0, why);
		free(why);
		return;
	}
	if (!d->signal || job_complete(d, j, ran))
		return;
	why = xasprintf("fio ran %.1f s%s%s", ran, rt ? " of runtime=" : "",
			rt ? rt : "");
	mark_results(rec, RESULT_SKIPPED, REASON_INTERRUPTED,
		     (int)d->signal, why);
	free(why);
}

/*
 * Whether job j's bs, numjobs and iodepth are ones fio runs with (a block
 * size above 0, counts of at least 1; fio holds each in an unsigned int):
 * 0, or -1 with a warning leaving the job out, whose figures would be
 * shown beside a block size or a queue depth that cannot be.
 */
static int options_sane(const struct doc *d, struct json_object *j,
			const char *name)
{
	static const char *const keys[] = { "bs", "blocksize", "numjobs",
					     "iodepth" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = fio_option(d, j, keys[i]);
		char *end;
		double x = v ? strtod(v, &end) : 1;

		if (v && i < 2 && end != v)
			x = (double)fio_size_of(v);
		if ((x >= 1 && x <= 4294967295.0) || (v && end == v))
			continue;	/* a text is no figure: shown escaped */
		import_warn(d->im, "%s:%lu: fio job '%s': %s=%s is not one "
			    "fio runs with (%s): left out", d->file,
			    d->lineno, name, keys[i], v, i < 2 ?
			    "a block size from 1 byte to 4 GiB" :
			    "a count from 1 to 4294967295");
		return -1;
	}
	return 0;
}

/* A job's record: who ran it (fio, its version, host, start), where from. */
static struct record *job_record(const struct doc *d, struct json_object *j,
				 const char *name, int client)
{
	struct record *rec = record_new();
	const char *host = fio_get_str(j, "hostname");
	char when[32];
	time_t t;
	struct tm tm;

	record_set_str(&rec->tool, "fio");
	record_set_str(&rec->version, d->version);
	record_set_str(&rec->label, name);
	rec->repetition = 1;
	rec->source = xasprintf("%s:%lu (fio JSON%s)", d->file, d->lineno,
				client ? ", client/server" : "");
	if (host)
		record_set_str(&rec->host.hostname, host);
	if (d->timestamp > 0) {
		t = (time_t)d->timestamp;
		/* a timestamp past year 2^31 has no broken-down time */
		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
			record_set_str(&rec->start, when);
	}
	return rec;
}

/*
 * In a document of several jobs, a job of a name seen before is a clone
 * (numjobs without group_reporting): summed into the first and freed
 * (1), else kept as the first of its name (0).
 */
static int job_cloned(struct doc *d, struct json_object *j, const char *name,
		      struct record *rec)
{
	const char *gr = fio_option(d, j, "group_reporting");
	size_t k;

	for (k = 0; k < d->nclones; k++)
		if (!strcmp(d->clones[k].name, name))
			break;
	if (k < d->nclones && !(gr && strcmp(gr, "0"))) {
		fio_sum_clone(d->clones[k].rec, rec);
		record_free(rec);
		return 1;
	}
	d->clones = xrealloc(d->clones, (d->nclones + 1) *
			     sizeof(*d->clones));
	d->clones[d->nclones].name = name;
	d->clones[d->nclones++].rec = rec;
	return 0;
}

static int job(struct doc *d, struct json_object *j, int client)
{
	const char *name = fio_get_str(j, "jobname"), *rw, *bs;
	struct record *rec;
	int left_out;

	if (!name) {
		import_warn(d->im, "%s:%lu: fio job without a jobname", d->file,
			    d->lineno);
		return 0;
	}
	if ((client && !strcmp(name, "All clients")) ||
	    options_sane(d, j, name))
		return 0;	/* fio's sum (summed by job), or bad options */
	rec = job_record(d, j, name, client);
	copy_options(rec, d->global);
	copy_options(rec, fio_get(j, "job options"));
	rw = fio_option(d, j, "rw");
	if (!rw)
		rw = fio_option(d, j, "readwrite");
	if (!rw)
		rw = "read";	/* fio's default */
	bs = fio_option(d, j, "bs");
	if (fio_option(d, j, "directory"))
		record_set_str(&rec->target.path, fio_option(d, j, "directory"));
	else if (fio_option(d, j, "filename"))
		record_set_str(&rec->target.path, fio_option(d, j, "filename"));
	if (fio_get_num(j, "error") != 0)
		record_warn(rec, "fio job '%s' ended with error %.0f", name,
			    fio_get_num(j, "error"));
	left_out = direction(d, rec, j, "read", rw, bs) +
		   direction(d, rec, j, "write", rw, bs) +
		   direction(d, rec, j, "trim", rw, bs);
	fio_cell(d, j, rec, rw);
	mark_job(d, j, rec);
	if (!rec->nresults && left_out) {
		record_free(rec);
		return 0;
	}
	if (!rec->nresults) {
		char *why = fio_get_num(j, "error") != 0 ?
			    fio_error_text(fio_get_num(j, "error")) : NULL;

		import_warn(d->im, "%s:%lu: fio job '%s' moved no data%s%s",
			    d->file, d->lineno, name, why ? ": " : "",
			    why ? why : "");
		free(why);
		record_free(rec);
		return 0;
	}
	if (d->several && !client && job_cloned(d, j, name, rec))
		return 0;
	return fio_add_job(d, rec, j, client);
}

static int document(struct doc *d, struct json_object *obj)
{
	struct json_object *jobs = fio_get(obj, "jobs");
	int client = 0, n = 0;
	size_t i;

	d->version = fio_get_str(obj, "fio version");
	if (!d->version) {
		import_warn(d->im, "%s:%lu: JSON document is not fio output "
			    "(no \"fio version\")", d->file, d->lineno);
		return 0;
	}
	d->global = fio_get(obj, "global options");
	d->timestamp = record_i64(fio_get_num(obj, "timestamp"));
	if (!jobs) {
		jobs = fio_get(obj, "client_stats");
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
		const char *a = fio_get_str(json_object_array_get_idx(jobs, i),
					"jobname");
		size_t k;

		for (k = 0; a && k < i; k++) {
			const char *b = fio_get_str(
				json_object_array_get_idx(jobs, k), "jobname");

			if (b && !strcmp(a, b))
				d->several = 1;
		}
	}
	for (i = 0; i < json_object_array_length(jobs); i++)
		n += job(d, json_object_array_get_idx(jobs, i), client);
	return n;
}

/* N of "fio: terminating on signal N" in the text [from, to), or 0. */
static int signal_before(const char *from, const char *to)
{
	static const char msg[] = "fio: terminating on signal ";
	const char *m = memmem(from, (size_t)(to - from), msg, sizeof(msg) - 1);

	if (!m || !(m + sizeof(msg) - 1 < to))
		return 0;
	return atoi(m + sizeof(msg) - 1);
}

static int starts(const char *p, size_t l, const char *s)
{
	size_t n = strlen(s);

	return l >= n && !memcmp(p, s, n);
}

int fio_text_line(const char *p, size_t l)
{
	if (starts(p, l, "fio-") && l > 4 && p[4] >= '0' && p[4] <= '9')
		return 1;	/* the version line */
	if (l > 6 && p[0] >= '0' && p[0] <= '9' && p[1] == ';' &&
	    !memcmp(p + 2, "fio-", 4))
		return 1;	/* terse */
	return starts(p, l, "Run status group ") ||
	       memmem(p, l, ": (groupid=", 11) || memmem(p, l, ": (g=", 5);
}

/*
 * The text outside fio's JSON in [from, to), to being the next document's
 * '{' or the end (at_end): its whole lines (a line that runs into the '{',
 * such as a shell's ">{", belongs to the document).  fio's own messages
 * ("fio: ...") are import.c's; every other line not blank is counted,
 * the first kept to quote (at most 60 bytes, cut at a character).
 */
static void text_outside(struct import *im, const char *from,
			 const char *to, int at_end)
{
	while (from < to) {
		const char *nl = memchr(from, '\n', (size_t)(to - from));
		size_t l = nl ? (size_t)(nl - from) : (size_t)(to - from), i;

		if (!nl && !at_end)
			break;
		for (i = 0; i < l && strchr(" \t\r", from[i]); i++)
			;
		if (i < l && !starts(from, l, "fio: ")) {
			im->file_fio_normal |= fio_text_line(from, l);
			if (!im->file_fio_other++) {
				size_t k = l > 60 ? 60 : l;

				while (k < l && k > 0 &&
				       (from[k] & 0xc0) == 0x80)
					k--;
				im->file_fio_other_first = xasprintf(
					"%.*s%s", (int)k, from,
					k < l ? "..." : "");
			}
		}
		from += l + 1;
	}
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

		if (!brace) {
			text_outside(im, p, end, 1);
			break;	/* trailing text */
		}
		text_outside(im, p, brace, 0);
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
		d.signal = signal_before(p, brace);
		n += document(&d, obj);
		json_object_put(obj);
		p = brace + (used ? used : 1);
	}
	json_tokener_free(tok);
	free(d.clones);
	return n;
}
