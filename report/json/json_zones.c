// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zones section in JSON: {"schema": 1, "kind", "engine", ..., "sweeps":
 * [{"pass", "direction", "status", ..., "stopped" (the process stood
 * still inside the sweep), "histogram", "zones": [{"offset",
 * "length", "bytes", "ios", "errors", "elapsed", "mibps", the latency
 * summary as "lat_<key>_ms" for every hist_summary_key ("lat_mean_ms",
 * "lat_min_ms", "lat_p50_ms", "lat_p90_ms", "lat_p99_ms", "lat_p99_9_ms",
 * "lat_max_ms"; null: no I/O), "unallocated_bytes" (when some: holes
 * read), "low_precision" (when true: time below the mean latency),
 * "resident" (when measured: the zone's share in the page cache at the
 * sweep's start, 0..1),
 * "error": {"errno", "message", "offset", "bad_offset", "bad_unit"}}]}]}.
 * Rates are recomputed from bytes and elapsed when read, as when measured.
 * A record of an older clyde has lat_mean_ms, lat_p99_ms and lat_max_ms
 * only: the others read as NAN (shown as absent).
 */
#include "report/model/zones.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/json/json_internal.h"
#include "lib/units.h"
#include "lib/xalloc.h"

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* "lat_p99_9_ms": the member of summary figure k. */
static const char *lat_key(int k, char *buf, size_t len)
{
	snprintf(buf, len, "lat_%s_ms", hist_summary_key[k]);
	return buf;
}

static struct json_object *row_object(const struct zone_row *r)
{
	struct json_object *o = json_object_new_object();
	char key[32];
	int k;

	add(o, "offset", json_object_new_uint64(r->offset));
	add(o, "length", json_object_new_uint64(r->length));
	add(o, "bytes", json_object_new_uint64(r->bytes));
	add(o, "ios", json_object_new_uint64(r->ios));
	add(o, "errors", json_object_new_uint64(r->errors));
	add(o, "elapsed", rjson_num(r->elapsed));
	add(o, "mibps", rjson_num(r->mibps));
	for (k = 0; k < HIST_SUMMARY_N; k++)
		add(o, lat_key(k, key, sizeof(key)), rjson_num(r->lat_ms[k]));
	if (r->unalloc)
		add(o, "unallocated_bytes", json_object_new_uint64(r->unalloc));
	if (zones_row_coarse(r))
		add(o, "low_precision", json_object_new_boolean(1));
	if (r->resident >= 0)
		add(o, "resident", rjson_num(r->resident));
	if (r->errors) {
		struct json_object *e = json_object_new_object();

		add(e, "errno", json_object_new_int(r->err));
		add(e, "message", json_object_new_string(
			    r->err ? strerror(r->err) : "short transfer"));
		add(e, "offset", json_object_new_uint64(r->err_offset));
		if (r->bad_unit) {
			add(e, "bad_offset",
			    json_object_new_uint64(r->bad_offset));
			add(e, "bad_unit", json_object_new_uint64(r->bad_unit));
		}
		add(o, "error", e);
	}
	return o;
}

static struct json_object *sweep_object(const struct zones_sweep *s)
{
	struct json_object *o = json_object_new_object(), *arr;
	size_t i;

	add(o, "pass", json_object_new_int((int)s->pass));
	add(o, "direction", json_object_new_string(s->write ? "write" :
						   "read"));
	add(o, "status", json_object_new_string(result_status_name(s->status)));
	add(o, "reason", rjson_str(s->reason));
	add(o, "elapsed", rjson_num(s->elapsed));
	add(o, "bytes", json_object_new_uint64(s->bytes));
	add(o, "mibps", rjson_num(s->mibps));
	add(o, "residency", s->residency < 0 ? NULL :
	    rjson_num(s->residency));
	add(o, "stopped", json_object_new_boolean(s->stopped));
	add(o, "histogram", histogram_object(&s->lat));
	arr = json_object_new_array();
	for (i = 0; i < s->nzones; i++)
		json_object_array_add(arr, row_object(&s->zones[i]));
	add(o, "zones", arr);
	return o;
}

