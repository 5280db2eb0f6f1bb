// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: a cell run by its threads, released together by a gate
 * (and with -c N by the workers' gate), for the ramp and the measured
 * time; then its rate curve, one rate-limited pass per point.
 */
#include "bench/matrix/matrix_run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/measure.h"
#include "bench/cmdutil.h"
#include "bench/progress.h"
#include "fsops/clock.h"
#include "lib/diag.h"
#include "lib/xalloc.h"

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

/* A pass as it runs: its cell, its threads and what they share. */
struct pass {
	const struct matrix_config *cfg;
	struct matrix_run *runs;
	unsigned nruns;
	const struct matrix_cell *c;
	struct worker *w;		/* c->threads of them */
	unsigned started;		/* threads running */
	struct start_gate gate;
	uint64_t start;			/* the gate's */
	uint64_t ramp_ns, end;		/* end: start + ramp + time */
	uint64_t epoch;			/* --steady: the sample */
	int steady, stop;		/* stop: the threads stop issuing */
};

/* Number of --steady rings: a window of samples and two to turn. */
#define STEADY_RING (STEADY_SAMPLES + 2)

/* Thread t's share of the pass: its target, file, region of it and
 * hit area, its seed and memory. */
static void pass_thread(struct pass *p, unsigned t, uint64_t seed,
			uint64_t interval_ns, const struct matrix_tmem *mem)
{
	const struct matrix_cell *c = p->c;
	struct worker *x = &p->w[t];
	struct matrix_run *run = &p->runs[t % p->nruns];
	unsigned lt = t / p->nruns;	/* its place on its target */
	unsigned nt = matrix_target_threads(c->threads, t % p->nruns,
					    p->nruns);
	uint64_t region = run->nfiles == 1 ? run->file_size / nt :
			  run->file_size;

	x->run = run;
	x->cell = c;
	x->gate = &p->gate;
	x->ramp_ns = p->ramp_ns;
	x->time_ns = (uint64_t)(p->cfg->time * 1e9);
	x->interval_ns = interval_ns;
	x->index = t;
	x->stream = run->nfiles == 1 ? 0 : lt;
	x->fd = run->fds[x->stream];
	x->gens = run->gens ? run->gens[x->stream] : NULL;
	x->nblocks = region / c->bs;
	x->region_off = run->nfiles == 1 ? (uint64_t)lt * region / c->bs : 0;
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
	x->pass_stop = &p->stop;
	if (p->steady) {
		unsigned k;

		x->epoch = &p->epoch;
		x->nring = STEADY_RING;
		x->ring_r = xmalloc(STEADY_RING * sizeof(*x->ring_r));
		x->ring_w = xmalloc(STEADY_RING * sizeof(*x->ring_w));
		for (k = 0; k < STEADY_RING; k++) {
			hist_dense_init(&x->ring_r[k]);
			hist_dense_init(&x->ring_w[k]);
		}
	}
}

/*
 * Start the threads (each sets up its engine) and open the gate when all
 * have, with -c N when every worker's have.  0, or -1 with the threads
 * that started joined and res->reason set.
 */
static int pass_start(struct pass *p, struct pass_result *res)
{
	const unsigned n = p->c->threads;
	unsigned t;
	int aborted;

	pthread_mutex_init(&p->gate.lock, NULL);
	pthread_cond_init(&p->gate.cond, NULL);
	for (t = 0; t < n; t++) {
		if (pthread_create(&p->w[t].tid, NULL, matrix_worker_main,
				   &p->w[t]))
			break;
		p->started++;
	}
	aborted = p->runs[0].wk && workers_gate(p->runs[0].wk,
						p->runs[0].widx,
						p->runs[0].wstep);
	p->start = clock_ns();
	p->end = p->start + (uint64_t)((p->cfg->ramp + p->cfg->time) * 1e9);
	pthread_mutex_lock(&p->gate.lock);
	p->gate.go = p->started < n || aborted ? -1 : 1;
	p->gate.start_ns = p->start;
	pthread_cond_broadcast(&p->gate.cond);
	pthread_mutex_unlock(&p->gate.lock);
	if (p->gate.go > 0)
		return 0;
	for (t = 0; t < p->started; t++)
		pthread_join(p->w[t].tid, NULL);
	res->reason = aborted ? xstrdup("another worker stopped the run")
			      : xasprintf("cannot start %u threads", n);
	return -1;
}

/* Let the threads run to the planned end (--steady: or until steady),
 * then stop and join them; the CPU used from the ramp's end. */
static void pass_wait(struct pass *p, struct pass_result *res)
{
	const struct matrix_config *cfg = p->cfg;
	struct cpu_usage u0, u1;
	uint64_t t0, t1;
	unsigned t;

	matrix_sleep_until(p->start + p->ramp_ns);
	t0 = clock_ns();
	cpu_usage_now(&u0);
	if (p->steady) {
		steady_watch(cfg, p->w, p->started, p->c,
			     p->start + p->ramp_ns, p->end, &p->epoch,
			     &p->stop, res->steady);
		res->steady->window = (double)(p->epoch >= STEADY_SAMPLES ?
			STEADY_SAMPLES : p->epoch) * cfg->steady_window /
			STEADY_SAMPLES;
	} else {
		matrix_sleep_until(p->end);
	}
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	for (t = 0; t < p->started; t++)
		pthread_join(p->w[t].tid, NULL);
	cpu_usage_now(&u1);
	t1 = clock_ns();
	res->cpu = cpu_percent(&u0, &u1, (double)(t1 - t0) / 1e9);
}

/* --steady: thread x's figures of the window, its epochs' slots. */
static void steady_sum(const struct pass *p, const struct worker *x,
		       struct hist_dense *rd, struct hist_dense *wr)
{
	uint64_t k;

	hist_dense_init(rd);
	hist_dense_init(wr);
	for (k = p->epoch >= STEADY_SAMPLES ? p->epoch - STEADY_SAMPLES : 0;
	     k < p->epoch; k++) {
		if (k + STEADY_RING <= x->ring_epoch)
			continue;	/* overwritten */
		hist_dense_merge(rd, &x->ring_r[k % STEADY_RING]);
		hist_dense_merge(wr, &x->ring_w[k % STEADY_RING]);
	}
}

/* Thread t's figures into res (and its target's row); its failure, the
 * pass's first, as res's reason.  -1 when it failed. */
static int pass_merge(const struct pass *p, unsigned t, int failed,
		      struct pass_result *res)
{
	const struct worker *x = &p->w[t];
	const char *path = x->run->paths[x->stream];
	const struct hist_dense *r = &x->rlat, *wr = &x->wlat;
	struct hist_dense wr_sum, rd_sum;

	if (p->steady) {
		steady_sum(p, x, &rd_sum, &wr_sum);
		r = &rd_sum;
		wr = &wr_sum;
	}
	hist_merge_dense(res->rlat, r);
	hist_merge_dense(res->wlat, wr);
	if (res->trows) {
		hist_merge_dense(&res->trows[t % p->nruns].rlat, r);
		hist_merge_dense(&res->trows[t % p->nruns].wlat, wr);
	}
	res->hits += x->hits;
	if (!x->err)
		return 0;
	if (failed)
		return -1;
	res->err = x->err;
	if (x->err == -EILSEQ)
		res->reason = verify_reason(x->run, t, path, &x->vfail);
	else
		res->reason = xasprintf("thread %u: I/O failed at offset %"
					PRIu64 " of '%s': %s", t, x->err_off,
					path, strerror(-x->err));
	return -1;
}

/*
 * The pass's figures: every thread's merged, over the span from the
 * first thread's measuring start to the planned end or the last counted
 * completion, whichever is later.  A pass a stop cut short ran only to
 * its last completion: its figures are over the time it ran, not the
 * --time it did not (the rule of -c 1 and -c N alike, as each worker's
 * pass ends here).  0, or -1 with res's reason.
 */
static int pass_figures(const struct pass *p, struct pass_result *res)
{
	uint64_t first = UINT64_MAX, last = *matrix_stop ? 0 : p->end;
	unsigned t;
	int status = 0;

	res->hits = 0;
	for (t = 0; t < p->started; t++) {
		const struct worker *x = &p->w[t];

		if (x->measured && x->mstart < first)
			first = x->mstart;
		if (x->mend > last)
			last = x->mend;
		if (pass_merge(p, t, status, res))
			status = -1;
	}
	if (first == UINT64_MAX)
		first = p->start + p->ramp_ns;
	if (last < first)
		last = first;	/* cut before a measured completion: 0 s */
	res->first_ns = first;
	res->last_ns = last;
	res->elapsed = (double)(last - first) / 1e9;
	if (p->steady)
		res->elapsed = res->steady->window;
	if (!status && *matrix_stop) {
		res->reason = xstrdup("interrupted");
		status = -1;
	}
	return status;
}

int matrix_run_pass(struct matrix_run *runs, unsigned nruns,
		    const struct matrix_cell *c, uint64_t seed,
		    uint64_t interval_ns, const struct matrix_tmem *mem,
		    struct pass_result *res)
{
	struct pass p;
	unsigned t;
	int status;

	memset(&p, 0, sizeof(p));
	p.cfg = runs[0].cfg;
	p.runs = runs;
	p.nruns = nruns;
	p.c = c;
	p.w = xcalloc(c->threads, sizeof(*p.w));
	p.steady = res->steady && !interval_ns;
	p.ramp_ns = (uint64_t)(p.cfg->ramp * 1e9);
	for (t = 0; t < c->threads; t++)
		pass_thread(&p, t, seed, interval_ns, mem);
	status = pass_start(&p, res);
	if (!status) {
		pass_wait(&p, res);
		status = pass_figures(&p, res);
	}
	pthread_cond_destroy(&p.gate.cond);
	pthread_mutex_destroy(&p.gate.lock);
	for (t = 0; t < c->threads; t++) {
		free(p.w[t].ring_r);
		free(p.w[t].ring_w);
	}
	free(p.w);
	return status;
}

uint64_t matrix_pass_seed(const struct matrix_config *cfg, unsigned index,
			  unsigned point)
{
	return cfg->seed * 1000003u + (uint64_t)index * 104729u +
	       (uint64_t)point * 15485863u + 1;
}

/*
 * Curve point k of cell c: a pass paced at its share of the cell's IO/s
 * (or of --curve-max).  0; 1 when a stop cut it (skipped, without
 * figures: the cell measured in full keeps its own, the points after it
 * are not run); or, with the point and the cell failed, as
 * matrix_run_cell().
 */
static int run_point(struct matrix_run *runs, unsigned nruns,
		     struct matrix_cell *c, unsigned index, size_t k,
		     const struct matrix_tmem *mem)
{
	const struct matrix_config *cfg = runs[0].cfg;
	struct matrix_point *p = matrix_add_point(c);
	struct pass_result res;
	double per_thread;
	uint64_t interval;
	char why[64];

	p->pct = cfg->curve[k];
	p->target_iops = (cfg->curve_max ? (double)cfg->curve_max :
			  c->iops) * p->pct / 100.0;
	per_thread = p->target_iops / c->threads;
	if (per_thread <= 0) {
		p->status = RESULT_SKIPPED;
		return 0;
	}
	interval = (uint64_t)(1e9 / per_thread + 0.5);
	memset(&res, 0, sizeof(res));
	res.rlat = &p->rlat;
	res.wlat = &p->wlat;
	if (!matrix_run_pass(runs, nruns, c,
			     matrix_pass_seed(cfg, index, (unsigned)k + 1),
			     interval ? interval : 1, mem, &res)) {
		p->elapsed = res.elapsed;
		p->cpu = res.cpu;
		matrix_point_rates(p, c->bs);
		p->status = RESULT_OK;
		return 0;
	}
	if (*matrix_stop && !res.err) {
		bench_interrupted_text(why, sizeof(why), cmd_stop_signal);
		progress_idle();	/* off the progress line */
		diag_note("matrix cell %u: curve point %u%%: %s", index + 1,
			  p->pct, why);
		free(res.reason);
		hist_release(&p->rlat);
		hist_release(&p->wlat);
		p->status = RESULT_SKIPPED;
		return 1;
	}
	p->status = RESULT_FAILED;
	c->status = RESULT_FAILED;
	c->reason = xasprintf("curve point %u%%: %s", p->pct, res.reason);
	free(res.reason);
	return res.err < 0 ? res.err : -1;
}

/* Run one cell, then its rate curve; 0 or -1 with the cell marked
 * failed. */
int matrix_run_cell(struct matrix_run *runs, unsigned nruns,
		    struct matrix_cell *c, unsigned index, const struct matrix_tmem *mem)
{
	const struct matrix_config *cfg = runs[0].cfg;
	struct pass_result res;
	size_t k;
	int rc;

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
		rc = run_point(runs, nruns, c, index, k, mem);
		if (rc)
			return rc > 0 ? 0 : rc;
	}
	return 0;
}

void matrix_cell_interrupted(struct matrix_cell *c, int sig)
{
	matrix_cell_set_reason(c, RESULT_SKIPPED, REASON_INTERRUPTED, sig, NULL);
}

void matrix_note_stop(struct record *rec, size_t i, const char *what)
{
	if (!clock_stopped())
		return;
	rec->matrix->cells[i].stopped = 1;
	record_warn(rec, "matrix cell %zu (%s): stopped: "
		    RECORD_STOPPED_TEXT, i + 1, what);
}
