// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: the command.  One file per thread (or one shared file,
 * a region per thread), prefilled sequentially with unique data; then per
 * cell, threads released together by a barrier run the I/O loop for the
 * ramp and the measured time (bench/matrix/matrix_run.h lists the parts).  Here:
 * the options, every check before anything is created, the outputs, and
 * the cells, built once (add_cells) and run in order.
 */
#include "bench/matrix/matrix.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "bench/matrix/matrix_run.h"
#include "bench/measure.h"
#include "bench/cmdutil.h"
#include "bench/outputs.h"
#include "bench/progress.h"
#include "bench/rundir.h"
#include "bench/env.h"
#include "bench/run_kinds.h"
#include "fsops/clock.h"
#include "fsops/engine.h"
#include "fsops/stack.h"
#include "fsops/uring.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "report/model/matrix.h"
#include "report/model/record.h"

static void fill_matrix_record(struct record *rec,
			       const struct matrix_config *cfg,
			       const struct matrix_run *runs, unsigned n,
			       const struct host_info *host,
			       const struct fs_target *targets)
{
	const struct matrix_run *run = &runs[0];
	char buf[64];
	unsigned i;

	record_fill_env(rec, host, &targets[0], run->path, cfg->label, 1);
	if (run->kind == TARGET_DEVICE)
		record_set_str(&rec->target.source, run->path);
	matrix_options_record(cfg, rec);
	snprintf(buf, sizeof(buf), "%" PRIu64, run->file_size);
	record_set_param(rec, PARAM_FILE_SIZE, buf, 1);
	snprintf(buf, sizeof(buf), "%u", run->nfiles);
	record_set_param(rec, "files", buf, 1);
	snprintf(buf, sizeof(buf), "%zu", run->align.offset);
	record_set_param(rec, "io_alignment", buf, 1);
	rec->matrix = matrix_new();
	rec->matrix->engine = xstrdup(run->engine->name);
	rec->matrix->direct = run->direct;
	rec->matrix->verify = cfg->verify;
	if (cfg->profile)
		rec->matrix->profile = xstrdup(cfg->profile);
	if (cfg->steady != STEADY_NONE) {
		matrix_steady_name(cfg, buf, sizeof(buf));
		rec->matrix->steady = xasprintf("%s over %g s", buf,
						cfg->steady_window);
	}
	if (run->vunit) {
		snprintf(buf, sizeof(buf), "%zu", run->vunit);
		record_set_param(rec, "verify_unit", buf, 1);
	}
	/* several -d: every target named with its stack (record.targets,
	 * as clyde run -d A -d B fills them) */
	if (n > 1)
		rec->targets = xcalloc(n, sizeof(*rec->targets));
	for (i = 0; n > 1 && i < n; i++) {
		struct record *tmp = record_new();

		record_fill_env(tmp, host, &targets[i], runs[i].path, NULL, 1);
		if (runs[i].kind == TARGET_DEVICE)
			record_set_str(&tmp->target.source, runs[i].path);
		rec->targets[rec->ntargets++] = tmp->target;
		memset(&tmp->target, 0, sizeof(tmp->target));
		record_free(tmp);
	}
	/* their cells are summed: unlike targets are warned of (devices,
	 * whose stacks are not detected here, are left out) */
	if (n > 1 && run->kind != TARGET_DEVICE) {
		const char **paths = xcalloc(n, sizeof(*paths));
		const struct fs_target **tp = xcalloc(n, sizeof(*tp));
		char *mixed;

		for (i = 0; i < n; i++) {
			paths[i] = runs[i].path;
			tp[i] = &targets[i];
		}
		mixed = run_mixed_kinds(paths, tp, n);
		if (mixed) {
			diag_warning("%s", mixed);
			record_warn(rec, "%s", mixed);
		}
		free(mixed);
		free(paths);
		free(tp);
	}
}

/* Every cell of the run, in order, not run yet. */
static void add_cells(const struct matrix_config *cfg,
		      struct record_matrix *m)
{
	size_t b, t, p, k;

	for (b = 0; b < cfg->nbs; b++)
	for (t = 0; t < cfg->nthreads; t++)
	for (p = 0; p < cfg->npatterns; p++)
	for (k = 0; k < cfg->nmix; k++) {
		struct matrix_cell *c = matrix_add_cell(m);

		c->bs = cfg->bs[b];
		c->threads = cfg->threads[t];
		c->qd = cfg->qd;
		c->random = cfg->random[p];
		c->read_pct = cfg->mix[k];
		if (cfg->hit_area) {
			c->hit_area = cfg->hit_area;
			c->hit_pct = cfg->hit_pct;
		}
	}
}

