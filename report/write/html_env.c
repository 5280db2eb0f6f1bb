// SPDX-License-Identifier: GPL-2.0-only
/*
 * The environment of the runs on the page: host, target, device stack,
 * virtualisation, tags, params, warnings and the per-worker table, as
 * definition lists and tables written through html_emit.h.  What every
 * run shares (a fleet's host model, kernel, parameters) is listed once,
 * first; then each configuration, what its runs share besides (its
 * filesystem, its device stack), and its runs, each with only its own
 * items: the section grows with what differs, not with the runs times
 * all they share.
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/write/html_emit.h"
#include "report/model/record_util.h"
#include "lib/hashidx.h"
#include "lib/xalloc.h"

/* An item of the first run, key = value, and the runs that have it. */
struct env_item {
	char *key, *value;
	size_t runs;		/* how many runs have it */
	size_t last;		/* the last run counted (+ 1) */
	int twice;		/* some run has it more than once */
};

/*
 * The items of the first of nruns runs, each with the number of them
 * that have it with the same value: an item is every run's when that is
 * all of them.  One that a run lists twice (two equal warnings) is
 * nobody's to share: each run lists it as often as it has it.  A run's
 * device stack counts as one item (DEVICES_KEY): a device's fields are
 * shown with it, never apart.
 */
struct env_shared {
	size_t nruns;
	struct env_item *item;
	size_t n, cap;
	struct hashidx idx;
};

#define DEVICES_KEY "\001devices"

/* What is done with each item: counted; written when every run has it;
 * when every run of its configuration has it (and not every run); when
 * neither, the run's own. */
enum env_mode { ENV_COUNT, ENV_ALL, ENV_GROUP, ENV_OWN };

struct env_out {
	FILE *f;
	enum env_mode mode;
	struct env_shared *count;	/* ENV_COUNT: counted into */
	size_t run;			/* ENV_COUNT: which of its runs */
	const struct env_shared *all;	/* every run's items, or NULL */
	const struct env_shared *group;	/* its configuration's, or NULL */
};

static uint64_t item_hash(const char *key, const char *value)
{
	return hash_str(hash_str(HASH_SEED, key), value);
}

/* The index of key = value among the first run's items, or SIZE_MAX. */
static size_t shared_find(const struct env_shared *sh, const char *key,
			  const char *value, uint64_t hash)
{
	size_t pos = 0, i;

	while (hashidx_next(&sh->idx, hash, &pos, &i))
		if (!strcmp(sh->item[i].key, key) &&
		    !strcmp(sh->item[i].value, value))
			return i;
	return SIZE_MAX;
}

static void shared_count(struct env_shared *sh, size_t run, const char *key,
			 const char *value)
{
	uint64_t hash = item_hash(key, value);
	size_t i = shared_find(sh, key, value, hash);
	struct env_item *it;

	if (i == SIZE_MAX) {
		if (run)
			return;
		xgrow((void **)&sh->item, &sh->cap, sh->n + 1,
		      sizeof(*sh->item));
		i = sh->n++;
		sh->item[i] = (struct env_item){ .key = xstrdup(key),
						 .value = xstrdup(value) };
		hashidx_add(&sh->idx, hash, i);
	}
	it = &sh->item[i];
	if (it->last == run + 1) {
		it->twice = 1;
		return;
	}
	it->last = run + 1;
	it->runs++;
}

/* Whether all of sh's runs have key = value (none when sh is NULL). */
static int every(const struct env_shared *sh, const char *key,
		 const char *value)
{
	size_t i;

	if (!sh)
		return 0;
	i = shared_find(sh, key, value, item_hash(key, value));
	return i != SIZE_MAX && sh->item[i].runs == sh->nruns &&
	       !sh->item[i].twice;
}

/* Whether the item goes to the list o writes. */
static int listed(const struct env_out *o, const char *key,
		  const char *value)
{
	int a = every(o->all, key, value);
	int g = !a && every(o->group, key, value);

	switch (o->mode) {
	case ENV_ALL:
		return a;
	case ENV_GROUP:
		return g;
	default:
		return !a && !g;
	}
}

