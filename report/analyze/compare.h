/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_COMPARE_H
#define CLYDE_COMPARE_H

/*
 * The comparison every report writer shares: runs grouped into
 * configurations (runs that agree on every attribute but time and seed,
 * so clyde -x repeats and lines with the same label and setup fall
 * together), the attributes that differ between configurations, per
 * configuration and test the mean, sample standard deviation and count,
 * the merged latency histogram, and a baseline configuration for ratios.
 */

#include <stddef.h>
#include <stdint.h>

#include "report/model/dims.h"
#include "report/model/record.h"
#include "report/analyze/stats.h"

/* marks of a figure (cmp_stat.marks) */
#define CMP_LOW_PRECISION	0x1u	/* a run was too short to time well */
#define CMP_CACHED		0x2u	/* a read started from the page cache */
#define CMP_DIRECT_IGNORED	0x4u
#define CMP_TOO_FAST		0x8u	/* bonnie++ +++++: no number at all */
#define CMP_MAX_ONLY		0x10u	/* latency: the maximum is all known */
#define CMP_NOISY		0x20u	/* 95 % CI half-width > 5 % of the mean */
#define CMP_LAT_MERGED		0x40u	/* latency: runs an importer gave an
					 * exact summary of merged, so the
					 * percentiles are the histograms' */
#define CMP_STOPPED		0x80u	/* a run was stopped and continued
					 * inside the test (RESULT_STOPPED) */

struct cmp_test {
	char name[32];
	char title[64];
	char unit[16];
	int per_char;		/* putc/getc: compared only within a mode */
	int modes_differ;	/* per_char, and some configuration ran it in
				 * another mode than the first one's */
};

struct cmp_stat {
	size_t n;		/* runs with a number */
	size_t too_fast;	/* runs that printed +++++ */
	double mean, sd;	/* sd: sample standard deviation, 0 if n < 2 */
	/* the same with the 95 % interval and cv (report/stats.h) */
	struct stats_summary sum;
	double cpu;		/* mean CPU % */
	struct stats_summary cpu_sum;	/* of the runs' CPU % */
	unsigned marks;
	const char *mode;	/* per-char: "stdio", "syscall" or "mixed" */
	struct histogram lat;	/* merged over the runs */
	/* the one run's own exact latency summary (an importer's, e.g.
	 * fio's listed percentiles), NULL with several runs or none;
	 * borrowed from the record */
	const struct hist_exact *exact;
};

/* The latency summary of s: the exact one of its run where there is one,
 * else of its merged histogram (hist_summarize_exact); NAN: not known. */
void cmp_lat_summary(const struct cmp_stat *s, struct hist_summary *sum);

struct cmp_group {
	const char *label;	/* of its first run */
	size_t *runs;		/* indexes into compare.recs */
	size_t nruns;
	/* this configuration's attributes: key "fs", "mount",
	 * "tag:controller", "bs"...; value NULL: absent */
	struct record_kv *attrs;
	size_t nattrs;
	struct cmp_stat *stats;	/* [compare.ntests] */
	struct dims dims;	/* of its first run (report/dims.h) */
	uint64_t hash;		/* of attrs, whatever their order: equal
				 * for the same setup (compare_same_config) */
};

struct compare {
	struct record *const *recs;
	size_t nrecs;
	size_t *run_group;	/* [nrecs]: group of each run */
	struct cmp_test *tests;	/* bonnie++'s twelve first, then others */
	size_t ntests;
	struct cmp_group *groups;
	size_t ngroups;
	char **differ;		/* attribute keys that differ between groups */
	size_t ndiffer;
	size_t baseline;	/* group index */
	/* [ngroups]: each configuration's name without its VM mark
	 * (compare_group_label), made once by compare_build */
	char **names;
	/* the VM mark every configuration has (compare_common_virt), made
	 * with the names: a chart asks for each bar */
	const char *common_virt;
	/* single runs differ only beyond +-noise_band (a fraction;
	 * STATS_NOISE_BAND unless the caller sets another) */
	double noise_band;
};

/*
 * Build the comparison over recs (borrowed; they must outlive c).
 * baseline: a label (or "#N", the Nth configuration), NULL for the first
 * configuration.  pattern: --label-pattern (NULL: the rules only).
 * Configurations are told apart by label, dimensions, detected layout and
 * parameters, never by device node or path, so the same layout built on
 * another loop device averages with it.  Returns 0, or -1 with err set
 * (no runs, no such label).
 */
int compare_build(struct compare *c, struct record *const *recs,
		  size_t nrecs, const char *baseline,
		  const struct dims_pattern *pattern, char *err,
		  size_t errlen);
void compare_release(struct compare *c);

/*
 * Whether two configurations (of the same or of two comparisons) are the
 * same setup: every attribute equal.
 */
int compare_same_config(const struct cmp_group *a, const struct cmp_group *b);

/* Whether an attribute names a configuration (tags, fs, mount...). */
int compare_name_worthy(const char *key);

/* The value of attribute key in group g, or NULL. */
const char *compare_attr(const struct cmp_group *g, const char *key);

/*
 * The ratio of group g's mean to the baseline's for test t; NAN when
 * either has no number or the two are of different per-char modes.
 */
double compare_ratio(const struct compare *c, size_t g, size_t t);

/*
 * Welch's t-test of group g's runs of test t against the baseline's:
 * STATS_UNTESTED when either has fewer than two runs, the modes differ or
 * g is the baseline.
 */
