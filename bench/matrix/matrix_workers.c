// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix -c N`: N worker processes in step, each on files of its
 * own: step 0 prefills, step i + 1 runs cell i with every worker's threads
 * released together; the parent aggregates each cell from their slots.
 */
#include "bench/matrix/matrix_run.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/parallel/aggregate.h"
#include "bench/measure.h"
#include "bench/cmdutil.h"
#include "bench/progress.h"
#include "fsops/clock.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "report/model/worker_rows.h"

/* What a worker hands over per step beside its slot (shared memory). */
struct matrix_share {
	struct hist_dense rlat, wlat;
	uint64_t hits;
};

struct matrix_plan {
	const struct matrix_config *cfg;
	struct matrix_run *runs;	/* per worker, files open */
	const struct record_matrix *m;	/* the cells, in run order */
	struct matrix_share *share;	/* per worker */
};

static struct workers *volatile matrix_workers;

void matrix_second_signal(void)
{
	if (matrix_workers)
		workers_emergency(matrix_workers);
}

/*
 * A worker (a child): step 0 prefills its files, step i + 1 runs cell i
 * with its threads, released with the other workers' by the gate.
 */
static int matrix_worker(struct workers *w, unsigned idx, void *arg)
{
	const struct matrix_plan *p = arg;
	const struct matrix_config *cfg = p->cfg;
	struct matrix_run *run = &p->runs[idx];
	struct matrix_share *sh = &p->share[idx];
	struct result res;
	char *why = NULL;
	struct matrix_tmem *mem;
	size_t i;
	int rc;

	matrix_stop = workers_stop_flag(w);
	memset(&res, 0, sizeof(res));
	hist_init(&res.lat);
	run->widx = idx;	/* its files' data streams are its own */
	if (workers_wait(w, 0))
		return 1;
	{
		uint64_t bytes = 0;

		rc = matrix_prefill(cfg, run, &why, &bytes);
	}
	if (rc)
		result_set_status(&res, RESULT_FAILED, "%s",
				  why ? why : strerror(-rc));
	else
		result_set_status(&res, RESULT_OK, NULL);
	workers_done(w, idx, 0, &res, 0, 0, NULL, 0);
	free(why);
	if (rc)
		return 1;
	mem = matrix_alloc_buffers(cfg, run);
	run->wk = w;
	for (i = 0; i < p->m->ncells; i++) {
		struct matrix_cell c = p->m->cells[i];
		struct pass_result pr;
		struct histogram rl, wl;
		uint64_t ops;

		if (workers_wait(w, (unsigned)i + 1))
			break;
		run->wstep = (unsigned)i + 1;
		hist_init(&rl);
		hist_init(&wl);
		memset(&pr, 0, sizeof(pr));
		pr.rlat = &rl;
		pr.wlat = &wl;
		/* each worker's own offsets and choices */
		rc = matrix_run_pass(run, 1, &c,
				     matrix_pass_seed(cfg, (unsigned)i, 0) +
				     (uint64_t)idx * 0x9e3779b9u, 0, mem,
				     &pr);
		/* into the shared memory, where a pointer would not do */
		hist_to_dense(&sh->rlat, &rl);
		hist_to_dense(&sh->wlat, &wl);
		hist_release(&rl);
		hist_release(&wl);
		ops = sh->rlat.count + sh->wlat.count;
		if (rc && !pr.err && *matrix_stop)
			bench_interrupted(&res, 0);	/* the parent names it */
		else if (rc)
			result_set_status(&res, RESULT_FAILED, "%s",
					  pr.reason ? pr.reason : "failed");
		else
			result_set_status(&res, RESULT_OK, NULL);
		free(pr.reason);
		res.elapsed = pr.elapsed;
		res.cpu = pr.cpu;
		res.ops = ops;
		res.bytes = ops * c.bs;
		res.value = pr.elapsed > 0 ? (double)ops / pr.elapsed : 0;
		sh->hits = pr.hits;
		workers_done(w, idx, (unsigned)i + 1, &res, pr.first_ns,
			     pr.last_ns, NULL, 0);
	}
	free(res.reason);
	matrix_free_buffers(mem, matrix_max_threads(cfg));
	return 0;
}

/*
 * Cell c from every worker's slot and share: histograms merged, the span
 * from the first worker's measuring start to the last one's end, CPU of
 * all workers over it, a row per worker.  0, or -1 with c failed.
 */
/* what only a cell carries: the read and write latencies, the hits */
struct cell_merge {
	struct matrix_cell *c;
	const struct matrix_share *share;
};

static void merge_cell(unsigned k, const struct worker_slot *s, void *arg)
{
	struct cell_merge *m = arg;

	(void)s;
	hist_merge_dense(&m->c->rlat, &m->share[k].rlat);
	hist_merge_dense(&m->c->wlat, &m->share[k].wlat);
	m->c->hits += m->share[k].hits;
}

