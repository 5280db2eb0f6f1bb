// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite by forked workers in step (-c N, several -d): the parent runs
 * suite_loop() releasing each test to every worker and aggregating it;
 * each worker runs the same tests in its own context, one at a time.
 */
#include "bench/classic/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/parallel/aggregate.h"
#include "bench/cmdutil.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"
#include "bench/parallel/workers.h"
#include "fsops/clock.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "report/model/worker_rows.h"

struct worker_plan {
	const struct bench_config *cfg;
	const struct rundir *rundirs;	/* per worker, made by the parent */
	const struct dio_align *align;	/* per -d; NULL: no --direct */
};

static const char *worker_dir(const struct bench_config *cfg, unsigned i)
{
	return cfg->ndirs ? cfg->dirs[i / cfg->procs] : ".";
}

/* measure_begin()'s gate in a worker: wait for the others, once a step. */
struct worker_gate {
	struct workers *w;
	unsigned idx;
	unsigned step;
	int passed;
};

static void worker_gate(void *arg)
{
	struct worker_gate *g = arg;

	if (g->passed)
		return;
	g->passed = 1;
	workers_gate(g->w, g->idx, g->step);
}

/* A worker (a child): the suite in its own directory, test by test. */
static int worker_main(struct workers *w, unsigned idx, void *arg)
{
	const struct worker_plan *p = arg;
	const struct bench_config *cfg = p->cfg;
	struct record *wrec = record_new();
	char setup_err[512] = "";
	struct worker_gate gate = { .w = w, .idx = idx };
	struct bench_ctx ctx;
	size_t i;

	measure_set_gate(worker_gate, &gate);
	/* each worker's data differs from the others' */
	suite_ctx_open(&ctx, cfg, p->rundirs[idx].path, p->rundirs[idx].fd,
		       (cfg->seed + 0x9e3779b9u * (uint64_t)idx) & 0xffffffffu,
		       workers_stop_flag(w), workers_wall_flag(w),
		       p->align ? &p->align[idx / cfg->procs] : NULL, wrec,
		       setup_err, sizeof(setup_err));
	workers_set_file(w, idx, io_file_name(&ctx));

	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		size_t nwarn = wrec->nwarnings;
		struct result *res;
		uint64_t end, took, start;

		if (!bench_test_applies(t, cfg))
			continue;
		if (workers_wait(w, (unsigned)i))
			break;
		res = bench_test_result(t, wrec);
		gate.step = (unsigned)i;
		gate.passed = 0;
		if (setup_err[0])
			result_set_status(res, RESULT_FAILED, "%s", setup_err);
		else
			suite_run_test(&ctx, t, res);
		end = clock_ns();
		/* timing started at the gate and lasted elapsed */
		took = res->elapsed > 0 ? (uint64_t)(res->elapsed * 1e9) : 0;
		start = gate.passed ? workers_slot(w, idx)->gate_ns : end;
		workers_done(w, idx, (unsigned)i, res, start, start + took,
			     wrec, nwarn);
	}
	suite_ctx_close(&ctx);
	record_free(wrec);
	return 0;
}

/* suite_aggregate()'s merge: what only the suite's results carry */
struct suite_merge {
	struct result *res;
	double resid;
	unsigned nresid;
};

static void merge_result(unsigned k, const struct worker_slot *s, void *arg)
{
	struct suite_merge *m = arg;
	const struct result *r = &s->res;

	(void)k;
	hist_merge_dense(&m->res->lat, &s->lat);
	m->res->flags |= r->flags & ~RESULT_LOW_PRECISION;
	if (r->residency >= 0) {
		m->resid += r->residency;
		m->nresid++;
	}
}

/*
 * The rows of workers a signal stopped: those that saw the stop (skipped
 * "interrupted...") and, after a second signal, those the parent killed
 * (row made skipped: clyde's own SIGKILL is no failure of theirs).  *cut
 * is the first one's reason (NULL: none).  Returns the first worker that
 * really failed, or -1.
 */
static int cut_rows(struct result *res, const struct worker_slot *slots,
		    unsigned n, const char **cut)
{
	int fail = -1;
	unsigned i;

	*cut = NULL;
	for (i = 0; i < n; i++) {
		struct worker_row *row = &res->workers[i];

		if (slots[i].state == WORKER_DEAD && cmd_hurry) {
			row->status = RESULT_SKIPPED;
			free(row->reason);
			row->reason = xstrdup("killed after a second signal");
		} else if (slots[i].state != WORKER_DEAD &&
			   bench_was_interrupted(&slots[i].res)) {
			char why[64];

			/* a forked worker does not know the signal */
			bench_interrupted_text(why, sizeof(why),
					       cmd_stop_signal);
			free(row->reason);
			row->reason = xstrdup(cmd_stop_signal ? why
					      : slots[i].reason);
		} else {
			if (row->status == RESULT_FAILED && fail < 0)
				fail = (int)i;
			continue;
		}
		if (!*cut)
			*cut = row->reason;
	}
	return fail;
}

