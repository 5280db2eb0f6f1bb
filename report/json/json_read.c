// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run record read back from its JSON line (json.c writes it), walked
 * in the tree jtree.h parses it into: every member checked for type and
 * range, a message naming the member in the caller's buffer when one is
 * wrong.
 */
#include "report/model/record.h"
#include "report/json/json_internal.h"
#include "report/model/matrix.h"
#include "report/model/zones.h"
#include "report/model/target_rec.h"
#include "report/model/layers.h"
#include "report/model/worker_rows.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

/* Where the reader's message goes: the caller's buffer, never a global. */
struct rerr {
	char *buf;
	size_t len;
};

#define bad(...) rjson_fail(e->buf, e->len, __VA_ARGS__)

static int get_str(const struct rerr *e, const struct jval *obj,
		   const char *where, const char *key, char **out)
{
	const struct jval *v = jv_member(obj, key);

	/* C strings end at a NUL: "x\u0000y" would quietly become "x" */
	if (jv_is(v, JT_STRING) && strlen(jv_text(v)) != v->n)
		return bad("%s'%s' holds a NUL character (\\u0000)", where,
			   key);
	return rjson_get_str(obj, key, out) ?
	       bad("%s'%s' is not a string", where, key) : 0;
}

static int get_fixed_str(const struct rerr *e, const struct jval *obj,
			 const char *where, const char *key, char *out,
			 size_t size)
{
	const struct jval *v = jv_member(obj, key);

	if (!v)
		return 0;
	if (!jv_is(v, JT_STRING))
		return bad("%s'%s' is not a string", where, key);
	if (v->n >= size)
		return bad("%s'%s' is longer than %zu characters", where, key,
			   size - 1);
	memcpy(out, jv_text(v), v->n + 1);
	return 0;
}

static int get_u64(const struct rerr *e, const struct jval *obj,
		   const char *where, const char *key, uint64_t *out)
{
	return rjson_get_u64(obj, key, out) ?
	       bad("%s'%s' is not a count", where, key) : 0;
}

static int get_int(const struct rerr *e, const struct jval *obj,
		   const char *where, const char *key, int64_t min, int64_t max,
		   int64_t *out)
{
	int rc = rjson_get_int(obj, key, min, max, out);

	return rc ? bad("%s'%s' is %s", where, key, rc == -ERANGE ?
			"out of range" : "not an integer") : 0;
}

static int read_target(const struct rerr *e, const struct jval *sub,
		       struct record_target *t)
{
	if (!jv_is(sub, JT_OBJECT))
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

static int get_double(const struct rerr *e, const struct jval *obj,
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
static int get_figure(const struct rerr *e, const struct jval *obj,
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

static int get_flag(const struct rerr *e, const struct jval *obj,
		    const char *where, const char *key, unsigned bit,
		    unsigned *flags)
{
	const struct jval *v = jv_member(obj, key);

	if (!v)
		return 0;
	if (!jv_is(v, JT_BOOL))
		return bad("%s'%s' is not true or false", where, key);
	if (v->b)
		*flags |= bit;
	return 0;
}

/* A list param read back as the comma list clyde holds it in. */
static int param_list(struct record *rec, const char *key,
		      const struct jval *arr)
{
	size_t i, n = jv_len(arr), len = 1;
	char *buf;

	for (i = 0; i < n; i++) {
		const struct jval *v = jv_item(arr, i);

		if (!jv_is(v, JT_STRING) && !jv_is_number(v))
			return -1;
		len += strlen(jv_text(v)) + 1;
	}
	buf = calloc(1, len);
	if (!buf)
		return -1;
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, jv_text(jv_item(arr, i)));
	}
	record_set_param(rec, key, buf, RECORD_LIST);
	free(buf);
	return 0;
}

static int read_kvs(const struct rerr *e, const struct jval *obj,
		    const char *key, struct record *rec, int tags)
{
	const struct jval *o = jv_member(obj, key);
	size_t i;

	if (!o)
		return 0;
	if (!jv_is(o, JT_OBJECT))
		return bad("'%s' is not an object", key);
	for (i = 0; i < o->n; i++) {
		const char *k = o->members[i].key;
		const struct jval *v = &o->members[i].val;
		int numeric;

		if (!tags && jv_is(v, JT_ARRAY)) {
			if (param_list(rec, k, v))
				return bad("%s '%s' is not a list of strings or "
					   "numbers", key, k);
			continue;
		}
		if (jv_is(v, JT_STRING))
			numeric = 0;
		else if (!tags && jv_is_number(v))
			numeric = 1;
		else
			return bad("%s '%s' is not a %s", key, k,
				   tags ? "string" : "string or number");
		if (tags)
			record_add_tag(rec, k, jv_text(v));
		else
			record_set_param(rec, k, jv_text(v), numeric);
	}
	return 0;
}

static int read_result(const struct rerr *e, const struct jval *obj, size_t i,
		       struct record *rec)
{
	struct result *res;
	const struct jval *v;
	char where[48], name[32] = "", title[64] = "", unit[16] = "";
	char *reason = NULL;
	const char *st;

