// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde run`: check everything a user can get wrong before creating
 * anything, then run the suite in a directory of clyde's own, remove it
 * whatever happens, and write the record of what finished.
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "info.h"
#include "ioutil.h"
#include "mpi.h"
#include "options.h"
#include "cmdutil.h"
#include "progress.h"
#include "semsync.h"
#include "workers.h"
#include "../fsops/clock.h"
#include "../fsops/file.h"
#include "../fsops/target.h"
#include "../lib/xalloc.h"
#include "../report/record.h"
#include "../report/worker_rows.h"

/* A second SIGINT/SIGTERM/SIGHUP removes the big test file and exits:
 * by name in the run directory's descriptor, never by path. */
static char signal_unlink_path[PATH_MAX];
static volatile int signal_unlink_dirfd = -1;
/* the workers of a run with several (-c N, several -d), for the second */
static struct workers *volatile signal_workers;

static void second_signal(void)
{
	if (signal_unlink_path[0] && signal_unlink_dirfd >= 0)
		unlinkat(signal_unlink_dirfd, signal_unlink_path, 0);
	if (signal_workers)
		workers_emergency(signal_workers);
}

static void set_signal_unlink(const struct bench_ctx *ctx)
{
	const char *name = io_file_name(ctx);

	if (strlen(name) < sizeof(signal_unlink_path)) {
		memcpy(signal_unlink_path, name, strlen(name) + 1);
		signal_unlink_dirfd = ctx->dirfd;
	}
}

static void human_size(char *buf, size_t len, uint64_t bytes)
{
	static const char unit[] = "KMGTPE";
	double v = (double)bytes;
	int i = -1;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.1f %ciB", v, unit[i]);
}

/* Default -s: 2 GiB, twice --device-cache if larger, or bonnie++'s 2 x RAM. */
static void resolve_file_size(struct bench_config *cfg,
			      const struct host_info *host)
{
	if (cfg->file_size_given)
		return;
	if (cfg->bonnie_size)
		cfg->file_size = 2 * (cfg->ram ? cfg->ram : host->ram);
	else if (2 * cfg->device_cache > cfg->file_size)
		cfg->file_size = 2 * cfg->device_cache;
}

/* Bytes the file tests may write: the mean size of every file. */
static uint64_t files_bytes(const struct bench_config *cfg)
{
	if (cfg->max_size <= 0)
		return 0;
	return cfg->num_files *
	       (uint64_t)((cfg->max_size + cfg->min_size) / 2);
}

static int check_settings(struct bench_config *cfg)
{
	if (cfg->char_size > cfg->file_size && !cfg->char_size_given)
		cfg->char_size = cfg->file_size;
	if (cfg->file_size && cfg->chunk_size > cfg->file_size)
		return cmd_usage_error("-s: chunk size %" PRIu64
				   " is larger than the file size %" PRIu64,
				   cfg->chunk_size, cfg->file_size);
	if (cfg->file_size && cfg->char_size > cfg->file_size)
		return cmd_usage_error("-f: per-char size %" PRIu64
				   " is larger than the file size %" PRIu64,
				   cfg->char_size, cfg->file_size);
	if (cfg->sync_mode == 's' && cfg->repeats > 1)
		return cmd_usage_error("-y s: the semaphores synchronise one pass "
				   "only; -x %u would wait on a spent set",
				   cfg->repeats);
	return 0;
}

/* Workers of the run: -c per directory, one set per -d. */
static unsigned nworkers(const struct bench_config *cfg)
{
	return cfg->procs * (unsigned)(cfg->ndirs ? cfg->ndirs : 1);
}

/* How many -d name the same directory as dirs[i] (they share its space). */
static unsigned same_dirs(const struct bench_config *cfg, size_t i)
{
	unsigned n = 0;
	size_t j;

	for (j = 0; j < cfg->ndirs; j++)
		if (!strcmp(cfg->dirs[j], cfg->dirs[i]))
			n++;
	return n ? n : 1;
}

static int drop_privileges(const struct bench_config *cfg)
{
	if (!cfg->user_given && !cfg->group_given)
		return 0;
	if (geteuid() != 0) {
		if ((cfg->user_given && cfg->uid != geteuid()) ||
		    (cfg->group_given && cfg->gid != getegid()))
			return cmd_usage_error("-u: only root can run as another "
					   "user or group");
		return 0;
	}
	if (setgroups(0, NULL) || setgid(cfg->gid) ||
	    (cfg->user_given && setuid(cfg->uid)))
		return cmd_usage_error("-u: cannot switch to %s:%s: %s",
				   cfg->user ? cfg->user : "root",
				   cfg->group ? cfg->group : "-",
				   strerror(errno));
	return 0;
}

