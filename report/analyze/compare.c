// SPDX-License-Identifier: GPL-2.0-only
/* Runs grouped into configurations, summarised per test; see compare.h. */
#include "report/analyze/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/bonnie.h"
#include "report/model/record_util.h"
#include "lib/hashidx.h"
#include "lib/xalloc.h"

/* Parameters that do not make a configuration (they change every run). */
static const char *const ignored_params[] = {
	"seed", "directory", "label", "quiet", "ram", "repeats", "user",
	"group", "name", "filename", "file_to_ram_ratio", "filename_format",
	"output", "output-format", "runtime", "time_based", NULL,
};

static int ignored(const char *key)
{
	size_t i;

	for (i = 0; ignored_params[i]; i++)
		if (!strcmp(key, ignored_params[i]))
			return 1;
	return 0;
}

static void attr_add(struct record_kv **a, size_t *n, const char *key,
		     const char *value)
{
	struct record_kv *kv = record_append(a, n, sizeof(**a));

	kv->key = xstrdup(key);
	kv->value = xstrdup_or_null(value);
}

static const char *compare_attr_in(const struct record_kv *a, size_t n,
				   const char *key)
{
	const struct record_kv *kv = record_kv_find(a, n, key);

	return !kv ? NULL : kv->value ? kv->value : "";
}

/*
 * What the device stack says about a configuration: the kinds of devices
 * from the top down ("md disk disk disk disk"), and the fields that tell
 * layouts apart (RAID level, chunk, btrfs profiles, transport, model).
 */
static void stack_attrs(const struct record *rec, struct record_kv **a,
			size_t *n)
{
	static const char *const keys[] = {
		"level", "chunk", "raid_level", "data_profile",
		"metadata_profile", "profile", "transport", "model", NULL,
	};
	const struct record_stack *st = rec->target.stack;
	char *kinds = NULL, *t, buf[96];
	size_t i, k, j;

	if (!st || !st->ndevs)
		return;
	for (i = 0; i < st->ndevs; i++) {
		const struct record_device *d = &st->devs[i];

		t = xasprintf("%s%s%s", kinds ? kinds : "", kinds ? " " : "",
			      d->kind ? d->kind : "?");
		free(kinds);
		kinds = t;
		for (k = 0; k < d->nfields; k++)
			for (j = 0; keys[j]; j++)
				if (!strcmp(d->fields[k].key, keys[j])) {
					snprintf(buf, sizeof(buf), "%s %s",
						 d->kind ? d->kind : "?",
						 keys[j]);
					if (!compare_attr_in(*a, *n, buf))
						attr_add(a, n, buf,
							 d->fields[k].value);
				}
	}
	attr_add(a, n, "stack", kinds);
	free(kinds);
}

/* The virtualization attribute: the mark, "none" or absent (unknown). */
static void virt_attr(const struct record *rec, struct record_kv **a,
		      size_t *n)
{
	char *mark = compare_virt_mark(rec);

	if (mark)
		attr_add(a, n, "virt", mark);
	else if (rec->host.virt && rec->host.virt->vm == 0)
		attr_add(a, n, "virt", "none");
	free(mark);
}

static void attrs_of(const struct record *rec, struct record_kv **a,
		     size_t *n)
{
	char buf[160];
	size_t i;

	*a = NULL;
	*n = 0;
	snprintf(buf, sizeof(buf), "%s %s", rec->tool ? rec->tool : "?",
		 rec->version ? rec->version : "");
	attr_add(a, n, "tool", buf);
	attr_add(a, n, "label", rec->label);
	attr_add(a, n, "host", rec->host.hostname);
	attr_add(a, n, "fs", rec->target.fstype);
	attr_add(a, n, "mount", rec->target.vfs_options);
	attr_add(a, n, "fs options", rec->target.fs_options);
	virt_attr(rec, a, n);
	stack_attrs(rec, a, n);
	if (rec->ntargets > 1) {
		/* several -d: the filesystems of all of them */
		char *all = xstrdup(""), *t;

		for (i = 0; i < rec->ntargets; i++) {
			t = xasprintf("%s%s%s", all, i ? " " : "",
				      rec->targets[i].fstype ?
				      rec->targets[i].fstype : "?");
			free(all);
			all = t;
		}
		attr_add(a, n, "fs of each -d", all);
		free(all);
	}
	for (i = 0; i < rec->ntags; i++) {
		snprintf(buf, sizeof(buf), "tag:%s", rec->tags[i].key);
		attr_add(a, n, buf, rec->tags[i].value);
	}
	for (i = 0; i < rec->nparams; i++)
		if (!ignored(rec->params[i].key))
			attr_add(a, n, rec->params[i].key,
				 rec->params[i].value);
}

