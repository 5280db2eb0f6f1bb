// SPDX-License-Identifier: GPL-2.0-only
/* Per-worker rows of a result: building, freeing and JSON (json-c). */
#include "worker_rows.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"

static const char *const row_status[] = {
	[RESULT_NOT_RUN] = "not_run",
	[RESULT_OK] = "ok",
	[RESULT_FAILED] = "failed",
	[RESULT_SKIPPED] = "skipped",
};

#define NROW_STATUS (sizeof(row_status) / sizeof(row_status[0]))

struct worker_row *result_add_worker(struct result *res, int worker,
				     const char *host, const char *dir)
{
	struct worker_row *w;

	res->workers = xrealloc(res->workers,
				(res->nworkers + 1) * sizeof(*res->workers));
	w = &res->workers[res->nworkers++];
	memset(w, 0, sizeof(*w));
	w->worker = worker;
	w->host = host ? xstrdup(host) : NULL;
	w->dir = dir ? xstrdup(dir) : NULL;
	w->status = RESULT_NOT_RUN;
	return w;
}

void result_free_workers(struct result *res)
{
	size_t i;

	for (i = 0; i < res->nworkers; i++) {
		free(res->workers[i].host);
		free(res->workers[i].dir);
		free(res->workers[i].reason);
	}
	free(res->workers);
	res->workers = NULL;
	res->nworkers = 0;
}

static struct json_object *num(double d)
{
	char buf[32];

	if (!isfinite(d))
		return NULL;
	snprintf(buf, sizeof(buf), "%.15g", d);
	return json_object_new_double_s(d, buf);
}

static struct json_object *str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

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
		json_object_object_add(o, "host", str(w->host));
		json_object_object_add(o, "dir", str(w->dir));
		json_object_object_add(o, "status", json_object_new_string(
			(unsigned)w->status < NROW_STATUS ?
			row_status[w->status] : "failed"));
		json_object_object_add(o, "reason", str(w->reason));
		json_object_object_add(o, "value",
				       measured ? num(w->value) : NULL);
		json_object_object_add(o, "cpu", measured ? num(w->cpu) : NULL);
		json_object_object_add(o, "ops",
				       json_object_new_uint64(w->ops));
		json_object_object_add(o, "bytes",
				       json_object_new_uint64(w->bytes));
		json_object_object_add(o, "elapsed", num(w->elapsed));
		json_object_object_add(o, "first_s", num(w->first_s));
		json_object_object_add(o, "last_s", num(w->last_s));
		json_object_array_add(arr, o);
	}
	json_object_object_add(obj, "workers", arr);
}

__attribute__((format(printf, 3, 4)))
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static struct json_object *member(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	return v;
}

/* A number member into *out (absent or null: untouched).  0 or -1. */
static int get_num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v = member(o, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_double(v);
	return 0;
}

static int get_count(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v = member(o, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_int) ||
	    (json_object_get_int64(v) < 0 && !json_object_get_uint64(v)))
		return -1;
	*out = json_object_get_uint64(v);
	return 0;
}

static int get_string(struct json_object *o, const char *key, char **out)
{
	struct json_object *v = member(o, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -1;
	*out = xstrdup(json_object_get_string(v));
	return 0;
}

int worker_rows_json_read(struct json_object *obj, const char *where,
			  struct result *res, char *err, size_t errlen)
{
	struct json_object *arr = member(obj, "workers");
	size_t i, n;

	if (!arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return bad(err, errlen, "%s'workers' is not an array", where);
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		struct json_object *v;
		struct worker_row *w;
		const char *st;
		size_t s;

		if (!json_object_is_type(o, json_type_object))
			return bad(err, errlen, "%sworker %zu is not an object",
				   where, i + 1);
		v = member(o, "worker");
		if (!v || !json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 0 ||
		    json_object_get_int64(v) > INT32_MAX)
			return bad(err, errlen, "%sworker %zu has no 'worker' "
				   "number", where, i + 1);
		w = result_add_worker(res, (int)json_object_get_int64(v),
				      NULL, NULL);
		v = member(o, "status");
		st = v && json_object_is_type(v, json_type_string) ?
		     json_object_get_string(v) : "";
		for (s = 0; s < NROW_STATUS; s++)
			if (!strcmp(st, row_status[s]))
				break;
		if (s == NROW_STATUS)
			return bad(err, errlen, "%sworker %zu: unknown status "
				   "'%s'", where, i + 1, st);
		w->status = (enum result_status)s;
		if (get_string(o, "host", &w->host) ||
		    get_string(o, "dir", &w->dir) ||
		    get_string(o, "reason", &w->reason) ||
		    get_num(o, "value", &w->value) ||
		    get_num(o, "cpu", &w->cpu) ||
		    get_count(o, "ops", &w->ops) ||
		    get_count(o, "bytes", &w->bytes) ||
		    get_num(o, "elapsed", &w->elapsed) ||
		    get_num(o, "first_s", &w->first_s) ||
		    get_num(o, "last_s", &w->last_s))
			return bad(err, errlen, "%sworker %zu: a field has "
				   "the wrong type", where, i + 1);
	}
	return 0;
}
