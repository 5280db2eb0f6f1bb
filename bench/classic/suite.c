// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite runner (suite.h): a worker's test context, one test, the loop
 * over the test table, and the single-process way of running a test.
 */
#include "bench/classic/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cmdutil.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"
#include "bench/progress.h"
#include "bench/parallel/semsync.h"
#include "bench/parallel/workers.h"
#include "lib/diag.h"
#include "lib/xalloc.h"

/* The big test file of this process, for a second signal: by name in the
 * run directory's descriptor, never by path. */
static char signal_unlink_path[PATH_MAX];
static volatile int signal_unlink_dirfd = -1;
/* the workers of a run with several (-c N, several -d), for the second */
static struct workers *volatile signal_workers;

void suite_set_signal_file(const struct bench_ctx *ctx)
{
	const char *name = ctx ? io_file_name(ctx) : "";

	signal_unlink_dirfd = -1;
	if (ctx && strlen(name) < sizeof(signal_unlink_path)) {
		memcpy(signal_unlink_path, name, strlen(name) + 1);
		signal_unlink_dirfd = ctx->dirfd;
	} else {
		signal_unlink_path[0] = '\0';
	}
}

void suite_set_signal_workers(struct workers *w)
{
	signal_workers = w;
}

void suite_second_signal(void)
{
	if (signal_unlink_path[0] && signal_unlink_dirfd >= 0)
		unlinkat(signal_unlink_dirfd, signal_unlink_path, 0);
	if (signal_workers)
		workers_emergency(signal_workers);
}

unsigned suite_nworkers(const struct bench_config *cfg)
{
	return cfg->procs * (unsigned)(cfg->ndirs ? cfg->ndirs : 1);
}

