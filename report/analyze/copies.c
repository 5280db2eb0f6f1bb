// SPDX-License-Identifier: GPL-2.0-only
/* Concurrent copies summed into one run, on evidence only; see copies.h. */
#include "report/analyze/copies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/model/worker_rows.h"
#include "lib/xalloc.h"

/* Seconds since the epoch of "2026-11-29T19:09:37Z", or -1. */
static double iso_time(const char *s)
{
	struct tm tm;

	if (!s || !*s)
		return -1;
	memset(&tm, 0, sizeof(tm));
	if (!strptime(s, "%Y-%m-%dT%H:%M:%S", &tm))
		return -1;
	return (double)timegm(&tm);
}

/*
 * The seed of a bonnie++ 1.96+ line as the time it started, or -1: a
 * clyde CSV line ("clyde-0.1.0" in the version field) has a random seed,
 * and a seed given with -z is no time either (outside 1973..2286).
 */
static double seed_time(const struct record *rec)
{
	const char *seed = record_param(rec, PARAM_SEED);
	double v;

	if (!rec->tool || strcmp(rec->tool, "bonnie++") || rec->matrix ||
	    !seed || (rec->version && !strncmp(rec->version, "clyde", 5)))
		return -1;
	v = atof(seed);
	return v > 1e8 && v < 1e10 ? v : -1;
}

/* One candidate: its index in recs, start and (-y s copies) end. */
struct item {
	size_t i;
	double t, end;
};

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int streq0(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Runs of one setup: the same tool, label, version and file size (a
 * string absent as ""), in some order of setups. */
static int setup_cmp(const struct record *a, const struct record *b)
{
	const char *x[] = { a->tool, a->label, a->version,
			    record_param(a, PARAM_FILE_SIZE) };
	const char *y[] = { b->tool, b->label, b->version,
			    record_param(b, PARAM_FILE_SIZE) };
	size_t k;
	int d = 0;

	for (k = 0; k < sizeof(x) / sizeof(x[0]) && !d; k++)
		d = strcmp(x[k] ? x[k] : "", y[k] ? y[k] : "");
	return d;
}

static int same_setup(const struct record *a, const struct record *b)
{
	return !setup_cmp(a, b);
}

/* Sum the copies recs[idx[0..k)] into recs[idx[0]]; why: the warning. */
static void merge(struct record **recs, const size_t *idx, size_t k,
		  const char *why)
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
					      recs[idx[j]]->target.path);
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
			hist_release(&res->lat);
			res->lat = *lat;	/* moved: lat owns nothing */
			hist_init(lat);
		} else if (ok) {
			/* a sum of some copies is no figure of N processes */
			result_set_status(res, RESULT_SKIPPED, "%zu of %zu "
					  "copies have no number", k - ok, k);
		}
		hist_release(lat);
		free(lat);
	}
	snprintf(buf, sizeof(buf), "%zu", k);
	record_set_param(dst, PARAM_CONCURRENCY, buf, 1);
	record_set_param(dst, "copies", "separately timed", 0);
	record_warn(dst, "%zu copies of %s %s: one run of %zu processes, "
		    "rates summed; each copy timed itself (separately timed "
		    "copies)", k, dst->tool, why, k);
	for (j = 1; j < k; j++) {
		record_free(recs[idx[j]]);
		recs[idx[j]] = NULL;
	}
}

/* Does item b join the copies cl[0..k) of items it: 1 yes, 0 no, -1 no
 * later item can either (the items are in time order). */
typedef int (*joins_fn)(struct record **recs, const struct item *it,
			const size_t *cl, size_t k, const struct item *b,
			double window);

static int window_joins(struct record **recs, const struct item *it,
			const size_t *cl, size_t k, const struct item *b,
			double window)
{
	size_t c;

	if (b->t - it[cl[0]].t > window)
		return -1;
	if (!same_setup(recs[it[cl[0]].i], recs[b->i]))
		return 0;
	for (c = 0; c < k; c++)
		if (it[cl[c]].t == b->t)
			return 0;	/* the same seed: a -x repeat */
	return 1;
}