struct json_object *zones_json_object(const struct record_zones *z)
{
	struct json_object *o, *arr;
	size_t i;

	if (!z)
		return NULL;
	o = json_object_new_object();
	add(o, "schema", json_object_new_int(ZONES_SCHEMA_VERSION));
	add(o, "kind", rjson_str(z->kind));
	add(o, "created", json_object_new_boolean(z->created));
	add(o, "engine", rjson_str(z->engine));
	add(o, "qd", json_object_new_int((int)z->qd));
	add(o, "direct", json_object_new_boolean(z->direct));
	add(o, "size", json_object_new_uint64(z->size));
	add(o, "bs", json_object_new_uint64(z->bs));
	add(o, "zone_size", json_object_new_uint64(z->zone_size));
	add(o, "nzones", json_object_new_uint64(z->nzones));
	add(o, "passes", json_object_new_int((int)z->passes));
	if (z->error)
		add(o, "error", json_object_new_string(z->error));
	arr = json_object_new_array();
	for (i = 0; i < z->nsweeps; i++)
		json_object_array_add(arr, sweep_object(&z->sweeps[i]));
	add(o, "sweeps", arr);
	return o;
}

/* A latency figure: a number, or NAN when absent or null. */
static int get_ms(const struct jval *o, const char *key, double *out)
{
	*out = NAN;
	return rjson_get_double(o, key, out);
}

static int read_row(const struct jval *o, struct zones_sweep *s,
		    const char *where, size_t i, char *err, size_t errlen)
{
	struct zone_row *r = zones_add_row(s);
	const struct jval *e;
	int64_t en = 0;
	char key[32];
	int k, bad = !jv_is(o, JT_OBJECT);

	for (k = 0; k < HIST_SUMMARY_N && !bad; k++)
		bad = get_ms(o, lat_key(k, key, sizeof(key)), &r->lat_ms[k]);
	if (bad ||
	    rjson_get_u64(o, "offset", &r->offset) ||
	    rjson_get_u64(o, "length", &r->length) ||
	    rjson_get_u64(o, "bytes", &r->bytes) ||
	    rjson_get_u64(o, "ios", &r->ios) ||
	    rjson_get_u64(o, "errors", &r->errors) ||
	    rjson_get_double(o, "elapsed", &r->elapsed) ||
	    rjson_get_u64(o, "unallocated_bytes", &r->unalloc) ||
	    rjson_get_double(o, "resident", &r->resident) ||
	    r->resident > 1 ||
	    r->elapsed < 0 ||
	    !isfinite(r->elapsed))
		return rjson_fail(err, errlen, "%szone %zu: bad offset, length, "
				  "bytes, ios, errors, elapsed, latency or "
				  "resident",
				  where, i + 1);
	e = jv_member(o, "error");
	if (e && (!jv_is(e, JT_OBJECT) ||
		  rjson_get_int(e, "errno", 0, 4095, &en) ||
		  rjson_get_u64(e, "offset", &r->err_offset) ||
		  rjson_get_u64(e, "bad_offset", &r->bad_offset) ||
		  rjson_get_u64(e, "bad_unit", &r->bad_unit)))
		return rjson_fail(err, errlen, "%szone %zu: bad 'error'", where,
				  i + 1);
	r->err = (int)en;
	r->mibps = r->elapsed > 0 ? (double)r->bytes / r->elapsed / MiB_D : 0;
	return 0;
}