static int check_directory(const struct bench_config *cfg, const char *dir,
			   unsigned copies, struct fs_target *target)
{
	char err[256], have[32], need[32];
	struct stat st;
	uint64_t bytes;

	if (stat(dir, &st))
		return cmd_usage_error("-d: '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cmd_usage_error("-d: '%s' is not a directory", dir);
	if (fs_target_detect(dir, target, err, sizeof(err)))
		return cmd_usage_error("-d: '%s': %s", dir, err);
	if (target->readonly)
		return cmd_usage_error("-d: '%s' is on a read-only filesystem", dir);
	if (access(dir, W_OK | X_OK))
		return cmd_usage_error("-d: cannot write in '%s': %s", dir,
				   strerror(errno));
	bytes = (cfg->file_size + files_bytes(cfg)) * copies;
	if (bytes > target->avail_bytes) {
		human_size(need, sizeof(need), bytes);
		human_size(have, sizeof(have), target->avail_bytes);
		return cmd_usage_error("-s: the test files need %s but '%s' has "
				   "only %s free", need, dir, have);
	}
	return 0;
}

void record_fill_env(struct record *rec, const struct host_info *host,
		     const struct fs_target *target, const char *dir,
		     const char *label, unsigned repetition)
{
	record_set_str(&rec->tool, "clyde");
	record_set_str(&rec->version, CLYDE_VERSION);
	free(rec->start);
	rec->start = record_now_iso8601();
	record_set_str(&rec->label, label ? label : host->hostname);
	rec->repetition = (int)repetition;

	record_set_str(&rec->host.hostname, host->hostname);
	record_set_str(&rec->host.kernel, host->kernel);
	record_set_str(&rec->host.cpu_model, host->cpu_model);
	rec->host.cores = host->cores;
	rec->host.ram = host->ram;

	record_set_str(&rec->target.path, dir);
	record_set_str(&rec->target.mountpoint, target->mountpoint);
	record_set_str(&rec->target.fstype, target->fstype);
	record_set_str(&rec->target.source, target->source);
	record_set_str(&rec->target.vfs_options, target->vfs_options);
	record_set_str(&rec->target.fs_options, target->fs_options);
	rec->target.block_size = target->block_size;
	rec->target.total_bytes = target->total_bytes;
	rec->target.free_bytes = target->avail_bytes;
	info_fill_record(rec, host, target);
}

static void fill_record(struct record *rec, const struct bench_config *cfg,
			const struct host_info *host,
			const struct fs_target *target, const char *dir,
			unsigned repetition)
{
	char buf[64];

	record_fill_env(rec, host, target, dir, cfg->label, repetition);
	options_record(cfg, rec);
	snprintf(buf, sizeof(buf), "%u", nworkers(cfg));
	record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
	/* how far the file outgrows the caches it must beat */
	if (host->ram) {
		snprintf(buf, sizeof(buf), "%.3f",
			 (double)cfg->file_size / (double)host->ram);
		record_set_param(rec, "file_to_ram_ratio", buf, 1);
	}
	if (cfg->device_cache) {
		snprintf(buf, sizeof(buf), "%.3f",
			 (double)cfg->file_size / (double)cfg->device_cache);
		record_set_param(rec, "file_to_device_cache_ratio", buf, 1);
	}
}

static int applicable(const struct bench_config *cfg,
		      const struct bench_test *t)
{
	if ((t->flags & BENCH_IO) && !cfg->file_size)
		return 0;
	if ((t->flags & BENCH_CHAR) && !cfg->char_size)
		return 0;
	if ((t->flags & BENCH_FILES) && !cfg->num_files)
		return 0;
	return 1;
}

/*
 * With --direct, find the alignment O_DIRECT needs on the filesystem of dir
 * (on a probe file, removed at once) and check the chunk and file size fit
 * it.  Returns 0, or EXIT_USAGE after a message.
 */
static int check_direct(const struct bench_config *cfg, const char *dir,
			struct dio_align *align)
{
	char *probe = xasprintf("%s/.clyde-direct.XXXXXX", dir);
	int fd, rc;

	fd = mkostemp(probe, O_DIRECT);
	if (fd < 0) {
		rc = errno;
		free(probe);
		if (rc == EINVAL)
			return cmd_usage_error("--direct: the filesystem of '%s' "
					   "cannot do direct I/O", dir);
		return cmd_usage_error("--direct: cannot create a probe file in "
				   "'%s': %s", dir, strerror(rc));
	}
	rc = dio_alignment(fd, align);
	close(fd);
	unlink(probe);
	free(probe);
	if (rc == -EINVAL)
		return cmd_usage_error("--direct: the filesystem of '%s' cannot do "
				   "direct I/O", dir);
	if (rc)
		return cmd_usage_error("--direct: cannot find the direct I/O "
				   "alignment in '%s': %s", dir, strerror(-rc));
	if (cfg->chunk_size % align->offset)
		return cmd_usage_error("-s: chunk size %" PRIu64 " is not a multiple "
				   "of the direct I/O alignment %zu of '%s'",
				   cfg->chunk_size, align->offset, dir);
	if (cfg->file_size % align->offset)
		return cmd_usage_error("-s: file size %" PRIu64 " is not a multiple "
				   "of the direct I/O alignment %zu of '%s'",
				   cfg->file_size, align->offset, dir);
	return 0;
}

/*
 * -y: wait for the other copies (or the user) before test number i.  0, or
 * -1 with res failed and the message printed.
 */
static int sync_before(const struct bench_config *cfg, size_t i,
		       const struct bench_test *t, struct result *res)
{
	char err[512];
	int rc = 0;

	if (cfg->sync_mode == 's')
		rc = semsync_wait((unsigned)i, t->title, cfg->sync_timeout,
				  err, sizeof(err));
	else if (cfg->sync_mode == 'p')
		rc = semsync_prompt(t->title, err, sizeof(err));
	if (!rc)
		return 0;
	result_set_status(res, RESULT_FAILED, "%s", err);
	fprintf(stderr, "clyde: %s: %s\n", t->title, err);
	return -1;
}

/*
 * A test the run did not reach because a signal stopped it or an earlier
 * test failed: the record says so, instead of leaving it looking unasked.
 */
static void mark_not_reached(struct result *res, int failed)
{
	if (cmd_stop_signal)
		result_set_status(res, RESULT_SKIPPED,
				  "not run: interrupted by signal %d",
				  (int)cmd_stop_signal);
	else if (failed)
		result_set_status(res, RESULT_SKIPPED,
				  "not run: an earlier test failed");
	else
		result_set_status(res, RESULT_SKIPPED,
				  "not run: another worker stopped the run");
}

/*
 * One pass of the suite in a new directory of its own under dir.  Returns
 * 0 when every test ran, EXIT_FAILED when one failed or a signal stopped
 * it.
 */
static int suite_run(const struct bench_config *cfg, const char *dir,
		     const struct dio_align *align, struct record *rec)
{
	volatile sig_atomic_t wall = 0;
	struct bench_ctx ctx;
	int status = 0;
	size_t i;

	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = cfg;
	ctx.rec = rec;
	ctx.stop = &cmd_stop_signal;
	ctx.wall = &wall;
	ctx.seed = cfg->seed;
	ctx.io_size = cfg->chunk_size;
	ctx.dir = xasprintf("%s/clyde.XXXXXX", dir);
	if (!mkdtemp(ctx.dir)) {
		fprintf(stderr, "clyde: cannot create a directory in '%s': %s\n",
			dir, strerror(errno));
		free(ctx.dir);
		return EXIT_FAILED;
	}
	ctx.path = xasprintf("%s/Bonnie.%d", ctx.dir, (int)getpid());
	ctx.dirfd = open(ctx.dir, O_RDONLY | O_DIRECTORY);
	if (ctx.dirfd < 0) {
		fprintf(stderr, "clyde: cannot open '%s': %s\n", ctx.dir,
			strerror(errno));
		status = EXIT_FAILED;
		goto out;
	}
	set_signal_unlink(&ctx);
	if (align) {
		ctx.direct = 1;
		ctx.align = *align;
	}

	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		struct result *res = record_add_result(rec, t->name, t->title,
						       t->unit);
		int rc;

		if (!applicable(cfg, t))
			continue;
		if (cmd_stop_signal || status) {
			mark_not_reached(res, status);
			continue;
		}
		if (sync_before(cfg, i, t, res)) {
			status = EXIT_FAILED;
			continue;
		}
		progress_phase(t->title, (unsigned)i + 1, (unsigned)bench_ntests,
			       &res->lat.count, progress_test_ops(cfg, t->name), 0);
		wall = 0;
		rc = t->run(&ctx, res);
		progress_idle();
		if (rc) {
			if (res->status != RESULT_FAILED)
				result_set_status(res, RESULT_FAILED,
						  "failed");
			fprintf(stderr, "clyde: %s: %s\n", t->title,
				res->reason ? res->reason : "failed");
			status = EXIT_FAILED;
			continue;
		}
		if (res->status == RESULT_NOT_RUN)
			result_set_status(res, RESULT_OK, NULL);
		/* the I/O tests are done with their file after the seeks */
		if (!strcmp(t->name, "seeks"))
			unlinkat(ctx.dirfd, io_file_name(&ctx), 0);
	}
	if (cmd_stop_signal && !status)
		status = EXIT_FAILED;
out:
	signal_unlink_path[0] = '\0';
	signal_unlink_dirfd = -1;
	files_state_free(ctx.files);
	if (ctx.dirfd >= 0)
		close(ctx.dirfd);
	cmd_remove_tree(ctx.dir);
	free(ctx.path);
	free(ctx.dir);
	return status;
}

