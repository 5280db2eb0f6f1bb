// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde run`: check everything a user can get wrong before creating
 * anything, then run the suite in a directory of clyde's own, remove it
 * whatever happens, and write the record of what finished.
 */
#include "bench/classic/run.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "bench/classic/tests.h"
#include "bench/parallel/mpi.h"
#include "bench/classic/options.h"
#include "bench/cmdutil.h"
#include "bench/outputs.h"
#include "bench/progress.h"
#include "bench/rundir.h"
#include "bench/run_kinds.h"
#include "bench/parallel/semsync.h"
#include "bench/classic/suite.h"
#include "fsops/cache.h"
#include "fsops/file.h"
#include "fsops/target.h"
#include "lib/diag.h"
#include "lib/units.h"
#include "lib/xalloc.h"
#include "report/model/record.h"

/* The outputs of clyde run, in the order added. */
enum { RUN_OUT_JSON, RUN_OUT_CSV };

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
	uint64_t twice;

	if (cfg->file_size_given)
		return;
	/* a product that does not fit asks for more than any disk has */
	if (cfg->bonnie_size) {
		if (mul_u64(2, cfg->ram ? cfg->ram : host->ram,
			    &cfg->file_size))
			cfg->file_size = UINT64_MAX;
	} else if (mul_u64(2, cfg->device_cache, &twice)) {
		cfg->file_size = UINT64_MAX;
	} else if (twice > cfg->file_size) {
		cfg->file_size = twice;
	}
}

/*
 * Bytes the file tests may write: the mean size of every file.  0, or -1
 * when that does not fit in 64 bits.
 */
static int files_bytes(const struct bench_config *cfg, uint64_t *bytes)
{
	*bytes = 0;
	if (cfg->max_size <= 0)
		return 0;
	return mul_u64(cfg->num_files,
		       (uint64_t)cfg->max_size / 2 + (uint64_t)cfg->min_size / 2 +
		       (uint64_t)(cfg->max_size % 2 + cfg->min_size % 2) / 2,
		       bytes);
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

/* Whether an earlier -d names dirs[i] too. */
static int same_before(const struct bench_config *cfg, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(cfg->dirs[j], cfg->dirs[i]))
			return 1;
	return 0;
}

/* -u/-g are possible: root, or the user one is already. */
static int check_user(const struct bench_config *cfg)
{
	if ((cfg->user_given || cfg->group_given) && getuid() != 0 &&
	    ((cfg->user_given && cfg->uid != geteuid()) ||
	     (cfg->group_given && cfg->gid != getegid())))
		return cmd_usage_error("-u: only root can run as another user "
				       "or group");
	return 0;
}

/*
 * -u/-g: bonnie++ opens its outputs (the shell's redirections) as the
 * invoking user and runs as the other one.  clyde checks the directories
 * as the user it will run as (effective ids only, set back afterwards),
 * opens --json and --csv as the invoking user, then drops privileges for
 * good.  0, or EXIT_USAGE after a message.
 */
static int switch_user(const struct bench_config *cfg, int temporarily)
{
	if (!cfg->user_given && !cfg->group_given)
		return 0;
	if (getuid() != 0)
		return check_user(cfg);
	if (temporarily) {
		if (setgroups(0, NULL) || setegid(cfg->gid) ||
		    (cfg->user_given && seteuid(cfg->uid)))
			return cmd_usage_error("-u: cannot switch to %s:%s: %s",
					   cfg->user ? cfg->user : "root",
					   cfg->group ? cfg->group : "-",
					   strerror(errno));
		return 0;
	}
	/* back to root (the real ids), then for good */
	if (seteuid(0) || setegid(0) || setgid(cfg->gid) ||
	    (cfg->user_given && setuid(cfg->uid)))
		return cmd_usage_error("-u: cannot switch to %s:%s: %s",
				   cfg->user ? cfg->user : "root",
				   cfg->group ? cfg->group : "-",
				   strerror(errno));
	return 0;
}

/* Back to the invoking user's ids after switch_user(cfg, 1). */
static void switch_back(const struct bench_config *cfg)
{
	if ((cfg->user_given || cfg->group_given) && getuid() == 0 &&
	    (seteuid(0) || setegid(0)))
		cmd_usage_error("-u: cannot switch back to root: %s",
				strerror(errno));
}

/*
 * The file tests create -n's files (hard links: one inode) and directories
 * in each copy; a filesystem that counts inodes (f_files > 0) must have
 * that many free for the user (f_favail), or they fail midway on ENOSPC.
 */
