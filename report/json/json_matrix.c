// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON of the record's matrix section, written (json-c) and read
 * (from its jtree.h tree) through the record's writer (json.c) and reader
 * (json_read.c).
 */
#include "report/model/matrix.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/json/json_internal.h"
#include "report/model/matrix_extras.h"
#include "report/model/worker_rows.h"
#include "lib/xalloc.h"

static struct json_object *latency_ms(const struct histogram *h,
				      const struct hist_exact *x)
{
	return hist_summary_object(h, x, 1e6);
}

static struct json_object *point_object(const struct matrix_point *p)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "pct", json_object_new_int((int)p->pct));
	json_object_object_add(o, "target_iops", rjson_num(p->target_iops));
	if (matrix_point_reached(p) >= 0)
		json_object_object_add(o, "reached", json_object_new_boolean(
					       matrix_point_reached(p)));
	json_object_object_add(o, "status",
			       json_object_new_string(
				       result_status_name(p->status)));
	if (p->status == RESULT_OK)
		json_object_object_add(o, "low_precision",
				       json_object_new_boolean(
					       p->low_precision));
	json_object_object_add(o, "elapsed", rjson_num(p->elapsed));
	json_object_object_add(o, "iops", rjson_num(p->iops));
	json_object_object_add(o, "mbps", rjson_num(p->mbps));
	json_object_object_add(o, "cpu", rjson_num(p->cpu));
	json_object_object_add(o, "reads",
			       json_object_new_uint64(p->rlat.count));
	json_object_object_add(o, "writes",
			       json_object_new_uint64(p->wlat.count));
	json_object_object_add(o, "read_latency_ms", latency_ms(&p->rlat, NULL));
	json_object_object_add(o, "write_latency_ms",
			       latency_ms(&p->wlat, NULL));
	json_object_object_add(o, "read_histogram", histogram_object(&p->rlat));
	json_object_object_add(o, "write_histogram",
			       histogram_object(&p->wlat));
	return o;
}

static struct json_object *cell_object(const struct matrix_cell *c)
{
	struct json_object *o = json_object_new_object();
	size_t i;

	json_object_object_add(o, "bs", json_object_new_uint64(c->bs));
	json_object_object_add(o, "threads", json_object_new_int((int)c->threads));
	json_object_object_add(o, "qd", json_object_new_int((int)c->qd));
	if (c->derived) {
		struct json_object *d = json_object_new_array();

		if (c->derived & MATRIX_DERIVED_BS)
			json_object_array_add(d, json_object_new_string("bs"));
		if (c->derived & MATRIX_DERIVED_QD)
			json_object_array_add(d, json_object_new_string("qd"));
		json_object_object_add(o, "derived", d);
	}
	json_object_object_add(o, "pattern", json_object_new_string(
				       c->random ? "random" : "seq"));
	json_object_object_add(o, "read_pct",
			       json_object_new_int((int)c->read_pct));
	json_object_object_add(o, "status", json_object_new_string(
		result_status_name(c->status)));
	json_object_object_add(o, "reason", rjson_str(c->reason));
	rjson_add_reason(o, c->reason_kind, c->signal);
	if (c->status == RESULT_OK)
		json_object_object_add(o, "low_precision",
				       json_object_new_boolean(
					       c->low_precision));
	json_object_object_add(o, "elapsed", rjson_num(c->elapsed));
	json_object_object_add(o, "iops", rjson_num(c->iops));
	json_object_object_add(o, "mbps", rjson_num(c->mbps));
	json_object_object_add(o, "cpu", rjson_num(c->cpu));
	json_object_object_add(o, "reads", json_object_new_uint64(c->rlat.count));
	json_object_object_add(o, "writes",
			       json_object_new_uint64(c->wlat.count));
	json_object_object_add(o, "read_latency_ms",
			       latency_ms(&c->rlat, c->rrep));
	json_object_object_add(o, "write_latency_ms",
			       latency_ms(&c->wlat, c->wrep));
	json_object_object_add(o, "read_exact_latency_ms",
			       hist_exact_object(c->rrep, 1e6));
	json_object_object_add(o, "write_exact_latency_ms",
			       hist_exact_object(c->wrep, 1e6));
	json_object_object_add(o, "read_histogram", histogram_object(&c->rlat));
	json_object_object_add(o, "write_histogram",
			       histogram_object(&c->wlat));
	if (c->hit_area) {
		json_object_object_add(o, "hit_area",
				       json_object_new_uint64(c->hit_area));
		json_object_object_add(o, "hit_pct",
				       json_object_new_int((int)c->hit_pct));
		json_object_object_add(o, "hits",
				       json_object_new_uint64(c->hits));
	}
	if (c->ncurve) {
		struct json_object *arr = json_object_new_array();

		for (i = 0; i < c->ncurve; i++)
			json_object_array_add(arr, point_object(&c->curve[i]));
		json_object_object_add(o, "curve", arr);
	}
	if (c->workers)
		worker_rows_json_add(o, c->workers);
	matrix_ext_cell_json_add(c, o);
	return o;
}