/* --- several workers in step (-c N, several -d) --- */

struct worker_plan {
	const struct bench_config *cfg;
	char **rundirs;			/* per worker, made by the parent */
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
	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = cfg;
	ctx.rec = wrec;
	ctx.stop = workers_stop_flag(w);
	ctx.wall = workers_wall_flag(w);
	/* each worker's data differs from the others' */
	ctx.seed = (cfg->seed + 0x9e3779b9u * (uint64_t)idx) & 0xffffffffu;
	ctx.io_size = cfg->chunk_size;
	ctx.dir = xstrdup(p->rundirs[idx]);
	ctx.path = xasprintf("%s/Bonnie.%d", ctx.dir, (int)getpid());
	workers_set_path(w, idx, ctx.path);
	ctx.dirfd = open(ctx.dir, O_RDONLY | O_DIRECTORY);
	if (ctx.dirfd < 0)
		snprintf(setup_err, sizeof(setup_err), "cannot open '%s': %s",
			 ctx.dir, strerror(errno));
	if (p->align) {
		ctx.direct = 1;
		ctx.align = p->align[idx / cfg->procs];
	}

	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		size_t nwarn = wrec->nwarnings;
		struct result *res;
		uint64_t end, took, start;

		if (!applicable(cfg, t))
			continue;
		if (workers_wait(w, (unsigned)i))
			break;
		res = record_add_result(wrec, t->name, t->title, t->unit);
		gate.step = (unsigned)i;
		gate.passed = 0;
		if (setup_err[0])
			result_set_status(res, RESULT_FAILED, "%s", setup_err);
		else if (t->run(&ctx, res)) {
			if (res->status != RESULT_FAILED)
				result_set_status(res, RESULT_FAILED, "failed");
		} else if (res->status == RESULT_NOT_RUN) {
			result_set_status(res, RESULT_OK, NULL);
		}
		end = clock_ns();
		/* timing started at the gate and lasted elapsed */
		took = res->elapsed > 0 ? (uint64_t)(res->elapsed * 1e9) : 0;
		start = gate.passed ? workers_slot(w, idx)->gate_ns : end;
		if (!strcmp(t->name, "seeks"))
			unlinkat(ctx.dirfd, io_file_name(&ctx), 0);
		workers_done(w, idx, (unsigned)i, res, start, start + took,
			     wrec, nwarn);
	}
	files_state_free(ctx.files);
	if (ctx.dirfd >= 0)
		close(ctx.dirfd);
	cmd_remove_tree(ctx.dir);
	free(ctx.path);
	free(ctx.dir);
	record_free(wrec);
	return 0;
}

