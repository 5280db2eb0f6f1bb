// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run record read back from its JSON line (json.c writes it): every
 * member checked for type and range, a message naming the member in the
 * caller's buffer when one is wrong.
 */
#include "report/model/record.h"
#include "report/json/json_internal.h"
#include "report/model/matrix.h"
#include "report/model/zones.h"
#include "report/model/target_rec.h"
#include "report/model/layers.h"
#include "report/model/worker_rows.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/xalloc.h"

/* Where the reader's message goes: the caller's buffer, never a global. */
struct rerr {
	char *buf;
	size_t len;
};

#define bad(...) rjson_fail(e->buf, e->len, __VA_ARGS__)

static int get_str(const struct rerr *e, struct json_object *obj,
		   const char *where, const char *key, char **out)
{
	struct json_object *v = rjson_member(obj, key);

	/* C strings end at a NUL: "x\u0000y" would quietly become "x" */
	if (v && json_object_is_type(v, json_type_string) &&
	    strlen(json_object_get_string(v)) !=
	    (size_t)json_object_get_string_len(v))
		return bad("%s'%s' holds a NUL character (\\u0000)", where,
			   key);
	return rjson_get_str(obj, key, out) ?
	       bad("%s'%s' is not a string", where, key) : 0;
}

static int get_fixed_str(const struct rerr *e, struct json_object *obj,
			 const char *where, const char *key, char *out,
			 size_t size)
{
	struct json_object *v = rjson_member(obj, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return bad("%s'%s' is not a string", where, key);
	if ((size_t)json_object_get_string_len(v) >= size)
		return bad("%s'%s' is longer than %zu characters", where, key,
			   size - 1);
	memcpy(out, json_object_get_string(v),
	       (size_t)json_object_get_string_len(v) + 1);
	return 0;
}

static int get_u64(const struct rerr *e, struct json_object *obj,
		   const char *where, const char *key, uint64_t *out)
{
	return rjson_get_u64(obj, key, out) ?
	       bad("%s'%s' is not a count", where, key) : 0;
}

static int get_int(const struct rerr *e, struct json_object *obj,
		   const char *where, const char *key, int64_t min, int64_t max,
		   int64_t *out)
{
	int rc = rjson_get_int(obj, key, min, max, out);

	return rc ? bad("%s'%s' is %s", where, key, rc == -ERANGE ?
			"out of range" : "not an integer") : 0;
}

static int read_target(const struct rerr *e, struct json_object *sub,
		       struct record_target *t)
{
	if (!json_object_is_type(sub, json_type_object))
		return bad("'target' is not an object");
	return get_str(e, sub, "target: ", "path", &t->path) ||
	       get_str(e, sub, "target: ", "mountpoint", &t->mountpoint) ||
	       get_str(e, sub, "target: ", "fstype", &t->fstype) ||
	       get_str(e, sub, "target: ", "source", &t->source) ||
	       get_str(e, sub, "target: ", "vfs_options", &t->vfs_options) ||
	       get_str(e, sub, "target: ", "fs_options", &t->fs_options) ||
	       get_u64(e, sub, "target: ", "block_size", &t->block_size) ||
	       get_u64(e, sub, "target: ", "total_bytes", &t->total_bytes) ||
	       get_u64(e, sub, "target: ", "free_bytes", &t->free_bytes) ?
	       -1 : 0;
}

static int get_double(const struct rerr *e, struct json_object *obj,
		      const char *where, const char *key, double *out)
{
	return rjson_get_double(obj, key, out) ?
	       bad("%s'%s' is not a number", where, key) : 0;
}

/*
 * A figure of a result: a finite number from 0 to max (NAN when absent,
 * as get_double leaves it).  Nothing clyde measures is negative, and a
 * rate past max (1e15 KiB/s is an exabyte per second) is not a
 * measurement; taken as it is, it would run through every writer.
 */
static int get_figure(const struct rerr *e, struct json_object *obj,
		      const char *where, const char *key, double max,
		      double *out)
{
	if (get_double(e, obj, where, key, out))
		return -1;
	if (*out < 0 || *out > max)
		return bad("%s'%s' %g is out of range (0 to %g)", where, key,
			   *out, max);
	return 0;
}

static int get_flag(const struct rerr *e, struct json_object *obj,
		    const char *where, const char *key, unsigned bit,
		    unsigned *flags)
{
	struct json_object *v = rjson_member(obj, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return bad("%s'%s' is not true or false", where, key);
	if (json_object_get_boolean(v))
		*flags |= bit;
	return 0;
}

/* A list param read back as the comma list clyde holds it in. */
static int param_list(struct record *rec, const char *key,
		      struct json_object *arr)
{
	size_t i, n = json_object_array_length(arr), len = 1;
	char *buf;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(v, json_type_string) &&
		    !json_object_is_type(v, json_type_int) &&
		    !json_object_is_type(v, json_type_double))
			return -1;
		len += strlen(json_object_get_string(v)) + 1;
	}
	buf = calloc(1, len);
	if (!buf)
		return -1;
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, json_object_get_string(
				    json_object_array_get_idx(arr, i)));
	}
	record_set_param(rec, key, buf, RECORD_LIST);
	free(buf);
	return 0;
}