int suite_ctx_open(struct bench_ctx *ctx, const struct bench_config *cfg,
		   const char *rundir, int rundirfd, uint64_t seed,
		   volatile sig_atomic_t *stop, volatile sig_atomic_t *wall,
		   const struct dio_align *align, struct record *rec,
		   char *err, size_t errlen)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->cfg = cfg;
	ctx->rec = rec;
	ctx->stop = stop;
	ctx->wall = wall;
	ctx->seed = seed;
	ctx->io_size = cfg->chunk_size;
	ctx->dirfd = -1;
	ctx->own.parentfd = ctx->own.fd = -1;
	if (align) {
		ctx->direct = 1;
		ctx->align = *align;
	}
	if (rundirfd < 0) {
		/* made and removed through the -d's descriptor */
		if (rundir_make(&ctx->own, rundir, "clyde", err, errlen))
			return -1;
		ctx->dir = xstrdup(ctx->own.path);
		rundirfd = ctx->own.fd;
	} else {
		ctx->dir = xstrdup(rundir);
	}
	ctx->path = xasprintf("%s/Bonnie.%d", ctx->dir, (int)getpid());
	ctx->dirfd = fcntl(rundirfd, F_DUPFD_CLOEXEC, 0);
	if (ctx->dirfd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", ctx->dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}

void suite_ctx_close(struct bench_ctx *ctx)
{
	files_state_free(ctx->files);
	ctx->files = NULL;
	if (ctx->dirfd >= 0)
		close(ctx->dirfd);
	ctx->dirfd = -1;
	rundir_remove(&ctx->own);
	free(ctx->path);
	free(ctx->dir);
	ctx->path = ctx->dir = NULL;
}

int suite_run_test(struct bench_ctx *ctx, const struct bench_test *t,
		   struct result *res)
{
	int rc;

	rc = t->run(ctx, res);
	if (rc && bench_was_interrupted(res))
		bench_interrupted(res, cmd_stop_signal);	/* named */
	else if (rc && res->status != RESULT_FAILED)
		result_set_status(res, RESULT_FAILED, "failed");
	else if (!rc && res->status == RESULT_NOT_RUN)
		result_set_status(res, RESULT_OK, NULL);
	/* only a test that reads has a residency to speak of */
	if (!(t->flags & BENCH_READ))
		res->residency = -1;
	if (t->after & BENCH_AFTER_UNLINK_IO)
		unlinkat(ctx->dirfd, io_file_name(ctx), 0);
	return rc ? -1 : 0;
}

/*
 * A test the run did not reach because a signal stopped it or an earlier
 * test failed: the record says so, instead of leaving it looking unasked.
 */
static void mark_not_reached(struct result *res, int failed)
{
	result_set_reason(res, RESULT_SKIPPED, REASON_NOT_RUN,
			  (int)cmd_stop_signal, cmd_stop_signal ? NULL :
			  failed ? "an earlier test failed" :
			  "another worker stopped the run");
}

/*
 * -y: wait for the other copies (or the user) before test number i.  0, or
 * -1 with res failed and the message printed (or, when a signal ended the
 * wait, res not reached).
 */
static int sync_before(const struct bench_config *cfg, size_t i,
		       const struct bench_test *t, struct result *res)
{
	char err[512];
	int rc = 0;

	if (cfg->sync_mode == 's')
		rc = semsync_wait((unsigned)i, t->def->title,
				  cfg->sync_timeout, err, sizeof(err));
	else if (cfg->sync_mode == 'p')
		rc = semsync_prompt(t->def->title, err, sizeof(err));
	if (!rc)
		return 0;
	if (cmd_stop_signal) {
		/* a signal ended the wait: the test was not started */
		mark_not_reached(res, 0);
		return -1;
	}
	result_set_status(res, RESULT_FAILED, "%s", err);
	diag_error("%s: %s", t->def->title, err);
	return -1;
}

int suite_loop(const struct bench_config *cfg, struct record *rec,
	       const struct suite_backend *b, void *arg)
{
	int status = 0;
	size_t i;

	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		struct result *res = bench_test_result(t, rec);

		if (!bench_test_applies(t, cfg))
			continue;
		if (b->stopped(arg, cmd_stop_signal || status)) {
			mark_not_reached(res, status);
			continue;
		}
		if (sync_before(cfg, i, t, res)) {
			status = EXIT_FAILED;
			continue;
		}
		progress_phase(t->def->title, (unsigned)i + 1,
			       (unsigned)bench_ntests,
			       b->counts ? &res->lat.count : NULL,
			       b->counts ? bench_test_ops(t, cfg) : 0, 0);
		if (b->run(arg, i, t, res))
			status = EXIT_FAILED;
		progress_idle();
	}
	if (cmd_stop_signal && !status)
		status = EXIT_FAILED;
	return status;
}

/* --- one process: the one-worker case --- */

static int single_stopped(void *arg, int local)
{
	(void)arg;
	return local;
}

static int single_run(void *arg, size_t i, const struct bench_test *t,
		      struct result *res)
{
	struct bench_ctx *ctx = arg;

	(void)i;
	*ctx->wall = 0;		/* --stonewall: this process's own, per test */
	if (!suite_run_test(ctx, t, res))
		return 0;
	diag_error("%s: %s", t->def->title,
		   res->reason ? res->reason : "failed");
	return -1;
}

int suite_run_single(const struct bench_config *cfg, const char *dir,
		     const struct dio_align *align, struct record *rec)
{
	static const struct suite_backend single = {
		.stopped = single_stopped,
		.run = single_run,
		.counts = 1,
	};
	volatile sig_atomic_t wall = 0;
	struct bench_ctx ctx;
	char err[512];
	int status;

	if (suite_ctx_open(&ctx, cfg, dir, -1, cfg->seed, &cmd_stop_signal,
			   &wall, align, rec, err, sizeof(err))) {
		diag_error("%s", err);
		suite_ctx_close(&ctx);
		return EXIT_FAILED;
	}
	suite_set_signal_file(&ctx);
	status = suite_loop(cfg, rec, &single, &ctx);
	suite_set_signal_file(NULL);
	suite_ctx_close(&ctx);
	return status;
}