/*
 * The engine: --engine's, or the default (io_uring where the kernel lets
 * us set up a ring, else libaio with *note saying why), checked against
 * --qd, --sqpoll and --hipri and probed; every target's run gets it.
 * 0 or EXIT_USAGE.
 */
static int pick_engine(struct matrix_config *cfg, struct matrix_run *runs,
		       unsigned n, const char **note)
{
	const struct io_engine_ops *e;
	unsigned i;
	int rc;

	*note = NULL;
	e = cfg->engine ? io_engine_find(cfg->engine) : io_engine_default(note);
	if (e->max_depth && cfg->qd > e->max_depth)
		return cmd_usage_error("--qd: %s does at most %u I/Os at a "
				       "time", e->name, e->max_depth);
	if (cfg->sqpoll && !(e->flags & IO_ENGINE_SQPOLL))
		return cmd_usage_error("--sqpoll: needs io_uring, and %s",
				       *note ? *note : "it is not chosen");
	if (cfg->hipri && !(e->flags & IO_ENGINE_HIPRI))
		return cmd_usage_error("--hipri: needs io_uring, and %s",
				       *note ? *note : "it is not chosen");
	for (i = 0; i < n; i++) {
		runs[i].engine = e;
		runs[i].engine_flags = (cfg->sqpoll ? IO_SETUP_SQPOLL : 0) |
				       (cfg->hipri ? IO_SETUP_HIPRI : 0);
	}
	rc = io_engine_probe(e, runs[0].engine_flags);
	if (rc < 0)
		return cmd_usage_error("--engine: %s%s%s cannot be used here: "
				       "%s", e->name,
				       cfg->sqpoll ? " with --sqpoll" : "",
				       cfg->hipri ? " with --hipri" : "",
				       strerror(-rc));
	cfg->engine = e->name;	/* the params say which */
	return 0;
}

/* Every cell still not run gets the reason: the signal that stopped the
 * run (0: none), or the detail (printf-style, may be NULL). */
__attribute__((format(printf, 3, 4)))
static void mark_not_run(struct record_matrix *m, int sig, const char *fmt,
			 ...)
{
	char buf[512];
	va_list ap;
	size_t i;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
	}
	for (i = 0; i < m->ncells; i++)
		if (m->cells[i].status == RESULT_NOT_RUN &&
		    !m->cells[i].reason)
			matrix_cell_set_reason(&m->cells[i], RESULT_NOT_RUN,
					       REASON_NOT_RUN, sig,
					       fmt ? buf : NULL);
}

/*
 * Prefill every target in turn, timed from the first write to the last
 * fsync; the figures into m->prefill.  0, or the exit status after the
 * failure is recorded (m->error) and said.
 */
static int prefill_all(const struct matrix_config *cfg,
		       struct matrix_run *runs, unsigned n,
		       struct record_matrix *m)
{
	struct matrix_prefill *p = &m->prefill;
	uint64_t t0 = clock_ns();
	char *why = NULL;
	unsigned i;
	int rc = 0;

	p->bs = matrix_prefill_bs(cfg);
	p->scan = cfg->no_prefill;
	if (cfg->no_prefill && !cfg->verify)
		return 0;	/* nothing read, nothing written */
	progress_phase("prefill", 0, 0, NULL, 0, 0);
	for (i = 0; i < n && !rc; i++)
		rc = matrix_prefill(cfg, &runs[i], &why, &p->bytes);
	progress_idle();
	p->elapsed = (double)(clock_ns() - t0) / 1e9;
	p->mbps = p->elapsed > 0 ? (double)p->bytes / p->elapsed /
		  (1024.0 * 1024.0) : 0;
	p->status = rc ? RESULT_FAILED : RESULT_OK;
	if (!rc)
		return 0;
	if (cmd_stop_signal) {
		free(why);
		why = xasprintf("prefill interrupted by %s",
				bench_signal_name(cmd_stop_signal));
	} else if (rc == -ENOSPC) {
		char *old = why;

		why = xasprintf("%s (%s)", old ? old : "prefill: no space",
				runs[i - 1].kind == TARGET_FILE ?
				"the file is left as it is, its data partly "
				"overwritten" : "clyde's files are removed");
		free(old);
	} else if (!why) {
		why = xasprintf("prefill: %s", strerror(-rc));
	}
	diag_error("%s", why);
	m->error = why;
	mark_not_run(m, (int)cmd_stop_signal, "%s", why);
	return cmd_stop_signal ? 128 + cmd_stop_signal : EXIT_FAILED;
}

