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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "matrix_run.h"
#include "cmdutil.h"
#include "progress.h"
#include "run.h"
#include "../fsops/engine.h"
#include "../fsops/uring.h"
#include "../lib/xalloc.h"
#include "../report/matrix.h"
#include "../report/record.h"

static void fill_matrix_record(struct record *rec,
			       const struct matrix_config *cfg,
			       const struct matrix_run *run,
			       const struct host_info *host,
			       const struct fs_target *target)
{
	char buf[32];

	record_fill_env(rec, host, target, cfg->target ? cfg->target : ".",
			cfg->label, 1);
	if (run->kind == TARGET_DEVICE)
		record_set_str(&rec->target.source, cfg->target);
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
	if (run->vunit) {
		snprintf(buf, sizeof(buf), "%zu", run->vunit);
		record_set_param(rec, "verify_unit", buf, 1);
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
 * --qd, --sqpoll and --hipri and probed.  0 or EXIT_USAGE.
 */
static int pick_engine(struct matrix_config *cfg, struct matrix_run *run,
		       const char **note)
{
	const struct io_engine_ops *e;
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
	run->engine = e;
	run->engine_flags = (cfg->sqpoll ? IO_SETUP_SQPOLL : 0) |
			    (cfg->hipri ? IO_SETUP_HIPRI : 0);
	rc = io_engine_probe(e, run->engine_flags);
	if (rc < 0)
		return cmd_usage_error("--engine: %s%s%s cannot be used here: "
				       "%s", e->name,
				       cfg->sqpoll ? " with --sqpoll" : "",
				       cfg->hipri ? " with --hipri" : "",
				       strerror(-rc));
	cfg->engine = e->name;	/* the params say which */
	return 0;
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_config cfg;
	struct matrix_run run, *runs = NULL;
	struct host_info host;
	struct fs_target target;
	struct record *rec = NULL;
	FILE *json = NULL, *csv = NULL, *tables;
	struct matrix_tmem *mem = NULL;
	const char *note = NULL;
	int status, csv_fresh = 0, rc, json_fresh = 0;
	int json_created = 0, csv_created = 0;
	char *why = NULL;
	unsigned procs = 0, k;
	size_t i;
	char err[512];

	memset(&run, 0, sizeof(run));
	memset(&host, 0, sizeof(host));
	memset(&target, 0, sizeof(target));
	matrix_config_init(&cfg);
	if (cmd_parsed(matrix_options_parse(&cfg, argc, argv, err, sizeof(err)), err,
		       &status))
		goto out;
	run.cfg = &cfg;
	run.direct = !cfg.buffered;
	status = pick_engine(&cfg, &run, &note);
	if (status)
		goto out;
	status = matrix_check_target(&cfg, &run, &target);
	if (status)
		goto out;
	procs = cfg.procs ? cfg.procs : 1;
	if (procs > 1 && run.kind != TARGET_DIR) {
		status = cmd_usage_error("-c: workers need a directory -d for "
					 "their own files");
		goto out;
	}
	if (procs > 1 && cfg.ncurve) {
		status = cmd_usage_error("-c: --curve is not supported with "
					 "several workers");
		goto out;
	}
	if (procs > 1 && run.file_size * run.nfiles * procs >
			 target.avail_bytes) {
		status = cmd_usage_error("--size: the files of %u workers need "
					 "%" PRIu64 " bytes but '%s' has only %"
					 PRIu64 " free", procs,
					 run.file_size * run.nfiles * procs,
					 cfg.target ? cfg.target : ".",
					 target.avail_bytes);
		goto out;
	}
	runs = xcalloc(procs, sizeof(*runs));
	for (k = 1; k < procs; k++)
		runs[k] = run;	/* not opened yet */
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
	status = matrix_open_files(&cfg, &run);
	if (!status)
		status = matrix_check_layout(&cfg, &run);
	for (k = 1; !status && k < procs; k++) {
		status = matrix_open_files(&cfg, &runs[k]);
		if (!status)
			status = matrix_check_layout(&cfg, &runs[k]);
	}
	for (k = 0; !status && cfg.hipri && k < procs; k++) {
		const struct matrix_run *r = k ? &runs[k] : &run;

		if (uring_poll_check(r->fds[0], err, sizeof(err)))
			status = cmd_usage_error("--hipri: '%s': %s",
						 r->paths[0], err);
	}
	if (status)
		goto out;
	runs[0] = run;	/* worker 0's; released as run */
	if (cfg.json_path &&
	    !(json = cmd_open_output("--json", cfg.json_path, &json_fresh,
				 &json_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (cfg.csv_path &&
	    !(csv = cmd_open_output("--csv", cfg.csv_path, &csv_fresh,
				&csv_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!run.direct && run.engine->buffered_caveat)
		fprintf(stderr, "clyde: warning: %s\n",
			run.engine->buffered_caveat);

	rec = record_new();
	fill_matrix_record(rec, &cfg, &run, &host, &target);
	if (!run.direct && run.engine->buffered_caveat)
		record_warn(rec, "%s", run.engine->buffered_caveat);
	if (note)
		record_warn(rec, "%s", note);
	if (cfg.verify && (run.engine->flags & IO_ENGINE_NOKERNEL))
		record_warn(rec, "%s reads nothing: --verify stamps the writes "
			    "and checks no read", run.engine->name);
	add_cells(&cfg, rec->matrix);
	progress_start(cfg.quiet);
	if (procs > 1) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%u", procs);
		record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
		status = matrix_run_workers(&cfg, runs, procs, rec,
					   host.hostname);
		if (rec->matrix->error)
			fprintf(stderr, "clyde: %s\n", rec->matrix->error);
		if (cmd_stop_signal)
			status = 128 + cmd_stop_signal;
		rec->exit_status = status;
		goto write;
	}
	progress_phase("prefill", 0, 0, NULL, 0, 0);
	rc = matrix_prefill(&cfg, &run, &why);
	progress_idle();
	if (rc) {
		if (rc == -ENOSPC) {
			free(why);
			why = xasprintf("prefill: not enough space for %u "
					"file(s) of %" PRIu64 " bytes; files "
					"removed", run.nfiles, run.file_size);
		}
		if (why) {
			fprintf(stderr, "clyde: %s\n", why);
			rec->matrix->error = why;
			why = NULL;
		}
		status = cmd_stop_signal ? 128 + cmd_stop_signal : EXIT_FAILED;
		rec->exit_status = status;
		goto write;
	}
	mem = matrix_alloc_buffers(&cfg, &run);
	for (i = 0; i < rec->matrix->ncells && !cmd_stop_signal && !status;
	     i++) {
		struct matrix_cell *c = &rec->matrix->cells[i];
		char what[96];

		snprintf(what, sizeof(what), "bs %" PRIu64 ", %u threads, %s, "
			 "%u%% read", c->bs, c->threads,
			 c->random ? "random" : "seq", c->read_pct);
		progress_phase(what, (unsigned)i + 1,
			       (unsigned)rec->matrix->ncells, NULL, 0,
			       (cfg.ramp + cfg.time) * (double)(1 + cfg.ncurve));
		rc = matrix_run_cell(&run, c, (unsigned)i, mem);
		progress_idle();
		if (rc) {
			if (!cmd_stop_signal)
				fprintf(stderr, "clyde: matrix cell %zu: %s\n",
					i + 1, c->reason ? c->reason : "failed");
			status = EXIT_FAILED;
		}
	}
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	rec->exit_status = status;
write:
	progress_stop();
	free(rec->end);
	rec->end = record_now_iso8601();
	matrix_run_release(&run);
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
	matrix_run_release(&run);
	for (k = 1; runs && k < procs; k++)
		matrix_run_release(&runs[k]);
	free(runs);
	free(why);
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
	fs_target_release(&target);
	host_release(&host);
	matrix_config_release(&cfg);
	return status;
}