static int read_kvs(const struct rerr *e, struct json_object *obj,
		    const char *key, struct record *rec, int tags)
{
	struct json_object *o = rjson_member(obj, key);
	struct json_object_iterator it, end;

	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return bad("'%s' is not an object", key);
	end = json_object_iter_end(o);
	for (it = json_object_iter_begin(o);
	     !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		int numeric;

		if (!tags && json_object_is_type(v, json_type_array)) {
			if (param_list(rec, k, v))
				return bad("%s '%s' is not a list of strings or "
					   "numbers", key, k);
			continue;
		}
		if (json_object_is_type(v, json_type_string))
			numeric = 0;
		else if (!tags && (json_object_is_type(v, json_type_int) ||
				   json_object_is_type(v, json_type_double)))
			numeric = 1;
		else
			return bad("%s '%s' is not a %s", key, k,
				   tags ? "string" : "string or number");
		if (tags)
			record_add_tag(rec, k, json_object_get_string(v));
		else
			record_set_param(rec, k, json_object_get_string(v),
					 numeric);
	}
	return 0;
}

static int read_result(const struct rerr *e, struct json_object *obj, size_t i,
		       struct record *rec)
{
	struct result *res;
	struct json_object *v;
	char where[48], name[32] = "", title[64] = "", unit[16] = "";
	char *reason = NULL;
	const char *st;

	snprintf(where, sizeof(where), "result %zu: ", i + 1);
	if (!json_object_is_type(obj, json_type_object))
		return bad("%snot an object", where);
	if (get_fixed_str(e, obj, where, "name", name, sizeof(name)) ||
	    get_fixed_str(e, obj, where, "title", title, sizeof(title)) ||
	    get_fixed_str(e, obj, where, "unit", unit, sizeof(unit)))
		return -1;
	if (!*name)
		return bad("%sno 'name'", where);
	res = record_add_result(rec, name, title, unit);

	v = rjson_member(obj, "status");
	if (!v || !json_object_is_type(v, json_type_string))
		return bad("%sno 'status'", where);
	st = json_object_get_string(v);
	if (result_status_parse(st, &res->status))
		return bad("%sunknown status '%s'", where, st);
	if (get_str(e, obj, where, "reason", &reason))
		return -1;
	res->reason = reason;
	if (rjson_get_reason(obj, res->status, reason, &res->reason_kind,
			     &res->signal))
		return bad("%s'reason_kind' or 'signal' is not one", where);