/*
 * The cells in order.  A cell that fails stops the run, the rest marked
 * not run with the reason; after ENOSPC only cells without writes still
 * run (a copy-on-write filesystem needs room for every write).
 */
static int run_cells(const struct matrix_config *cfg,
		     struct matrix_run *runs, unsigned n, struct record *rec,
		     const struct matrix_tmem *mem)
{
	struct record_matrix *m = rec->matrix;
	size_t i, nospace = 0;
	int status = 0;

	for (i = 0; i < m->ncells && !cmd_stop_signal; i++) {
		struct matrix_cell *c = &m->cells[i];
		char what[96];
		int rc;

		if (nospace && c->read_pct < 100) {
			snprintf(what, sizeof(what), "cell %zu ran out of "
				 "space and this cell writes", nospace);
			matrix_cell_set_reason(c, RESULT_NOT_RUN,
					       REASON_NOT_RUN, 0, what);
			continue;
		}
		if (status && !nospace)
			break;
		snprintf(what, sizeof(what), "bs %" PRIu64 ", %u threads, %s, "
			 "%u%% read", c->bs, c->threads,
			 c->random ? "random" : "seq", c->read_pct);
		progress_phase(what, (unsigned)i + 1, (unsigned)m->ncells,
			       NULL, 0,
			       (cfg->ramp + cfg->time) * (double)(1 + cfg->ncurve));
		clock_stopped();
		rc = matrix_run_cell(runs, n, c, (unsigned)i, mem);
		progress_idle();
		matrix_note_stop(rec, i, what);
		if (!rc)
			continue;
		status = EXIT_FAILED;
		if (cmd_stop_signal)
			matrix_cell_interrupted(c, cmd_stop_signal);
		diag_error("matrix cell %zu: %s", i + 1,
			   c->reason ? c->reason : "failed");
		if (cmd_stop_signal)
			break;
		if (rc == -ENOSPC && !nospace)
			nospace = i + 1;
		else if (!nospace)
			mark_not_run(m, 0, "cell %zu failed", i + 1);
	}
	if (cmd_stop_signal)
		mark_not_run(m, (int)cmd_stop_signal, NULL);
	return status;
}

/* Everything one `clyde matrix` holds between its steps. */
struct matrix_state {
	struct matrix_config cfg;
	struct matrix_run *tg;		/* one per -d */
	struct matrix_run *runs;	/* -c N: one per worker, [0] = tg[0] */
	struct fs_target *targets;	/* one per -d */
	struct host_info host;
	struct record *rec;
	struct outputs out;
	struct matrix_tmem *mem;
	const char *note;		/* why the default engine is not ours */
	unsigned n, procs;
};

/* The outputs of clyde matrix, in the order added. */
enum { MATRIX_OUT_JSON, MATRIX_OUT_CSV };

/* Each -d checked, of one kind, with the engine.  0 or EXIT_USAGE. */
static int check_targets(struct matrix_state *s)
{
	static const char dot[] = ".";
	struct matrix_config *cfg = &s->cfg;
	unsigned i;
	int status;

	s->n = cfg->ntargets ? (unsigned)cfg->ntargets : 1;
	s->tg = xcalloc(s->n, sizeof(*s->tg));
	s->targets = xcalloc(s->n, sizeof(*s->targets));
	for (i = 0; i < s->n; i++) {
		s->tg[i].cfg = cfg;
		s->tg[i].path = cfg->ntargets ? cfg->targets[i] : dot;
		s->tg[i].index = i;
		s->tg[i].ntargets = s->n;
		s->tg[i].direct = !cfg->buffered;
	}
	status = pick_engine(cfg, s->tg, s->n, &s->note);
	for (i = 0; !status && i < s->n; i++) {
		status = matrix_check_target(cfg, &s->tg[i], &s->targets[i]);
		/* what a killed clyde left there */
		if (!status && s->tg[i].kind == TARGET_DIR)
			rundir_warn_leftovers(s->tg[i].path);
		if (!status && s->tg[i].kind != s->tg[0].kind)
			status = cmd_usage_error("-d: '%s' and '%s' are not of "
						 "one kind (directories, files "
						 "or devices)", s->tg[0].path,
						 s->tg[i].path);
	}
	return status;
}