static void dl_item(struct env_out *o, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	if (o->mode == ENV_COUNT) {
		shared_count(o->count, o->run, key, value);
		return;
	}
	if (!listed(o, key, value))
		return;
	h_elem(o->f, "dt", key);
	h_elem(o->f, "dd", value);
}

/* An item whose key is formatted (it holds strings from the record). */
__attribute__((format(printf, 3, 4)))
static void dl_itemf(struct env_out *o, const char *value, const char *fmt,
		     ...)
{
	va_list ap;
	char *key;

	if (!value || !*value)
		return;
	va_start(ap, fmt);
	key = record_vasprintf(fmt, ap);
	va_end(ap);
	dl_item(o, key, value);
	free(key);
}

static void dl_u64(struct env_out *o, const char *key, uint64_t v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	dl_item(o, key, buf);
}

/* Each device of the stack and its fields, whole, in this list or not. */
static void device_items(struct env_out *o, const struct record_stack *st)
{
	struct env_out all = { .f = o->f, .mode = ENV_OWN };
	char *sig = record_stack_devices_key(st);
	size_t i, k;

	if (o->mode == ENV_COUNT)
		shared_count(o->count, o->run, DEVICES_KEY, sig);
	if (o->mode == ENV_COUNT || !listed(o, DEVICES_KEY, sig)) {
		free(sig);
		return;
	}
	free(sig);
	for (i = 0; i < st->ndevs; i++) {
		const struct record_device *d = &st->devs[i];
		char *what;

		if (d->parent >= 0)
			what = xasprintf("%s %s (under device %d)",
					 d->kind ? d->kind : "?",
					 d->name ? d->name : "?", d->parent);
		else
			what = xasprintf("%s %s", d->kind ? d->kind : "?",
					 d->name ? d->name : "?");
		dl_itemf(&all, what, "device %zu", i);
		free(what);
		for (k = 0; k < d->nfields; k++)
			dl_itemf(&all, d->fields[k].value, "device %zu %s", i,
				 d->fields[k].key);
	}
}

/* The device stack and the host's virtualisation, generically. */
static void stack_items(struct env_out *f, const struct record *rec)
{
	const struct record_stack *st = rec->target.stack;
	const struct record_virt *v = rec->host.virt;
	size_t i;

	if (v) {
		dl_item(f, "virtualisation", v->vm > 0 ? "guest" :
			v->vm == 0 ? "none seen" : "unknown");
		dl_item(f, "hypervisor", v->hypervisor);
		dl_item(f, "emulation", v->emulation);
		dl_item(f, "virt evidence", v->evidence);
	}
	if (!st)
		return;
	for (i = 0; i < st->nfs; i++)
		dl_itemf(f, st->fs[i].value, "fs %s", st->fs[i].key);
	device_items(f, st);
}

/* One worker's cell of a result row. */
static void worker_cell(FILE *f, const struct result *res, size_t w)
{
	const struct worker_row *row = NULL;
	char buf[64];
	size_t k;

	for (k = 0; k < res->nworkers; k++)
		if (res->workers[k].worker == (int)w)
			row = &res->workers[k];
	if (!row || row->status != RESULT_OK) {
		h_open(f, "td", "class", "none", "title",
		       row ? row->reason : NULL, NULL);
		if (row)
			h_lit(f, "failed");
		h_close(f, "td");
		return;
	}
	report_fmt_value(buf, sizeof(buf), row->value, res->unit);
	h_start(f, "td");
	h_attr(f, "class", "num");
	h_attrf(f, "data-worker", "%zu", w);
	h_attrf(f, "data-v", "%.10g", row->value);
	h_attrf(f, "title", "%s %s, %.0f%% CPU, %.3f s",
		row->host ? row->host : "", row->dir ? row->dir : "",
		row->cpu, row->elapsed);
	h_end(f, 0);
	h_text(f, buf);
	h_close(f, "td");
}