/* Add each line of a worker's warnings once, naming the worker. */
static void add_worker_warnings(struct record *rec, unsigned idx,
				const char *text)
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

/*
 * The rows of every worker and the aggregate: total work (each worker's
 * rate x its own time) over the span from the first worker's first
 * operation to the last one's last (from_barrier: from the barrier, each
 * worker's times on its own clock); CPU of all workers over that span;
 * latency histograms merged.  0, or -1 when a worker failed (res failed,
 * naming the first; every failure printed).
 */
static int aggregate(struct result *res, const struct worker_slot *slots,
		     unsigned n, uint64_t release, const char *const *dirs,
		     const char *const *hosts, int from_barrier,
		     struct record *rec)
{
	double work = 0, cpu_s = 0, resid = 0, first = 0, last = 0;
	unsigned i, nresid = 0, measured = 0;
	int first_fail = -1;

	for (i = 0; i < n; i++) {
		const struct worker_slot *s = &slots[i];
		const struct result *r = &s->res;
		struct worker_row *row;

		row = result_add_worker(res, (int)i, hosts[i], dirs[i]);
		if (s->state == WORKER_DEAD) {
			row->status = RESULT_FAILED;
			row->reason = xstrdup(s->reason);
			if (first_fail < 0)
				first_fail = (int)i;
			continue;
		}
		add_worker_warnings(rec, i, s->warnings);
		row->status = r->status;
		if (r->status == RESULT_FAILED) {
			row->reason = xstrdup(s->reason[0] ? s->reason
							   : "failed");
			if (first_fail < 0)
				first_fail = (int)i;
		}
		if (r->status != RESULT_OK && r->status != RESULT_FAILED)
			continue;
		row->value = r->value;
		row->cpu = r->cpu;
		row->ops = r->ops;
		row->bytes = r->bytes;
		row->elapsed = r->elapsed;
		row->first_s = ((double)s->first_ns - (double)release) / 1e9;
		row->last_s = ((double)s->last_ns - (double)release) / 1e9;
		if (!measured || row->first_s < first)
			first = row->first_s;
		if (!measured || row->last_s > last)
			last = row->last_s;
		measured++;
		work += r->value * r->elapsed;
		cpu_s += r->cpu / 100 * r->elapsed;
		res->ops += r->ops;
		res->bytes += r->bytes;
		hist_merge(&res->lat, &r->lat);
		res->flags |= r->flags & ~RESULT_LOW_PRECISION;
		if (r->residency >= 0) {
			resid += r->residency;
			nresid++;
		}
	}
	/* across hosts (MPI) each rank's times count from the shared
	 * barrier, and the longest rank's time is the span (mdtest) */
	if (from_barrier)
		first = 0;
	if (measured && last > first) {
		res->elapsed = last - first;
		res->value = work / res->elapsed;
		res->cpu = cpu_s / res->elapsed * 100;
		if (res->elapsed < RESULT_MIN_ELAPSED)
			res->flags |= RESULT_LOW_PRECISION;
	}
	if (nresid)
		res->residency = resid / nresid;
	if (first_fail < 0) {
		result_set_status(res, RESULT_OK, NULL);
		return 0;
	}
	for (i = 0; i < n; i++) {
		const struct worker_row *row = &res->workers[i];

		if (row->status == RESULT_FAILED)
			fprintf(stderr, "clyde: %s: worker %u in '%s': %s\n",
				res->title, i, row->dir, row->reason);
	}
	result_set_status(res, RESULT_FAILED, "worker %d in '%s': %s",
			  first_fail, res->workers[first_fail].dir,
			  res->workers[first_fail].reason);
	return -1;
}

