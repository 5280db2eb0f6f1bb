// SPDX-License-Identifier: GPL-2.0-only
/* Runs grouped into configurations, summarised per test; see compare.h. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonnie_fmt.h"
#include "record_util.h"
#include "../lib/xalloc.h"

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
	static const char *const titles[] = {
		"Per-char write", "Block write", "Rewrite", "Per-char read",
		"Block read", "Random seeks", "Sequential create",
		"Sequential read", "Sequential delete", "Random create",
		"Random read", "Random delete",
	};
	struct result r;
	size_t i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < BONNIE_NIO + BONNIE_NFILE; i++) {
		snprintf(r.name, sizeof(r.name), "%s", i < BONNIE_NIO ?
			 bonnie_io_tests[i] : bonnie_file_tests[i - BONNIE_NIO]);
		snprintf(r.title, sizeof(r.title), "%s", titles[i]);
		snprintf(r.unit, sizeof(r.unit), "%s", i < 5 ? "KiB/s" :
			 i == 5 ? "seeks/s" : "files/s");
		test_index(c, &r);
	}
}

const struct result *compare_result(const struct compare *c, size_t r,
				    size_t t)
{
	return record_find(c->recs[r], c->tests[t].name);
}

static void summarise(struct compare *c, size_t g, size_t t)
{
	struct cmp_group *grp = &c->groups[g];
	struct cmp_stat *st = &grp->stats[t];
	double cpu = 0, *vals;
	size_t i;

	hist_init(&st->lat);
	st->mode = NULL;
	vals = xcalloc(grp->nruns + 1, sizeof(*vals));
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
		vals[st->n++] = res->value;
		cpu += res->cpu;
		if (res->flags & RESULT_LOW_PRECISION)
			st->marks |= CMP_LOW_PRECISION;
		if (res->flags & RESULT_CACHED)
			st->marks |= CMP_CACHED;
		if (res->flags & RESULT_DIRECT_IGNORED)
			st->marks |= CMP_DIRECT_IGNORED;
		if (res->lat.count == 1 && res->ops != 1)
			st->marks |= CMP_MAX_ONLY;
		hist_merge(&st->lat, &res->lat);
	}
	stats_summarise(vals, st->n, &st->sum);
	free(vals);
	if (!st->n)
		return;
	st->mean = st->sum.mean;
	st->cpu = cpu / (double)st->n;
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

static void find_differ(struct compare *c)
{
	size_t g, h, i;

	for (g = 0; g < c->ngroups; g++) {
		for (i = 0; i < c->groups[g].nattrs; i++) {
			const char *key = c->groups[g].attrs[i].key;
			int differs = 0;
			size_t k;

			for (k = 0; k < c->ndiffer; k++)
				if (!strcmp(c->differ[k], key))
					break;
			if (k < c->ndiffer)
				continue;
			/*
			 * A setting one tool has and another lacks (seekers
			 * of bonnie++ 1.98, bs of fio) is no difference;
			 * what names a configuration is, even when absent.
			 */
			for (h = 0; h < c->ngroups && !differs; h++) {
				const char *v = compare_attr(&c->groups[h],
							     key);

				if (!v && !compare_name_worthy(key))
					continue;
				differs = !streq(v,
						 c->groups[g].attrs[i].value);
			}
			if (differs) {
				c->differ = xrealloc(c->differ,
						     (c->ndiffer + 1) *
						     sizeof(*c->differ));
				c->differ[c->ndiffer++] = xstrdup(key);
			}
		}
	}
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

int compare_build(struct compare *c, struct record *const *recs,
		  size_t nrecs, const char *baseline,
		  const struct dims_pattern *pattern, char *err,
		  size_t errlen)
{
	size_t r, g, t, i;

	memset(c, 0, sizeof(*c));
	c->recs = recs;
	c->nrecs = nrecs;
	if (!nrecs) {
		snprintf(err, errlen, "no runs to compare");
		return -1;
	}
	add_bonnie_tests(c);
	c->run_group = xcalloc(nrecs, sizeof(*c->run_group));
	for (r = 0; r < nrecs; r++) {
		struct record_kv *a;
		size_t n;

		for (i = 0; i < recs[r]->nresults; i++)
			test_index(c, &recs[r]->results[i]);
		attrs_of(recs[r], &a, &n);
		for (g = 0; g < c->ngroups; g++)
			if (same_attrs(&c->groups[g], a, n))
				break;
		if (g == c->ngroups) {
			c->groups = xrealloc(c->groups, (g + 1) *
					     sizeof(*c->groups));
			memset(&c->groups[g], 0, sizeof(c->groups[g]));
			c->groups[g].attrs = a;
			c->groups[g].nattrs = n;
			c->groups[g].label = recs[r]->label;
			dims_of(recs[r], pattern, &c->groups[g].dims);
			c->ngroups++;
		} else {
			record_kv_free(a, n);
		}
		c->groups[g].runs = xrealloc(c->groups[g].runs,
					     (c->groups[g].nruns + 1) *
					     sizeof(size_t));
		c->groups[g].runs[c->groups[g].nruns++] = r;
		c->run_group[r] = g;
	}
	for (g = 0; g < c->ngroups; g++) {
		c->groups[g].stats = xcalloc(c->ntests,
					     sizeof(*c->groups[g].stats));
		for (t = 0; t < c->ntests; t++)
			summarise(c, g, t);
	}
	find_differ(c);
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
		free(c->groups[g].stats);
		dims_release(&c->groups[g].dims);
	}
	free(c->groups);
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

double compare_rank(const double *values, const size_t *n,
		    const char *const *cls, size_t count, size_t i,
		    int higher_better)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t k, peers = 0;

	if (!n[i])
		return -1;
	for (k = 0; k < count; k++) {
		if (!n[k] || (cls && !streq(cls[k], cls[i])))
			continue;
		peers++;
		if (values[k] < lo)
			lo = values[k];
		if (values[k] > hi)
			hi = values[k];
	}
	if (peers < 2)
		return -1;
	if (hi <= lo)
		return 1;
	return higher_better ? (values[i] - lo) / (hi - lo) :
			       (hi - values[i]) / (hi - lo);
}