const char *compare_attr(const struct cmp_group *g, const char *key)
{
	const struct record_kv *kv = record_kv_find(g->attrs, g->nattrs, key);

	return kv ? kv->value : NULL;
}

static int streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_attrs(const struct cmp_group *g, const struct record_kv *a,
		      size_t n)
{
	size_t i;

	if (g->nattrs != n)
		return 0;
	for (i = 0; i < n; i++)
		if (!streq(compare_attr(g, a[i].key), a[i].value))
			return 0;
	return 1;
}

int compare_same_config(const struct cmp_group *a, const struct cmp_group *b)
{
	return same_attrs(a, b->attrs, b->nattrs);
}

static size_t test_index(struct compare *c, const struct result *res)
{
	size_t i;

	for (i = 0; i < c->ntests; i++)
		if (!strcmp(c->tests[i].name, res->name))
			return i;
	c->tests = xrealloc(c->tests, (c->ntests + 1) * sizeof(*c->tests));
	memset(&c->tests[i], 0, sizeof(c->tests[i]));
	snprintf(c->tests[i].name, sizeof(c->tests[i].name), "%s", res->name);
	snprintf(c->tests[i].title, sizeof(c->tests[i].title), "%s",
		 res->title[0] ? res->title : res->name);
	snprintf(c->tests[i].unit, sizeof(c->tests[i].unit), "%s", res->unit);
	c->tests[i].per_char = bonnie_test_per_char(res->name);
	return c->ntests++;
}

static void add_bonnie_tests(struct compare *c)
{
	struct result r;
	size_t i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < BONNIE_NTESTS; i++) {
		/* read only: test_index copies them */
		r.name = (char *)bonnie_tests[i].name;
		r.title = (char *)bonnie_tests[i].title;
		r.unit = (char *)bonnie_tests[i].unit;
		test_index(c, &r);
	}
}

const struct result *compare_result(const struct compare *c, size_t r,
				    size_t t)
{
	return record_find(c->recs[r], c->tests[t].name);
}

/*
 * A run's latency joins st: its exact summary stands while it is the only
 * run with samples; a second one makes the merged histogram's percentiles
 * the figures, which CMP_LAT_MERGED says when either had one.
 */
static void lat_exact(struct cmp_stat *st, const struct result *res)
{
	int applies = hist_exact_applies(&res->lat, res->exact);

	if (!res->lat.count)
		return;
	if (st->lat.count == res->lat.count) {
		st->exact = applies ? res->exact : NULL;
		return;
	}
	if (st->exact || applies)
		st->marks |= CMP_LAT_MERGED;
	st->exact = NULL;
}

void cmp_lat_summary(const struct cmp_stat *s, struct hist_summary *sum)
{
	hist_summarize_exact(&s->lat, s->exact, sum);
}

static void summarise(struct compare *c, size_t g, size_t t)
{
	struct cmp_group *grp = &c->groups[g];
	struct cmp_stat *st = &grp->stats[t];
	double *vals, *cpus;
	size_t i;

	hist_init(&st->lat);
	st->mode = NULL;
	st->exact = NULL;
	vals = xcalloc(grp->nruns + 1, sizeof(*vals));
	cpus = xcalloc(grp->nruns + 1, sizeof(*cpus));
	for (i = 0; i < grp->nruns; i++) {
		const struct record *rec = c->recs[grp->runs[i]];
		const struct result *res = compare_result(c, grp->runs[i], t);
		const char *mode = record_param(rec, "char_io");

		if (!res || res->status == RESULT_NOT_RUN)
			continue;
		if (c->tests[t].per_char) {
			if (!mode)
				mode = "syscall";
			st->mode = !st->mode || !strcmp(st->mode, mode) ?
				   mode : "mixed";
		}
		if (res->status == RESULT_SKIPPED &&
		    (res->flags & RESULT_LOW_PRECISION)) {
			st->too_fast++;
			st->marks |= CMP_TOO_FAST;
			continue;
		}
		if (res->status != RESULT_OK)
			continue;
		cpus[st->n] = res->cpu;
		vals[st->n++] = res->value;
		if (res->flags & RESULT_LOW_PRECISION)
			st->marks |= CMP_LOW_PRECISION;
		if (res->flags & RESULT_CACHED)
			st->marks |= CMP_CACHED;
		if (res->flags & RESULT_DIRECT_IGNORED)
			st->marks |= CMP_DIRECT_IGNORED;
		if (res->flags & RESULT_STOPPED)
			st->marks |= CMP_STOPPED;
		if (res->lat.count == 1 && res->ops != 1)
			st->marks |= CMP_MAX_ONLY;
		hist_merge(&st->lat, &res->lat);
		lat_exact(st, res);
	}
	stats_summarise(vals, st->n, &st->sum);
	stats_summarise(cpus, st->n, &st->cpu_sum);
	free(vals);
	free(cpus);
	if (!st->n)
		return;
	st->mean = st->sum.mean;
	st->cpu = st->cpu_sum.mean;
	if (st->n > 1)
		st->sd = st->sum.sd;
	if (st->sum.noisy)
		st->marks |= CMP_NOISY;
}

