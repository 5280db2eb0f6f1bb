// SPDX-License-Identifier: GPL-2.0-only
/* Concurrent copies summed into one run; see copies.h. */
#include "copies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker_rows.h"
#include "../lib/xalloc.h"

double copies_start(const struct record *rec)
{
	struct tm tm;
	const char *seed;

	if (rec->start && *rec->start) {
		memset(&tm, 0, sizeof(tm));
		if (strptime(rec->start, "%Y-%m-%dT%H:%M:%S", &tm))
			return (double)timegm(&tm);
	}
	seed = record_param(rec, PARAM_SEED);
	/* bonnie++ 1.96+: the seed field is time(NULL) unless -z was given */
	if (rec->tool && !strcmp(rec->tool, "bonnie++") && seed &&
	    atof(seed) > 1e8 && atof(seed) < 1e10)
		return atof(seed);
	return -1;
}

static int candidate(const struct record *rec)
{
	const char *sync = record_param(rec, "sync");

	if (!rec->tool || rec->matrix)
		return 0;
	if (!strcmp(rec->tool, "bonnie++"))
		return copies_start(rec) >= 0;
	return !strcmp(rec->tool, "clyde") && sync &&
	       !strcmp(sync, "semaphores") && copies_start(rec) >= 0;
}

static int same_setup(const struct record *a, const struct record *b)
{
	const char *fa = record_param(a, PARAM_FILE_SIZE);
	const char *fb = record_param(b, PARAM_FILE_SIZE);

	return !strcmp(a->tool, b->tool) &&
	       !strcmp(a->label ? a->label : "", b->label ? b->label : "") &&
	       !strcmp(a->version ? a->version : "",
		       b->version ? b->version : "") &&
	       !strcmp(fa ? fa : "", fb ? fb : "");
}

/*
 * Two lines with every figure equal are one line written twice (a file
 * concatenated twice, a copy-paste), not two processes: real copies
 * running at once never measure the same rate to the last digit.
 */
static int same_figures(const struct record *a, const struct record *b)
{
	size_t i, nok = 0;

	if (a->nresults != b->nresults)
		return 0;
	for (i = 0; i < a->nresults; i++) {
		const struct result *x = &a->results[i], *y = &b->results[i];

		if (strcmp(x->name, y->name) || x->status != y->status)
			return 0;
		if (x->status != RESULT_OK)
			continue;
		if (x->value != y->value || x->cpu != y->cpu)
			return 0;
		nok++;
	}
	return nok > 0;
}

/* Sum the copies recs[idx[0..k)] into recs[idx[0]]. */
static void merge(struct record **recs, const size_t *idx, size_t k)
{
	struct record *dst = recs[idx[0]];
	char buf[32];
	size_t i, j;

	for (i = 0; i < dst->nresults; i++) {
		struct result *res = &dst->results[i];
		double sum = 0, cpu = 0, el = 0;
		size_t ok = 0;
		struct histogram *lat = xmalloc(sizeof(*lat));

		hist_init(lat);
		for (j = 0; j < k; j++) {
			const struct result *r = record_find(recs[idx[j]],
							     res->name);
			struct worker_row *w;

			if (!r)
				continue;
			w = result_add_worker(res, (int)j,
					      recs[idx[j]]->host.hostname,
					      NULL);
			w->status = r->status;
			w->value = r->value;
			w->cpu = r->cpu;
			w->ops = r->ops;
			w->bytes = r->bytes;
			w->elapsed = r->elapsed;
			if (r->reason)
				w->reason = xstrdup(r->reason);
			if (r->status != RESULT_OK)
				continue;
			ok++;
			sum += r->value;
			cpu += r->cpu;
			el = fmax(el, r->elapsed);
			hist_merge(lat, &r->lat);
		}
		if (ok == k) {
			res->value = sum;
			res->cpu = cpu;
			res->elapsed = el;
			res->lat = *lat;
		} else if (ok) {
			/* a sum of some copies is no figure of N processes */
			result_set_status(res, RESULT_SKIPPED, "%zu of %zu "
					  "copies have no number", k - ok, k);
		}
		free(lat);
	}
	snprintf(buf, sizeof(buf), "%zu", k);
	record_set_param(dst, PARAM_CONCURRENCY, buf, 1);
	record_set_param(dst, "copies", "separately timed", 0);
	record_warn(dst, "%zu copies of %s started within %.0f s of each "
		    "other: one run of %zu processes, rates summed; each copy "
		    "timed itself (separately timed copies)", k, dst->tool,
		    copies_start(recs[idx[k - 1]]) - copies_start(dst), k);
	for (j = 1; j < k; j++) {
		record_free(recs[idx[j]]);
		recs[idx[j]] = NULL;
	}
}

static int by_start(const void *a, const void *b, void *arg)
{
	struct record **recs = arg;
	double x = copies_start(recs[*(const size_t *)a]);
	double y = copies_start(recs[*(const size_t *)b]);

	return x < y ? -1 : x > y ? 1 : 0;
}

size_t copies_merge(struct record **recs, size_t n, double window)
{
	size_t *idx = xcalloc(n + 1, sizeof(*idx)), *cl;
	char *used = xcalloc(n + 1, 1);
	size_t i, j, k, m = 0, out = 0;

	if (window <= 0) {
		free(idx);
		free(used);
		return n;
	}
	cl = xcalloc(n + 1, sizeof(*cl));
	for (i = 0; i < n; i++)
		if (candidate(recs[i]))
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), by_start, recs);
	for (i = 0; i < m; i++) {
		double t0;

		if (used[idx[i]])
			continue;
		t0 = copies_start(recs[idx[i]]);
		k = 0;
		cl[k++] = idx[i];
		for (j = i + 1; j < m; j++) {
			size_t c;

			if (used[idx[j]] ||
			    copies_start(recs[idx[j]]) - t0 > window ||
			    !same_setup(recs[idx[i]], recs[idx[j]]))
				continue;
			for (c = 0; c < k; c++)
				if (same_figures(recs[cl[c]], recs[idx[j]]))
					break;
			if (c < k) {
				/* left as it is: a repeat, never a sum */
				record_warn(recs[idx[j]], "every figure equals "
					    "those of another line started "
					    "with it: the same line twice, "
					    "not summed as a copy");
				continue;
			}
			cl[k++] = idx[j];
		}
		for (j = 0; j < k; j++)
			used[cl[j]] = 1;
		if (k > 1) {
			/* keep the earliest position in the input */
			size_t lo = 0;

			for (j = 1; j < k; j++)
				if (cl[j] < cl[lo])
					lo = j;
			if (lo) {
				size_t tmp = cl[0];

				cl[0] = cl[lo];
				cl[lo] = tmp;
			}
			merge(recs, cl, k);
		}
	}
	for (i = 0; i < n; i++)
		if (recs[i])
			recs[out++] = recs[i];
	free(idx);
	free(used);
	free(cl);
	return out;
}
