// SPDX-License-Identifier: GPL-2.0-only
/*
 * Histograms in the record's JSON: the raw buckets (written and read back
 * exactly, so merged percentiles can be recomputed) and the summary that
 * every writer shows (hist_summarize).
 */
#include "report/json/json_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

struct json_object *hist_summary_object(const struct histogram *h,
					const struct hist_exact *x,
					double scale)
{
	struct hist_summary sum;
	struct json_object *o;
	int k;

	hist_summarize_exact(h, x, &sum);
	if (!sum.count)
		return NULL;
	o = json_object_new_object();
	for (k = 0; k < HIST_SUMMARY_N; k++)
		json_object_object_add(o, hist_summary_key[k],
				       rjson_num(sum.v[k] / scale));
	return o;
}

struct json_object *hist_exact_object(const struct hist_exact *x,
				      double scale)
{
	struct json_object *o, *bins;
	int k;

	if (!x)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "count", json_object_new_uint64(x->count));
	for (k = 0; k < HIST_SUMMARY_N; k++)
		json_object_object_add(o, hist_summary_key[k],
				       rjson_num(x->v[k] / scale));
	json_object_object_add(o, "only_these",
			       json_object_new_boolean(x->only_these));
	bins = json_object_new_array();
	for (k = 0; k < HIST_SUMMARY_N; k++)
		if (x->from_bins & (1u << k))
			json_object_array_add(bins, json_object_new_string(
						      hist_summary_key[k]));
	json_object_object_add(o, "from_bins", bins);
	return o;
}

/* The "from_bins" names of o as bits; -1 for one that is no figure's. */
static int exact_from_bins(const struct jval *o, unsigned *bits)
{
	const struct jval *arr = jv_member(o, "from_bins");
	size_t i;
	int k;

	if (!arr)
		return 0;
	if (!jv_is(arr, JT_ARRAY))
		return -1;
	for (i = 0; i < jv_len(arr); i++) {
		const char *name = jv_text(jv_item(arr, i));

		for (k = 0; name && k < HIST_SUMMARY_N; k++)
			if (!strcmp(name, hist_summary_key[k]))
				break;
		if (!name || k == HIST_SUMMARY_N)
			return -1;
		*bits |= 1u << k;
	}
	return 0;
}

int read_hist_exact(const struct jval *obj, const char *where, double scale,
		    struct hist_exact **out, char *err, size_t errlen)
{
	struct hist_exact *x;
	const struct jval *only;
	int k;

	*out = NULL;
	if (!obj)
		return 0;
	if (!jv_is(obj, JT_OBJECT))
		return rjson_fail(err, errlen, "%sexact latency is not an "
				  "object", where);
	x = xcalloc(1, sizeof(*x));
	if (rjson_get_u64(obj, "count", &x->count) || !x->count)
		goto bad;
	for (k = 0; k < HIST_SUMMARY_N; k++) {
		x->v[k] = NAN;
		if (rjson_get_double(obj, hist_summary_key[k], &x->v[k]) ||
		    x->v[k] < 0)
			goto bad;
		x->v[k] *= scale;
	}
	only = jv_member(obj, "only_these");
	if (only && !jv_is(only, JT_BOOL))
		goto bad;
	x->only_these = jv_true(only);
	if (exact_from_bins(obj, &x->from_bins))
		goto bad;
	*out = x;
	return 0;
bad:
	free(x);
	return rjson_fail(err, errlen, "%sexact latency: a count, figures "
			  "of 0 or more, 'only_these' true or false and "
			  "'from_bins' naming figures", where);
}

struct json_object *histogram_object(const struct histogram *h)
{
	struct json_object *obj, *buckets;
	struct hist_iter it = HIST_ITER_INIT;
	unsigned i;
	uint64_t n;

	if (!h->count)
		return NULL;
	obj = json_object_new_object();
	json_object_object_add(obj, "bits",
			       json_object_new_int(HIST_SUB_BITS));
	json_object_object_add(obj, "count", json_object_new_uint64(h->count));
	json_object_object_add(obj, "sum_ns", json_object_new_uint64(h->sum));
	json_object_object_add(obj, "min_ns", json_object_new_uint64(h->min));
	json_object_object_add(obj, "max_ns", json_object_new_uint64(h->max));
	buckets = json_object_new_array();
	while (hist_next(h, &it, &i, &n)) {
		struct json_object *pair;

		pair = json_object_new_array_ext(2);
		json_object_array_add(pair, json_object_new_int((int)i));
		json_object_array_add(pair, json_object_new_uint64(n));
		json_object_array_add(buckets, pair);
	}
	json_object_object_add(obj, "buckets", buckets);
	return obj;
}

/* A count member, with the reader's message. */
static int get_count(const struct jval *obj, const char *where,
		     const char *key, uint64_t *out, char *err, size_t errlen)
{
	return rjson_get_u64(obj, key, out) ?
	       rjson_fail(err, errlen, "%s'%s' is not a count", where, key) :
	       0;
}

