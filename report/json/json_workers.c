// SPDX-License-Identifier: GPL-2.0-only
/* The JSON (json-c) of a result's per-worker rows (built in record.c). */
#include "report/model/worker_rows.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/json/json_internal.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"

void worker_rows_json_add(struct json_object *obj, const struct result *res)
{
	struct json_object *arr;
	size_t i;

	if (!res->nworkers)
		return;
	arr = json_object_new_array();
	for (i = 0; i < res->nworkers; i++) {
		const struct worker_row *w = &res->workers[i];
		struct json_object *o = json_object_new_object();
		int measured = w->status == RESULT_OK ||
			       w->status == RESULT_FAILED;

		json_object_object_add(o, "worker",
				       json_object_new_int(w->worker));
		json_object_object_add(o, "host", rjson_str(w->host));
		json_object_object_add(o, "dir", rjson_str(w->dir));
		json_object_object_add(o, "status", json_object_new_string(
			result_status_name(w->status)));
		json_object_object_add(o, "reason", rjson_str(w->reason));
		json_object_object_add(o, "value",
				       measured ? rjson_num(w->value) : NULL);
		json_object_object_add(o, "cpu",
				       measured ? rjson_num(w->cpu) : NULL);
		json_object_object_add(o, "ops",
				       json_object_new_uint64(w->ops));
		json_object_object_add(o, "bytes",
				       json_object_new_uint64(w->bytes));
		json_object_object_add(o, "elapsed", rjson_num(w->elapsed));
		json_object_object_add(o, "first_s", rjson_num(w->first_s));
		json_object_object_add(o, "last_s", rjson_num(w->last_s));
		json_object_array_add(arr, o);
	}
	json_object_object_add(obj, "workers", arr);
}

int worker_rows_json_read(const struct jval *obj, const char *where,
			  struct result *res, char *err, size_t errlen)
{
	const struct jval *arr = jv_member(obj, "workers");
	size_t i, n;

	if (!arr)
		return 0;
	if (!jv_is(arr, JT_ARRAY))
		return rjson_fail(err, errlen, "%s'workers' is not an array",
				  where);
	n = jv_len(arr);
	for (i = 0; i < n; i++) {
		const struct jval *o = jv_item(arr, i);
		const struct jval *v;
		struct worker_row *w;
		const char *st;

		if (!jv_is(o, JT_OBJECT))
			return rjson_fail(err, errlen, "%sworker %zu is not an "
					  "object", where, i + 1);
		v = jv_member(o, "worker");
		if (!v || !jv_is(v, JT_INT) || jv_int64(v) < 0 ||
		    jv_int64(v) > INT32_MAX)
			return rjson_fail(err, errlen, "%sworker %zu has no "
					  "'worker' number", where, i + 1);
		w = result_add_worker(res, (int)jv_int64(v), NULL, NULL);
		v = jv_member(o, "status");
		st = v && jv_is(v, JT_STRING) ?
		     jv_text(v) : "";
		if (result_status_parse(st, &w->status))
			return rjson_fail(err, errlen, "%sworker %zu: unknown "
					  "status '%s'", where, i + 1, st);
		if (rjson_get_str(o, "host", &w->host) ||
		    rjson_get_str(o, "dir", &w->dir) ||
		    rjson_get_str(o, "reason", &w->reason) ||
		    rjson_get_double(o, "value", &w->value) ||
		    rjson_get_double(o, "cpu", &w->cpu) ||
		    rjson_get_u64(o, "ops", &w->ops) ||
		    rjson_get_u64(o, "bytes", &w->bytes) ||
		    rjson_get_double(o, "elapsed", &w->elapsed) ||
		    rjson_get_double(o, "first_s", &w->first_s) ||
		    rjson_get_double(o, "last_s", &w->last_s))
			return rjson_fail(err, errlen, "%sworker %zu: a field "
					  "has the wrong type", where, i + 1);
	}
	return 0;
}