/* -c N's constraints, the file sizes, the workers' runs, the seed.  0 or
 * EXIT_USAGE. */
static int check_workers(struct matrix_state *s)
{
	struct matrix_config *cfg = &s->cfg;
	const char *why = NULL;
	unsigned k;
	int status;

	s->procs = cfg->procs ? cfg->procs : 1;
	if (s->procs > 1 && s->tg[0].kind != TARGET_DIR)
		why = "workers need a directory -d for their own files";
	else if (s->procs > 1 && s->n > 1)
		why = "workers need a single -d";
	else if (s->procs > 1 && cfg->ncurve)
		why = "--curve is not supported with several workers";
	else if (s->procs > 1 && cfg->steady != STEADY_NONE)
		why = "--steady is not supported with several workers";
	if (why)
		return cmd_usage_error("-c: %s", why);
	status = matrix_size_files(cfg, s->tg, s->n, s->targets, s->procs);
	if (status)
		return status;
	if (s->procs > 1) {
		s->runs = xcalloc(s->procs, sizeof(*s->runs));
		for (k = 1; k < s->procs; k++)
			s->runs[k] = s->tg[0];	/* not opened yet */
	}
	if (!cfg->seed_given)
		cfg->seed = cmd_random_seed();
	return 0;
}

/*
 * Every check that can fail comes before the outputs are opened; a
 * failure here removes the files and directory it made.  0, EXIT_USAGE
 * or EXIT_FAILED.
 */
static int open_targets(struct matrix_state *s)
{
	struct matrix_config *cfg = &s->cfg;
	unsigned i, k, procs = s->procs;
	char err[512];
	int status = 0;

	for (i = 0; !status && i < s->n; i++) {
		status = matrix_open_files(cfg, &s->tg[i]);
		if (!status)
			status = matrix_check_layout(cfg, &s->tg[i]);
		if (!status && s->tg[i].kind == TARGET_DEVICE) {
			struct stat st;

			/* a device's stack for the record */
			if (!stat(s->tg[i].path, &st))
				stack_walk_devnum(&s->targets[i].stack,
						  major(st.st_rdev),
						  minor(st.st_rdev), -1);
		}
	}
	for (k = 1; !status && k < procs; k++) {
		status = matrix_open_files(cfg, &s->runs[k]);
		if (!status)
			status = matrix_check_layout(cfg, &s->runs[k]);
	}
	for (k = 0; !status && cfg->hipri && k < (procs > 1 ? procs : s->n);
	     k++) {
		const struct matrix_run *r = procs > 1 && k ? &s->runs[k] :
					     &s->tg[k];

		if (uring_poll_check(r->fds[0], err, sizeof(err)))
			status = cmd_usage_error("--hipri: '%s': %s",
						 r->paths[0], err);
	}
	if (!status && s->runs)
		s->runs[0] = s->tg[0];	/* worker 0's; released as tg[0] */
	return status;
}

/* The record, its warnings and its cells, not run yet. */
static void start_record(struct matrix_state *s)
{
	const struct matrix_run *t0 = &s->tg[0];
	const char *caveats[2] = {
		!t0->direct ? t0->engine->buffered_caveat : NULL,
		t0->engine->caveat,
	};
	unsigned i;

	s->rec = record_new();
	fill_matrix_record(s->rec, &s->cfg, s->tg, s->n, &s->host,
			   s->targets);
	for (i = 0; i < 2; i++)
		if (caveats[i]) {
			diag_warning("%s", caveats[i]);
			record_warn(s->rec, "%s", caveats[i]);
		}
	if (s->note)
		record_warn(s->rec, "%s", s->note);
	if (s->cfg.verify && (t0->engine->flags & IO_ENGINE_NOKERNEL))
		record_warn(s->rec, "%s reads nothing: --verify stamps the "
			    "writes and checks no read", t0->engine->name);
	add_cells(&s->cfg, s->rec->matrix);
}

/* -c N: the cells run by the workers in step.  The exit status. */
static int run_with_workers(struct matrix_state *s)
{
	struct record *rec = s->rec;
	char buf[32];
	int status;

	snprintf(buf, sizeof(buf), "%u", s->procs);
	record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
	status = matrix_run_workers(&s->cfg, s->runs, s->procs, rec,
				    s->host.hostname);
	matrix_check_direct(s->tg, s->n, s->targets, NULL, rec);
	matrix_check_precision(rec);
	if (rec->matrix->error)
		diag_error("%s", rec->matrix->error);
	if (cmd_stop_signal)
		mark_not_run(rec->matrix, (int)cmd_stop_signal, NULL);
	else if (rec->matrix->error)
		mark_not_run(rec->matrix, 0, "%s", rec->matrix->error);
	else
		mark_not_run(rec->matrix, 0, "an earlier cell failed");
	return status;
}