static int check_inodes(const struct bench_config *cfg, const char *dir,
			int fd, unsigned copies)
{
	struct statvfs sv;
	uint64_t per, need;

	if (!cfg->num_files || fstatvfs(fd, &sv) || !sv.f_files)
		return 0;
	per = cfg->max_size == FILES_HARDLINKS ? 1 : cfg->num_files;
	per += cfg->num_dirs + 4;	/* clyde.*, its files dir, I/O file */
	need = per * copies;
	if (need <= sv.f_favail)
		return 0;
	return cmd_usage_error("-n: the file tests need %" PRIu64 " inodes "
			       "but '%s' has only %" PRIu64 " free",
			       need, dir, (uint64_t)sv.f_favail);
}

static int check_directory(const struct bench_config *cfg, const char *dir,
			   unsigned copies, struct fs_target *target)
{
	char err[256], have[32], need[32], at[64];
	uint64_t bytes, fbytes;
	int fd;

	/* opened once: every check below and the run's own directory go
	 * through this descriptor, never the path again (rundir.h) */
	fd = rundir_hold(dir);
	if (fd == -ENOTDIR)
		return cmd_usage_error("-d: '%s' is not a directory", dir);
	if (fd < 0)
		return cmd_usage_error("-d: '%s': %s", dir, strerror(-fd));
	if (fs_target_detect(rundir_held_path(dir, at, sizeof(at)), target,
			     err, sizeof(err)))
		return cmd_usage_error("-d: '%s': %s", dir, err);
	if (target->readonly)
		return cmd_usage_error("-d: '%s' is on a read-only filesystem", dir);
	/* as the user the run will be (-u): the effective ids */
	if (switch_user(cfg, 1))
		return EXIT_USAGE;
	if (faccessat(fd, ".", W_OK | X_OK, AT_EACCESS)) {
		int e = errno;

		switch_back(cfg);
		return cmd_usage_error("-d: cannot write in '%s': %s", dir,
				   strerror(e));
	}
	switch_back(cfg);
	/* checked: a product that wraps would pass any space check */
	if (files_bytes(cfg, &fbytes))
		return cmd_usage_error("-n: the file tests would write more "
				   "than 16 EiB");
	if (add_u64(cfg->file_size, fbytes, &bytes) ||
	    mul_u64(bytes, copies, &bytes)) {
		human_size(have, sizeof(have), target->avail_bytes);
		return cmd_usage_error("%s: the test files need more than 16 EiB "
				   "but '%s' has only %s free",
				   fbytes > cfg->file_size ? "-n" : "-s", dir,
				   have);
	}
	if (bytes > target->avail_bytes) {
		human_size(need, sizeof(need), bytes);
		human_size(have, sizeof(have), target->avail_bytes);
		return cmd_usage_error("%s: the test files need %s but '%s' has "
				   "only %s free",
				   fbytes > cfg->file_size ? "-n" : "-s", need,
				   dir, have);
	}
	return check_inodes(cfg, dir, fd, copies);
}

/*
 * Several -d: every directory's target and device stack in the record
 * (others[i] for i >= 1, first for the first), as record_fill_env() fills
 * the one target.
 */
static void fill_targets(struct record *rec, const struct bench_config *cfg,
			 const struct host_info *host,
			 const struct fs_target *first,
			 const struct fs_target *others)
{
	size_t i;

	rec->targets = xcalloc(cfg->ndirs, sizeof(*rec->targets));
	for (i = 0; i < cfg->ndirs; i++) {
		struct record *tmp = record_new();

		record_fill_env(tmp, host, i ? &others[i] : first,
				cfg->dirs[i], NULL, 1);
		rec->targets[rec->ntargets++] = tmp->target;
		memset(&tmp->target, 0, sizeof(tmp->target));
		record_free(tmp);
	}
}

