// SPDX-License-Identifier: GPL-2.0-only
/*
 * The environment of each run on the page: host, target, device stack,
 * virtualisation, tags, params, warnings and the per-worker table, as
 * definition lists and tables written through html_emit.h.
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/write/html_emit.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"

static void dl_item(FILE *f, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	h_elem(f, "dt", key);
	h_elem(f, "dd", value);
}

/* An item whose key is formatted (it holds strings from the record). */
__attribute__((format(printf, 3, 4)))
static void dl_itemf(FILE *f, const char *value, const char *fmt, ...)
{
	va_list ap;
	char *key;

	if (!value || !*value)
		return;
	va_start(ap, fmt);
	key = record_vasprintf(fmt, ap);
	va_end(ap);
	dl_item(f, key, value);
	free(key);
}

static void dl_u64(FILE *f, const char *key, uint64_t v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	dl_item(f, key, buf);
}

/* The device stack and the host's virtualisation, generically. */
static void stack_items(FILE *f, const struct record *rec)
{
	const struct record_stack *st = rec->target.stack;
	const struct record_virt *v = rec->host.virt;
	size_t i, k;

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
		dl_itemf(f, what, "device %zu", i);
		free(what);
		for (k = 0; k < d->nfields; k++)
			dl_itemf(f, d->fields[k].value, "device %zu %s", i,
				 d->fields[k].key);
	}
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
static void host_target(FILE *f, const struct record *rec)
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
	dl_u64(f, "free bytes", rec->target.free_bytes);
}

static void run_env(FILE *f, const struct record *rec, size_t r)
{
	size_t i;

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
	dl_item(f, "tool", rec->tool);
	dl_item(f, "version", rec->version);
	dl_item(f, "source", rec->source);
	dl_item(f, "start", rec->start);
	dl_item(f, "end", rec->end);
	if (rec->repetition > 0) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%d", rec->repetition);
		dl_item(f, "repetition", buf);
	}
	host_target(f, rec);
	stack_items(f, rec);
	for (i = 0; i < rec->ntags; i++)
		dl_itemf(f, rec->tags[i].value, "tag %s", rec->tags[i].key);
	for (i = 0; i < rec->nparams; i++)
		dl_itemf(f, rec->params[i].value, "param %s",
			 rec->params[i].key);
	for (i = 0; i < rec->nwarnings; i++)
		dl_item(f, "warning", rec->warnings[i]);
	for (i = 0; i < rec->nresults; i++)
		if (rec->results[i].reason)
			dl_item(f, rec->results[i].name,
				rec->results[i].reason);
	h_lit(f, "</dl>\n");
	worker_table(f, rec, r);
	h_lit(f, "</details>\n");
}

void html_environment(struct page *p)
{
	size_t r;

	h_lit(p->f, "<h2 id=\"environment\">Environment of each run</h2>\n");
	for (r = 0; r < p->c->nrecs; r++)
		run_env(p->f, p->c->recs[r], r);
}