static int sync_joins(struct record **recs, const struct item *it,
		      const size_t *cl, size_t k, const struct item *b,
		      double window)
{
	const struct record *a = recs[it[cl[0]].i], *r = recs[b->i];
	size_t c;

	(void)window;
	for (c = 0; c < k; c++)
		if (b->t >= it[cl[c]].end)
			return c ? 0 : -1;
	return same_setup(a, r) &&
	       streq0(a->host.hostname, r->host.hostname);
}

/* Group the items it[0..m) (in time order) by joins and merge each group
 * of two or more. */
static void group(struct record **recs, struct item *it, size_t m,
		  joins_fn joins, double window, const char *why)
{
	size_t *cl = xcalloc(m + 1, sizeof(*cl)), *idx;
	char *used = xcalloc(m + 1, 1);
	size_t a, b, k, j;

	idx = xcalloc(m + 1, sizeof(*idx));
	for (a = 0; a < m; a++) {
		if (used[a])
			continue;
		k = 0;
		cl[k++] = a;
		for (b = a + 1; b < m; b++) {
			int rc;

			if (used[b])
				continue;
			rc = joins(recs, it, cl, k, &it[b], window);
			if (rc < 0)
				break;
			if (rc)
				cl[k++] = b;
		}
		for (j = 0; j < k; j++) {
			used[cl[j]] = 1;
			idx[j] = it[cl[j]].i;
		}
		if (k < 2)
			continue;
		/* the sum takes the place of the earliest in the input */
		for (j = 1; j < k; j++)
			if (idx[j] < idx[0]) {
				size_t tmp = idx[0];

				idx[0] = idx[j];
				idx[j] = tmp;
			}
		merge(recs, idx, k, why);
	}
	free(idx);
	free(used);
	free(cl);
}