	if (get_figure(e, obj, where, "value", 1e15, &res->value) ||
	    get_figure(e, obj, where, "cpu", 1e6, &res->cpu) ||
	    get_u64(e, obj, where, "ops", &res->ops) ||
	    get_u64(e, obj, where, "bytes", &res->bytes) ||
	    get_figure(e, obj, where, "elapsed", 1e9, &res->elapsed) ||
	    get_double(e, obj, where, "residency", &res->residency) ||
	    get_flag(e, obj, where, "low_precision", RESULT_LOW_PRECISION,
		     &res->flags) ||
	    get_flag(e, obj, where, "cached", RESULT_CACHED, &res->flags) ||
	    get_flag(e, obj, where, "direct_ignored", RESULT_DIRECT_IGNORED,
		     &res->flags) ||
	    get_flag(e, obj, where, "stonewalled", RESULT_STONEWALLED,
		     &res->flags) ||
	    get_flag(e, obj, where, "stopped", RESULT_STOPPED, &res->flags))
		return -1;
	if (worker_rows_json_read(obj, where, res, e->buf, e->len) ||
	    layers_json_read(obj, where, res, e->buf, e->len))
		return -1;
	if (read_hist_exact(rjson_member(obj, "exact_latency_us"), where, 1e3,
			    &res->exact, e->buf, e->len))
		return -1;
	return read_histogram(rjson_member(obj, "histogram"), where, &res->lat,
			      e->buf, e->len);
}

/* The record's own members: its schema first (no clyde record without
 * one), who wrote it, when, its label, repetition and exit status. */
static int read_head(const struct rerr *e, struct json_object *obj,
		     struct record *rec)
{
	struct json_object *v;
	int64_t n;

	if (!json_object_is_type(obj, json_type_object))
		return bad("not a JSON object");
	v = rjson_member(obj, "schema");
	if (!v || !json_object_is_type(v, json_type_int))
		return bad("no 'schema' version: not a clyde run record");
	n = json_object_get_int64(v);
	if (n < 1 || n > RECORD_SCHEMA_VERSION)
		return bad("schema version %" PRId64
			   " is not supported (this clyde reads 1 to %d)",
			   n, RECORD_SCHEMA_VERSION);
	rec->schema = (int)n;

	if (get_str(e, obj, "", "tool", &rec->tool) ||
	    get_str(e, obj, "", "version", &rec->version) ||
	    get_str(e, obj, "", "start", &rec->start) ||
	    get_str(e, obj, "", "end", &rec->end) ||
	    get_str(e, obj, "", "label", &rec->label))
		return -1;
	n = rec->repetition;
	if (get_int(e, obj, "", "repetition", 0, INT32_MAX, &n))
		return -1;
	rec->repetition = (int)n;
	n = rec->exit_status;
	if (get_int(e, obj, "", "exit_status", 0, 255, &n))
		return -1;
	rec->exit_status = (int)n;
	return 0;
}

static int read_host(const struct rerr *e, struct json_object *sub,
		     struct record *rec)
{
	int64_t n = 0;

	if (!sub)
		return 0;
	if (!json_object_is_type(sub, json_type_object))
		return bad("'host' is not an object");
	if (get_str(e, sub, "host: ", "hostname", &rec->host.hostname) ||
	    get_str(e, sub, "host: ", "kernel", &rec->host.kernel) ||
	    get_str(e, sub, "host: ", "cpu_model", &rec->host.cpu_model) ||
	    get_int(e, sub, "host: ", "cores", 0, INT32_MAX, &n) ||
	    get_u64(e, sub, "host: ", "ram", &rec->host.ram))
		return -1;
	rec->host.cores = (long)n;
	return 0;
}

/* "targets": each -d of a run of several, with its stack. */
static int read_targets(const struct rerr *e, struct json_object *sub,
			struct record *rec)
{
	size_t i, len;

	if (!sub)
		return 0;
	if (!json_object_is_type(sub, json_type_array))
		return bad("'targets' is not an array");
	len = json_object_array_length(sub);
	rec->targets = xcalloc(len + 1, sizeof(*rec->targets));
	for (i = 0; i < len; i++) {
		struct json_object *v = json_object_array_get_idx(sub, i);

		rec->ntargets++;
		if (read_target(e, v, &rec->targets[i]) ||
		    target_stack_json_read(v, &rec->targets[i].stack,
					   e->buf, e->len))
			return -1;
	}
	return 0;
}

