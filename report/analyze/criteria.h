/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CRITERIA_H
#define CLYDE_CRITERIA_H

/*
 * Qualification criteria (`clyde report --criteria FILE`): an INI file
 * (read with libinih) of bounds on tests and matrix cells, checked
 * against every configuration of a comparison.
 *
 *   [baseline]
 *   label = scsi-raid5-xfs        ; or #N; --baseline wins over it
 *
 *   [put_block]                   ; a test by name or title ("Block write")
 *   min = 400 MB/s                ; the mean, in the test's unit or with
 *   max_cv = 10 %                 ; K/s, KiB/s, MB/s = MiB/s, GB/s = GiB/s
 *   min_ratio = 0.9               ; to the baseline's mean
 *   not_worse = yes               ; shown not worse than the baseline by
 *   margin = 0.95                 ; more than the margin (default 0.95)
 *   max_p99 = 2 ms                ; of the merged latency histogram
 *
 *   [all]                         ; every test with a figure
 *   min_ratio = 0.9
 *
 *   [matrix 8k 16 random 100]     ; a cell: bs, threads[xQD], random|seq,
 *   min_iops = 100000             ; read %; without xQD any queue depth
 *   max_read_p99 = 2 ms
 *
 * Test keys: min, max, max_cpu, max_cv, min_ratio, not_worse, margin,
 * max_latency_mean, max_p50, max_p90, max_p99, max_p99.9, max_latency.
 * not_worse is a non-inferiority test (stats.h): it passes only when the
 * lower bound of the 95 % interval of the ratio (configuration /
 * baseline) is above the margin of its section, else of [all], else
 * 0.95; it fails when the upper bound is below; otherwise, and with too
 * few runs for an interval, it is inconclusive, which fails the
 * qualification unless the caller allows it, with the runs that would
 * settle it.
 * Matrix keys: min_iops, min_mbps, max_read_mean, max_read_p99,
 * max_read_p99.9, max_write_mean, max_write_p99, max_write_p99.9,
 * min_ratio (IO/s to the baseline's cell).  Times take ns, us, ms or s
 * (ms when none); cv is in percent.  A figure no configuration has, or
 * one that a configuration lacks the number for (bonnie++'s +++++, a
 * maximum-only latency asked for a percentile), fails as "not measured".
 */

#include <stddef.h>
#include <stdint.h>

#include "report/analyze/compare.h"

struct crit_rule;

struct criteria {
	struct crit_rule *rules;
	size_t nrules;
	char *baseline;		/* [baseline] label, or NULL */
	char *path;
};

/* Read and check FILE: 0, or -1 with "FILE:LINE: what" in err. */
int criteria_load(struct criteria *cr, const char *path, char *err,
		  size_t errlen);
void criteria_release(struct criteria *cr);

#define CRIT_NO_GROUP ((size_t)-1)

/* A check's outcome, in the order the verdict tables list them. */
enum crit_outcome { CRIT_FAIL, CRIT_INCONCLUSIVE, CRIT_PASS };

struct crit_verdict {
	size_t group;		/* CRIT_NO_GROUP: no configuration has it */
	const char *section;	/* as written; borrowed from the criteria */
	const char *key;
	const char *bound;	/* as written */
	char bound_shown[48];	/* with its unit: "500 MB/s", "yes, margin
				 * 0.95" */
	char figure[80];	/* "Block write", "8K 16 threads qd 1 Random
				 * 100% read" */
	char measured[64];	/* in the bound's unit; "not measured" */
	char note[200];		/* how it was decided, when more than a
				 * comparison says it (not_worse); or "" */
	enum crit_outcome outcome;
	/* what it checked, for the CSV: a test index, or a matrix cell */
	size_t test;		/* (size_t)-1 for a cell */
	uint64_t bs;
	unsigned threads, qd, read_pct;
	int random;
};

struct crit_verdicts {
	struct crit_verdict *v;		/* failures, inconclusive, passes */
	size_t n, nfail, ninconclusive;
	int allow_inconclusive;		/* set by the caller */
};

/* Whether the qualification fails: a check failed, or one is
 * inconclusive and that is not allowed. */
int crit_verdicts_failed(const struct crit_verdicts *v);

/* "pass", "FAIL", "inconclusive". */
const char *crit_outcome_word(enum crit_outcome o);

/* Check every rule against every configuration of c. */
/*
 * The first section naming no test c knows (the twelve bonnie++ tests are
 * always known, measured or not: those fail as "not measured"), or NULL.
 */
const char *criteria_unknown_test(const struct criteria *cr,
				  const struct compare *c);
void criteria_check(const struct criteria *cr, const struct compare *c,
		    struct crit_verdicts *out);
void crit_verdicts_release(struct crit_verdicts *v);

/* The verdict table, 80 columns, and the summary line. */
int criteria_write_text(const struct crit_verdicts *v,
			const struct compare *c, const char *path, FILE *out);

/*
 * For the long CSV: the checks of group g on test t (or, test (size_t)-1,
 * on the cell bs/threads/qd/random/read_pct) as "key bound: pass; ..." in
 * buf, and 1 all passed, 0 one failed, 2 none failed and one was
 * inconclusive, -1 none.
 */
int criteria_for(const struct crit_verdicts *v, size_t g, size_t t,
		 uint64_t bs, unsigned threads, unsigned qd, int random,
		 unsigned read_pct, char *buf, size_t len);

#endif
