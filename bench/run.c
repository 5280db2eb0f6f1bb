// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde run`: check everything a user can get wrong before creating
 * anything, then run the suite in a directory of clyde's own, remove it
 * whatever happens, and write the record of what finished.
 */
#include "run.h"

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

#include "bench.h"
#include "mpi.h"
#include "options.h"
#include "cmdutil.h"
#include "progress.h"
#include "run_kinds.h"
#include "semsync.h"
#include "suite.h"
#include "../fsops/cache.h"
#include "../fsops/file.h"
#include "../fsops/target.h"
#include "../lib/units.h"
#include "../lib/xalloc.h"
#include "../report/record.h"

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
 * Open --json and --csv to append.  Nothing is left behind on failure: a
 * file this call created is removed again.  0, or EXIT_USAGE.
 */
static int open_outputs(const struct bench_config *cfg, FILE **json,
			FILE **csv)
{
	int json_created = 0;

	if (cfg->json_path &&
	    !(*json = cmd_open_output("--json", cfg->json_path,
				      CMD_OUT_JSON, NULL,
				      &json_created)))
		return EXIT_USAGE;
	if (cfg->csv_path &&
	    !(*csv = cmd_open_output("--csv", cfg->csv_path,
				     CMD_OUT_BONNIE_CSV, NULL, NULL))) {
		if (*json) {
			fclose(*json);
			*json = NULL;
			if (json_created)
				unlink(cfg->json_path);
		}
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The file tests create -n's files (hard links: one inode) and directories
 * in each copy; a filesystem that counts inodes (f_files > 0) must have
 * that many free for the user (f_favail), or they fail midway on ENOSPC.
 */
static int check_inodes(const struct bench_config *cfg, const char *dir,
			unsigned copies)
{
	struct statvfs sv;
	uint64_t per, need;

	if (!cfg->num_files || statvfs(dir, &sv) || !sv.f_files)
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
	char err[256], have[32], need[32];
	struct stat st;
	uint64_t bytes, fbytes;

	if (stat(dir, &st))
		return cmd_usage_error("-d: '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cmd_usage_error("-d: '%s' is not a directory", dir);
	if (fs_target_detect(dir, target, err, sizeof(err)))
		return cmd_usage_error("-d: '%s': %s", dir, err);
	if (target->readonly)
		return cmd_usage_error("-d: '%s' is on a read-only filesystem", dir);
	/* as the user the run will be (-u): the effective ids */
	if (switch_user(cfg, 1))
		return EXIT_USAGE;
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS)) {
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
	return check_inodes(cfg, dir, copies);
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
	struct fs_target target, *others = NULL;
	struct dio_align *align = NULL;
	FILE *json = NULL, *csv = NULL;
	char *mixed = NULL;	/* several -d of different kinds: warned */
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
	status = check_user(&cfg);
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
	if (nranks == 1 && cfg.ndirs > 1)
		others = xcalloc(cfg.ndirs, sizeof(*others));
	for (i = 1; !status && nranks == 1 && i < cfg.ndirs; i++)
		status = check_directory(&cfg, cfg.dirs[i],
					 cfg.procs * same_dirs(&cfg, i),
					 &others[i]);
	if (status)
		goto out;
	if (others) {
		const struct fs_target **t = xcalloc(cfg.ndirs, sizeof(*t));

		for (i = 0; i < cfg.ndirs; i++)
			t[i] = i ? &others[i] : &target;
		mixed = run_mixed_kinds((const char *const *)cfg.dirs, t,
					cfg.ndirs);
		free(t);
	}
	if (cfg.direct && cfg.file_size) {
		/* the probe file is made as the run's user */
		align = xcalloc(cfg.ndirs ? cfg.ndirs : 1, sizeof(*align));
		status = switch_user(&cfg, 1);
		for (i = 0; !status && i < (cfg.ndirs ? cfg.ndirs : 1); i++)
			status = check_direct(&cfg, cfg.ndirs ? cfg.dirs[i]
							      : ".", &align[i]);
		switch_back(&cfg);
		if (status)
			goto out;
	}
	/* every rank checked its own directory: all go on, or none */
	status = clyde_mpi_max(status);
	if (status)
		goto out_agreed;
	if (!rank)
		status = open_outputs(&cfg, &json, &csv);
	/* eviction below the fs needs root: a helper keeps it (cache.h) */
	if (!status && (cfg.user_given || cfg.group_given) && !getuid() &&
	    cache_helper_start())
		fprintf(stderr, "clyde: warning: cannot start the root cache "
			"evictor: the caches below the file system are "
			"evicted as user %s\n", cfg.user ? cfg.user : "?");
	if (!status)
		status = switch_user(&cfg, 0);
	if (!cfg.seed_given) {
		uint32_t seed;

		if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
			seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		/* the same recorded seed on every rank (each varies it) */
		cfg.seed = (uint32_t)clyde_mpi_max((int)(seed >> 1));
	}
	status = clyde_mpi_max(status);
out_agreed:
	agreed = 1;
	if (status)
		goto out;
	cmd_install_signals(suite_second_signal);
	progress_start(cfg.quiet || rank);

	for (rep = 1; rep <= cfg.repeats; rep++) {
		struct record *rec = record_new();

		fill_record(rec, &cfg, &host, &target, dir, rep);
		if (others)
			fill_targets(rec, &cfg, &host, &target, others);
		if (mixed)
			record_warn(rec, "%s", mixed);
		if (nranks > 1) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%d", nranks);
			record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
			record_set_param(rec, "mpi_ranks", buf, 1);
			status = suite_run_mpi(&cfg, align, host.hostname, rec,
					       rank, nranks);
		} else if (suite_nworkers(&cfg) > 1)
			status = suite_run_workers(&cfg, align, host.hostname,
						   rec);
		else
			status = suite_run_single(&cfg, dir, align, rec);
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
	cache_helper_stop();
	free(align);
	if (json)
		fclose(json);
	if (csv)
		fclose(csv);
	for (i = 1; others && i < cfg.ndirs; i++)
		fs_target_release(&others[i]);
	free(others);
	free(mixed);
	fs_target_release(&target);
	host_release(&host);
	config_release(&cfg);
	return status;
}