static int read_warnings(const struct rerr *e, struct json_object *sub,
			 struct record *rec)
{
	size_t i, len;

	if (!sub)
		return 0;
	if (!json_object_is_type(sub, json_type_array))
		return bad("'warnings' is not an array");
	len = json_object_array_length(sub);
	for (i = 0; i < len; i++) {
		struct json_object *v = json_object_array_get_idx(sub, i);

		if (!json_object_is_type(v, json_type_string))
			return bad("warning %zu is not a string", i + 1);
		record_warn(rec, "%s", json_object_get_string(v));
	}
	return 0;
}

static int read_results(const struct rerr *e, struct json_object *sub,
			struct record *rec)
{
	size_t i, len;

	if (!sub || !json_object_is_type(sub, json_type_array))
		return bad("no 'results' array");
	len = json_object_array_length(sub);
	for (i = 0; i < len; i++)
		if (read_result(e, json_object_array_get_idx(sub, i), i, rec))
			return -1;
	return 0;
}

static int read_record(const struct rerr *e, struct json_object *obj,
		       struct record *rec)
{
	struct json_object *sub;

	if (read_head(e, obj, rec) ||
	    read_host(e, rjson_member(obj, "host"), rec))
		return -1;
	sub = rjson_member(obj, "target");
	if (sub && read_target(e, sub, &rec->target))
		return -1;
	if (read_targets(e, rjson_member(obj, "targets"), rec) ||
	    read_kvs(e, obj, "params", rec, 0) ||
	    read_kvs(e, obj, "tags", rec, 1) ||
	    read_warnings(e, rjson_member(obj, "warnings"), rec) ||
	    read_results(e, rjson_member(obj, "results"), rec) ||
	    target_json_read(obj, rec, e->buf, e->len) ||
	    matrix_json_read(rjson_member(obj, "matrix"), rec, e->buf,
			     e->len))
		return -1;
	return zones_json_read(rjson_member(obj, "zones"), rec, e->buf,
			       e->len);
}

/*
 * The JSON tree lives in a heap of its own.  A record's tree is some
 * 4,500 small allocations (a histogram bucket [index, count] alone is an
 * array, its list and two integers), made and freed for every line,
 * while the record built from it keeps a few hundred.  In one heap the
 * kept ones land between the tree's, each freed tree leaves a record's
 * worth of holes, and glibc's malloc sorts and searches more of them
 * with every record: the CPU per record grew with the records read
 * (issue 23: 1.6 ms at 1,000, 2.4 ms at 8,000, half of it in
 * _int_malloc and malloc_consolidate).
 *
 * So the tokener, the parse and the freeing of each tree run in a
 * thread of the reader's own, and glibc's malloc serves a second thread
 * from an arena of its own (a heap the main thread's allocations never
 * enter): the tree's arena empties whole after every line, the
 * records' holds only what they keep.  The reader's thread does one
 * thing at a time, asked and waited for (no parallelism, no shared
 * state besides the one request); without the thread (pthread_create
 * failed) the caller's thread does the same work, only slower.  Another
 * allocator than glibc's gives the same output.
 */
enum rr_job { RR_IDLE, RR_NEW, RR_PARSE, RR_PUT, RR_QUIT };

struct record_reader {
	struct json_tokener *tok;
	pthread_t thread;
	int threaded;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	enum rr_job job;
	const char *line;		/* RR_PARSE: in */
	const struct rerr *e;		/* RR_PARSE: where a failure goes */
	struct json_object *obj;	/* RR_PARSE: out; RR_PUT: in */
};

static struct json_object *parse_line(struct json_tokener *tok,
				      const char *line, const struct rerr *e);

/* The job itself, in whichever thread runs it. */
static void rr_do(struct record_reader *rr)
{
	switch (rr->job) {
	case RR_NEW:
		rr->tok = json_tokener_new();
		if (rr->tok)
			json_tokener_set_flags(rr->tok, JSON_TOKENER_STRICT);
		break;
	case RR_PARSE:
		rr->obj = parse_line(rr->tok, rr->line, rr->e);
		break;
	case RR_PUT:
		json_object_put(rr->obj);
		rr->obj = NULL;
		break;
	case RR_QUIT:
		json_tokener_free(rr->tok);
		rr->tok = NULL;
		break;
	case RR_IDLE:
		break;
	}
}

