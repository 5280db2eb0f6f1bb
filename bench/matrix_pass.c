// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: a cell run by its threads, released together by a gate
 * (and with -c N by the workers' gate), for the ramp and the measured
 * time; then its rate curve, one rate-limited pass per point.
 */
#include "matrix_run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
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

/* Samples per --steady window. */
#define STEADY_SAMPLES 10

/*
 * fio's steadystate= criteria over the last STEADY_SAMPLES samples x[],
 * taken dt apart: the largest deviation from their mean, or the slope of
 * their least-squares line per second; with a % limit, as a percentage of
 * the mean.  1 when within the limit.
 */
static int steady_check(const struct matrix_config *cfg, const double *x,
			double dt, double *mean, double *value)
{
	const unsigned n = STEADY_SAMPLES;
	double m = 0, v = 0, sx = 0, sxx = 0, sxy = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		m += x[i];
	m /= n;
	if (cfg->steady_slope) {
		for (i = 0; i < n; i++) {
			double t = i * dt;

			sx += t;
			sxx += t * t;
			sxy += t * x[i];
		}
		/* slope = (n sxy - sx sy) / (n sxx - sx^2), sy = n m */
		v = (n * sxy - sx * n * m) / (n * sxx - sx * sx);
		if (v < 0)
			v = -v;
	} else {
		for (i = 0; i < n; i++) {
			double d = x[i] > m ? x[i] - m : m - x[i];

			if (d > v)
				v = d;
		}
	}
	if (cfg->steady_pct)
		v = m > 0 ? v / m * 100 : (v > 0 ? INFINITY : 0);
	*mean = m;
	*value = v;
	return m > 0 && v <= cfg->steady_limit;
}

/*
 * --steady: sample the threads' progress every window / STEADY_SAMPLES
 * from the measuring start t0 until the criterion holds over the last
 * window or the planned end; each thread keeps a latency histogram per
 * sample (epoch).  On return *epoch is the first epoch outside the window.
 */
static void steady_watch(const struct matrix_config *cfg,
			 struct worker *w, unsigned nw, const
			 struct matrix_cell *c, uint64_t t0, uint64_t end,
			 uint64_t *epoch, int *stop, struct matrix_steady *st)
{
	const double dt = cfg->steady_window / STEADY_SAMPLES;
	const uint64_t dt_ns = (uint64_t)(dt * 1e9);
	double x[STEADY_SAMPLES + 1];
	uint64_t last = 0, k;
	unsigned t, have = 0;

	st->checked = 1;
	st->window = dt * STEADY_SAMPLES;
	for (k = 1; t0 + k * dt_ns <= end && !*matrix_stop; k++) {
		uint64_t ops = 0;
		double v;

		matrix_sleep_until(t0 + k * dt_ns);
		__atomic_store_n(epoch, k, __ATOMIC_RELAXED);
		for (t = 0; t < nw; t++)
			ops += __atomic_load_n(&w[t].done, __ATOMIC_RELAXED);
		v = (double)(ops - last) / dt;
		if (cfg->steady == STEADY_BW)
			v = v * (double)c->bs / (1024.0 * 1024.0);
		last = ops;
		if (have == STEADY_SAMPLES) {
			memmove(x, x + 1, (STEADY_SAMPLES - 1) * sizeof(*x));
			have--;
		}
		x[have++] = v;
		st->at = (double)k * dt;
		if (have == STEADY_SAMPLES &&
		    steady_check(cfg, x, dt, &st->mean, &st->value)) {
			st->attained = 1;
			__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
			k++;
			break;
		}
	}
	*epoch = k - 1;
}

int matrix_run_pass(struct matrix_run *runs, unsigned nruns,
		    const struct matrix_cell *c, uint64_t seed,
		    uint64_t interval_ns, const struct matrix_tmem *mem,
		    struct pass_result *res)
{
	const struct matrix_config *cfg = runs[0].cfg;
	struct worker *w = xcalloc(c->threads, sizeof(*w));
	const int steady = res->steady && !interval_ns;
	const unsigned nring = STEADY_SAMPLES + 2;
	struct start_gate gate;
	uint64_t start, t0, t1, first = UINT64_MAX, last, epoch = 0;
	struct cpu_usage u0, u1;
	unsigned t, started = 0;
	int status = 0, aborted, stop = 0, cut;

	memset(&gate, 0, sizeof(gate));
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.cond, NULL);
	for (t = 0; t < c->threads; t++) {
		struct worker *x = &w[t];
		struct matrix_run *run = &runs[t % nruns];
		unsigned lt = t / nruns;	/* its place on its target */
		unsigned nt = matrix_target_threads(c->threads, t % nruns,
						    nruns);
		uint64_t region = run->nfiles == 1 ? run->file_size / nt :
				  run->file_size;

		x->run = run;
		x->cell = c;
		x->gate = &gate;
		x->ramp_ns = (uint64_t)(cfg->ramp * 1e9);
		x->time_ns = (uint64_t)(cfg->time * 1e9);
		x->interval_ns = interval_ns;
		x->index = t;
		x->stream = run->nfiles == 1 ? 0 : lt;
		x->fd = run->fds[x->stream];
		x->gens = run->gens ? run->gens[x->stream] : NULL;
		x->nblocks = region / c->bs;
		x->region_off = run->nfiles == 1 ?
				(uint64_t)lt * region / c->bs : 0;
		if (c->hit_area) {
			x->nhit = c->hit_area / c->bs;
			if (!x->nhit)
				x->nhit = 1;
			if (x->nhit > x->nblocks)
				x->nhit = x->nblocks;
			x->hit_pct = c->hit_pct;
		}
		x->seed = seed + t * 7919u;
		x->mem = &mem[t];
		x->pass_stop = &stop;
		if (steady) {
			unsigned k;

			x->epoch = &epoch;
			x->nring = nring;
			x->ring_r = xmalloc(nring * sizeof(*x->ring_r));
			x->ring_w = xmalloc(nring * sizeof(*x->ring_w));
			for (k = 0; k < nring; k++) {
				hist_init(&x->ring_r[k]);
				hist_init(&x->ring_w[k]);
			}
		}
		if (pthread_create(&x->tid, NULL, matrix_worker_main, x))
			break;
		started++;
	}
	/* the threads have set up their engines: go (with -c N, when
	 * every worker's have) */
	aborted = runs[0].wk && workers_gate(runs[0].wk, runs[0].widx,
					     runs[0].wstep);
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
		for (t = 0; t < c->threads; t++) {
			free(w[t].ring_r);
			free(w[t].ring_w);
		}
		free(w);
		return -1;
	}
	matrix_sleep_until(start + (uint64_t)(cfg->ramp * 1e9));
	t0 = clock_ns();
	cpu_usage_now(&u0);
	if (steady) {
		steady_watch(cfg, w, started, c,
			     start + (uint64_t)(cfg->ramp * 1e9),
			     start + (uint64_t)((cfg->ramp + cfg->time) * 1e9),
			     &epoch, &stop, res->steady);
		res->steady->window = (double)(epoch >= STEADY_SAMPLES ?
			STEADY_SAMPLES : epoch) * cfg->steady_window /
			STEADY_SAMPLES;
	}
	else
		matrix_sleep_until(start + (uint64_t)((cfg->ramp + cfg->time) *
						      1e9));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	cpu_usage_now(&u1);
	t1 = clock_ns();
	pthread_cond_destroy(&gate.cond);
	pthread_mutex_destroy(&gate.lock);

	/*
	 * From the first thread's measuring start to the planned end or
	 * the last counted completion, whichever is later.  A pass a stop
	 * cut short ran only to its last completion: its figures are over
	 * the time it ran, not the --time it did not (the rule of -c 1 and
	 * -c N alike, as each worker's pass ends here).
	 */
	cut = *matrix_stop != 0;
	last = cut ? 0 : start + (uint64_t)((cfg->ramp + cfg->time) * 1e9);
	res->hits = 0;
	for (t = 0; t < started; t++) {
		const char *path = w[t].run->paths[w[t].stream];
		struct histogram *r = &w[t].rlat, *wr = &w[t].wlat;
		struct histogram wr_sum, rd_sum;

		if (w[t].measured && w[t].mstart < first)
			first = w[t].mstart;
		if (w[t].mend > last)
			last = w[t].mend;
		if (steady) {
			/* the figures of the window: its epochs' slots */
			uint64_t k;

			hist_init(&rd_sum);
			hist_init(&wr_sum);
			for (k = epoch >= STEADY_SAMPLES ?
				 epoch - STEADY_SAMPLES : 0; k < epoch; k++) {
				if (k + nring <= w[t].ring_epoch)
					continue;	/* overwritten */
				hist_merge(&rd_sum, &w[t].ring_r[k % nring]);
				hist_merge(&wr_sum, &w[t].ring_w[k % nring]);
			}
			r = &rd_sum;
			wr = &wr_sum;
		}
		hist_merge(res->rlat, r);
		hist_merge(res->wlat, wr);
		if (res->trows) {
			hist_merge(&res->trows[t % nruns].rlat, r);
			hist_merge(&res->trows[t % nruns].wlat, wr);
		}
		res->hits += w[t].hits;
		if (w[t].err && !status) {
			res->err = w[t].err;
			if (w[t].err == -EILSEQ)
				res->reason = verify_reason(w[t].run, t, path,
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
	if (last < first)
		last = first;	/* cut before a measured completion: 0 s */
	res->first_ns = first;
	res->last_ns = last;
	res->elapsed = (double)(last - first) / 1e9;
	if (steady)
		res->elapsed = res->steady->window;
	res->cpu = cpu_percent(&u0, &u1, (double)(t1 - t0) / 1e9);
	if (!status && *matrix_stop) {
		res->reason = xstrdup("interrupted");
		status = -1;
	}
	for (t = 0; t < c->threads; t++) {
		free(w[t].ring_r);
		free(w[t].ring_w);
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
int matrix_run_cell(struct matrix_run *runs, unsigned nruns,
		    struct matrix_cell *c, unsigned index, const struct matrix_tmem *mem)
{
	const struct matrix_config *cfg = runs[0].cfg;
	struct pass_result res;
	size_t k;

	memset(&res, 0, sizeof(res));
	res.rlat = &c->rlat;
	res.wlat = &c->wlat;
	if (nruns > 1) {
		matrix_cell_targets(c, nruns);
		res.trows = c->targets;
	}
	if (cfg->steady != STEADY_NONE)
		res.steady = &c->steady;
	if (matrix_run_pass(runs, nruns, c, matrix_pass_seed(cfg, index, 0),
			    0, mem, &res)) {
		c->status = RESULT_FAILED;
		c->reason = res.reason;
		c->elapsed = res.elapsed;
		matrix_cell_rates(c);
		return res.err < 0 ? res.err : -1;
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
		if (matrix_run_pass(runs, nruns, c,
				    matrix_pass_seed(cfg, index,
						     (unsigned)k + 1),
				    (uint64_t)(1e9 / per_thread) + 1, mem,
				    &res)) {
			if (*matrix_stop && !res.err) {
				/*
				 * A stop cut this point: skipped, without
				 * figures; the cell measured in full keeps
				 * its own, the points after it are not run.
				 */
				char why[64];

				bench_interrupted_text(why, sizeof(why),
						       cmd_stop_signal);
				fprintf(stderr, "clyde: matrix cell %u: curve "
					"point %u%%: %s\n", index + 1, p->pct,
					why);
				free(res.reason);
				hist_init(&p->rlat);
				hist_init(&p->wlat);
				p->status = RESULT_SKIPPED;
				return 0;
			}
			p->status = RESULT_FAILED;
			c->status = RESULT_FAILED;
			c->reason = xasprintf("curve point %u%%: %s", p->pct,
					      res.reason);
			free(res.reason);
			return res.err < 0 ? res.err : -1;
		}
		p->elapsed = res.elapsed;
		p->cpu = res.cpu;
		matrix_point_rates(p, c->bs);
		p->status = RESULT_OK;
	}
	return 0;
}

void matrix_cell_interrupted(struct matrix_cell *c, int sig)
{
	char why[64];

	bench_interrupted_text(why, sizeof(why), sig);
	free(c->reason);
	c->reason = xstrdup(why);
	c->status = RESULT_SKIPPED;
}
