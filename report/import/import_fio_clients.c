// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio client/server output ("client_stats"): fio sends the job file to
 * every server and they run it at the same time, so the entries of one
 * job name in one output are one concurrent run, not repeats: summed into
 * the first, each entry (a client, or a thread of one without
 * group_reporting) a worker row named by its host and port.  fio's own
 * "All clients" entry is left out: it adds up every group, not one job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/import/import_fio.h"
#include "report/model/worker_rows.h"
#include "lib/xalloc.h"

/* The entry's client as "host:port" (owned). */
static char *client_name(struct json_object *j)
{
	const char *host = fio_get_str(j, "hostname");
	double port = fio_get_num(j, "port");

	if (port > 0 && port < 65536)
		return xasprintf("%s:%.0f", host ? host : "?", port);
	return xstrdup(host ? host : "?");
}

/* Each result of src as worker row number w of the same result in dst. */
static void add_rows(struct record *dst, const struct record *src, int w,
		     const char *client)
{
	size_t i;

	for (i = 0; i < src->nresults; i++) {
		const struct result *r = &src->results[i];
		struct result *t = record_find(dst, r->name);
		struct worker_row *row;

		if (!t)
			continue;
		row = result_add_worker(t, w, client, NULL);
		row->status = r->status;
		row->value = r->value;
		row->cpu = r->cpu;
		row->ops = r->ops;
		row->bytes = r->bytes;
		row->elapsed = r->elapsed;
		if (r->reason)
			row->reason = xstrdup(r->reason);
	}
}

/* How many distinct clients the rows of dst's first result name. */
static size_t clients(const struct record *dst)
{
	const struct result *r = dst->nresults ? &dst->results[0] : NULL;
	size_t i, k, n = 0;

	for (i = 0; r && i < r->nworkers; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(r->workers[k].host, r->workers[i].host))
				break;
		n += k == i;
	}
	return n;
}

int fio_add_job(struct doc *d, struct record *rec, struct json_object *j,
		int is_client)
{
	char *client, buf[32];
	struct record *dst = NULL;
	size_t k, n;

	if (!is_client) {
		import_add(d->im, rec);
		return 1;
	}
	client = client_name(j);

	for (k = 0; k < d->nclones; k++)
		if (!strcmp(d->clones[k].name, rec->label))
			dst = d->clones[k].rec;
	if (!dst) {
		add_rows(rec, rec, 0, client);
		d->clones = xrealloc(d->clones, (d->nclones + 1) *
				     sizeof(*d->clones));
		d->clones[d->nclones].name = rec->label;
		d->clones[d->nclones++].rec = rec;
		free(client);
		import_add(d->im, rec);
		return 1;
	}
	n = dst->nresults ? dst->results[0].nworkers : 0;
	add_rows(dst, rec, (int)n, client);
	fio_sum_figures(dst, rec);
	record_free(rec);
	free(client);
	snprintf(buf, sizeof(buf), "%zu", n + 1);
	record_set_param(dst, PARAM_CONCURRENCY, buf, 1);
	if (n == 1)
		record_warn(dst, "fio job '%s' ran on several clients at "
			    "once (client/server): one run, their rates "
			    "summed, each a worker row", dst->label);
	snprintf(buf, sizeof(buf), "%zu", clients(dst));
	record_set_param(dst, "fio_clients", buf, 1);
	return 0;
}