/*
 * One pass of the suite by every worker in step, each in a new directory
 * of its own under its -d; all of them removed whatever happens.  Returns
 * 0, or EXIT_FAILED when a test failed in a worker, a worker died or a
 * signal stopped the run.
 */
static int suite_run_workers(const struct bench_config *cfg,
			     const struct dio_align *align, const char *host,
			     struct record *rec)
{
	unsigned n = nworkers(cfg), i;
	char **rundirs = xcalloc(n, sizeof(*rundirs));
	const char **dirs = xcalloc(n, sizeof(*dirs));
	const char **hosts = xcalloc(n, sizeof(*hosts));
	struct worker_plan plan;
	struct workers *w = NULL;
	char err[512];
	int status = 0;
	size_t t;

	for (i = 0; i < n; i++) {
		const char *dir = worker_dir(cfg, i);

		rundirs[i] = xasprintf("%s/clyde.XXXXXX", dir);
		if (!mkdtemp(rundirs[i])) {
			fprintf(stderr, "clyde: cannot create a directory in "
				"'%s': %s\n", dir, strerror(errno));
			free(rundirs[i]);
			rundirs[i] = NULL;
			status = EXIT_FAILED;
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		dirs[i] = worker_dir(cfg, i);
		hosts[i] = host;
	}
	plan.cfg = cfg;
	plan.rundirs = rundirs;
	plan.align = align;
	w = workers_start(n, worker_main, &plan, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "clyde: %s\n", err);
		status = EXIT_FAILED;
		goto out;
	}
	signal_workers = w;

