// SPDX-License-Identifier: GPL-2.0-only
/* The aggregation of several workers' results, for run and matrix. */
#include "bench/parallel/aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "report/model/worker_rows.h"

void aggregate_warnings(struct record *rec, unsigned idx, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *msg = xasprintf("worker %u: %.*s", idx, (int)len, text);
		size_t i;

		for (i = 0; i < rec->nwarnings; i++)
			if (!strcmp(rec->warnings[i], msg))
				break;
		if (i == rec->nwarnings)
			record_warn(rec, "%s", msg);
		free(msg);
		text += len + (nl ? 1 : 0);
	}
}

void aggregate_workers(struct result *rows, const struct worker_slot *slots,
		       unsigned n, uint64_t release, const char *const *hosts,
		       const char *host, const char *const *dirs,
		       const char *dir, unsigned flags,
		       void (*merge)(unsigned k, const struct worker_slot *s,
				     void *arg),
		       void *arg, struct aggregate *out)
{
	double first = 0, last = 0, cpu_s = 0;
	unsigned k;

	memset(out, 0, sizeof(*out));
	out->first_fail = -1;
	for (k = 0; k < n; k++) {
		const struct worker_slot *s = &slots[k];
		const struct result *r = &s->res;
		struct worker_row *row;
		int failed;

		row = result_add_worker(rows, (int)k, hosts ? hosts[k] : host,
					dirs ? dirs[k] : dir);
		if (s->state == WORKER_DEAD) {
			row->status = RESULT_FAILED;
			row->reason = xstrdup(s->reason[0] ? s->reason
							   : "died");
			if (out->first_fail < 0)
				out->first_fail = (int)k;
			continue;
		}
		failed = r->status == RESULT_FAILED ||
			 ((flags & AGG_NOT_OK_FAILS) && r->status != RESULT_OK);
		row->status = failed ? RESULT_FAILED : r->status;
		if (failed) {
			row->reason = xstrdup(s->reason[0] ? s->reason
							   : "failed");
			if (out->first_fail < 0)
				out->first_fail = (int)k;
		}
		if (r->status != RESULT_OK && !failed)
			continue;
		row->value = r->value;
		row->cpu = r->cpu;
		row->ops = r->ops;
		row->bytes = r->bytes;
		row->elapsed = r->elapsed;
		row->first_s = ((double)s->first_ns - (double)release) / 1e9;
		row->last_s = ((double)s->last_ns - (double)release) / 1e9;
		if (!out->measured || row->first_s < first)
			first = row->first_s;
		if (!out->measured || row->last_s > last)
			last = row->last_s;
		out->measured++;
		out->work += r->value * r->elapsed;
		cpu_s += r->cpu / 100 * r->elapsed;
		out->ops += r->ops;
		out->bytes += r->bytes;
		if (merge)
			merge(k, s, arg);
	}
	if (flags & AGG_FROM_BARRIER)
		first = 0;
	if (out->measured && last > first) {
		out->elapsed = last - first;
		out->cpu = cpu_s / out->elapsed * 100;
	}
}
