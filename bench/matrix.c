// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: the command.  One file per thread (or one shared file,
 * a region per thread), prefilled sequentially with unique data; then per
 * cell, threads released together by a barrier run the I/O loop for the
 * ramp and the measured time (bench/matrix_run.h lists the parts).  Here:
 * the options, every check before anything is created, the outputs, and
 * the cells, built once (add_cells) and run in order.
 */
#include "matrix.h"

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

#include "matrix_run.h"
#include "bench.h"
#include "cmdutil.h"
#include "progress.h"
#include "run.h"
#include "run_kinds.h"
#include "../fsops/clock.h"
#include "../fsops/engine.h"
#include "../fsops/stack.h"
#include "../fsops/uring.h"
#include "../lib/xalloc.h"
#include "../report/matrix.h"
#include "../report/record.h"

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
			fprintf(stderr, "clyde: warning: %s\n", mixed);
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

/* Every cell still not run gets the reason (printf-style). */
__attribute__((format(printf, 2, 3)))
static void mark_not_run(struct record_matrix *m, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < m->ncells; i++)
		if (m->cells[i].status == RESULT_NOT_RUN &&
		    !m->cells[i].reason)
			m->cells[i].reason = xstrdup(buf);
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
	fprintf(stderr, "clyde: %s\n", why);
	m->error = why;
	mark_not_run(m, "not run: %s", why);
	return cmd_stop_signal ? 128 + cmd_stop_signal : EXIT_FAILED;
}

/*
 * The cells in order.  A cell that fails stops the run, the rest marked
 * not run with the reason; after ENOSPC only cells without writes still
 * run (a copy-on-write filesystem needs room for every write).
 */