static void *rr_main(void *arg)
{
	struct record_reader *rr = arg;
	enum rr_job job;

	pthread_mutex_lock(&rr->mu);
	do {
		while (rr->job == RR_IDLE)
			pthread_cond_wait(&rr->cv, &rr->mu);
		job = rr->job;
		rr_do(rr);
		rr->job = RR_IDLE;
		pthread_cond_broadcast(&rr->cv);
	} while (job != RR_QUIT);
	pthread_mutex_unlock(&rr->mu);
	return NULL;
}

/* Have the reader's thread (else this one) do job, and wait for it. */
static void rr_run(struct record_reader *rr, enum rr_job job)
{
	if (!rr->threaded) {
		rr->job = job;
		rr_do(rr);
		rr->job = RR_IDLE;
		return;
	}
	pthread_mutex_lock(&rr->mu);
	rr->job = job;
	pthread_cond_broadcast(&rr->cv);
	while (rr->job != RR_IDLE)
		pthread_cond_wait(&rr->cv, &rr->mu);
	pthread_mutex_unlock(&rr->mu);
}

struct record_reader *record_reader_new(void)
{
	struct record_reader *rr = xcalloc(1, sizeof(*rr));

	pthread_mutex_init(&rr->mu, NULL);
	pthread_cond_init(&rr->cv, NULL);
	rr->threaded = !pthread_create(&rr->thread, NULL, rr_main, rr);
	rr_run(rr, RR_NEW);
	if (!rr->tok) {
		record_reader_free(rr);
		return NULL;
	}
	return rr;
}

void record_reader_free(struct record_reader *rr)
{
	if (!rr)
		return;
	rr_run(rr, RR_QUIT);
	if (rr->threaded)
		pthread_join(rr->thread, NULL);
	pthread_cond_destroy(&rr->cv);
	pthread_mutex_destroy(&rr->mu);
	free(rr);
}

/* The one JSON value of line, its trailing newline and blanks allowed. */
static struct json_object *parse_line(struct json_tokener *tok,
				      const char *line, const struct rerr *e)
{
	struct json_object *obj;
	size_t len = strlen(line), end;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	json_tokener_reset(tok);
	obj = json_tokener_parse_ex(tok, line, (int)len);
	if (!obj) {
		enum json_tokener_error je = json_tokener_get_error(tok);

		snprintf(e->buf, e->len, "not valid JSON: %s",
			 je == json_tokener_continue ?
			 "unexpected end of line" : json_tokener_error_desc(je));
		return NULL;
	}
	end = json_tokener_get_parse_end(tok);
	while (end < len && strchr(" \t", line[end]))
		end++;
	if (end != len) {
		json_object_put(obj);
		snprintf(e->buf, e->len, "more than one JSON value on the line");
		return NULL;
	}
	return obj;
}

struct record *record_reader_read(struct record_reader *rr, const char *line,
				  char *err, size_t errlen)
{
	const struct rerr e = { err, errlen };
	struct record *rec;
	int bad;

	rr->line = line;
	rr->e = &e;
	rr_run(rr, RR_PARSE);
	if (!rr->obj)
		return NULL;
	rec = record_new();
	/* the record says who wrote it: no defaults from this build */
	record_set_str(&rec->tool, NULL);
	record_set_str(&rec->version, NULL);
	bad = read_record(&e, rr->obj, rec);
	rr_run(rr, RR_PUT);
	if (bad) {
		record_free(rec);
		return NULL;
	}
	return rec;
}

struct record *record_read_json(const char *line, char *err, size_t errlen)
{
	struct record_reader *rr = record_reader_new();
	struct record *rec;

	if (!rr) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	rec = record_reader_read(rr, line, err, errlen);
	record_reader_free(rr);
	return rec;
}