/* Each worker's rate per test (clyde -c N, several -d, MPI ranks). */
static void worker_table(FILE *f, const struct record *rec, size_t r)
{
	size_t i, w, most = 0;

	for (i = 0; i < rec->nresults; i++)
		if (rec->results[i].nworkers > most)
			most = rec->results[i].nworkers;
	if (!most)
		return;
	h_start(f, "table");
	h_attr(f, "class", "workers");
	h_attrf(f, "id", "workers%zu", r + 1);
	h_end(f, 0);
	h_open(f, "caption", NULL);
	h_textf(f, "Per worker (%zu workers started together; aggregate "
		"first)", most);
	h_close(f, "caption");
	h_lit(f, "<thead><tr><th>Test</th><th>Unit</th><th>All</th>");
	for (w = 0; w < most; w++) {
		h_open(f, "th", NULL);
		h_textf(f, "#%zu", w);
		h_close(f, "th");
	}
	h_lit(f, "</tr></thead><tbody>\n");
	for (i = 0; i < rec->nresults; i++) {
		const struct result *res = &rec->results[i];
		char buf[64];

		if (!res->nworkers)
			continue;
		h_open(f, "tr", "data-test", res->name, NULL);
		h_elem(f, "td", res->title[0] ? res->title : res->name);
		h_elem(f, "td", res->unit);
		report_fmt_value(buf, sizeof(buf), res->value, res->unit);
		h_start(f, "td");
		h_attr(f, "class", "num");
		h_attrf(f, "data-v", "%.10g", res->value);
		h_end(f, 0);
		if (res->status == RESULT_OK)
			h_text(f, buf);
		h_close(f, "td");
		for (w = 0; w < most; w++)
			worker_cell(f, res, w);
		h_lit(f, "</tr>\n");
	}
	h_lit(f, "</tbody></table>\n");
}

/* Host and target of one run. */
static void host_target(struct env_out *f, const struct record *rec)
{
	dl_item(f, "host", rec->host.hostname);
	dl_item(f, "kernel", rec->host.kernel);
	dl_item(f, "cpu", rec->host.cpu_model);
	if (rec->host.cores > 0)
		dl_u64(f, "cores", (uint64_t)rec->host.cores);
	dl_u64(f, "ram bytes", rec->host.ram);
	dl_item(f, "target path", rec->target.path);
	dl_item(f, "mount point", rec->target.mountpoint);
	dl_item(f, "fs type", rec->target.fstype);
	dl_item(f, "device", rec->target.source);
	dl_item(f, "mount options", rec->target.vfs_options);
	dl_item(f, "fs options", rec->target.fs_options);
	dl_u64(f, "fs block size", rec->target.block_size);
	dl_u64(f, "fs bytes", rec->target.total_bytes);
	if (rec->target.total_bytes) {	/* a full filesystem's 0 too */
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64, rec->target.free_bytes);
		dl_item(f, "free bytes", buf);
	}
}

/* Every item of the environment of one run, in the order written. */
static void env_items(struct env_out *o, const struct record *rec)
{
	size_t i;

	dl_item(o, "tool", rec->tool);
	dl_item(o, "version", rec->version);
	dl_item(o, "source", rec->source);
	dl_item(o, "start", rec->start);
	dl_item(o, "end", rec->end);
	if (rec->repetition > 0) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%d", rec->repetition);
		dl_item(o, "repetition", buf);
	}
	host_target(o, rec);
	stack_items(o, rec);
	for (i = 0; i < rec->ntags; i++)
		dl_itemf(o, rec->tags[i].value, "tag %s", rec->tags[i].key);
	for (i = 0; i < rec->nparams; i++)
		dl_itemf(o, rec->params[i].value, "param %s",
			 rec->params[i].key);
	for (i = 0; i < rec->nwarnings; i++)
		dl_item(o, "warning", rec->warnings[i]);
	for (i = 0; i < rec->nresults; i++)
		if (rec->results[i].reason)
			dl_item(o, rec->results[i].name,
				rec->results[i].reason);
}

