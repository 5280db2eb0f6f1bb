// SPDX-License-Identifier: GPL-2.0-only
/*
 * Log-linear latency histogram: the bucket arithmetic behind hist_index()
 * and the summaries computed from the buckets.
 */
#include "report/model/histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_release(struct histogram *h)
{
	free(h->enc);
	free(h->dense);
	hist_init(h);
}

/* A packed bucket list being written. */
struct hist_enc {
	uint8_t *buf;
	size_t len, cap;
	unsigned next;		/* the previous index + 1 */
};

/* LEB128; enc_bucket made the room. */
static void enc_varint(struct hist_enc *e, uint64_t v)
{
	while (v >= 0x80) {
		e->buf[e->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	e->buf[e->len++] = (uint8_t)v;
}

/*
 * A bucket: its count's low 6 bits beside a flag that says whether its
 * index skips any after the previous bucket's (then the gap follows), the
 * rest of the count as LEB128 when there is more.  Most buckets follow
 * the one before and hold fewer than 64 or 8,192 samples: one or two
 * bytes, not the two or three of a gap and a count each in LEB128 (a
 * record of the suite: 2.6 KB of histograms, not 4.1).
 */
static void enc_bucket(struct hist_enc *e, unsigned idx, uint64_t n)
{
	unsigned gap = idx - e->next;
	uint64_t rest = n >> 6;

	if (!n)
		return;
	if (e->cap - e->len < 1 + 2 * 10) {	/* a byte, two LEB128 */
		e->cap = e->cap ? 2 * e->cap : 64;
		e->buf = xrealloc(e->buf, e->cap);
	}
	e->buf[e->len++] = (uint8_t)((rest ? 0x80 : 0) | (n & 0x3f) << 1 |
				     (gap != 0));
	if (rest)
		enc_varint(e, rest);
	if (gap)
		enc_varint(e, gap);
	e->next = idx + 1;
}

/* Give h the buckets of e (replacing its own), trimmed to their size. */
static void enc_finish(struct histogram *h, struct hist_enc *e)
{
	free(h->enc);
	free(h->dense);
	h->dense = NULL;
	h->len = e->len;
	h->enc = e->len ? xrealloc(e->buf, e->len) : NULL;
	if (!e->len)
		free(e->buf);
}

static uint64_t dec_varint(const uint8_t *p, size_t len, size_t *pos)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (*pos < len) {
		uint8_t b = p[(*pos)++];

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

int hist_next(const struct histogram *h, struct hist_iter *it, unsigned *idx,
	      uint64_t *n)
{
	uint8_t b;

	if (h->dense) {
		unsigned i;

		for (i = it->next; i < HIST_NBUCKETS; i++)
			if (h->dense[i]) {
				*idx = i;
				*n = h->dense[i];
				it->next = i + 1;
				return 1;
			}
		it->next = HIST_NBUCKETS;
		return 0;
	}
	if (it->pos >= h->len)
		return 0;
	/* enc_bucket's form: flag and low bits, the rest, the gap */
	b = h->enc[it->pos++];
	*n = (uint64_t)(b >> 1 & 0x3f);
	if (b & 0x80)
		*n |= dec_varint(h->enc, h->len, &it->pos) << 6;
	*idx = it->next;
	if (b & 1)
		*idx += (unsigned)dec_varint(h->enc, h->len, &it->pos);
	it->next = *idx + 1;
	return 1;
}

int hist_has_buckets(const struct histogram *h)
{
	struct hist_iter it = HIST_ITER_INIT;
	unsigned idx;
	uint64_t n;

	return hist_next(h, &it, &idx, &n);
}

void hist_measure(struct histogram *h)
{
	struct hist_iter it = HIST_ITER_INIT;
	uint64_t *d, n;
	unsigned idx;

	if (h->dense)
		return;
	d = xcalloc(HIST_NBUCKETS, sizeof(*d));
	while (hist_next(h, &it, &idx, &n))
		if (idx < HIST_NBUCKETS)
			d[idx] += n;
	free(h->enc);
	h->enc = NULL;
	h->len = 0;
	h->dense = d;
}

void hist_set_one(struct histogram *h, uint64_t ns)
{
	struct hist_pair one = { hist_index(ns), 1 };

	h->count = 1;
	h->sum = h->min = h->max = ns;
	hist_set_buckets(h, &one, 1);
}

void hist_compact(struct histogram *h)
{
	struct hist_enc e = { NULL, 0, 0, 0 };
	unsigned i;

	if (!h->dense)
		return;
	for (i = 0; i < HIST_NBUCKETS; i++)
		enc_bucket(&e, i, h->dense[i]);
	enc_finish(h, &e);
}

static int pair_cmp(const void *a, const void *b)
{
	const struct hist_pair *x = a, *y = b;

	return (x->idx > y->idx) - (x->idx < y->idx);
}

void hist_set_buckets(struct histogram *h, struct hist_pair *p, size_t n)
{
	struct hist_enc e = { NULL, 0, 0, 0 };
	size_t i, j;

	for (i = 1; i < n; i++)
		if (p[i].idx <= p[i - 1].idx) {
			qsort(p, n, sizeof(*p), pair_cmp);
			break;
		}
	for (i = 0; i < n; i = j) {
		uint64_t sum = p[i].n;

		for (j = i + 1; j < n && p[j].idx == p[i].idx; j++)
			sum += p[j].n;
		enc_bucket(&e, p[i].idx, sum);
	}
	enc_finish(h, &e);
}

int hist_equal(const struct histogram *a, const struct histogram *b)
{
	struct hist_iter ia = HIST_ITER_INIT, ib = HIST_ITER_INIT;
	unsigned xa, xb;
	uint64_t na, nb;
	int more;

	if (a->count != b->count || a->sum != b->sum || a->min != b->min ||
	    a->max != b->max)
		return 0;
	do {
		more = hist_next(a, &ia, &xa, &na);
		if (more != hist_next(b, &ib, &xb, &nb))
			return 0;
		if (more && (xa != xb || na != nb))
			return 0;
	} while (more);
	return 1;
}

void hist_dense_init(struct hist_dense *d)
{
	memset(d, 0, sizeof(*d));
	d->min = UINT64_MAX;
}

void hist_dense_merge(struct hist_dense *dst, const struct hist_dense *src)
{
	unsigned i;

	if (!src->count)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

void hist_merge_dense(struct histogram *dst, const struct hist_dense *src)
{
	struct histogram view;

	/* src seen as a measuring histogram (its array borrowed) */
	view.count = src->count;
	view.sum = src->sum;
	view.min = src->min;
	view.max = src->max;
	view.enc = NULL;
	view.len = 0;
	view.dense = (uint64_t *)src->bucket;
	hist_merge(dst, &view);
}

void hist_to_dense(struct hist_dense *dst, const struct histogram *src)
{
	struct hist_iter it = HIST_ITER_INIT;
	unsigned idx;
	uint64_t n;

	hist_dense_init(dst);
	dst->count = src->count;
	dst->sum = src->sum;
	dst->min = src->min;
	dst->max = src->max;
	while (hist_next(src, &it, &idx, &n))
		if (idx < HIST_NBUCKETS)
			dst->bucket[idx] += n;
}

uint64_t hist_bucket_low(unsigned idx)
{
	unsigned shift;

	if (idx < HIST_SUB)
		return idx;
	if (idx >= HIST_NBUCKETS)
		return UINT64_MAX;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + idx % HIST_SUB) << shift;
}

uint64_t hist_bucket_high(unsigned idx)
{
	unsigned shift;

	if (idx < HIST_SUB)
		return idx;
	if (idx >= HIST_NBUCKETS)
		return UINT64_MAX;
	shift = idx / HIST_SUB - 1;
	/* the last bucket ends at UINT64_MAX exactly, without overflow */
	return hist_bucket_low(idx) + ((UINT64_C(1) << shift) - 1);
}

/* The buckets of a and b summed, into e. */
static void merge_buckets(struct hist_enc *e, const struct histogram *a,
			  const struct histogram *b)
{
	struct hist_iter ia = HIST_ITER_INIT, ib = HIST_ITER_INIT;
	unsigned xa = 0, xb = 0;
	uint64_t na = 0, nb = 0;
	int ma = hist_next(a, &ia, &xa, &na), mb = hist_next(b, &ib, &xb, &nb);

	while (ma || mb) {
		if (ma && (!mb || xa < xb)) {
			enc_bucket(e, xa, na);
			ma = hist_next(a, &ia, &xa, &na);
		} else if (mb && (!ma || xb < xa)) {
			enc_bucket(e, xb, nb);
			mb = hist_next(b, &ib, &xb, &nb);
		} else {
			enc_bucket(e, xa, na + nb);
			ma = hist_next(a, &ia, &xa, &na);
			mb = hist_next(b, &ib, &xb, &nb);
		}
	}
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	if (!src->count)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (dst->dense) {
		struct hist_iter it = HIST_ITER_INIT;
		unsigned idx;
		uint64_t n;

		while (hist_next(src, &it, &idx, &n))
			if (idx < HIST_NBUCKETS)
				dst->dense[idx] += n;
	} else {
		struct hist_enc e = { NULL, 0, 0, 0 };

		merge_buckets(&e, dst, src);
		enc_finish(dst, &e);
	}
}

uint64_t hist_rank(uint64_t count, double pct)
{
	/*
	 * ceil(pct/100 * count), forgiving the rounding error of a pct like
	 * 99.9 that has no exact binary form (99.9% of 1000 is sample 999,
	 * not 1000).
	 */
	double r = pct / 100.0 * (double)count;

	r = ceil(r - r * 1e-12);
	if (r < 1.0)
		return 1;
	return r > (double)count ? count : (uint64_t)r;
}

uint64_t hist_percentile(const struct histogram *h, double pct)
{
	struct hist_iter it = HIST_ITER_INIT;
	uint64_t rank, seen = 0, low, high, mid, n;
	unsigned i = 0;

	if (!h->count)
		return 0;
	if (!(pct > 0.0))
		return h->min;
	if (pct >= 100.0)
		return h->max;
	rank = hist_rank(h->count, pct);

	while (hist_next(h, &it, &i, &n)) {
		seen += n;
		if (seen >= rank)
			break;
	}
	if (seen < rank)		/* buckets disagree with count */
		return h->max;
	low = hist_bucket_low(i);
	high = hist_bucket_high(i);
	mid = low + (high - low) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

double hist_mean(const struct histogram *h)
{
	if (!h->count)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

const char *const hist_summary_key[HIST_SUMMARY_N] = {
	"mean", "min", "p50", "p90", "p99", "p99_9", "max",
};

const char *const hist_summary_label[HIST_SUMMARY_N] = {
	"mean", "min", "p50", "p90", "p99", "p99.9", "max",
};

void hist_summarize(const struct histogram *h, struct hist_summary *s)
{
	memset(s, 0, sizeof(*s));
	/* a count with no sample in the buckets (an importer that knew how
	 * many I/Os, not their latency) has no summary */
	if (!h->count || !hist_has_buckets(h))
		return;
	s->count = h->count;
	s->v[HIST_S_MEAN] = hist_mean(h);
	s->v[HIST_S_MIN] = (double)h->min;
	s->v[HIST_S_P50] = (double)hist_percentile(h, 50.0);
	s->v[HIST_S_P90] = (double)hist_percentile(h, 90.0);
	s->v[HIST_S_P99] = (double)hist_percentile(h, 99.0);
	s->v[HIST_S_P99_9] = (double)hist_percentile(h, 99.9);
	s->v[HIST_S_MAX] = (double)h->max;
}

void hist_summary_ms(const struct histogram *h, double ms[HIST_SUMMARY_N])
{
	struct hist_summary sum;
	int k;

	memset(&sum, 0, sizeof(sum));
	if (h)
		hist_summarize(h, &sum);
	for (k = 0; k < HIST_SUMMARY_N; k++)
		ms[k] = sum.count ? sum.v[k] / 1e6 : NAN;
}

int hist_exact_applies(const struct histogram *h, const struct hist_exact *x)
{
	return x && x->count && h && h->count == x->count;
}

int hist_summarize_exact(const struct histogram *h, const struct hist_exact *x,
			 struct hist_summary *s)
{
	int have, k;

	if (h)
		hist_summarize(h, s);
	else
		memset(s, 0, sizeof(*s));
	if (!hist_exact_applies(h, x))
		return 0;
	have = s->count > 0;
	s->count = x->count;
	for (k = 0; k < HIST_SUMMARY_N; k++)
		if (!isnan(x->v[k]))
			s->v[k] = x->v[k];
		else if (x->only_these || !have)
			s->v[k] = NAN;
	return 1;
}