struct json_object *matrix_json_object(const struct record_matrix *m)
{
	struct json_object *o, *arr;
	size_t i;

	if (!m)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "engine", rjson_str(m->engine));
	json_object_object_add(o, "direct", json_object_new_boolean(m->direct));
	json_object_object_add(o, "verify", json_object_new_boolean(m->verify));
	if (m->error)
		json_object_object_add(o, "error",
				       json_object_new_string(m->error));
	matrix_ext_json_add(m, o);
	arr = json_object_new_array();
	for (i = 0; i < m->ncells; i++)
		json_object_array_add(arr, cell_object(&m->cells[i]));
	json_object_object_add(o, "cells", arr);
	return o;
}

static int read_status(const struct jval *o, enum result_status *st)
{
	const struct jval *v = jv_member(o, "status");

	if (!v || !jv_is(v, JT_STRING))
		return -1;
	return result_status_parse(jv_text(v), st);
}

/* "read_histogram" and "write_histogram" of o. */
static int read_latencies(const struct jval *o, const char *where,
			  struct histogram *r, struct histogram *w, char *err,
			  size_t errlen)
{
	if (read_histogram(jv_member(o, "read_histogram"), where, r, err,
			   errlen) ||
	    read_histogram(jv_member(o, "write_histogram"), where, w, err,
			   errlen))
		return -1;
	return 0;
}

/*
 * "low_precision" (written for every ok cell and point) of one with ios
 * I/Os; a record of a clyde that did not write it: the rule itself.
 */
static int read_low_precision(const struct jval *o, enum result_status st,
			      uint64_t ios, unsigned threads)
{
	const struct jval *v = jv_member(o, "low_precision");

	if (st != RESULT_OK)
		return 0;
	if (v && jv_is(v, JT_BOOL))
		return v->b;
	return matrix_low_precision(ios, threads);
}

static int read_point(const struct jval *o, const char *where,
		      struct matrix_cell *c, char *err, size_t errlen)
{
	struct matrix_point *p = matrix_add_point(c);
	int64_t pct = 0;

	if (!jv_is(o, JT_OBJECT) || rjson_get_int(o, "pct", 0, 1000, &pct) ||
	    read_status(o, &p->status) ||
	    rjson_get_double(o, "target_iops", &p->target_iops) ||
	    rjson_get_double(o, "elapsed", &p->elapsed) ||
	    rjson_get_double(o, "cpu", &p->cpu))
		return rjson_fail(err, errlen, "%sbad curve point", where);
	p->pct = (unsigned)pct;
	if (read_latencies(o, where, &p->rlat, &p->wlat, err, errlen))
		return -1;
	matrix_point_rates(p, c->bs);
	p->low_precision = read_low_precision(o, p->status, p->rlat.count +
					      p->wlat.count, c->threads);
	return 0;
}

/*
 * The cell's "reads" and "writes" are its histograms' counts (its rates
 * follow from them): a cell whose histogram is missing or disagrees would
 * show 0 IO/s, or another rate than it had.
 */
