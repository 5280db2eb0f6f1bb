// SPDX-License-Identifier: GPL-2.0-only
/*
 * Histograms in the record's JSON: the raw buckets (written and read back
 * exactly, so merged percentiles can be recomputed) and the summary that
 * every writer shows (hist_summarize).
 */
#include "json_internal.h"

#include <errno.h>
#include <inttypes.h>

struct json_object *hist_summary_object(const struct histogram *h,
					double scale)
{
	struct hist_summary sum;
	struct json_object *o;
	int k;

	hist_summarize(h, &sum);
	if (!sum.count)
		return NULL;
	o = json_object_new_object();
	for (k = 0; k < HIST_SUMMARY_N; k++)
		json_object_object_add(o, hist_summary_key[k],
				       rjson_num(sum.v[k] / scale));
	return o;
}

struct json_object *histogram_object(const struct histogram *h)
{
	struct json_object *obj, *buckets;
	unsigned i;

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
	for (i = 0; i < HIST_NBUCKETS; i++) {
		struct json_object *pair;

		if (!h->bucket[i])
			continue;
		pair = json_object_new_array_ext(2);
		json_object_array_add(pair, json_object_new_int((int)i));
		json_object_array_add(pair,
				      json_object_new_uint64(h->bucket[i]));
		json_object_array_add(buckets, pair);
	}
	json_object_object_add(obj, "buckets", buckets);
	return obj;
}

/* A count member, with the reader's message. */
static int get_count(struct json_object *obj, const char *where,
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
	size_t first = HIST_NBUCKETS, last = 0, i;
	long double mean;

	if (!h->count)
		return 0;
	for (i = 0; i < HIST_NBUCKETS; i++)
		if (h->bucket[i]) {
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

int read_histogram(struct json_object *obj, const char *where,
		   struct histogram *h, char *err, size_t errlen)
{
	struct json_object *buckets;
	int64_t bits = HIST_SUB_BITS;
	uint64_t total = 0;
	size_t i, n;
	int rc;

	hist_init(h);
	if (!obj)
		return 0;
	if (!json_object_is_type(obj, json_type_object))
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
	buckets = rjson_member(obj, "buckets");
	if (!buckets || !json_object_is_type(buckets, json_type_array))
		return bad("%shistogram has no 'buckets' array", where);
	n = json_object_array_length(buckets);
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(buckets, i);
		struct json_object *idx, *cnt;
		int64_t b;

		if (!json_object_is_type(p, json_type_array) ||
		    json_object_array_length(p) != 2)
			return bad("%shistogram bucket %zu is not a pair",
				   where, i);
		idx = json_object_array_get_idx(p, 0);
		cnt = json_object_array_get_idx(p, 1);
		if (!json_object_is_type(idx, json_type_int) ||
		    !json_object_is_type(cnt, json_type_int))
			return bad("%shistogram bucket %zu is not a pair",
				   where, i);
		b = json_object_get_int64(idx);
		if (b < 0 || b >= HIST_NBUCKETS ||
		    json_object_get_int64(cnt) < 0)
			return bad("%shistogram bucket %zu is out of range",
				   where, i);
		h->bucket[b] += json_object_get_uint64(cnt);
		total += json_object_get_uint64(cnt);
	}
	if (total != h->count)
		return bad("%shistogram buckets hold %" PRIu64
			   " samples, count says %" PRIu64, where, total,
			   h->count);
	if (h->count && (h->min > h->max ||
			 hist_index(h->min) >= HIST_NBUCKETS))
		return bad("%shistogram min and max disagree", where);
	return check_ends(h, where, err, errlen);
}