	for (t = 0; t < bench_ntests; t++) {
		const struct bench_test *bt = bench_tests[t];
		struct result *res = record_add_result(rec, bt->name,
						       bt->title, bt->unit);
		uint64_t release;

		if (!applicable(cfg, bt))
			continue;
		if (cmd_stop_signal || status) {
			mark_not_reached(res, status);
			continue;
		}
		if (sync_before(cfg, t, bt, res)) {
			status = EXIT_FAILED;
			continue;
		}
		progress_phase(bt->title, (unsigned)t + 1,
			       (unsigned)bench_ntests, NULL, 0, 0);
		workers_release(w, (unsigned)t);
		release = workers_start_timing(w, (unsigned)t, &cmd_stop_signal);
		workers_collect(w, (unsigned)t, &cmd_stop_signal);
		progress_idle();
		if (aggregate(res, workers_slot(w, 0), n, release, dirs, hosts,
			      0, rec))
			status = EXIT_FAILED;
	}
	if (cmd_stop_signal && !status)
		status = EXIT_FAILED;
out:
	if (w) {
		signal_workers = NULL;
		workers_finish(w);
	}
	for (i = 0; i < n; i++) {
		if (rundirs[i])
			cmd_remove_tree(rundirs[i]);
		free(rundirs[i]);
	}
	free(rundirs);
	free(dirs);
	free(hosts);
	return status;
}

/* --- one worker per MPI rank (stubs without MPI=1: bench/mpi.h) --- */

/* measure_begin()'s gate under MPI: a barrier of all ranks, once a test. */
struct mpi_gate {
	int passed;
	uint64_t ns;	/* when this rank left the barrier */
};

static void mpi_gate(void *arg)
{
	struct mpi_gate *g = arg;

	if (g->passed)
		return;
	g->passed = 1;
	clyde_mpi_barrier();
	g->ns = clock_ns();
}

#define MPI_NAME_LEN 256

/*
 * This rank's pass of the suite, in step with the others, in a new
 * directory of its own under its -d (-d number rank % count).  Every rank
 * makes the same collective calls in the same order whatever fails: it
 * agrees with the others before each test whether to go on.  Rank 0 fills
 * rec with a row per rank; the aggregate is mdtest's (the clocks of
 * different hosts are not comparable): total work over the longest rank's
 * time from the shared barrier.
 */
static int suite_run_mpi(const struct bench_config *cfg,
			 const struct dio_align *align, const char *host,
			 struct record *rec, int rank, int size)
{
	const char *dir = cfg->ndirs ? cfg->dirs[rank % (int)cfg->ndirs] : ".";
	struct worker_slot *mine = xcalloc(1, sizeof(*mine)), *all = NULL;
	struct record *wrec = record_new();
	struct mpi_gate gate = { 0, 0 };
	volatile sig_atomic_t wall = 0;
	const char **hosts = NULL, **dirs = NULL;
	char name[MPI_NAME_LEN], *names = NULL;
	struct bench_ctx ctx;
	int status = 0, r;
	size_t i;

	snprintf(name, sizeof(name), "%s", host ? host : "");
	if (!rank) {
		all = xcalloc((size_t)size, sizeof(*all));
		names = xcalloc((size_t)size, MPI_NAME_LEN);
		hosts = xcalloc((size_t)size, sizeof(*hosts));
		dirs = xcalloc((size_t)size, sizeof(*dirs));
	}
	clyde_mpi_gather_names(name, names, MPI_NAME_LEN);
	for (r = 0; !rank && r < size; r++) {
		hosts[r] = names + (size_t)r * MPI_NAME_LEN;
		dirs[r] = cfg->ndirs ? cfg->dirs[r % (int)cfg->ndirs] : ".";
	}

	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = cfg;
	ctx.rec = wrec;
	ctx.stop = &cmd_stop_signal;
	/* --stonewall: each rank on its own clock from the shared barrier */
	ctx.wall = &wall;
	ctx.seed = (cfg->seed + 0x9e3779b9u * (uint64_t)rank) & 0xffffffffu;
	ctx.io_size = cfg->chunk_size;
	ctx.dirfd = -1;
	ctx.dir = xasprintf("%s/clyde.XXXXXX", dir);
	if (!mkdtemp(ctx.dir)) {
		fprintf(stderr, "clyde: rank %d: cannot create a directory in "
			"'%s': %s\n", rank, dir, strerror(errno));
		free(ctx.dir);
		ctx.dir = NULL;
		status = EXIT_FAILED;
	} else {
		ctx.path = xasprintf("%s/Bonnie.%d", ctx.dir, (int)getpid());
		ctx.dirfd = open(ctx.dir, O_RDONLY | O_DIRECTORY);
		if (ctx.dirfd < 0) {
			fprintf(stderr, "clyde: rank %d: cannot open '%s': "
				"%s\n", rank, ctx.dir, strerror(errno));
			status = EXIT_FAILED;
		} else {
			set_signal_unlink(&ctx);
		}
	}
	if (align) {
		ctx.direct = 1;
		ctx.align = align[rank % (int)(cfg->ndirs ? cfg->ndirs : 1)];
	}
	measure_set_gate(mpi_gate, &gate);

	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		struct result *res = record_add_result(rec, t->name, t->title,
						       t->unit);
		size_t nwarn = wrec->nwarnings;
		struct result *mres;
		uint64_t took;