/* Attributes worth naming a configuration by, in this order. */
int compare_name_worthy(const char *key)
{
	static const char *const keys[] = {
		"tool", "fs", "mount", "char_io", "direct",
		"sync_writes", "rw", "bs", "iodepth", "numjobs", "ioengine",
		"host", "stack", "md level", "md chunk", "btrfs data_profile",
		"virt", NULL,
	};
	size_t i;

	if (!strncmp(key, "tag:", 4))
		return 1;
	for (i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/*
 * What the configurations hold for one attribute key: the values that
 * count (a setting one tool has and another lacks, seekers of bonnie++
 * 1.98 or bs of fio, is no difference; what names a configuration is,
 * even when absent), how many distinct (0, 1, or 2 for more), the first.
 */
struct key_values {
	const char *key;
	int distinct;
	const char *first;
	int added;
};

static void key_values(const struct compare *c, struct key_values *kv)
{
	int worthy = compare_name_worthy(kv->key);
	const char *v;
	size_t g;

	for (g = 0; g < c->ngroups && kv->distinct < 2; g++) {
		v = compare_attr(&c->groups[g], kv->key);
		if (!v && !worthy)
			continue;
		if (!kv->distinct++)
			kv->first = v;
		else if (streq(v, kv->first))
			kv->distinct--;
	}
}

/* The index of key in keys (a hash of them), added when new. */
static size_t key_slot(struct hashidx *idx, struct key_values **keys,
		       size_t *n, size_t *alloc, const char *key)
{
	uint64_t hash = hash_str(HASH_SEED, key);
	size_t pos = 0, k;

	while (hashidx_next(idx, hash, &pos, &k))
		if (!strcmp((*keys)[k].key, key))
			return k;
	xgrow((void **)keys, alloc, *n + 1, sizeof(**keys));
	memset(&(*keys)[*n], 0, sizeof(**keys));
	(*keys)[*n].key = key;
	hashidx_add(idx, hash, *n);
	return (*n)++;
}

/*
 * The keys that differ, in the order configuration g first finds one of
 * its own values apart from another's; each key's values gathered once
 * (a hash of the keys), so n configurations take n steps, not n * n.
 */
static void find_differ(struct compare *c)
{
	struct hashidx idx = HASHIDX_INIT;
	struct key_values *keys = NULL, *kv;
	size_t g, i, nkeys = 0, alloc = 0;

	for (g = 0; g < c->ngroups; g++)
		for (i = 0; i < c->groups[g].nattrs; i++)
			key_slot(&idx, &keys, &nkeys, &alloc,
				 c->groups[g].attrs[i].key);
	for (i = 0; i < nkeys; i++)
		key_values(c, &keys[i]);
	for (g = 0; g < c->ngroups; g++) {
		for (i = 0; i < c->groups[g].nattrs; i++) {
			kv = &keys[key_slot(&idx, &keys, &nkeys, &alloc,
					    c->groups[g].attrs[i].key)];
			if (kv->added || !(kv->distinct > 1 ||
			    (kv->distinct == 1 &&
			     !streq(c->groups[g].attrs[i].value, kv->first))))
				continue;
			kv->added = 1;
			c->differ = xrealloc(c->differ, (c->ndiffer + 1) *
					     sizeof(*c->differ));
			c->differ[c->ndiffer++] = xstrdup(kv->key);
		}
	}
	hashidx_release(&idx);
	free(keys);
}

/*
 * Without --baseline: the first configuration that has a figure for some
 * test, so a matrix-only run given first does not leave every ratio of the
 * test tables blank (the matrix tables pick their own when it has none).
 */
static size_t default_baseline(const struct compare *c)
{
	size_t g, t;

	for (g = 0; g < c->ngroups; g++)
		for (t = 0; t < c->ntests; t++)
			if (c->groups[g].stats[t].n ||
			    c->groups[g].stats[t].too_fast)
				return g;
	return 0;
}

/* A configuration's attributes hashed whatever their order (summed). */
static uint64_t attrs_hash(const struct record_kv *a, size_t n)
{
	uint64_t sum = n, h;
	size_t i;

	for (i = 0; i < n; i++) {
		h = hash_str(hash_str(HASH_SEED, a[i].key), a[i].value);
		h ^= h >> 33;	/* mixed, so that sums of two pairs collide
				 * no more than the pairs' hashes do */
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
		sum += h;
	}
	return sum;
}

/* The configuration of a run with attributes a (taken), made when new. */
static size_t group_of(struct compare *c, struct hashidx *idx,
		       struct record *rec, struct record_kv *a, size_t n,
		       const struct dims_pattern *pattern)
{
	uint64_t hash = attrs_hash(a, n);
	size_t pos = 0, g;

	while (hashidx_next(idx, hash, &pos, &g))
		if (same_attrs(&c->groups[g], a, n)) {
			record_kv_free(a, n);
			return g;
		}
	g = c->ngroups++;
	c->groups = xrealloc(c->groups, c->ngroups * sizeof(*c->groups));
	memset(&c->groups[g], 0, sizeof(c->groups[g]));
	c->groups[g].attrs = a;
	c->groups[g].nattrs = n;
	c->groups[g].label = rec->label;
	c->groups[g].hash = hash;
	dims_of(rec, pattern, &c->groups[g].dims);
	hashidx_add(idx, hash, g);
	return g;
}

/* Runs into configurations (a hash of their attributes), tests listed. */
static void group_runs(struct compare *c, struct record *const *recs,
		       size_t nrecs, const struct dims_pattern *pattern)
{
	struct hashidx idx = HASHIDX_INIT;
	size_t r, g, i, *alloc = NULL, nalloc = 0, had;

	for (r = 0; r < nrecs; r++) {
		struct record_kv *a;
		size_t n;

		for (i = 0; i < recs[r]->nresults; i++)
			test_index(c, &recs[r]->results[i]);
		attrs_of(recs[r], &a, &n);
		g = group_of(c, &idx, recs[r], a, n, pattern);
		if (g >= nalloc) {
			/* each group's runs grow by doubling: alloc[g] */
			had = nalloc;
			xgrow((void **)&alloc, &nalloc, g + 1, sizeof(*alloc));
			memset(alloc + had, 0, (nalloc - had) * sizeof(*alloc));
		}
		xgrow((void **)&c->groups[g].runs, &alloc[g],
		      c->groups[g].nruns + 1, sizeof(size_t));
		c->groups[g].runs[c->groups[g].nruns++] = r;
		c->run_group[r] = g;
	}
	free(alloc);
	hashidx_release(&idx);
}

int compare_build(struct compare *c, struct record *const *recs,
		  size_t nrecs, const char *baseline,
		  const struct dims_pattern *pattern, char *err,
		  size_t errlen)
{
	size_t g, t;

	memset(c, 0, sizeof(*c));
	c->recs = recs;
	c->nrecs = nrecs;
	if (!nrecs) {
		snprintf(err, errlen, "no runs to compare");
		return -1;
	}
	add_bonnie_tests(c);
	c->run_group = xcalloc(nrecs, sizeof(*c->run_group));
	group_runs(c, recs, nrecs, pattern);
	for (g = 0; g < c->ngroups; g++) {
		c->groups[g].stats = xcalloc(c->ntests,
					     sizeof(*c->groups[g].stats));
		for (t = 0; t < c->ntests; t++)
			summarise(c, g, t);
	}
	for (t = 0; t < c->ntests; t++)
		for (g = 1; g < c->ngroups && c->tests[t].per_char; g++)
			c->tests[t].modes_differ |=
				!compare_same_mode(c, 0, g, t);
	find_differ(c);
	compare_names_build(c);
	c->noise_band = STATS_NOISE_BAND;
	c->baseline = default_baseline(c);
	if (baseline && baseline[0] == '#') {
		char *end;
		unsigned long n = strtoul(baseline + 1, &end, 10);

		if (*end || n < 1 || n > c->ngroups) {
			snprintf(err, errlen, "--baseline %s: there are %zu "
				 "configurations", baseline, c->ngroups);
			compare_release(c);
			return -1;
		}
		c->baseline = n - 1;
	} else if (baseline) {
		for (g = 0; g < c->ngroups; g++)
			if (streq(c->groups[g].label, baseline))
				break;
		if (g == c->ngroups) {
			snprintf(err, errlen, "--baseline '%s': no run has "
				 "that label", baseline);
			compare_release(c);
			return -1;
		}
		c->baseline = g;
	}
	return 0;
}

void compare_release(struct compare *c)
{
	size_t g, i;

	for (g = 0; g < c->ngroups; g++) {
		record_kv_free(c->groups[g].attrs, c->groups[g].nattrs);
		free(c->groups[g].runs);
		for (i = 0; c->groups[g].stats && i < c->ntests; i++)
			hist_release(&c->groups[g].stats[i].lat);
		free(c->groups[g].stats);
		dims_release(&c->groups[g].dims);
	}
	free(c->groups);
	for (i = 0; c->names && i < c->ngroups; i++)
		free(c->names[i]);
	free(c->names);
	for (i = 0; i < c->ndiffer; i++)
		free(c->differ[i]);
	free(c->differ);
	free(c->tests);
	free(c->run_group);
	memset(c, 0, sizeof(*c));
}

int compare_same_mode(const struct compare *c, size_t g1, size_t g2,
		      size_t t)
{
	const char *m1 = c->groups[g1].stats[t].mode;
	const char *m2 = c->groups[g2].stats[t].mode;

	if (!c->tests[t].per_char)
		return 1;
	return streq(m1, m2) && (!m1 || strcmp(m1, "mixed"));
}

double compare_ratio(const struct compare *c, size_t g, size_t t)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const struct cmp_stat *b = &c->groups[c->baseline].stats[t];

	if (!s->n || !b->n || b->mean <= 0 ||
	    !compare_same_mode(c, g, c->baseline, t))
		return NAN;
	return s->mean / b->mean;
}

void compare_welch(const struct compare *c, size_t g, size_t t,
		   struct stats_welch *w)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const struct cmp_stat *b = &c->groups[c->baseline].stats[t];

	memset(w, 0, sizeof(*w));
	w->verdict = STATS_UNTESTED;
	w->t = w->df = w->p = NAN;
	if (g == c->baseline || !compare_same_mode(c, g, c->baseline, t))
		return;
	stats_welch_test(&s->sum, &b->sum, w);
}