static int read_sweep(const struct jval *o, struct record_zones *z,
		      size_t i, char *err, size_t errlen)
{
	const struct jval *v;
	struct zones_sweep *s;
	int64_t pass = 0;
	char where[48];
	const char *dir;
	size_t k, n;

	snprintf(where, sizeof(where), "zones sweep %zu: ", i + 1);
	if (!jv_is(o, JT_OBJECT) ||
	    rjson_get_int(o, "pass", 1, 1 << 20, &pass) || !pass)
		return rjson_fail(err, errlen, "%sno 'pass'", where);
	v = jv_member(o, "direction");
	dir = v && jv_is(v, JT_STRING) ?
	      jv_text(v) : "";
	if (strcmp(dir, "read") && strcmp(dir, "write"))
		return rjson_fail(err, errlen, "%s'direction' is not read or "
				  "write", where);
	s = zones_add_sweep(z, (unsigned)pass, !strcmp(dir, "write"));
	v = jv_member(o, "status");
	if (!v || !jv_is(v, JT_STRING) ||
	    result_status_parse(jv_text(v), &s->status))
		return rjson_fail(err, errlen, "%sbad 'status'", where);
	/* optional: one of another type is ignored */
	(void)rjson_get_str(o, "reason", &s->reason);
	v = jv_member(o, "stopped");
	s->stopped = jv_true(v);
	if (rjson_get_double(o, "elapsed", &s->elapsed) ||
	    rjson_get_double(o, "residency", &s->residency))
		return rjson_fail(err, errlen, "%s'elapsed' or 'residency' is "
				  "not a number", where);
	if (read_histogram(jv_member(o, "histogram"), where, &s->lat, err,
			   errlen))
		return -1;
	v = jv_member(o, "zones");
	if (!v || !jv_is(v, JT_ARRAY))
		return rjson_fail(err, errlen, "%sno 'zones' array", where);
	n = jv_len(v);
	for (k = 0; k < n; k++)
		if (read_row(jv_item(v, k), s, where, k, err, errlen))
			return -1;
	zones_sweep_finish(s);
	return 0;
}

int zones_json_read(const struct jval *obj, struct record *rec, char *err,
		    size_t errlen)
{
	struct record_zones *z;
	const struct jval *v;
	int64_t schema = 0, qd = 1, passes = 1;
	uint64_t nz = 0;
	size_t i, n;

	if (!obj)
		return 0;
	if (!jv_is(obj, JT_OBJECT))
		return rjson_fail(err, errlen, "'zones' is not an object");
	if (rjson_get_int(obj, "schema", 1, INT32_MAX, &schema) || !schema)
		return rjson_fail(err, errlen, "'zones' has no schema version");
	if (schema > ZONES_SCHEMA_VERSION)
		return rjson_fail(err, errlen, "zones schema version %" PRId64
				  " is not supported (this clyde reads 1 to "
				  "%d)", schema, ZONES_SCHEMA_VERSION);
	z = zones_new();
	zones_free(rec->zones);
	rec->zones = z;
	z->schema = (int)schema;
	(void)rjson_get_str(obj, "kind", &z->kind);
	(void)rjson_get_str(obj, "engine", &z->engine);
	(void)rjson_get_str(obj, "error", &z->error);
	v = jv_member(obj, "created");
	z->created = jv_true(v);
	v = jv_member(obj, "direct");
	z->direct = jv_true(v);
	if (rjson_get_int(obj, "qd", 1, 1 << 20, &qd) ||
	    rjson_get_int(obj, "passes", 1, 1 << 20, &passes) ||
	    rjson_get_u64(obj, "size", &z->size) ||
	    rjson_get_u64(obj, "bs", &z->bs) ||
	    rjson_get_u64(obj, "zone_size", &z->zone_size) ||
	    rjson_get_u64(obj, "nzones", &nz))
		return rjson_fail(err, errlen, "'zones': bad qd, passes, size, "
				  "bs, zone_size or nzones");
	z->qd = (unsigned)qd;
	z->passes = (unsigned)passes;
	z->nzones = (size_t)nz;
	v = jv_member(obj, "sweeps");
	if (!v || !jv_is(v, JT_ARRAY))
		return rjson_fail(err, errlen, "'zones' has no 'sweeps' array");
	n = jv_len(v);
	for (i = 0; i < n; i++)
		if (read_sweep(jv_item(v, i), z, i, err, errlen))
			return -1;
	return 0;
}
