// SPDX-License-Identifier: GPL-2.0-only
/*
 * Log-linear latency histogram: the bucket arithmetic behind hist_index()
 * and the summaries computed from the buckets.
 */
#include "histogram.h"

#include <math.h>
#include <string.h>

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
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

void hist_merge(struct histogram *dst, const struct histogram *src)
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
	uint64_t rank, seen = 0, low, high, mid;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(pct > 0.0))
		return h->min;
	if (pct >= 100.0)
		return h->max;
	rank = hist_rank(h->count, pct);

	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_NBUCKETS)		/* buckets disagree with count */
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
	uint64_t n = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < HIST_NBUCKETS && !n; i++)
		n = h->bucket[i];
	/* a count with no sample in the buckets (an importer that knew how
	 * many I/Os, not their latency) has no summary */
	if (!h->count || !n)
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
