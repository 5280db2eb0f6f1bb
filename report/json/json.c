// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run record as one JSON object per line (json-c); json_read.c reads
 * it back (from the tree of jtree.h, yajl's).
 *
 * Writing then reading then writing gives the same line: every field the
 * reader understands is written in a fixed order, doubles are written with
 * 15 significant digits (which survive text -> double -> text unchanged),
 * and the latency summary is recomputed from the histogram, which is stored
 * exactly.
 */
#include "report/model/record.h"
#include "report/json/json_internal.h"
#include "report/model/matrix.h"
#include "report/model/zones.h"
#include "report/model/target_rec.h"
#include "report/model/layers.h"
#include "report/model/worker_rows.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/xalloc.h"

/* ---- writing ---- */

static struct json_object *ju64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static void add(struct json_object *obj, const char *key,
		struct json_object *val)
{
	json_object_object_add(obj, key, val);
}

/* A param's text as a JSON number, or NULL when it is not one. */
static struct json_object *numeric_value(const char *s)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	size_t len = strlen(s);

	if (!tok)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* the terminating NUL ends the number */
	o = json_tokener_parse_ex(tok, s, (int)len + 1);
	if (o && (json_tokener_get_error(tok) != json_tokener_success ||
		  json_tokener_get_parse_end(tok) != len ||
		  (!json_object_is_type(o, json_type_int) &&
		   !json_object_is_type(o, json_type_double)) ||
		  !isfinite(json_object_get_double(o)))) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/* A list param "a,b" as the array [a, b]: numbers where they are ones. */
static struct json_object *list_value(const char *s)
{
	struct json_object *arr = json_object_new_array();
	const char *p = s, *e;

	while (*s) {	/* "" is [] */
		struct json_object *v;
		char *item;

		e = strchr(p, ',');
		item = e ? strndup(p, (size_t)(e - p)) : strdup(p);
		if (!item)
			break;
		v = numeric_value(item);
		json_object_array_add(arr, v ? v : json_object_new_string(item));
		free(item);
		if (!e)
			break;
		p = e + 1;
	}
	return arr;
}

static struct json_object *kv_object(const struct record_kv *kv, size_t n)
{
	struct json_object *obj = json_object_new_object();
	size_t i;

	for (i = 0; i < n; i++) {
		struct json_object *v = NULL;

		if (kv[i].numeric == RECORD_LIST)
			v = list_value(kv[i].value);
		else if (kv[i].numeric)
			v = numeric_value(kv[i].value);
		if (!v)
			v = json_object_new_string(kv[i].value);
		add(obj, kv[i].key, v);
	}
	return obj;
}

static struct json_object *latency_object(const struct result *res)
{
	return hist_summary_object(&res->lat, res->exact, 1e3);
}

static struct json_object *result_object(const struct result *res)
{
	struct json_object *obj = json_object_new_object();
	int measured = res->status == RESULT_OK ||
		       res->status == RESULT_FAILED;

	add(obj, "name", json_object_new_string(res->name));
	add(obj, "title", json_object_new_string(res->title));
	add(obj, "unit", json_object_new_string(res->unit));
	add(obj, "status", json_object_new_string(
		    result_status_name(res->status)));
	add(obj, "reason", rjson_str(res->reason));
	rjson_add_reason(obj, res->reason_kind, res->signal);
	add(obj, "value", measured ? rjson_num(res->value) : NULL);
	add(obj, "cpu", measured ? rjson_num(res->cpu) : NULL);
	add(obj, "ops", ju64(res->ops));
	add(obj, "bytes", ju64(res->bytes));
	add(obj, "elapsed", rjson_num(res->elapsed));
	add(obj, "residency", res->residency < 0 ? NULL :
	    rjson_num(res->residency));
	add(obj, "low_precision", json_object_new_boolean(
		    !!(res->flags & RESULT_LOW_PRECISION)));
	add(obj, "cached", json_object_new_boolean(
		    !!(res->flags & RESULT_CACHED)));
	add(obj, "direct_ignored", json_object_new_boolean(
		    !!(res->flags & RESULT_DIRECT_IGNORED)));
	add(obj, "stonewalled", json_object_new_boolean(
		    !!(res->flags & RESULT_STONEWALLED)));
	add(obj, "stopped", json_object_new_boolean(
		    !!(res->flags & RESULT_STOPPED)));
	add(obj, "latency_us", latency_object(res));
	add(obj, "exact_latency_us", hist_exact_object(res->exact, 1e3));
	add(obj, "histogram", histogram_object(&res->lat));
	worker_rows_json_add(obj, res);
	layers_json_add(obj, res);
	return obj;
}

static struct json_object *target_fields(const struct record_target *t)
{
	struct json_object *target = json_object_new_object();

	add(target, "path", rjson_str(t->path));
	add(target, "mountpoint", rjson_str(t->mountpoint));
	add(target, "fstype", rjson_str(t->fstype));
	add(target, "source", rjson_str(t->source));
	add(target, "vfs_options", rjson_str(t->vfs_options));
	add(target, "fs_options", rjson_str(t->fs_options));
	add(target, "block_size", ju64(t->block_size));
	add(target, "total_bytes", ju64(t->total_bytes));
	add(target, "free_bytes", ju64(t->free_bytes));
	return target;
}

static struct json_object *record_object(const struct record *rec)
{
	struct json_object *obj = json_object_new_object();
	struct json_object *host, *target, *arr;
	size_t i;

	add(obj, "schema", json_object_new_int(RECORD_SCHEMA_VERSION));
	add(obj, "tool", rjson_str(rec->tool));
	add(obj, "version", rjson_str(rec->version));
	add(obj, "start", rjson_str(rec->start));
	add(obj, "end", rjson_str(rec->end));
	add(obj, "label", rjson_str(rec->label));
	add(obj, "repetition", json_object_new_int(rec->repetition));
	add(obj, "exit_status", json_object_new_int(rec->exit_status));

	host = json_object_new_object();
	add(host, "hostname", rjson_str(rec->host.hostname));
	add(host, "kernel", rjson_str(rec->host.kernel));
	add(host, "cpu_model", rjson_str(rec->host.cpu_model));
	add(host, "cores", json_object_new_int64(rec->host.cores));
	add(host, "ram", ju64(rec->host.ram));
	add(obj, "host", host);

	target = target_fields(&rec->target);
	add(obj, "target", target);
	target_json_add(rec, host, target);
	if (rec->ntargets) {
		/* several -d: every directory's target and stack */
		arr = json_object_new_array();
		for (i = 0; i < rec->ntargets; i++) {
			struct json_object *t = target_fields(&rec->targets[i]);

			target_stack_json_add(rec->targets[i].stack, t);
			json_object_array_add(arr, t);
		}
		add(obj, "targets", arr);
	}

	add(obj, "params", kv_object(rec->params, rec->nparams));
	add(obj, "tags", kv_object(rec->tags, rec->ntags));

	arr = json_object_new_array();
	for (i = 0; i < rec->nwarnings; i++)
		json_object_array_add(arr,
				      json_object_new_string(rec->warnings[i]));
	add(obj, "warnings", arr);

	arr = json_object_new_array();
	for (i = 0; i < rec->nresults; i++)
		json_object_array_add(arr, result_object(&rec->results[i]));
	add(obj, "results", arr);
	if (rec->matrix)
		add(obj, "matrix", matrix_json_object(rec->matrix));
	if (rec->zones)
		add(obj, "zones", zones_json_object(rec->zones));
	return obj;
}

int record_write_json(const struct record *rec, FILE *out)
{
	struct json_object *obj = record_object(rec);
	const char *s;
	int rc = 0;

	s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s) {
		errno = ENOMEM;
		rc = -1;
	} else if (fputs(s, out) == EOF || putc('\n', out) == EOF) {
		rc = -1;
	}
	json_object_put(obj);
	if (!rc && fflush(out) == EOF)
		rc = -1;
	return rc;
}
