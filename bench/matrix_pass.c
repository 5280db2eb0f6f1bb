// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: a cell run by its threads, released together by a gate
 * (and with -c N by the workers' gate), for the ramp and the measured
 * time; then its rate curve, one rate-limited pass per point.
 */
#include "matrix_run.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdutil.h"
#include "../fsops/clock.h"
#include "../lib/xalloc.h"

static char *verify_reason(const struct matrix_run *run, unsigned t,
			   const char *path, const struct verify_fail *f)
{
	char found[96];

	matrix_found_str(found, sizeof(found), f->res, &f->found);
	return xasprintf("thread %u: verify: '%s' offset %" PRIu64 ": %s: "
			 "expected offset %" PRIu64 " generation %" PRIu32
			 " of file %" PRIu32 ", found %s (unit %zu bytes)", t,
			 path, f->want.offset, verify_result_str(f->res),
			 f->want.offset, f->want.gen, f->want.stream, found,
			 run->vunit);
}

int matrix_run_pass(struct matrix_run *run, const struct matrix_cell *c,
		    uint64_t seed, uint64_t interval_ns, const struct matrix_tmem *mem,
		    struct pass_result *res)
{
	const struct matrix_config *cfg = run->cfg;
	struct worker *w = xcalloc(c->threads, sizeof(*w));
	struct start_gate gate;
	uint64_t start, t0, t1, first = UINT64_MAX, last;
	struct cpu_usage u0, u1;
	uint64_t region = run->file_size;
	unsigned t, started = 0;
	int status = 0, aborted;

	if (run->nfiles == 1)
		region = run->file_size / c->threads;
	memset(&gate, 0, sizeof(gate));
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.cond, NULL);
	for (t = 0; t < c->threads; t++) {
		struct worker *x = &w[t];

		x->run = run;
		x->cell = c;
		x->gate = &gate;
		x->ramp_ns = (uint64_t)(cfg->ramp * 1e9);
		x->time_ns = (uint64_t)(cfg->time * 1e9);
		x->interval_ns = interval_ns;
		x->index = t;
		x->stream = run->nfiles == 1 ? 0 : t;
		x->fd = run->fds[x->stream];
		x->gens = run->gens ? run->gens[x->stream] : NULL;
		x->nblocks = region / c->bs;
		x->region_off = run->nfiles == 1 ?
				(uint64_t)t * region / c->bs : 0;
		if (c->hit_area && c->hit_pct) {
			x->nhit = c->hit_area / c->bs;
			if (!x->nhit)
				x->nhit = 1;
			if (x->nhit > x->nblocks)
				x->nhit = x->nblocks;
			x->hit_pct = c->hit_pct;
		}
		x->seed = seed + t * 7919u;
		x->mem = &mem[t];
		if (pthread_create(&x->tid, NULL, matrix_worker_main, x))
			break;
		started++;
	}
	/* the threads have set up their engines: go (with -c N, when
	 * every worker's have) */
	aborted = run->wk && workers_gate(run->wk, run->widx, run->wstep);
	start = clock_ns();
	pthread_mutex_lock(&gate.lock);
	gate.go = started < c->threads || aborted ? -1 : 1;
	gate.start_ns = start;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	if (started < c->threads || aborted) {
		for (t = 0; t < started; t++)
			pthread_join(w[t].tid, NULL);
		res->reason = aborted ? xstrdup("another worker stopped the run")
				      : xasprintf("cannot start %u threads",
						  c->threads);
		free(w);
		return -1;
	}
	matrix_sleep_until(start + (uint64_t)(cfg->ramp * 1e9));
	t0 = clock_ns();
	cpu_usage_now(&u0);
	matrix_sleep_until(start + (uint64_t)((cfg->ramp + cfg->time) * 1e9));
	for (t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	cpu_usage_now(&u1);
	t1 = clock_ns();
	pthread_cond_destroy(&gate.cond);
	pthread_mutex_destroy(&gate.lock);

	/* from the first thread's measuring start to the planned end or
	 * the last counted completion, whichever is later */
	last = start + (uint64_t)((cfg->ramp + cfg->time) * 1e9);
	res->hits = 0;
	for (t = 0; t < started; t++) {
		const char *path = run->paths[w[t].stream];

		if (w[t].measured && w[t].mstart < first)
			first = w[t].mstart;
		if (w[t].mend > last)
			last = w[t].mend;
		hist_merge(res->rlat, &w[t].rlat);
		hist_merge(res->wlat, &w[t].wlat);
		res->hits += w[t].hits;
		if (w[t].err && !status) {
			if (w[t].err == -EILSEQ)
				res->reason = verify_reason(run, t, path,
							    &w[t].vfail);
			else
				res->reason = xasprintf(
					"thread %u: I/O failed at offset %"
					PRIu64 " of '%s': %s", t,
					w[t].err_off, path,
					strerror(-w[t].err));
			status = -1;
		}
	}
	if (first == UINT64_MAX)
		first = start + (uint64_t)(cfg->ramp * 1e9);
	res->first_ns = first;
	res->last_ns = last;
	res->elapsed = (double)(last - first) / 1e9;
	res->cpu = cpu_percent(&u0, &u1, (double)(t1 - t0) / 1e9);
	if (!status && *matrix_stop) {
		res->reason = xstrdup("interrupted");
		status = -1;
	}
	free(w);
	return status;
}

uint64_t matrix_pass_seed(const struct matrix_config *cfg, unsigned index,
			  unsigned point)
{
	return cfg->seed * 1000003u + (uint64_t)index * 104729u +
	       (uint64_t)point * 15485863u + 1;
}

/* Run one cell, then its rate curve; 0 or -1 with the cell marked
 * failed. */
int matrix_run_cell(struct matrix_run *run, struct matrix_cell *c,
		    unsigned index, const struct matrix_tmem *mem)
{
	const struct matrix_config *cfg = run->cfg;
	struct pass_result res;
	size_t k;

	memset(&res, 0, sizeof(res));
	res.rlat = &c->rlat;
	res.wlat = &c->wlat;
	if (matrix_run_pass(run, c, matrix_pass_seed(cfg, index, 0), 0, mem, &res)) {
		c->status = RESULT_FAILED;
		c->reason = res.reason;
		c->elapsed = res.elapsed;
		matrix_cell_rates(c);
		return -1;
	}
	c->elapsed = res.elapsed;
	c->cpu = res.cpu;
	c->hits = res.hits;
	matrix_cell_rates(c);
	c->status = RESULT_OK;
	for (k = 0; k < cfg->ncurve; k++) {
		struct matrix_point *p = matrix_add_point(c);
		double per_thread;

		p->pct = cfg->curve[k];
		p->target_iops = c->iops * p->pct / 100.0;
		per_thread = p->target_iops / c->threads;
		if (per_thread <= 0) {
			p->status = RESULT_SKIPPED;
			continue;
		}
		memset(&res, 0, sizeof(res));
		res.rlat = &p->rlat;
		res.wlat = &p->wlat;
		if (matrix_run_pass(run, c, matrix_pass_seed(cfg, index, (unsigned)k + 1),
			     (uint64_t)(1e9 / per_thread) + 1, mem, &res)) {
			p->status = RESULT_FAILED;
			c->status = RESULT_FAILED;
			c->reason = xasprintf("curve point %u%%: %s", p->pct,
					      res.reason);
			free(res.reason);
			return -1;
		}
		p->elapsed = res.elapsed;
		p->cpu = res.cpu;
		matrix_point_rates(p, c->bs);
		p->status = RESULT_OK;
	}
	return 0;
}
