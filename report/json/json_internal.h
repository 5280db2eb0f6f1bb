/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_JSON_INTERNAL_H
#define CLYDE_JSON_INTERNAL_H

/*
 * Pieces of the JSON writer (report/json.c, json-c) and reader
 * (json_read.c, from a jtree.h tree) that
 * the sections of the record in their own files (json_matrix.c,
 * json_target.c, json_workers.c, json_zones.c) reuse, so every value is
 * written and checked the same way.  Not a public API.
 */

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "report/json/jtree.h"

#include "report/model/histogram.h"
#include "report/model/matrix.h"
#include "report/model/record.h"

/* ---- writing (report/json_internal.c) ---- */

/* A string, or NULL (JSON null) for NULL. */
struct json_object *rjson_str(const char *s);
/* A double written with 15 significant digits (text -> double -> text
 * gives the same text); NULL (JSON null) when not finite. */
struct json_object *rjson_num(double d);

/* ---- reading (report/json_internal.c) ---- */

/* Print the message into err and return -1. */
__attribute__((format(printf, 3, 4)))
int rjson_fail(char *err, size_t errlen, const char *fmt, ...);

/*
 * Typed members.  Absent or null: *out is left alone and 0 returned.
 * Otherwise 0 with *out set, -EINVAL for the wrong type (a count is a
 * non-negative integer, a number an integer or a double) or -ERANGE for
 * an integer outside [min, max].  They set no message: the caller says
 * what was wrong where.
 */
int rjson_get_int(const struct jval *obj, const char *key, int64_t min,
		  int64_t max, int64_t *out);
int rjson_get_u64(const struct jval *obj, const char *key, uint64_t *out);
int rjson_get_double(const struct jval *obj, const char *key, double *out);
/* A string member replaces *out (record_set_str: the old one is freed). */
int rjson_get_str(const struct jval *obj, const char *key, char **out);

/*
 * A reason's kind and signal as data, beside its text (record.h):
 * "reason_kind": "interrupted" or "not_run" and "signal": N, left out
 * when there is no kind and no signal.
 */
void rjson_add_reason(struct json_object *o, enum reason_kind kind, int sig);
/*
 * Read them back into *kind and *sig: 0, or -EINVAL for an unknown kind
 * or a signal that is not one.  A record written before they existed
 * has only the text: a skipped or not-run reason worded "interrupted
 * ...", "not run: ..." is read as that kind (the one place the wording is
 * read, for old records).
 */
int rjson_get_reason(const struct jval *o, enum result_status st,
		     const char *reason, enum reason_kind *kind, int *sig);

/* ---- the record's sections in their own files ---- */

/*
 * The per-worker rows (json_workers.c), an array beside the aggregate:
 *
 *   "workers": [ { "worker": 0, "host": "n1", "dir": "/mnt/a",
 *                  "status": "ok", "reason": null, "value": 51234.5,
 *                  "cpu": 40.1, "ops": 4096, "bytes": 33554432,
 *                  "elapsed": 0.64, "first_s": 0.0003, "last_s": 0.6403 },
 *                ... ]
 *
 * The member is absent when a single worker ran.  Add "workers" to the
 * result's object when res has rows; read it back (absent: none), 0 or -1
 * with a message in err (where prefixes it, e.g. "result 3: ").
 */
void worker_rows_json_add(struct json_object *obj, const struct result *res);
int worker_rows_json_read(const struct jval *obj, const char *where,
			  struct result *res, char *err, size_t errlen);

/*
 * The detected parts (json_target.c): add "virt" to the host object and
 * "fs" and "stack" to the target object; read them back from the record
 * object root (0, or -1 with a message in err).
 */
void target_json_add(const struct record *rec, struct json_object *host,
		     struct json_object *target);
int target_json_read(const struct jval *root, struct record *rec, char *err,
		     size_t errlen);
/* A target's "fs" and "stack" members, written and read (several -d). */
void target_stack_json_add(const struct record_stack *s,
			   struct json_object *target);
int target_stack_json_read(const struct jval *target,
			   struct record_stack **out, char *err,
			   size_t errlen);

/*
 * The matrix section (json_matrix.c) as an object (NULL when m is NULL);
 * read the "matrix" member obj (NULL: nothing to read) into rec->matrix,
 * 0 or -1 with a message in err.
 */
struct json_object *matrix_json_object(const struct record_matrix *m);
int matrix_json_read(const struct jval *obj, struct record *rec, char *err,
		     size_t errlen);

/* ---- histograms (report/json_hist.c) ---- */

/*
 * The latency summary every writer shows of h (hist_summarize_exact: x's
 * figures where x applies, x NULL: none) as {"mean","min","p50","p90",
 * "p99","p99_9","max"}, each in ns divided by scale (1e3: us, 1e6: ms),
 * null for a figure not known; NULL (JSON null) when h is empty.
 */
struct json_object *hist_summary_object(const struct histogram *h,
					const struct hist_exact *x,
					double scale);

/*
 * A tool's own latency summary (report/model/histogram.h) as {"count",
 * "mean","min","p50","p90","p99","p99_9","max" (null: not given, in ns /
 * scale),"only_these","from_bins":["p90"...]}; NULL (JSON null) for
 * NULL.  Read back into a new *out (obj NULL: *out NULL); 0 or -1 with a
 * message in err.
 */
struct json_object *hist_exact_object(const struct hist_exact *x,
				      double scale);
int read_hist_exact(const struct jval *obj, const char *where, double scale,
		    struct hist_exact **out, char *err, size_t errlen);

/* The histogram as {"bits","count","sum_ns","min_ns","max_ns","buckets"},
 * NULL (JSON null) when empty. */
struct json_object *histogram_object(const struct histogram *h);

/* Read one back (obj NULL: empty); 0 or -1 with a message in err (where
 * prefixes it, e.g. "cell 3: "). */
int read_histogram(const struct jval *obj, const char *where,
		   struct histogram *h, char *err, size_t errlen);

/* Add "layers" to the result's JSON object when res has any. */
void layers_json_add(struct json_object *obj, const struct result *res);

/* Read "layers" when present.  0, or -1 with a message in err. */
int layers_json_read(const struct jval *obj, const char *where,
		     struct result *res, char *err, size_t errlen);

#endif