static int counts_agree(const struct jval *o, const char *where,
			const struct matrix_cell *c, char *err, size_t errlen)
{
	int64_t reads = -1, writes = -1;

	if (rjson_get_int(o, "reads", 0, INT64_MAX, &reads) ||
	    rjson_get_int(o, "writes", 0, INT64_MAX, &writes))
		return rjson_fail(err, errlen, "%s'reads' or 'writes' is not "
				  "a count", where);
	if ((reads >= 0 && (uint64_t)reads != c->rlat.count) ||
	    (writes >= 0 && (uint64_t)writes != c->wlat.count))
		return rjson_fail(err, errlen, "%s%" PRId64 " reads and %" PRId64
				  " writes, but its histograms hold %" PRIu64
				  " and %" PRIu64, where, reads, writes,
				  c->rlat.count, c->wlat.count);
	return 0;
}


/* The cell's reason, its kind and signal (an old record: from the text). */
static int read_reason(const struct jval *o, const char *where,
		       struct matrix_cell *c, char *err, size_t errlen)
{
	/* optional: one of another type is ignored */
	(void)rjson_get_str(o, "reason", &c->reason);
	if (rjson_get_reason(o, c->status, c->reason, &c->reason_kind,
			     &c->signal))
		return rjson_fail(err, errlen, "%s'reason_kind' or 'signal' "
				  "is not one", where);
	return 0;
}

/* "derived": the names of what the importer derived ("bs", "qd"). */
static int read_derived(const struct jval *o, const char *where,
			struct matrix_cell *c, char *err, size_t errlen)
{
	const struct jval *d = jv_member(o, "derived");
	size_t i;

	if (!d)
		return 0;
	if (!jv_is(d, JT_ARRAY))
		return rjson_fail(err, errlen, "%s'derived' is not an array",
				  where);
	for (i = 0; i < jv_len(d); i++) {
		const char *s = jv_text(jv_item(d, i));

		if (s && !strcmp(s, "bs"))
			c->derived |= MATRIX_DERIVED_BS;
		else if (s && !strcmp(s, "qd"))
			c->derived |= MATRIX_DERIVED_QD;
		else
			return rjson_fail(err, errlen, "%s'derived' names "
					  "neither bs nor qd", where);
	}
	return 0;
}

/* The cell's shape: block size, threads, depth, read share, pattern. */
static int read_shape(const struct jval *o, const char *where,
		      struct matrix_cell *c, char *err, size_t errlen)
{
	int64_t bs = 0, threads = 0, qd = 1, pct = 0;
	const struct jval *v;

	if (rjson_get_int(o, "bs", 1, INT64_MAX, &bs) || !bs ||
	    rjson_get_int(o, "threads", 1, 1 << 20, &threads) || !threads ||
	    rjson_get_int(o, "qd", 1, 1 << 20, &qd) ||
	    rjson_get_int(o, "read_pct", 0, 100, &pct))
		return rjson_fail(err, errlen, "%sbad bs, threads, qd or "
				  "read_pct", where);
	c->bs = (uint64_t)bs;
	c->threads = (unsigned)threads;
	c->qd = (unsigned)qd;
	c->read_pct = (unsigned)pct;
	if (read_derived(o, where, c, err, errlen))
		return -1;
	v = jv_member(o, "pattern");
	if (!jv_is(v, JT_STRING) ||
	    (strcmp(jv_text(v), "random") && strcmp(jv_text(v), "seq")))
		return rjson_fail(err, errlen, "%s'pattern' is not random or "
				  "seq", where);
	c->random = !strcmp(jv_text(v), "random");
	return 0;
}

/* How the cell ended: its status, the reason, its time and CPU. */
static int read_outcome(const struct jval *o, const char *where,
			struct matrix_cell *c, char *err, size_t errlen)
{
	const struct jval *v = jv_member(o, "status");

	if (!v || !jv_is(v, JT_STRING))
		return rjson_fail(err, errlen, "%sno 'status'", where);
	if (result_status_parse(jv_text(v), &c->status))
		return rjson_fail(err, errlen, "%sunknown status '%s'", where,
				  jv_text(v));
	if (read_reason(o, where, c, err, errlen))
		return -1;
	if (rjson_get_double(o, "elapsed", &c->elapsed) ||
	    rjson_get_double(o, "cpu", &c->cpu))
		return rjson_fail(err, errlen, "%s'elapsed' or 'cpu' is not a "
				  "number", where);
	return 0;
}