int suite_aggregate(struct result *res, const struct worker_slot *slots,
		    unsigned n, uint64_t release, const char *const *dirs,
		    const char *const *hosts, unsigned agg_flags,
		    struct record *rec)
{
	struct suite_merge m = { .res = res };
	struct aggregate a;
	const char *cut;
	unsigned i;
	int fail;

	for (i = 0; i < n; i++)
		if (slots[i].state != WORKER_DEAD)
			aggregate_warnings(rec, i, slots[i].warnings);
	aggregate_workers(res, slots, n, release, hosts, NULL, dirs, NULL,
			  agg_flags, merge_result, &m, &a);
	res->ops += a.ops;
	res->bytes += a.bytes;
	if (a.elapsed > 0) {
		res->elapsed = a.elapsed;
		res->value = a.work / a.elapsed;
		res->cpu = a.cpu;
		if (res->elapsed < RESULT_MIN_ELAPSED)
			res->flags |= RESULT_LOW_PRECISION;
	}
	if (m.nresid)
		res->residency = m.resid / m.nresid;
	fail = cut_rows(res, slots, n, &cut);
	if (fail < 0 && !cut) {
		result_set_status(res, RESULT_OK, NULL);
		return 0;
	}
	if (fail < 0) {
		/* a signal cut it short, no worker failed: not a result */
		if (cmd_stop_signal)
			bench_interrupted(res, cmd_stop_signal);
		else {	/* an MPI rank that the signal reached */
			result_set_status(res, RESULT_SKIPPED, "%s", cut);
			res->reason_kind = REASON_INTERRUPTED;
		}
		diag_error("%s: %s", res->title, res->reason);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct worker_row *row = &res->workers[i];

		if (row->status == RESULT_FAILED)
			diag_error("%s: worker %u in '%s': %s", res->title, i,
				   row->dir, row->reason);
	}
	result_set_status(res, RESULT_FAILED, "worker %d in '%s': %s",
			  fail, res->workers[fail].dir,
			  res->workers[fail].reason);
	return -1;
}

/* suite_loop()'s backend for forked workers */
struct workers_run {
	const struct bench_config *cfg;
	struct workers *w;
	unsigned n;
	const char **dirs, **hosts;
	struct record *rec;
};

static int workers_stopped(void *arg, int local)
{
	(void)arg;
	return local;
}

static int workers_run_test(void *arg, size_t i, const struct bench_test *t,
			    struct result *res)
{
	struct workers_run *r = arg;
	uint64_t release;

	(void)t;
	workers_release(r->w, (unsigned)i);
	release = workers_start_timing(r->w, (unsigned)i, &cmd_stop_signal);
	workers_collect(r->w, (unsigned)i, &cmd_stop_signal);
	return suite_aggregate(res, workers_slot(r->w, 0), r->n, release,
			       r->dirs, r->hosts, 0, r->rec);
}

int suite_run_workers(const struct bench_config *cfg,
		      const struct dio_align *align, const char *host,
		      struct record *rec)
{
	static const struct suite_backend backend = {
		.stopped = workers_stopped,
		.run = workers_run_test,
	};
	unsigned n = suite_nworkers(cfg), i;
	struct rundir *rundirs = xcalloc(n, sizeof(*rundirs));
	const char **dirs = xcalloc(n, sizeof(*dirs));
	const char **hosts = xcalloc(n, sizeof(*hosts));
	struct workers_run run;
	struct worker_plan plan;
	struct workers *w = NULL;
	char err[512];
	int status = 0;

	for (i = 0; i < n; i++)
		rundirs[i].parentfd = rundirs[i].fd = -1;
	for (i = 0; i < n; i++) {
		const char *dir = worker_dir(cfg, i);

		/* made and removed through the -d's descriptor; its own is
		 * held for a second signal's unlink (workers_set_dir) */
		if (rundir_make(&rundirs[i], dir, "clyde", err, sizeof(err))) {
			diag_error("%s", err);
			status = EXIT_FAILED;
			goto out;
		}
		dirs[i] = dir;
		hosts[i] = host;
	}
	plan.cfg = cfg;
	plan.rundirs = rundirs;
	plan.align = align;
	w = workers_start(n, worker_main, &plan, err, sizeof(err));
	if (!w) {
		diag_error("%s", err);
		status = EXIT_FAILED;
		goto out;
	}
	for (i = 0; i < n; i++)
		workers_set_dir(w, i, rundirs[i].fd);
	suite_set_signal_workers(w);
	run = (struct workers_run){
		.cfg = cfg, .w = w, .n = n, .dirs = dirs, .hosts = hosts,
		.rec = rec,
	};
	status = suite_loop(cfg, rec, &backend, &run);
out:
	if (w) {
		/* a second signal while the workers exit must still kill
		 * them: the handle goes once they are reaped, before the
		 * memory it points to */
		workers_reap(w);
		suite_set_signal_workers(NULL);
		workers_finish(w);
	}
	for (i = 0; i < n; i++)
		rundir_remove(&rundirs[i]);
	free(rundirs);
	free(dirs);
	free(hosts);
	return status;
}