/* One process: the prefill, then the cells.  The exit status. */
static int run_alone(struct matrix_state *s)
{
	struct matrix_run *tg = s->tg;
	double *before;
	unsigned i;
	int status = prefill_all(&s->cfg, tg, s->n, s->rec->matrix);

	if (status && tg[0].kind == TARGET_FILE && s->cfg.size_given &&
	    tg[0].file_size > tg[0].orig_size) {
		/* give back the room the file grew by: it is not ours */
		if (ftruncate(tg[0].fds[0], (off_t)tg[0].orig_size))
			diag_error("cannot shrink '%s' back to %" PRIu64
				   " bytes: %s", tg[0].path, tg[0].orig_size,
				   strerror(errno));
	}
	if (status)
		return status;
	before = xcalloc(s->n, sizeof(*before));
	s->mem = matrix_alloc_buffers(&s->cfg, &tg[0]);
	for (i = 0; i < s->n; i++)
		before[i] = matrix_resident(&tg[i]);
	status = run_cells(&s->cfg, tg, s->n, s->rec, s->mem);
	matrix_check_direct(tg, s->n, s->targets, before, s->rec);
	matrix_check_precision(s->rec);
	free(before);
	return status;
}

/* Close and remove the targets' files (before the outputs). */
static void release_targets(struct matrix_state *s)
{
	unsigned i;

	for (i = 0; s->tg && i < s->n; i++)
		matrix_run_release(&s->tg[i]);
	for (i = 1; s->runs && i < s->procs; i++)
		matrix_run_release(&s->runs[i]);
}

/* The tables (-q: on stderr, stdout left empty), --json, --csv. */
static int write_matrix(struct matrix_state *s, int status)
{
	FILE *tables = s->cfg.quiet ? stderr : stdout;
	FILE *json = outputs_file(&s->out, MATRIX_OUT_JSON);
	FILE *csv = outputs_file(&s->out, MATRIX_OUT_CSV);
	int bad = 0;

	if (matrix_write_text(s->rec, tables) || fflush(tables))
		bad = 1;
	if (json && outputs_done(&s->out, MATRIX_OUT_JSON,
				 record_write_json(s->rec, json)))
		bad = 1;
	if (csv && outputs_done(&s->out, MATRIX_OUT_CSV,
				matrix_write_csv(s->rec, csv,
						 s->out.out[MATRIX_OUT_CSV]
						 .fresh)))
		bad = 1;
	return status ? status : bad ? EXIT_FAILED : 0;
}

/* The run after every check: record, cells, outputs.  Its status. */
static int run_matrix(struct matrix_state *s)
{
	int status;

	start_record(s);
	progress_start(s->cfg.quiet);
	status = s->procs > 1 ? run_with_workers(s) : run_alone(s);
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	s->rec->exit_status = status;
	progress_stop();
	free(s->rec->end);
	s->rec->end = record_now_iso8601();
	release_targets(s);
	return write_matrix(s, status);
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_state s;
	char err[512];
	unsigned i;
	int status;

	memset(&s, 0, sizeof(s));
	matrix_config_init(&s.cfg);
	if (cmd_parsed(matrix_options_parse(&s.cfg, argc, argv, err,
					    sizeof(err)), err, &status))
		goto out;
	status = check_targets(&s);
	if (!status)
		status = check_workers(&s);
	if (status)
		goto out;
	host_detect(&s.host);
	cmd_install_signals(matrix_second_signal);
	status = open_targets(&s);
	outputs_add(&s.out, "--json", s.cfg.json_path, OUT_JSON);
	outputs_add(&s.out, "--csv", s.cfg.csv_path, OUT_MATRIX_CSV);
	if (!status)
		status = outputs_open(&s.out);
	if (!status)
		status = run_matrix(&s);
out:
	release_targets(&s);
	outputs_commit(&s.out);
	free(s.runs);
	free(s.tg);
	if (s.mem)
		matrix_free_buffers(s.mem, matrix_max_threads(&s.cfg));
	record_free(s.rec);
	for (i = 0; s.targets && i < s.n; i++)
		fs_target_release(&s.targets[i]);
	free(s.targets);
	host_release(&s.host);
	matrix_config_release(&s.cfg);
	return status;
}
