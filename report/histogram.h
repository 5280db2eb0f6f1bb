/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_HISTOGRAM_H
#define CLYDE_HISTOGRAM_H

/*
 * Log-linear latency histogram, in nanoseconds.
 *
 * The layout is fio's: values below 64 have a bucket each; above that every
 * power of two is split into 64 equal sub-buckets, so a bucket's width is at
 * most 1/64 (1.6 %) of its value.  All 64 bits are covered, nothing is
 * clamped.  Two histograms merge exactly by adding their buckets, so
 * percentiles of several threads, processes or hosts are computed from the
 * merged histogram, never averaged.
 */

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
/* group 0 holds 0..63 exactly; groups 1..58 hold msb 6..63 */
#define HIST_GROUPS (64 - HIST_SUB_BITS + 1)
#define HIST_NBUCKETS (HIST_GROUPS * HIST_SUB)

struct histogram {
	uint64_t count;
	uint64_t sum;		/* ns; overflows after 584 years of latency */
	uint64_t min;		/* exact; UINT64_MAX when empty */
	uint64_t max;		/* exact */
	uint64_t bucket[HIST_NBUCKETS];
};

/* Bucket index of a value. */
static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
}

/* Record one latency.  Hot path: no branches beyond min/max. */
static inline void hist_add(struct histogram *h, uint64_t ns)
{
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->bucket[hist_index(ns)]++;
}

/* Empty a histogram (min = UINT64_MAX, everything else 0). */
void hist_init(struct histogram *h);

/* Lowest value that falls into bucket idx. */
uint64_t hist_bucket_low(unsigned idx);

/* Highest value that falls into bucket idx. */
uint64_t hist_bucket_high(unsigned idx);

/* Add every count of src to dst. */
void hist_merge(struct histogram *dst, const struct histogram *src);

/*
 * The value below which pct percent (0 < pct <= 100) of the samples lie:
 * the midpoint of the bucket holding the ceil(pct/100 * count)-th sample,
 * clamped to [min, max].  0 when empty; pct >= 100 gives the exact max.
 */
uint64_t hist_percentile(const struct histogram *h, double pct);
/* The sample hist_percentile() takes for pct of count: ceil(pct/100 x
 * count), at least 1 and at most count. */
uint64_t hist_rank(uint64_t count, double pct);

/* Arithmetic mean in ns, 0 when empty. */
double hist_mean(const struct histogram *h);

/*
 * The latency summary every writer shows (JSON, text, CSV, HTML), one set
 * for all: mean, min, p50, p90, p99, p99.9 and max, in ns, in that order.
 * Writers loop over HIST_SUMMARY_N figures with the names below rather
 * than pick percentiles of their own.
 */
#define HIST_SUMMARY_N 7

struct hist_summary {
	uint64_t count;		/* samples; 0: the figures are all 0 (no
				 * samples, or a histogram that has a count
				 * but nothing in its buckets) */
	double v[HIST_SUMMARY_N];	/* ns, in the order of the names */
};

enum {
	HIST_S_MEAN, HIST_S_MIN, HIST_S_P50, HIST_S_P90, HIST_S_P99,
	HIST_S_P99_9, HIST_S_MAX,
};

/* Member names in JSON and column suffixes in CSV: "mean" .. "p99_9". */
extern const char *const hist_summary_key[HIST_SUMMARY_N];
/* Column heads for people: "mean" .. "p99.9", "max". */
extern const char *const hist_summary_label[HIST_SUMMARY_N];

/* Summarise h (merged first, never averaged: percentiles of the whole). */
void hist_summarize(const struct histogram *h, struct hist_summary *s);

/* The same figures in ms, every one NAN when h is NULL or empty. */
void hist_summary_ms(const struct histogram *h, double ms[HIST_SUMMARY_N]);

#endif