static int run_cells(const struct matrix_config *cfg,
		     struct matrix_run *runs, unsigned n,
		     struct record_matrix *m,
		     const struct matrix_tmem *mem)
{
	size_t i, nospace = 0;
	int status = 0;

	for (i = 0; i < m->ncells && !cmd_stop_signal; i++) {
		struct matrix_cell *c = &m->cells[i];
		char what[96];
		int rc;

		if (nospace && c->read_pct < 100) {
			c->reason = xasprintf("not run: cell %zu ran out of "
					      "space and this cell writes",
					      nospace);
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
		rc = matrix_run_cell(runs, n, c, (unsigned)i, mem);
		progress_idle();
		if (!rc)
			continue;
		status = EXIT_FAILED;
		if (cmd_stop_signal)
			matrix_cell_interrupted(c, cmd_stop_signal);
		fprintf(stderr, "clyde: matrix cell %zu: %s\n", i + 1,
			c->reason ? c->reason : "failed");
		if (cmd_stop_signal)
			break;
		if (rc == -ENOSPC && !nospace)
			nospace = i + 1;
		else if (!nospace)
			mark_not_run(m, "not run: cell %zu failed", i + 1);
	}
	if (cmd_stop_signal)
		mark_not_run(m, "not run: interrupted by %s",
			     bench_signal_name(cmd_stop_signal));
	return status;
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_config cfg;
	struct matrix_run *tg = NULL, *runs = NULL;
	struct host_info host;
	struct fs_target *targets = NULL;
	struct record *rec = NULL;
	FILE *json = NULL, *csv = NULL, *tables;
	struct matrix_tmem *mem = NULL;
	const char *note = NULL;
	int status, csv_fresh = 0, json_fresh = 0;
	int json_created = 0, csv_created = 0;
	unsigned procs = 0, k, n = 1, i;
	char err[512];
	static const char dot[] = ".";

	memset(&host, 0, sizeof(host));
	matrix_config_init(&cfg);
	if (cmd_parsed(matrix_options_parse(&cfg, argc, argv, err, sizeof(err)), err,
		       &status))
		goto out;
	n = cfg.ntargets ? (unsigned)cfg.ntargets : 1;
	tg = xcalloc(n, sizeof(*tg));
	targets = xcalloc(n, sizeof(*targets));
	for (i = 0; i < n; i++) {
		tg[i].cfg = &cfg;
		tg[i].path = cfg.ntargets ? cfg.targets[i] : dot;
		tg[i].index = i;
		tg[i].ntargets = n;
		tg[i].direct = !cfg.buffered;
	}
	status = pick_engine(&cfg, tg, n, &note);
	if (status)
		goto out;
	for (i = 0; i < n; i++) {
		status = matrix_check_target(&cfg, &tg[i], &targets[i]);
		if (status)
			goto out;
		if (tg[i].kind != tg[0].kind) {
			status = cmd_usage_error("-d: '%s' and '%s' are not of "
						 "one kind (directories, files "
						 "or devices)", tg[0].path,
						 tg[i].path);
			goto out;
		}
	}
	procs = cfg.procs ? cfg.procs : 1;
	if (procs > 1 && tg[0].kind != TARGET_DIR) {
		status = cmd_usage_error("-c: workers need a directory -d for "
					 "their own files");
		goto out;
	}
	if (procs > 1 && n > 1) {
		status = cmd_usage_error("-c: workers need a single -d");
		goto out;
	}
	if (procs > 1 && cfg.ncurve) {
		status = cmd_usage_error("-c: --curve is not supported with "
					 "several workers");
		goto out;
	}
	if (procs > 1 && cfg.steady != STEADY_NONE) {
		status = cmd_usage_error("-c: --steady is not supported with "
					 "several workers");
		goto out;
	}
	status = matrix_size_files(&cfg, tg, n, targets, procs);
	if (status)
		goto out;
	if (procs > 1) {
		runs = xcalloc(procs, sizeof(*runs));
		for (k = 1; k < procs; k++)
			runs[k] = tg[0];	/* not opened yet */
	}
	if (!cfg.seed_given) {
		uint32_t seed;

		if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
			seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		cfg.seed = seed;
	}
	host_detect(&host);
	cmd_install_signals(matrix_second_signal);
	/* every check that can fail comes before the outputs are opened;
	 * a failure here removes the files and directory it made */
	for (i = 0; !status && i < n; i++) {
		status = matrix_open_files(&cfg, &tg[i]);
		if (!status)
			status = matrix_check_layout(&cfg, &tg[i]);
		if (!status && tg[i].kind == TARGET_DEVICE) {
			struct stat st;

			/* a device's stack for the record */
			if (!stat(tg[i].path, &st))
				stack_walk_devnum(&targets[i].stack,
						  major(st.st_rdev),
						  minor(st.st_rdev), -1);
		}
	}
	for (k = 1; !status && k < procs; k++) {
		status = matrix_open_files(&cfg, &runs[k]);
		if (!status)
			status = matrix_check_layout(&cfg, &runs[k]);
	}
	for (k = 0; !status && cfg.hipri && k < (procs > 1 ? procs : n);
	     k++) {
		const struct matrix_run *r = procs > 1 && k ? &runs[k] : &tg[k];

		if (uring_poll_check(r->fds[0], err, sizeof(err)))
			status = cmd_usage_error("--hipri: '%s': %s",
						 r->paths[0], err);
	}
	if (status)
		goto out;
	if (runs)
		runs[0] = tg[0];	/* worker 0's; released as tg[0] */
	if (cfg.json_path &&
	    !(json = cmd_open_output("--json", cfg.json_path,
				 CMD_OUT_JSON, &json_fresh,
				 &json_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (cfg.csv_path &&
	    !(csv = cmd_open_output("--csv", cfg.csv_path,
				CMD_OUT_MATRIX_CSV, &csv_fresh,
				&csv_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!tg[0].direct && tg[0].engine->buffered_caveat)
		fprintf(stderr, "clyde: warning: %s\n",
			tg[0].engine->buffered_caveat);
	if (tg[0].engine->caveat)
		fprintf(stderr, "clyde: warning: %s\n", tg[0].engine->caveat);

	rec = record_new();
	fill_matrix_record(rec, &cfg, tg, n, &host, targets);
	if (!tg[0].direct && tg[0].engine->buffered_caveat)
		record_warn(rec, "%s", tg[0].engine->buffered_caveat);
	if (tg[0].engine->caveat)
		record_warn(rec, "%s", tg[0].engine->caveat);
	if (note)
		record_warn(rec, "%s", note);
	if (cfg.verify && (tg[0].engine->flags & IO_ENGINE_NOKERNEL))
		record_warn(rec, "%s reads nothing: --verify stamps the writes "
			    "and checks no read", tg[0].engine->name);
	add_cells(&cfg, rec->matrix);
	progress_start(cfg.quiet);
	if (procs > 1) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%u", procs);
		record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
		status = matrix_run_workers(&cfg, runs, procs, rec,
					   host.hostname);
		matrix_check_direct(tg, n, targets, NULL, rec);
		matrix_check_precision(rec);
		if (rec->matrix->error)
			fprintf(stderr, "clyde: %s\n", rec->matrix->error);
		if (cmd_stop_signal)
			mark_not_run(rec->matrix, "not run: interrupted by %s",
				     bench_signal_name(cmd_stop_signal));
		else if (rec->matrix->error)
			mark_not_run(rec->matrix, "not run: %s",
				     rec->matrix->error);
		else
			mark_not_run(rec->matrix, "not run: an earlier cell "
				     "failed");
		if (cmd_stop_signal)
			status = 128 + cmd_stop_signal;
		rec->exit_status = status;
		goto write;
	}
	status = prefill_all(&cfg, tg, n, rec->matrix);
	if (!status) {
		double *before = xcalloc(n, sizeof(*before));

		mem = matrix_alloc_buffers(&cfg, &tg[0]);
		for (i = 0; i < n; i++)
			before[i] = matrix_resident(&tg[i]);
		status = run_cells(&cfg, tg, n, rec->matrix, mem);
		matrix_check_direct(tg, n, targets, before, rec);
		matrix_check_precision(rec);
		free(before);
	} else if (tg[0].kind == TARGET_FILE && cfg.size_given &&
		   tg[0].file_size > tg[0].orig_size) {
		/* give back the room the file grew by: it is not ours */
		if (ftruncate(tg[0].fds[0], (off_t)tg[0].orig_size))
			fprintf(stderr, "clyde: cannot shrink '%s' back to "
				"%" PRIu64 " bytes: %s\n", tg[0].path,
				tg[0].orig_size, strerror(errno));
	}
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	rec->exit_status = status;
write:
	progress_stop();
	free(rec->end);
	rec->end = record_now_iso8601();
	for (i = 0; i < n; i++)
		matrix_run_release(&tg[i]);
	for (k = 1; k < procs; k++)
		matrix_run_release(&runs[k]);
	/* -q: the tables on stderr, stdout left empty */
	tables = cfg.quiet ? stderr : stdout;
	if (matrix_write_text(rec, tables) || fflush(tables))
		status = status ? status : EXIT_FAILED;
	if (json && record_write_json(rec, json)) {
		fprintf(stderr, "clyde: --json: cannot write '%s': %s\n",
			cfg.json_path, strerror(errno));
		status = status ? status : EXIT_FAILED;
	}
	if (csv && matrix_write_csv(rec, csv, csv_fresh)) {
		fprintf(stderr, "clyde: --csv: cannot write '%s': %s\n",
			cfg.csv_path, strerror(errno));
		status = status ? status : EXIT_FAILED;
	}
out:
	for (i = 0; tg && i < n; i++)
		matrix_run_release(&tg[i]);
	for (k = 1; runs && k < procs; k++)
		matrix_run_release(&runs[k]);
	free(runs);
	free(tg);
	/* bad input: no record, and no output file left that we made */
	if (!rec && json && json_created)
		unlink(cfg.json_path);
	if (!rec && csv && csv_created)
		unlink(cfg.csv_path);
	if (mem)
		matrix_free_buffers(mem, matrix_max_threads(&cfg));
	record_free(rec);
	if (json)
		fclose(json);
	if (csv)
		fclose(csv);
	for (i = 0; targets && i < n; i++)
		fs_target_release(&targets[i]);
	free(targets);
	host_release(&host);
	matrix_config_release(&cfg);
	return status;
}