		if (!applicable(cfg, t))
			continue;
		if (clyde_mpi_max(cmd_stop_signal || status)) {
			mark_not_reached(res, status);
			continue;
		}
		mres = record_add_result(wrec, t->name, t->title, t->unit);
		gate.passed = 0;
		wall = 0;
		if (!rank)
			progress_phase(t->title, (unsigned)i + 1,
				       (unsigned)bench_ntests, NULL, 0, 0);
		if (t->run(&ctx, mres)) {
			if (mres->status != RESULT_FAILED)
				result_set_status(mres, RESULT_FAILED,
						  "failed");
		} else if (mres->status == RESULT_NOT_RUN) {
			result_set_status(mres, RESULT_OK, NULL);
		}
		if (!gate.passed)	/* failed early: still one barrier */
			mpi_gate(&gate);
		if (!strcmp(t->name, "seeks"))
			unlinkat(ctx.dirfd, io_file_name(&ctx), 0);
		took = mres->elapsed > 0 ? (uint64_t)(mres->elapsed * 1e9) : 0;
		/* times on this rank's clock from its barrier exit */
		worker_slot_fill(mine, mres, 0, took, wrec, nwarn);
		clyde_mpi_gather_slots(mine, all);
		if (!rank) {
			progress_idle();
			if (aggregate(res, all, (unsigned)size, 0, dirs, hosts,
				      1, rec))
				status = EXIT_FAILED;
		} else if (mres->status == RESULT_FAILED) {
			status = EXIT_FAILED;
		}
	}
	if (cmd_stop_signal && !status)
		status = EXIT_FAILED;
	measure_set_gate(NULL, NULL);
	signal_unlink_path[0] = '\0';
	signal_unlink_dirfd = -1;
	files_state_free(ctx.files);
	if (ctx.dirfd >= 0)
		close(ctx.dirfd);
	if (ctx.dir)
		cmd_remove_tree(ctx.dir);
	free(ctx.path);
	free(ctx.dir);
	record_free(wrec);
	free(mine);
	free(all);
	free(names);
	free(hosts);
	free(dirs);
	return status;
}