void compare_welch(const struct compare *c, size_t g, size_t t,
		   struct stats_welch *w);

/*
 * The verdict as words: "significant", "not significant", "untested";
 * with its direction for a difference ("significantly higher").
 */
const char *compare_verdict_word(const struct stats_welch *w);

/*
 * Whether group g's figure of test t differs from the baseline's, by the
 * report's one rule (stats_difference: Welch where both have repeats,
 * else the noise band): what every colour and every "higher"/"lower"
 * follows.  UNTESTED for the baseline itself, other per-char modes, or a
 * side without a figure.
 */
void compare_diff(const struct compare *c, size_t g, size_t t,
		  struct stats_diff *d);

/* The same for the CPU % of test t (lower is better; the caller says). */
void compare_diff_cpu(const struct compare *c, size_t g, size_t t,
		      struct stats_diff *d);

/*
 * A difference in words: "significantly higher (Welch p 0.0018, df
 * 4.0)", "not significant (Welch p 0.42, df 3.1)", "lower, beyond the
 * +-10 % noise band (a single run)", "within the +-10 % noise band (a
 * single run)", "untested".
 */
void compare_diff_words(const struct stats_diff *d, char *buf, size_t len);

/* Whether two groups' figures of test t may be ranked together. */
int compare_same_mode(const struct compare *c, size_t g1, size_t g2,
		      size_t t);

/*
 * A short human name of a configuration: label and differing attributes,
 * then its VM mark in brackets ("jfs-run [VM: QEMU TCG, emulated]").
 */
char *compare_group_name(const struct compare *c, size_t g);
/* Make c->names (compare_build does): labels counted and twins found by
 * hashing, so that naming n configurations takes n steps, not n * n. */
void compare_names_build(struct compare *c);
/* The same, with the VM mark only when with_mark is set. */
char *compare_group_label(const struct compare *c, size_t g, int with_mark);
/* The VM mark every configuration has (borrowed), or NULL. */
const char *compare_common_virt(const struct compare *c);
/*
 * A configuration's name for a chart's label: "[N] label" (N its number
 * in the list), " [VM]" after it unless every configuration has a VM
 * mark, the label cut at its end ("...") only when the name is longer
 * than cols columns.  What else tells configurations apart is for a
 * footnote (compare_group_name).
 */
char *compare_group_chart_name(const struct compare *c, size_t g,
			      size_t cols);

/*
 * Configuration names for the text tables, where the columns are few:
 * compare_names_init takes every label once (escaped by textesc's rule),
 * compare_names_fit gives g's in at most width columns (UTF-8 characters)
 * when that can hold its VM mark and 8 more.  A label too long loses
 * first what every label shares at its start and end ("...raid5-ext4..."
 * of "ibm-ds4800-fc-raid5-ext4-8disks"), then one span where it agrees
 * with the others, so labels that differ in the middle still read apart;
 * names that would still read alike get the configuration's number
 * ("#3 ..."), so no two rows of a table ever read the same.  The
 * VM mark is kept whole after the label, unless every configuration has
 * the same one (common_virt): then the writer says it once above.
 */
struct cmp_names {
	size_t n;
	char **label;			/* [n], without the VM mark */
	const char **virt;		/* [n], borrowed: the VM marks */
	const char *common_virt;	/* borrowed from the compare, or NULL */
	/* compare_names.c's own, made once by compare_names_init: */
	size_t *len;			/* [n] bytes of each label */
	size_t *near, *nnear;		/* the others each label is weighed
					 * against when it is cut */
	size_t pre, suf;		/* bytes every label shares at its start
					 * and at its end */
	struct cmp_names *rest;		/* the labels without them, or NULL */
	struct cmp_fits *fits;		/* fitted names by width, each made on
					 * first use (compare_names_fit) */
};
void compare_names_init(struct cmp_names *nm, const struct compare *c);
char *compare_names_fit(const struct cmp_names *nm, const struct compare *c,
			size_t g, size_t width);
void compare_names_release(struct cmp_names *nm);
/* compare_names_fit of every configuration, once per table; free with
 * compare_names_free_all(v, nm->n). */
char **compare_names_fit_all(const struct cmp_names *nm,
			     const struct compare *c, size_t width);
void compare_names_free_all(char **v, size_t n);

/*
 * The VM mark of a run: "VM: KVM", "VM: QEMU TCG, emulated"; NULL when
 * no virtualization or emulation was detected (or none was looked for).
 * Configurations differ by it (attribute "virt").
 */
char *compare_virt_mark(const struct record *rec);
/* The VM mark of configuration g (borrowed), or NULL. */
const char *compare_group_virt(const struct compare *c, size_t g);

/*
 * The number of workers (clyde -c N, several -d, MPI ranks) of group g's
 * runs: the most per-worker rows of any result, else the concurrency
 * parameter, else 1.
 */
size_t compare_group_workers(const struct compare *c, size_t g);

/*
 * What group g's workers are: "separately timed copies" summed into one
 * run (report/analyze/copies.h: param "copies"), "fio clients" (param
 * fio_clients, report/import/import_fio_clients.c), else "workers".
 */
const char *compare_group_copies(const struct compare *c, size_t g);

/* The result of test t in run r, or NULL. */
const struct result *compare_result(const struct compare *c, size_t r,
				    size_t t);

#endif