static void fill_record(struct record *rec, const struct bench_config *cfg,
			const struct host_info *host,
			const struct fs_target *target, const char *dir,
			unsigned repetition)
{
	char buf[64];

	record_fill_env(rec, host, target, dir, cfg->label, repetition);
	options_record(cfg, rec);
	snprintf(buf, sizeof(buf), "%u", suite_nworkers(cfg));
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

/*
 * With --direct, find the alignment O_DIRECT needs on the filesystem of dir
 * (on a probe file, removed at once) and check the chunk and file size fit
 * it.  Returns 0, or EXIT_USAGE after a message.
 */
static int check_direct(const struct bench_config *cfg, const char *dir,
			struct dio_align *align)
{
	char at[64];
	char *probe = xasprintf("%s/.clyde-direct.XXXXXX",
				rundir_held_path(dir, at, sizeof(at)));
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

/* The text and bonnie++ CSV on stdout, then --csv and --json. */
static int write_outputs(const struct record *rec, const struct bench_config *cfg,
			 struct outputs *out)
{
	FILE *csv = outputs_file(out, RUN_OUT_CSV);
	FILE *json = outputs_file(out, RUN_OUT_JSON);
	int rc = 0;

	if (record_write_text(rec, cfg->quiet ? stderr : stdout))
		rc = -1;
	if (record_write_bonnie_csv(rec, stdout) || fflush(stdout))
		rc = -1;
	if (csv && outputs_done(out, RUN_OUT_CSV,
				record_write_bonnie_csv(rec, csv)))
		rc = -1;
	if (json && outputs_done(out, RUN_OUT_JSON,
				 record_write_json(rec, json)))
		rc = -1;
	return rc;
}

/*
 * -p N or -p -1 alone: create or remove bonnie++'s semaphores.  Asking for
 * a set that exists already, or removing none, is bad input (exit 2).
 */
static int run_semaphores(const struct bench_config *cfg)
{
	char err[256];
	int rc = cfg->sem_procs < 0 ? semsync_remove(err, sizeof(err)) :
		 semsync_create(cfg->sem_procs, err, sizeof(err));

	if (!rc)
		return 0;
	if (rc == -EEXIST || rc == -ENOENT)
		return cmd_usage_error("%s", err);
	diag_error("%s", err);
	return EXIT_FAILED;
}

/* Everything one `clyde run` holds between its steps. */
struct run_state {
	struct bench_config cfg;
	struct host_info host;
	struct fs_target target, *others;	/* others: several -d */
	struct dio_align *align;
	struct outputs out;
	char *mixed;		/* several -d of different kinds: warned */
	const char *dir;	/* this rank's -d */
	int nranks, rank;
};

/* The settings, the user and mpirun's constraints.  0 or EXIT_USAGE. */
static int check_run(struct run_state *r)
{
	struct bench_config *cfg = &r->cfg;
	int status;

	host_detect(&r->host);
	resolve_file_size(cfg, &r->host);
	status = check_settings(cfg);
	if (!status)
		status = check_user(cfg);
	if (!status && r->nranks > 1 && (cfg->procs > 1 || cfg->sync_mode))
		status = cmd_usage_error("%s: under mpirun every rank is one "
					 "worker, in step by MPI: start more "
					 "ranks", cfg->procs > 1 ? "-c" : "-y");
	return status;
}

/* Every -d checked (this rank's alone under MPI), and a note when they
 * are of different kinds.  0 or EXIT_USAGE. */
static int check_dirs(struct run_state *r)
{
	struct bench_config *cfg = &r->cfg;
	const struct fs_target **t;
	int status;
	size_t i;

	r->dir = cfg->ndirs ? cfg->dirs[r->rank % (int)cfg->ndirs] : ".";
	status = check_directory(cfg, r->dir, r->nranks > 1 ? 1 :
				 cfg->procs * same_dirs(cfg, 0), &r->target);
	/* what a killed clyde left there: said once per -d */
	for (i = 0; !status && !r->rank && i < (cfg->ndirs ? cfg->ndirs : 1);
	     i++)
		if (!i || !same_before(cfg, i))
			rundir_warn_leftovers(cfg->ndirs ? cfg->dirs[i] : ".");
	if (r->nranks == 1 && cfg->ndirs > 1)
		r->others = xcalloc(cfg->ndirs, sizeof(*r->others));
	for (i = 1; !status && r->nranks == 1 && i < cfg->ndirs; i++)
		status = check_directory(cfg, cfg->dirs[i],
					 cfg->procs * same_dirs(cfg, i),
					 &r->others[i]);
	if (status || !r->others)
		return status;
	t = xcalloc(cfg->ndirs, sizeof(*t));
	for (i = 0; i < cfg->ndirs; i++)
		t[i] = i ? &r->others[i] : &r->target;
	r->mixed = run_mixed_kinds((const char *const *)cfg->dirs, t,
				   cfg->ndirs);
	free(t);
	return 0;
}

/* --direct: each -d's alignment, probed as the run's user.  0 or
 * EXIT_USAGE. */
static int check_all_direct(struct run_state *r)
{
	struct bench_config *cfg = &r->cfg;
	size_t i, n = cfg->ndirs ? cfg->ndirs : 1;
	int status;

	if (!cfg->direct || !cfg->file_size)
		return 0;
	r->align = xcalloc(n, sizeof(*r->align));
	status = switch_user(cfg, 1);
	for (i = 0; !status && i < n; i++)
		status = check_direct(cfg, cfg->ndirs ? cfg->dirs[i] : ".",
				      &r->align[i]);
	switch_back(cfg);
	return status;
}

/* Rank 0's outputs, the root cache evictor for -u, the user for good,
 * the seed every rank records.  0 or EXIT_USAGE. */
static int start_run(struct run_state *r)
{
	struct bench_config *cfg = &r->cfg;
	int status = 0;

	outputs_add(&r->out, "--json", cfg->json_path, OUT_JSON);
	outputs_add(&r->out, "--csv", cfg->csv_path, OUT_BONNIE_CSV);
	if (!r->rank)
		status = outputs_open(&r->out);
	/* eviction below the fs needs root: a helper keeps it (cache.h) */
	if (!status && (cfg->user_given || cfg->group_given) && !getuid() &&
	    cache_helper_start())
		diag_warning("cannot start the root cache evictor: the caches "
			     "below the file system are evicted as user %s",
			     cfg->user ? cfg->user : "?");
	if (!status && switch_user(cfg, 0)) {
		/* bad input after all: no output file left that we made */
		outputs_abort(&r->out);
		status = EXIT_USAGE;
	}
	if (!cfg->seed_given) {
		uint32_t seed = cmd_random_seed();

		/* the same recorded seed on every rank (each varies it) */
		cfg->seed = (uint32_t)clyde_mpi_max((int)(seed >> 1));
	}
	return status;
}

/* Repetition rep of the suite into a record, written out.  Its status. */
static int run_once(struct run_state *r, unsigned rep)
{
	struct bench_config *cfg = &r->cfg;
	struct record *rec = record_new();
	int status;

	fill_record(rec, cfg, &r->host, &r->target, r->dir, rep);
	if (r->others)
		fill_targets(rec, cfg, &r->host, &r->target, r->others);
	if (r->mixed)
		record_warn(rec, "%s", r->mixed);
	if (r->nranks > 1) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%d", r->nranks);
		record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
		record_set_param(rec, "mpi_ranks", buf, 1);
		status = suite_run_mpi(cfg, r->align, r->host.hostname, rec,
				       r->rank, r->nranks);
	} else if (suite_nworkers(cfg) > 1)
		status = suite_run_workers(cfg, r->align, r->host.hostname,
					   rec);
	else
		status = suite_run_single(cfg, r->dir, r->align, rec);
	free(rec->end);
	rec->end = record_now_iso8601();
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	status = clyde_mpi_max(status);
	rec->exit_status = status;
	if (!r->rank && write_outputs(rec, cfg, &r->out) && !status)
		status = EXIT_FAILED;
	record_free(rec);
	return clyde_mpi_max(status);
}

/* -x repetitions, each with a new seed (unique data across them). */
static int run_all(struct run_state *r)
{
	int status = 0;
	unsigned rep;

	cmd_install_signals(suite_second_signal);
	progress_start(r->cfg.quiet || r->rank);
	for (rep = 1; !status && rep <= r->cfg.repeats; rep++) {
		status = run_once(r, rep);
		r->cfg.seed = (r->cfg.seed + 1) & 0xffffffffu;
	}
	progress_stop();
	return cmd_stop_signal ? 128 + cmd_stop_signal : status;
}

static void run_release(struct run_state *r)
{
	size_t i;

	cache_helper_stop();
	free(r->align);
	outputs_commit(&r->out);
	for (i = 1; r->others && i < r->cfg.ndirs; i++)
		fs_target_release(&r->others[i]);
	free(r->others);
	free(r->mixed);
	fs_target_release(&r->target);
	host_release(&r->host);
	config_release(&r->cfg);
}

int cmd_run(int argc, char **argv)
{
	struct run_state r;
	char err[512];
	int status;

	memset(&r, 0, sizeof(r));
	/* under mpirun (a build with MPI=1) every rank is a worker */
	r.nranks = clyde_mpi_init();
	r.rank = clyde_mpi_rank();
	config_init(&r.cfg);
	if (cmd_parsed(options_parse(&r.cfg, argc, argv, err, sizeof(err)),
		       err, &status)) {
		/* the other ranks wait to agree */
		if (r.nranks > 1 && status)
			clyde_mpi_max(status);
		goto out;
	}
	if (r.cfg.sem_create) {
		status = run_semaphores(&r.cfg);
		goto out;
	}
	status = check_run(&r);
	if (!status)
		status = check_dirs(&r);
	if (!status)
		status = check_all_direct(&r);
	/* every rank checked its own directory: all go on, or none */
	status = clyde_mpi_max(status);
	if (!status)
		status = clyde_mpi_max(start_run(&r));
	if (!status)
		status = run_all(&r);
out:
	clyde_mpi_finalize();
	run_release(&r);
	return status;
}