static void run_env(struct env_out *o, const struct record *rec, size_t r)
{
	FILE *f = o->f;

	h_start(f, "details");
	h_attrf(f, "id", "run%zu", r + 1);
	if (r == 0)
		h_attr(f, "open", "open");
	h_end(f, 0);
	h_open(f, "summary", NULL);
	h_textf(f, "Run %zu: %s", r + 1, rec->label ? rec->label :
		"(no label)");
	html_run_mark(f, rec);
	h_lit(f, " &#8212; ");
	h_text(f, rec->source ? rec->source : "this run");
	h_close(f, "summary");
	h_lit(f, "\n<dl class=\"env\">");
	env_items(o, rec);
	h_lit(f, "</dl>\n");
	worker_table(f, rec, r);
	h_lit(f, "</details>\n");
}

/*
 * Count the items of the n runs run[] (all runs when run is NULL) into
 * sh: how many every one of them has and all (every run's) has not; 0
 * when fewer than two runs (one run has them all).
 */
static size_t count_shared(struct env_shared *sh, const struct compare *c,
			   const size_t *run, size_t n,
			   const struct env_shared *all)
{
	struct env_out o = { .mode = ENV_COUNT, .count = sh };
	size_t i, own = 0;

	sh->nruns = n;
	if (n < 2)
		return 0;
	for (o.run = 0; o.run < n; o.run++)
		env_items(&o, c->recs[run ? run[o.run] : o.run]);
	for (i = 0; i < sh->n; i++)
		own += sh->item[i].runs == n && !sh->item[i].twice &&
		       !every(all, sh->item[i].key, sh->item[i].value);
	return own;
}

/* A block of what runs share, open, up to its summary's words. */
static void shared_block(FILE *f, const char *id)
{
	h_start(f, "details");
	h_attr(f, "id", id);
	h_attr(f, "open", "open");
	h_end(f, 0);
	h_open(f, "summary", NULL);
}

static void shared_release(struct env_shared *sh)
{
	size_t i;

	for (i = 0; i < sh->n; i++) {
		free(sh->item[i].key);
		free(sh->item[i].value);
	}
	free(sh->item);
	hashidx_release(&sh->idx);
	*sh = (struct env_shared){ .idx = HASHIDX_INIT };
}

/* The end of a shared block: rec's items that o's mode lists. */
static void shared_list(struct env_out *o, const struct record *rec)
{
	h_lit(o->f, "</summary>\n<dl class=\"env\">");
	env_items(o, rec);
	h_lit(o->f, "</dl>\n</details>\n");
}

/* Configuration g: what its runs share besides every run's, then each
 * of its runs with only its own. */
static void group_env(struct env_out *o, const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	struct env_shared gs = { .idx = HASHIDX_INIT };
	size_t i;
	char id[32];

	o->group = NULL;
	if (count_shared(&gs, c, grp->runs, grp->nruns, o->all)) {
		snprintf(id, sizeof(id), "env-cfg%zu", g + 1);
		shared_block(o->f, id);
		h_textf(o->f, "Configuration %zu: %s (%zu runs): what its "
			"runs share beyond every run's", g + 1, c->names[g],
			grp->nruns);
		o->mode = ENV_GROUP;
		o->group = &gs;
		shared_list(o, c->recs[grp->runs[0]]);
	}
	o->mode = ENV_OWN;
	for (i = 0; i < grp->nruns; i++)
		run_env(o, c->recs[grp->runs[i]], grp->runs[i]);
	o->group = NULL;
	shared_release(&gs);
}

void html_environment(struct page *p)
{
	const struct compare *c = p->c;
	struct env_shared all = { .idx = HASHIDX_INIT };
	struct env_out o = { .f = p->f };
	size_t g;

	h_lit(p->f, "<h2 id=\"environment\">Environment of each run</h2>\n");
	if (count_shared(&all, c, NULL, c->nrecs, NULL)) {
		shared_block(p->f, "env-shared");
		h_textf(p->f, "Every run (%zu runs): what they all share; "
			"below, each configuration and each run lists only "
			"its own", c->nrecs);
		o.mode = ENV_ALL;
		o.all = &all;
		shared_list(&o, c->recs[0]);
	}
	for (g = 0; g < c->ngroups; g++)
		group_env(&o, c, g);
	shared_release(&all);
}
