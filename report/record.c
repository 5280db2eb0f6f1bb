// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run record: construction, lookup and destruction.  The writers live
 * in json.c, csv.c and text.c.
 */
#include "record.h"
#include "record_util.h"
#include "matrix.h"
#include "target_rec.h"
#include "worker_rows.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

struct record *record_new(void)
{
	struct record *rec = xcalloc(1, sizeof(*rec));

	rec->schema = RECORD_SCHEMA_VERSION;
	rec->tool = xstrdup("clyde");
	rec->version = xstrdup(CLYDE_VERSION);
	rec->repetition = 1;
	return rec;
}

void record_free(struct record *rec)
{
	size_t i;

	if (!rec)
		return;
	free(rec->tool);
	free(rec->version);
	free(rec->start);
	free(rec->end);
	free(rec->label);
	free(rec->host.hostname);
	free(rec->host.kernel);
	free(rec->host.cpu_model);
	free(rec->target.path);
	free(rec->target.mountpoint);
	free(rec->target.fstype);
	free(rec->target.source);
	free(rec->target.vfs_options);
	free(rec->target.fs_options);
	record_detected_free(rec);
	record_kv_free(rec->params, rec->nparams);
	record_kv_free(rec->tags, rec->ntags);
	for (i = 0; i < rec->nresults; i++) {
		free(rec->results[i].reason);
		result_free_workers(&rec->results[i]);
	}
	free(rec->results);
	for (i = 0; i < rec->nwarnings; i++)
		free(rec->warnings[i]);
	free(rec->warnings);
	matrix_free(rec->matrix);
	free(rec->source);
	free(rec);
}

static struct record_kv *find_kv(struct record_kv *kv, size_t n,
				 const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return &kv[i];
	return NULL;
}

static void append_kv(struct record_kv **kv, size_t *n, const char *key,
		      const char *value, int numeric)
{
	struct record_kv *e;

	*kv = xrealloc(*kv, (*n + 1) * sizeof(**kv));
	e = &(*kv)[(*n)++];
	e->key = xstrdup(key);
	e->value = xstrdup(value);
	e->numeric = numeric;
}

void record_set_param(struct record *rec, const char *key, const char *value,
		      int numeric)
{
	struct record_kv *e = find_kv(rec->params, rec->nparams, key);

	if (!e) {
		append_kv(&rec->params, &rec->nparams, key, value, numeric);
		return;
	}
	record_set_str(&e->value, value);
	e->numeric = numeric;
}

const char *record_param(const struct record *rec, const char *key)
{
	struct record_kv *e = find_kv(rec->params, rec->nparams, key);

	return e ? e->value : NULL;
}

int record_param_int(const struct record *rec, const char *key,
		     int64_t *out)
{
	const char *s = record_param(rec, key);
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
}

void record_add_tag(struct record *rec, const char *key, const char *value)
{
	struct record_kv *e = find_kv(rec->tags, rec->ntags, key);

	if (!e) {
		append_kv(&rec->tags, &rec->ntags, key, value, 0);
		return;
	}
	record_set_str(&e->value, value);
}

void record_warn(struct record *rec, const char *fmt, ...)
{
	va_list ap;

	rec->warnings = xrealloc(rec->warnings,
				 (rec->nwarnings + 1) * sizeof(*rec->warnings));
	va_start(ap, fmt);
	rec->warnings[rec->nwarnings++] = record_vasprintf(fmt, ap);
	va_end(ap);
}

struct result *record_add_result(struct record *rec, const char *name,
				 const char *title, const char *unit)
{
	struct result *res;

	res = record_append(&rec->results, &rec->nresults,
			    sizeof(*rec->results));
	snprintf(res->name, sizeof(res->name), "%s", name ? name : "");
	snprintf(res->title, sizeof(res->title), "%s", title ? title : "");
	snprintf(res->unit, sizeof(res->unit), "%s", unit ? unit : "");
	res->status = RESULT_NOT_RUN;
	res->residency = -1.0;
	hist_init(&res->lat);
	return res;
}

struct result *record_find(const struct record *rec, const char *name)
{
	size_t i;

	for (i = 0; i < rec->nresults; i++)
		if (!strcmp(rec->results[i].name, name))
			return &rec->results[i];
	return NULL;
}

void result_set_status(struct result *res, enum result_status status,
		       const char *fmt, ...)
{
	va_list ap;

	res->status = status;
	free(res->reason);
	res->reason = NULL;
	if (!fmt)
		return;
	va_start(ap, fmt);
	res->reason = record_vasprintf(fmt, ap);
	va_end(ap);
}

void record_set_str(char **field, const char *value)
{
	char *old = *field;

	/* value may point into the old string */
	*field = xstrdup_or_null(value);
	free(old);
}

char *record_now_iso8601(void)
{
	struct tm tm;
	time_t now = time(NULL);
	char buf[32];

	if (!gmtime_r(&now, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return xstrdup("1970-01-01T00:00:00Z");
	return xstrdup(buf);
}