size_t copies_merge(struct record **recs, size_t n, double window)
{
	struct item *it = xcalloc(n + 1, sizeof(*it));
	size_t i, m = 0, out = 0;
	char why[128];

	for (i = 0; i < n; i++) {
		const char *sync = record_param(recs[i], "sync");
		struct item x = { i, iso_time(recs[i]->start),
				  iso_time(recs[i]->end) };

		if (!recs[i]->tool || strcmp(recs[i]->tool, "clyde") ||
		    recs[i]->matrix || recs[i]->zones || !sync ||
		    strcmp(sync, "semaphores") || x.t < 0 || x.end < x.t)
			continue;
		if (x.end == x.t)
			x.end += 1;	/* whole seconds: a run under one */
		it[m++] = x;
	}
	qsort(it, m, sizeof(*it), by_time);
	group(recs, it, m, sync_joins, 0, "synchronised by the -y s "
	      "semaphores ran at the same time on one host");
	m = 0;
	for (i = 0; window > 0 && i < n; i++)
		if (recs[i] && seed_time(recs[i]) >= 0)
			it[m++] = (struct item){ i, seed_time(recs[i]), 0 };
	qsort(it, m, sizeof(*it), by_time);
	snprintf(why, sizeof(why), "started within --concurrent-window %g s "
		 "(their seeds)", window);
	group(recs, it, m, window_joins, window, why);
	for (i = 0; i < n; i++)
		if (recs[i])
			recs[out++] = recs[i];
	free(it);
	return out;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The gaps between the distinct seeds t[0..m) (sorted): the number of
 * groups of seeds within COPIES_TIGHT, each COPIES_FAR or more from the
 * next, *widest the widest group and *nearest the nearest two; 0 when
 * some gap is neither (spread out: no sign of copies) or no group has
 * two seeds.
 */
static size_t seed_groups(double *t, size_t m, double *widest,
			  double *nearest)
{
	size_t i, d = 0, groups = 1, tight = 0;
	double span = 0;

	*widest = 0;
	*nearest = INFINITY;
	qsort(t, m, sizeof(*t), by_double);
	for (i = 0; i < m; i++)		/* equal seeds: -x repeats */
		if (!d || t[i] != t[d - 1])
			t[d++] = t[i];
	for (i = 1; i < d; i++) {
		double gap = t[i] - t[i - 1];

		if (gap <= COPIES_TIGHT) {
			span += gap;
			tight++;
		} else if (gap >= COPIES_FAR) {
			groups++;
			*nearest = fmin(*nearest, gap);
			span = 0;
		} else {
			return 0;
		}
		*widest = fmax(*widest, span);
	}
	return tight ? groups : 0;
}

static void hint_text(char *buf, size_t len, const struct record *rec,
		      size_t m, size_t groups, double widest, double nearest)
{
	double w = fmax(1, ceil(widest));

	if (groups == 1)
		snprintf(buf, len, "the seeds (start times) of %zu bonnie++ "
			 "lines of '%s' all fall within %.0f s, as copies "
			 "started together would: read as repeats; if they ran "
			 "at the same time, --concurrent-window %.0f sums them "
			 "as one run", m, rec->label ? rec->label : "",
			 widest, w);
	else
		snprintf(buf, len, "the seeds (start times) of %zu bonnie++ "
			 "lines of '%s' fall in %zu groups, each within %.0f s "
			 "and %.0f s or more from the next, as copies started "
			 "together would: read as repeats; if each group ran "
			 "at the same time, --concurrent-window %.0f sums it "
			 "as one run", m, rec->label ? rec->label : "", groups,
			 widest, nearest, w);
}

/* A bonnie++ line whose seed is a time (seed_time), for the hint. */
struct seeded {
	const struct record *rec;
	size_t i;		/* its index in recs */
	double t;		/* its seed */
};

static int by_setup_then_index(const void *pa, const void *pb)
{
	const struct seeded *a = pa, *b = pb;
	int d = setup_cmp(a->rec, b->rec);

	return d ? d : (a->i > b->i) - (a->i < b->i);
}

/* The lines of one setup: s[start..start + n), sorted by index. */
struct seed_class {
	size_t start, n, first;	/* first: the index of its first line */
};

static int by_first(const void *pa, const void *pb)
{
	const struct seed_class *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/*
 * The lines sorted by setup, so that each setup's are together (before,
 * every line was compared with every other: 20,000 lines took seconds),
 * then each setup's seeds in the order of its first line, until one
 * shows copies.
 */
int copies_seed_hint(struct record *const *recs, size_t n, char *buf,
		     size_t len)
{
	struct seeded *s = xcalloc(n + 1, sizeof(*s));
	struct seed_class *cls = xcalloc(n + 1, sizeof(*cls));
	double *t = xcalloc(n + 1, sizeof(*t)), widest, nearest;
	size_t i, k, m = 0, ncls = 0, c, groups = 0;

	for (i = 0; i < n; i++)
		if ((s[m].t = seed_time(recs[i])) >= 0) {
			s[m].rec = recs[i];
			s[m++].i = i;
		}
	qsort(s, m, sizeof(*s), by_setup_then_index);
	for (i = 0; i < m; i = k) {
		for (k = i + 1; k < m && same_setup(s[i].rec, s[k].rec); k++)
			;
		cls[ncls++] = (struct seed_class){ i, k - i, s[i].i };
	}
	qsort(cls, ncls, sizeof(*cls), by_first);
	for (c = 0; c < ncls && !groups; c++) {
		for (k = 0; k < cls[c].n; k++)
			t[k] = s[cls[c].start + k].t;
		groups = seed_groups(t, cls[c].n, &widest, &nearest);
		if (groups)
			hint_text(buf, len, s[cls[c].start].rec, cls[c].n,
				  groups, widest, nearest);
	}
	free(t);
	free(cls);
	free(s);
	return groups > 0;
}
