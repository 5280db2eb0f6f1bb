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

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
/* group 0 holds 0..63 exactly; groups 1..58 hold msb 6..63 */
#define HIST_GROUPS (64 - HIST_SUB_BITS + 1)
#define HIST_NBUCKETS (HIST_GROUPS * HIST_SUB)

/*
 * The histogram of the run record and of the report's model: compact.  Only
 * the buckets that hold samples are kept, in ascending order of index, a
 * byte or two each (histogram.c's enc_bucket: the count, and the gap from
 * the previous bucket's index + 1 when there is one) instead of 8 for each
 * of the HIST_NBUCKETS.  While
 * it is measured (hist_add) it holds a dense array instead, so adding stays
 * one increment; hist_compact() packs it.  Readers walk the buckets with
 * hist_next(), whichever form it is in.  It owns its memory: hist_release()
 * frees it, a struct copy shares it (move it, never keep both).
 */
struct histogram {
	uint64_t count;
	uint64_t sum;		/* ns; overflows after 584 years of latency */
	uint64_t min;		/* exact; UINT64_MAX when empty */
	uint64_t max;		/* exact */
	uint8_t *enc;		/* the non-empty buckets, packed (owned) */
	size_t len;		/* bytes in enc */
	uint64_t *dense;	/* measuring: HIST_NBUCKETS counts, enc empty
				 * (owned); NULL when packed */
};

/*
 * The dense histogram, all HIST_NBUCKETS buckets inline (30 KB): for
 * measuring in memory shared across fork() or threads (bench/), where a
 * pointer would not do.  Merged into a struct histogram once, at the end.
 */
struct hist_dense {
	uint64_t count;
	uint64_t sum;
	uint64_t min;		/* UINT64_MAX when empty */
	uint64_t max;
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

/* Empty a histogram that owns nothing (min = UINT64_MAX, the rest 0). */
void hist_init(struct histogram *h);

/* Free what h owns and leave it empty (hist_init). */
void hist_release(struct histogram *h);

/*
 * h holds ns alone, packed: a reader's one sample (bonnie++'s maximum),
 * not measured into the dense form of 30 KB that hist_add() fills.
 */
void hist_set_one(struct histogram *h, uint64_t ns);

/* Turn h into its measuring (dense) form; hist_add() does it when needed. */
void hist_measure(struct histogram *h);

/* Pack a measured h (no-op when already packed). */
void hist_compact(struct histogram *h);

/* Record one latency.  Hot path: no branches beyond min/max. */
static inline void hist_add(struct histogram *h, uint64_t ns)
{
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	if (__builtin_expect(!h->dense, 0))
		hist_measure(h);
	h->dense[hist_index(ns)]++;
}

/* A walk over the non-empty buckets: start it zeroed (HIST_ITER_INIT). */
struct hist_iter {
	size_t pos;
	unsigned next;		/* the lowest index the next bucket can have */
};
#define HIST_ITER_INIT { 0, 0 }

/* The next non-empty bucket of h in ascending order: 1 with its index and
 * count, 0 after the last. */
int hist_next(const struct histogram *h, struct hist_iter *it, unsigned *idx,
	      uint64_t *n);

/* Whether any bucket of h holds a sample. */
int hist_has_buckets(const struct histogram *h);

/*
 * Set h's buckets from n (index, count) pairs in any order (a count of 0
 * is skipped, indexes given twice are summed); count, sum, min and max are
 * left as they are.  Replaces the buckets h had.
 */
struct hist_pair {
	unsigned idx;
	uint64_t n;
};
void hist_set_buckets(struct histogram *h, struct hist_pair *p, size_t n);

/* Whether a and b hold the same samples (figures and buckets). */
int hist_equal(const struct histogram *a, const struct histogram *b);

/* The dense histogram: empty it, add to it, merge two. */
void hist_dense_init(struct hist_dense *d);
static inline void hist_dense_add(struct hist_dense *d, uint64_t ns)
{
	d->count++;
	d->sum += ns;
	if (ns < d->min)
		d->min = ns;
	if (ns > d->max)
		d->max = ns;
	d->bucket[hist_index(ns)]++;
}
void hist_dense_merge(struct hist_dense *dst, const struct hist_dense *src);

/* Add every count of the dense src to dst. */
void hist_merge_dense(struct histogram *dst, const struct hist_dense *src);

/* dst = src, in the dense form. */
void hist_to_dense(struct hist_dense *dst, const struct histogram *src);

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

/*
 * A latency summary a tool printed (fio's mean, min, listed percentiles
 * and max), in ns, indexed as a struct hist_summary's v; NAN where the
 * tool gave none.  The importer also rebuilds a histogram from it (for
 * merging), which is only as exact as its buckets; where the summary
 * applies, every writer shows its figures instead (hist_summarize_exact).
 * It stands for a histogram of count samples only: once that histogram is
 * merged with another (threads summed, copies, repeats of a
 * configuration) the count differs and the merged percentiles are the
 * histogram's, which the writers then say.
 */
struct hist_exact {
	uint64_t count;
	double v[HIST_SUMMARY_N];
	/* the histogram was rebuilt from these percentiles (no bins): a
	 * figure the tool did not give is not known, not the histogram's */
	int only_these;
	/* bit k: v[k] was not listed by the tool; clyde computed it from
	 * the tool's own bins (fio json+) the way the tool computes its
	 * list (the value of the bin holding the ceil(p/100 x N)-th sample) */
	unsigned from_bins;
};

/* Whether x (NULL: none) is the summary of h: same sample count, not 0. */
int hist_exact_applies(const struct histogram *h, const struct hist_exact *x);

/*
 * hist_summarize(h), then, where x applies to h, x's figures in place of
 * the histogram's; a figure x leaves unknown is NAN when x->only_these or
 * h has nothing in its buckets.  Returns 1 when x applied, else 0.
 */
int hist_summarize_exact(const struct histogram *h, const struct hist_exact *x,
			 struct hist_summary *s);

#endif