static int write_outputs(const struct record *rec, const struct bench_config *cfg,
			 FILE *json, FILE *csv)
{
	int rc = 0;

	if (record_write_text(rec, cfg->quiet ? stderr : stdout))
		rc = -1;
	if (record_write_bonnie_csv(rec, stdout) || fflush(stdout))
		rc = -1;
	if (csv && (record_write_bonnie_csv(rec, csv) || fflush(csv))) {
		fprintf(stderr, "clyde: --csv: cannot write '%s': %s\n",
			cfg->csv_path, strerror(errno));
		rc = -1;
	}
	if (json && (record_write_json(rec, json) || fflush(json))) {
		fprintf(stderr, "clyde: --json: cannot write '%s': %s\n",
			cfg->json_path, strerror(errno));
		rc = -1;
	}
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct bench_config cfg;
	struct host_info host;
	struct fs_target target;
	struct dio_align *align = NULL;
	FILE *json = NULL, *csv = NULL;
	char err[512];
	const char *dir;
	unsigned rep;
	size_t i;
	int status, nranks, rank, agreed = 0;

	/* under mpirun (a build with MPI=1) every rank is a worker */
	nranks = clyde_mpi_init();
	rank = clyde_mpi_rank();
	memset(&host, 0, sizeof(host));
	memset(&target, 0, sizeof(target));
	config_init(&cfg);
	if (cmd_parsed(options_parse(&cfg, argc, argv, err, sizeof(err)), err,
		       &status))
		goto out;
	if (cfg.sem_create) {
		status = 0;
		if (cfg.sem_procs < 0 ? semsync_remove(err, sizeof(err)) :
		    semsync_create(cfg.sem_procs, err, sizeof(err))) {
			fprintf(stderr, "clyde: %s\n", err);
			status = EXIT_FAILED;
		}
		goto out;
	}
	host_detect(&host);
	resolve_file_size(&cfg, &host);
	status = check_settings(&cfg);
	if (status)
		goto out;
	status = drop_privileges(&cfg);
	if (status)
		goto out;
	if (nranks > 1 && (cfg.procs > 1 || cfg.sync_mode)) {
		status = cmd_usage_error("%s: under mpirun every rank is one "
				     "worker, in step by MPI: start more ranks",
				     cfg.procs > 1 ? "-c" : "-y");
		goto out;
	}
	dir = cfg.ndirs ? cfg.dirs[rank % (int)cfg.ndirs] : ".";
	status = check_directory(&cfg, dir, nranks > 1 ? 1 :
				 cfg.procs * same_dirs(&cfg, 0), &target);
	for (i = 1; !status && nranks == 1 && i < cfg.ndirs; i++) {
		struct fs_target other;

		memset(&other, 0, sizeof(other));
		status = check_directory(&cfg, cfg.dirs[i],
					 cfg.procs * same_dirs(&cfg, i),
					 &other);
		fs_target_release(&other);
	}
	if (status)
		goto out;
	if (cfg.direct && cfg.file_size) {
		align = xcalloc(cfg.ndirs ? cfg.ndirs : 1, sizeof(*align));
		for (i = 0; !status && i < (cfg.ndirs ? cfg.ndirs : 1); i++)
			status = check_direct(&cfg, cfg.ndirs ? cfg.dirs[i]
							      : ".", &align[i]);
		if (status)
			goto out;
	}
	if (!rank && cfg.json_path &&
	    !(json = cmd_open_output("--json", cfg.json_path, NULL, NULL))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!rank && cfg.csv_path &&
	    !(csv = cmd_open_output("--csv", cfg.csv_path, NULL, NULL))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!cfg.seed_given) {
		uint32_t seed;

		if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
			seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		/* the same recorded seed on every rank (each varies it) */
		cfg.seed = (uint32_t)clyde_mpi_max((int)(seed >> 1));
	}
	/* every rank checked its own directory: all go on, or none */
	agreed = 1;
	status = clyde_mpi_max(status);
	if (status)
		goto out;
	cmd_install_signals(second_signal);
	progress_start(cfg.quiet || rank);

	for (rep = 1; rep <= cfg.repeats; rep++) {
		struct record *rec = record_new();

		fill_record(rec, &cfg, &host, &target, dir, rep);
		if (nranks > 1) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%d", nranks);
			record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
			record_set_param(rec, "mpi_ranks", buf, 1);
			status = suite_run_mpi(&cfg, align, host.hostname, rec,
					       rank, nranks);
		} else if (nworkers(&cfg) > 1)
			status = suite_run_workers(&cfg, align, host.hostname,
						   rec);
		else
			status = suite_run(&cfg, dir, align, rec);
		free(rec->end);
		rec->end = record_now_iso8601();
		if (cmd_stop_signal)
			status = 128 + cmd_stop_signal;
		status = clyde_mpi_max(status);
		rec->exit_status = status;
		if (!rank && write_outputs(rec, &cfg, json, csv) && !status)
			status = EXIT_FAILED;
		status = clyde_mpi_max(status);
		record_free(rec);
		if (status)
			break;
		/* a new seed per repetition keeps the data unique across them */
		cfg.seed = (cfg.seed + 1) & 0xffffffffu;
	}
	progress_stop();
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
out:
	if (nranks > 1 && !agreed && status != 0)
		clyde_mpi_max(status);	/* the others wait to agree */
	clyde_mpi_finalize();
	free(align);
	if (json)
		fclose(json);
	if (csv)
		fclose(csv);
	fs_target_release(&target);
	host_release(&host);
	config_release(&cfg);
	return status;
}