const char *compare_verdict_word(const struct stats_welch *w)
{
	switch (w->verdict) {
	case STATS_DIFFERENT:
		return w->t > 0 ? "significantly higher" :
				  "significantly lower";
	case STATS_SAME:
		return "not significant";
	default:
		return "untested";
	}
}

/* The difference of group g from the baseline in test t: of the rates,
 * or of the CPU figures. */
static void diff_of(const struct compare *c, size_t g, size_t t, int cpu,
		    struct stats_diff *d)
{
	const struct cmp_stat *s = &c->groups[g].stats[t];
	const struct cmp_stat *b = &c->groups[c->baseline].stats[t];
	static const struct stats_summary none;

	if (g == c->baseline || !compare_same_mode(c, g, c->baseline, t))
		stats_difference(&none, &none, c->noise_band, d);
	else if (cpu)
		stats_difference(&s->cpu_sum, &b->cpu_sum, c->noise_band, d);
	else
		stats_difference(&s->sum, &b->sum, c->noise_band, d);
}

void compare_diff(const struct compare *c, size_t g, size_t t,
		  struct stats_diff *d)
{
	diff_of(c, g, t, 0, d);
}

void compare_diff_cpu(const struct compare *c, size_t g, size_t t,
		      struct stats_diff *d)
{
	diff_of(c, g, t, 1, d);
}

void compare_diff_words(const struct stats_diff *d, char *buf, size_t len)
{
	if (d->verdict == STATS_UNTESTED)
		snprintf(buf, len, "untested");
	else if (!d->by_band)
		snprintf(buf, len, "%s (Welch p %.2g, df %.1f)",
			 compare_verdict_word(&d->w), d->w.p, d->w.df);
	else if (d->verdict == STATS_DIFFERENT)
		snprintf(buf, len, "%s, beyond the +-%g %% noise band (a "
			 "single run)", d->sign > 0 ? "higher" : "lower",
			 100 * d->band);
	else
		snprintf(buf, len, "within the +-%g %% noise band (a single "
			 "run)", 100 * d->band);
}