	snprintf(where, sizeof(where), "result %zu: ", i + 1);
	if (!jv_is(obj, JT_OBJECT))
		return bad("%snot an object", where);
	if (get_fixed_str(e, obj, where, "name", name, sizeof(name)) ||
	    get_fixed_str(e, obj, where, "title", title, sizeof(title)) ||
	    get_fixed_str(e, obj, where, "unit", unit, sizeof(unit)))
		return -1;
	if (!*name)
		return bad("%sno 'name'", where);
	res = record_add_result(rec, name, title, unit);

	v = jv_member(obj, "status");
	if (!v || !jv_is(v, JT_STRING))
		return bad("%sno 'status'", where);
	st = jv_text(v);
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
	if (read_hist_exact(jv_member(obj, "exact_latency_us"), where, 1e3,
			    &res->exact, e->buf, e->len))
		return -1;
	return read_histogram(jv_member(obj, "histogram"), where, &res->lat,
			      e->buf, e->len);
}

/* The record's own members: its schema first (no clyde record without
 * one), who wrote it, when, its label, repetition and exit status. */
static int read_head(const struct rerr *e, const struct jval *obj,
		     struct record *rec)
{
	const struct jval *v;
	int64_t n;

	if (!jv_is(obj, JT_OBJECT))
		return bad("not a JSON object");
	v = jv_member(obj, "schema");
	if (!v || !jv_is(v, JT_INT))
		return bad("no 'schema' version: not a clyde run record");
	n = jv_int64(v);
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

static int read_host(const struct rerr *e, const struct jval *sub,
		     struct record *rec)
{
	int64_t n = 0;

	if (!sub)
		return 0;
	if (!jv_is(sub, JT_OBJECT))
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
static int read_targets(const struct rerr *e, const struct jval *sub,
			struct record *rec)
{
	size_t i, len;

	if (!sub)
		return 0;
	if (!jv_is(sub, JT_ARRAY))
		return bad("'targets' is not an array");
	len = jv_len(sub);
	rec->targets = xcalloc(len + 1, sizeof(*rec->targets));
	for (i = 0; i < len; i++) {
		const struct jval *v = jv_item(sub, i);

		rec->ntargets++;
		if (read_target(e, v, &rec->targets[i]) ||
		    target_stack_json_read(v, &rec->targets[i].stack,
					   e->buf, e->len))
			return -1;
	}
	return 0;
}

static int read_warnings(const struct rerr *e, const struct jval *sub,
			 struct record *rec)
{
	size_t i, len;

	if (!sub)
		return 0;
	if (!jv_is(sub, JT_ARRAY))
		return bad("'warnings' is not an array");
	len = jv_len(sub);
	for (i = 0; i < len; i++) {
		const struct jval *v = jv_item(sub, i);

		if (!jv_is(v, JT_STRING))
			return bad("warning %zu is not a string", i + 1);
		record_warn(rec, "%s", jv_text(v));
	}
	return 0;
}

static int read_results(const struct rerr *e, const struct jval *sub,
			struct record *rec)
{
	size_t i, len;

	if (!sub || !jv_is(sub, JT_ARRAY))
		return bad("no 'results' array");
	len = jv_len(sub);
	for (i = 0; i < len; i++)
		if (read_result(e, jv_item(sub, i), i, rec))
			return -1;
	return 0;
}

static int read_record(const struct rerr *e, const struct jval *obj,
		       struct record *rec)
{
	const struct jval *sub;

	if (read_head(e, obj, rec) ||
	    read_host(e, jv_member(obj, "host"), rec))
		return -1;
	sub = jv_member(obj, "target");
	if (sub && read_target(e, sub, &rec->target))
		return -1;
	if (read_targets(e, jv_member(obj, "targets"), rec) ||
	    read_kvs(e, obj, "params", rec, 0) ||
	    read_kvs(e, obj, "tags", rec, 1) ||
	    read_warnings(e, jv_member(obj, "warnings"), rec) ||
	    read_results(e, jv_member(obj, "results"), rec) ||
	    target_json_read(obj, rec, e->buf, e->len) ||
	    matrix_json_read(jv_member(obj, "matrix"), rec, e->buf, e->len))
		return -1;
	return zones_json_read(jv_member(obj, "zones"), rec, e->buf, e->len);
}

/* The parser and its arena, kept from line to line. */
struct record_reader {
	struct jtree *tree;
};

struct record_reader *record_reader_new(void)
{
	struct record_reader *rr = xcalloc(1, sizeof(*rr));

	rr->tree = jtree_new();
	return rr;
}

void record_reader_free(struct record_reader *rr)
{
	if (!rr)
		return;
	jtree_free(rr->tree);
	free(rr);
}

struct record *record_reader_read(struct record_reader *rr, const char *line,
				  char *err, size_t errlen)
{
	const struct rerr e = { err, errlen };
	size_t len = strlen(line);
	const struct jval *root;
	struct record *rec;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;		/* a string cut by the end of the line */
	root = jtree_parse(rr->tree, line, len, err, errlen);
	if (!root)
		return NULL;
	rec = record_new();
	/* the record says who wrote it: no defaults from this build */
	record_set_str(&rec->tool, NULL);
	record_set_str(&rec->version, NULL);
	if (read_record(&e, root, rec)) {
		record_free(rec);
		return NULL;
	}
	return rec;
}

struct record *record_read_json(const char *line, char *err, size_t errlen)
{
	struct record_reader *rr = record_reader_new();
	struct record *rec = record_reader_read(rr, line, err, errlen);

	record_reader_free(rr);
	return rec;
}