/* The reader's message into the caller's err (read_histogram's). */
#define bad(...) rjson_fail(err, errlen, __VA_ARGS__)

/*
 * min and max are samples: in the first and the last bucket holding any,
 * and the mean (sum / count) between them.  A histogram that breaks this
 * (a sum or a max edited by hand) would print a mean above its maximum.
 */
static int check_ends(const struct histogram *h, const char *where,
		      char *err, size_t errlen)
{
	struct hist_iter it = HIST_ITER_INIT;
	unsigned first = HIST_NBUCKETS, last = 0, i;
	uint64_t n;
	long double mean;

	if (!h->count)
		return 0;
	while (hist_next(h, &it, &i, &n)) {
		if (first == HIST_NBUCKETS)
			first = i;
		last = i;
	}
	if (hist_index(h->min) != first || hist_index(h->max) != last)
		return bad("%shistogram min %" PRIu64 " or max %" PRIu64
			   " ns lies outside its buckets", where, h->min,
			   h->max);
	mean = (long double)h->sum / (long double)h->count;
	if (mean < (long double)h->min * (1 - 1e-9L) ||
	    mean > (long double)h->max * (1 + 1e-9L))
		return bad("%shistogram mean %.0Lf ns lies outside its min "
			   "and max", where, mean);
	return 0;
}

/* The 'buckets' array of a histogram into h's buckets; their samples
 * in *total. */
static int read_buckets(const struct jval *buckets, const char *where,
			struct histogram *h, uint64_t *total, char *err,
			size_t errlen)
{
	size_t i, n = jv_len(buckets);
	struct hist_pair *pairs = xmalloc((n ? n : 1) * sizeof(*pairs));

	*total = 0;
	for (i = 0; i < n; i++) {
		const struct jval *p = jv_item(buckets, i);
		const struct jval *idx, *cnt;
		int64_t b;

		if (!jv_is(p, JT_ARRAY) || jv_len(p) != 2)
			break;
		idx = jv_item(p, 0);
		cnt = jv_item(p, 1);
		if (!jv_is(idx, JT_INT) || !jv_is(cnt, JT_INT))
			break;
		b = jv_int64(idx);
		if (b < 0 || b >= HIST_NBUCKETS || jv_int64(cnt) < 0) {
			free(pairs);
			return bad("%shistogram bucket %zu is out of range",
				   where, i);
		}
		pairs[i].idx = (unsigned)b;
		pairs[i].n = jv_uint64(cnt);
		if (pairs[i].n > UINT64_MAX - *total) {
			free(pairs);
			return bad("%shistogram buckets hold more samples than "
				   "a count can (2^64 - 1)", where);
		}
		*total += pairs[i].n;
	}
	if (i < n) {
		free(pairs);
		return bad("%shistogram bucket %zu is not a pair", where, i);
	}
	hist_set_buckets(h, pairs, n);
	free(pairs);
	return 0;
}

int read_histogram(const struct jval *obj, const char *where,
		   struct histogram *h, char *err, size_t errlen)
{
	const struct jval *buckets;
	int64_t bits = HIST_SUB_BITS;
	uint64_t total = 0;
	int rc;

	hist_init(h);
	if (!obj)
		return 0;
	if (!jv_is(obj, JT_OBJECT))
		return bad("%s'histogram' is not an object", where);
	rc = rjson_get_int(obj, "bits", 0, 64, &bits);
	if (rc)
		return bad("%s'bits' is %s", where, rc == -ERANGE ?
			   "out of range" : "not an integer");
	if (bits != HIST_SUB_BITS)
		return bad("%shistogram has %d sub-bucket bits, not %d", where,
			   (int)bits, HIST_SUB_BITS);
	if (get_count(obj, where, "count", &h->count, err, errlen) ||
	    get_count(obj, where, "sum_ns", &h->sum, err, errlen) ||
	    get_count(obj, where, "min_ns", &h->min, err, errlen) ||
	    get_count(obj, where, "max_ns", &h->max, err, errlen))
		return -1;
	buckets = jv_member(obj, "buckets");
	if (!buckets || !jv_is(buckets, JT_ARRAY))
		return bad("%shistogram has no 'buckets' array", where);
	if (read_buckets(buckets, where, h, &total, err, errlen))
		return -1;
	if (total != h->count)
		rc = bad("%shistogram buckets hold %" PRIu64
			 " samples, count says %" PRIu64, where, total,
			 h->count);
	else if (h->count && (h->min > h->max ||
			      hist_index(h->min) >= HIST_NBUCKETS))
		rc = bad("%shistogram min and max disagree", where);
	else
		rc = check_ends(h, where, err, errlen);
	if (rc)
		hist_release(h);	/* a refused histogram owns nothing */
	return rc;
}