static int matrix_aggregate(struct matrix_cell *c, struct workers *w,
			    unsigned n, const struct matrix_share *share,
			    uint64_t release, const char *host,
			    const char *dir)
{
	struct cell_merge m = { .c = c, .share = share };
	struct aggregate a;

	c->workers = xcalloc(1, sizeof(*c->workers));
	aggregate_workers(c->workers, workers_slot(w, 0), n, release, NULL,
			  host, NULL, dir, AGG_NOT_OK_FAILS, merge_cell, &m,
			  &a);
	if (a.elapsed > 0) {
		c->elapsed = a.elapsed;
		c->cpu = a.cpu;
	}
	matrix_cell_rates(c);
	if (a.first_fail < 0) {
		c->status = RESULT_OK;
		return 0;
	}
	if (cmd_stop_signal) {
		/* a worker the stop cut short is skipped, the signal named,
		 * as the cell; a worker that failed stays failed */
		char why[64];
		unsigned k;

		bench_interrupted_text(why, sizeof(why), cmd_stop_signal);
		for (k = 0; k < n && k < c->workers->nworkers; k++) {
			const struct worker_slot *s = workers_slot(w, k);
			struct worker_row *row = &c->workers->workers[k];

			if (s->state == WORKER_DEAD ||
			    !bench_was_interrupted(&s->res))
				continue;
			free(row->reason);
			row->reason = xstrdup(why);
			row->status = RESULT_SKIPPED;
		}
	}
	c->status = RESULT_FAILED;
	c->reason = xasprintf("worker %d: %s", a.first_fail,
			      c->workers->workers[a.first_fail].reason);
	return -1;
}

/*
 * Run every cell of rec->matrix with n workers, one matrix_run each (files
 * open).  Returns 0 or EXIT_FAILED; the caller removes the files.
 */
/* Release the workers into cell step k and wait for their start; a stop
 * before it is forgotten (clock_stopped(), matrix_note_stop()). */
static uint64_t release_cell(struct workers *w, unsigned k)
{
	clock_stopped();
	workers_release(w, k);
	return workers_start_timing(w, k, &cmd_stop_signal);
}

/* Step 0: every worker prefills its files.  0, or EXIT_FAILED with the
 * matrix's error set. */
static int workers_prefill(const struct matrix_config *cfg,
			   const struct matrix_run *runs, unsigned n,
			   struct workers *w, struct record_matrix *m)
{
	uint64_t t0;
	unsigned k;

	progress_phase("prefill", 0, 0, NULL, 0, 0);
	m->prefill.bs = matrix_prefill_bs(cfg);
	m->prefill.scan = cfg->no_prefill;
	t0 = clock_ns();
	workers_release(w, 0);
	workers_collect(w, 0, &cmd_stop_signal);
	m->prefill.elapsed = (double)(clock_ns() - t0) / 1e9;
	progress_idle();
	for (k = 0; k < n; k++) {
		const struct worker_slot *s = workers_slot(w, k);

		if (s->state != WORKER_DEAD && s->res.status == RESULT_OK)
			continue;
		m->prefill.status = RESULT_FAILED;
		if (cmd_stop_signal)
			m->error = xasprintf("prefill interrupted by signal "
					     "%d in worker %u",
					     cmd_stop_signal, k);
		else
			m->error = xasprintf("worker %u: %s", k, s->reason);
		return EXIT_FAILED;
	}
	m->prefill.status = RESULT_OK;
	m->prefill.bytes = (uint64_t)n * runs[0].nfiles * runs[0].file_size;
	m->prefill.mbps = m->prefill.elapsed > 0 ?
			  (double)m->prefill.bytes / m->prefill.elapsed /
			  (1024.0 * 1024.0) : 0;
	return 0;
}

/* Steps 1..: the cells in order, each aggregated from the workers',
 * until one fails or a stop.  0 or EXIT_FAILED. */
static int workers_cells(const struct matrix_config *cfg, unsigned n,
			 struct workers *w, const struct matrix_plan *plan,
			 struct record *rec, const char *host)
{
	struct record_matrix *m = rec->matrix;
	const char *dir = cfg->target ? cfg->target : ".";
	size_t i;

	for (i = 0; i < m->ncells && !cmd_stop_signal; i++) {
		struct matrix_cell *c = &m->cells[i];
		uint64_t release;
		char what[96];

		snprintf(what, sizeof(what), "bs %" PRIu64 ", %u threads x %u "
			 "workers, %s, %u%% read", c->bs, c->threads, n,
			 c->random ? "random" : "seq", c->read_pct);
		progress_phase(what, (unsigned)i + 1, (unsigned)m->ncells,
			       NULL, 0, cfg->ramp + cfg->time);
		release = release_cell(w, (unsigned)i + 1);
		workers_collect(w, (unsigned)i + 1, &cmd_stop_signal);
		progress_idle();
		matrix_note_stop(rec, i, what);
		if (!matrix_aggregate(c, w, n, plan->share, release, host, dir))
			continue;
		if (cmd_stop_signal)
			matrix_cell_interrupted(c, cmd_stop_signal);
		diag_error("matrix cell %zu: %s", i + 1, c->reason);
		return EXIT_FAILED;
	}
	return 0;
}

int matrix_run_workers(const struct matrix_config *cfg,
		       struct matrix_run *runs, unsigned n,
		       struct record *rec, const char *host)
{
	struct record_matrix *m = rec->matrix;
	size_t len = n * sizeof(struct matrix_share);
	struct matrix_plan plan;
	struct workers *w;
	char err[512];
	int status;

	plan.share = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (plan.share == MAP_FAILED) {
		m->error = xasprintf("cannot map shared memory for %u "
				     "workers: %s", n, strerror(errno));
		return EXIT_FAILED;
	}
	plan.cfg = cfg;
	plan.runs = runs;
	plan.m = m;
	w = workers_start(n, matrix_worker, &plan, err, sizeof(err));
	if (!w) {
		m->error = xstrdup(err);
		munmap(plan.share, len);
		return EXIT_FAILED;
	}
	matrix_workers = w;
	status = workers_prefill(cfg, runs, n, w, m);
	if (!status)
		status = workers_cells(cfg, n, w, &plan, rec, host);
	matrix_workers = NULL;
	if (workers_finish(w) && !status && !cmd_stop_signal)
		status = EXIT_FAILED;
	munmap(plan.share, len);
	return status;
}