static int read_hits(const struct jval *o, const char *where,
		     struct matrix_cell *c, char *err, size_t errlen)
{
	int64_t area = 0, hpct = 0, hits = 0;

	if (rjson_get_int(o, "hit_area", 0, INT64_MAX, &area) ||
	    rjson_get_int(o, "hit_pct", 0, 100, &hpct) ||
	    rjson_get_int(o, "hits", 0, INT64_MAX, &hits))
		return rjson_fail(err, errlen, "%sbad hit_area, hit_pct or "
				  "hits", where);
	c->hit_area = (uint64_t)area;
	c->hit_pct = (unsigned)hpct;
	c->hits = (uint64_t)hits;
	return 0;
}

static int read_curve(const struct jval *v, const char *where,
		      struct matrix_cell *c, char *err, size_t errlen)
{
	size_t k, n;

	if (!v)
		return 0;
	if (!jv_is(v, JT_ARRAY))
		return rjson_fail(err, errlen, "%s'curve' is not an array",
				  where);
	n = jv_len(v);
	for (k = 0; k < n; k++)
		if (read_point(jv_item(v, k), where, c, err, errlen))
			return -1;
	return 0;
}

static int read_cell(const struct jval *o, size_t i,
		     struct record_matrix *m, char *err, size_t errlen)
{
	struct matrix_cell *c = matrix_add_cell(m);
	char where[32];

	snprintf(where, sizeof(where), "matrix cell %zu: ", i + 1);
	if (!jv_is(o, JT_OBJECT))
		return rjson_fail(err, errlen, "%snot an object", where);
	if (read_shape(o, where, c, err, errlen) ||
	    read_outcome(o, where, c, err, errlen) ||
	    read_latencies(o, where, &c->rlat, &c->wlat, err, errlen) ||
	    counts_agree(o, where, c, err, errlen) ||
	    read_hist_exact(jv_member(o, "read_exact_latency_ms"), where,
			    1e6, &c->rrep, err, errlen) ||
	    read_hist_exact(jv_member(o, "write_exact_latency_ms"), where,
			    1e6, &c->wrep, err, errlen))
		return -1;
	c->low_precision = read_low_precision(o, c->status, c->rlat.count +
					      c->wlat.count, c->threads);
	if (read_hits(o, where, c, err, errlen) ||
	    read_curve(jv_member(o, "curve"), where, c, err, errlen))
		return -1;
	if (jv_member(o, "workers")) {
		c->workers = xcalloc(1, sizeof(*c->workers));
		if (worker_rows_json_read(o, where, c->workers, err, errlen))
			return -1;
	}
	if (matrix_ext_cell_json_read(o, where, c, err, errlen))
		return -1;
	/* the rates follow from the counts, as when they were measured */
	matrix_cell_rates(c);
	return 0;
}

int matrix_json_read(const struct jval *obj, struct record *rec, char *err,
		     size_t errlen)
{
	struct record_matrix *m;
	const struct jval *v;
	size_t i, n;

	if (!obj)
		return 0;
	if (!jv_is(obj, JT_OBJECT))
		return rjson_fail(err, errlen, "'matrix' is not an object");
	m = matrix_new();
	matrix_free(rec->matrix);
	rec->matrix = m;
	/* optional: one of another type is ignored */
	(void)rjson_get_str(obj, "engine", &m->engine);
	(void)rjson_get_str(obj, "error", &m->error);
	v = jv_member(obj, "direct");
	m->direct = jv_true(v);
	v = jv_member(obj, "verify");
	m->verify = jv_true(v);
	if (matrix_ext_json_read(obj, m, err, errlen))
		return -1;
	v = jv_member(obj, "cells");
	if (!v || !jv_is(v, JT_ARRAY))
		return rjson_fail(err, errlen, "'matrix' has no 'cells' array");
	n = jv_len(v);
	for (i = 0; i < n; i++)
		if (read_cell(jv_item(v, i), i, m, err, errlen))
			return -1;
	return 0;
}
