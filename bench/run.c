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
#include "options.h"
#include "../fsops/file.h"
#include "../fsops/target.h"
#include "../lib/xalloc.h"
#include "../report/record.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/* Set by the first SIGINT/SIGTERM/SIGHUP: the tests stop after the current
 * operation.  The second signal removes the big test file and exits. */
static volatile sig_atomic_t stop_signal;
static char signal_unlink_path[PATH_MAX];

static void on_signal(int sig)
{
	if (stop_signal) {
		if (signal_unlink_path[0])
			unlink(signal_unlink_path);
		_exit(128 + sig);
	}
	stop_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("clyde: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
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
		return usage_error("-s: chunk size %" PRIu64
				   " is larger than the file size %" PRIu64,
				   cfg->chunk_size, cfg->file_size);
	if (cfg->file_size && cfg->char_size > cfg->file_size)
		return usage_error("-f: per-char size %" PRIu64
				   " is larger than the file size %" PRIu64,
				   cfg->char_size, cfg->file_size);
	if (cfg->ndirs > 1)
		return usage_error("-d: one directory per run for now; "
				   "several -d in step are not supported yet");
	return 0;
}

static int drop_privileges(const struct bench_config *cfg)
{
	if (!cfg->user_given && !cfg->group_given)
		return 0;
	if (geteuid() != 0) {
		if ((cfg->user_given && cfg->uid != geteuid()) ||
		    (cfg->group_given && cfg->gid != getegid()))
			return usage_error("-u: only root can run as another "
					   "user or group");
		return 0;
	}
	if (setgroups(0, NULL) || setgid(cfg->gid) ||
	    (cfg->user_given && setuid(cfg->uid)))
		return usage_error("-u: cannot switch to %s:%s: %s",
				   cfg->user ? cfg->user : "root",
				   cfg->group ? cfg->group : "-",
				   strerror(errno));
	return 0;
}

static int check_directory(const struct bench_config *cfg, const char *dir,
			   struct fs_target *target)
{
	char err[256], have[32], need[32];
	struct stat st;
	uint64_t bytes;

	if (stat(dir, &st))
		return usage_error("-d: '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("-d: '%s' is not a directory", dir);
	if (fs_target_detect(dir, target, err, sizeof(err)))
		return usage_error("-d: '%s': %s", dir, err);
	if (target->readonly)
		return usage_error("-d: '%s' is on a read-only filesystem", dir);
	if (access(dir, W_OK | X_OK))
		return usage_error("-d: cannot write in '%s': %s", dir,
				   strerror(errno));
	bytes = cfg->file_size + files_bytes(cfg);
	if (bytes > target->avail_bytes) {
		human_size(need, sizeof(need), bytes);
		human_size(have, sizeof(have), target->avail_bytes);
		return usage_error("-s: the test files need %s but '%s' has "
				   "only %s free", need, dir, have);
	}
	return 0;
}

static FILE *open_output(const char *opt, const char *path)
{
	FILE *f = fopen(path, "a");

	if (!f)
		usage_error("%s: cannot open '%s': %s", opt, path,
			    strerror(errno));
	return f;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove the run's own directory and all it holds (clyde made all of it). */
static void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}

static void fill_record(struct record *rec, const struct bench_config *cfg,
			const struct host_info *host,
			const struct fs_target *target, const char *dir,
			unsigned repetition)
{
	char buf[64];

	record_set_str(&rec->tool, "clyde");
	record_set_str(&rec->version, CLYDE_VERSION);
	rec->start = record_now_iso8601();
	record_set_str(&rec->label, cfg->label ? cfg->label : host->hostname);
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

	options_record(cfg, rec);
	record_set_param(rec, PARAM_CONCURRENCY, "1", 1);
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
			return usage_error("--direct: the filesystem of '%s' "
					   "cannot do direct I/O", dir);
		return usage_error("--direct: cannot create a probe file in "
				   "'%s': %s", dir, strerror(rc));
	}
	rc = dio_alignment(fd, align);
	close(fd);
	unlink(probe);
	free(probe);
	if (rc == -EINVAL)
		return usage_error("--direct: the filesystem of '%s' cannot do "
				   "direct I/O", dir);
	if (rc)
		return usage_error("--direct: cannot find the direct I/O "
				   "alignment in '%s': %s", dir, strerror(-rc));
	if (cfg->chunk_size % align->offset)
		return usage_error("-s: chunk size %" PRIu64 " is not a multiple "
				   "of the direct I/O alignment %zu of '%s'",
				   cfg->chunk_size, align->offset, dir);
	if (cfg->file_size % align->offset)
		return usage_error("-s: file size %" PRIu64 " is not a multiple "
				   "of the direct I/O alignment %zu of '%s'",
				   cfg->file_size, align->offset, dir);
	return 0;
}

/*
 * One pass of the suite in a new directory of its own under dir.  Returns
 * 0 when every test ran, EXIT_FAILED when one failed or a signal stopped
 * it.
 */
static int suite_run(const struct bench_config *cfg, const char *dir,
		     const struct dio_align *align, struct record *rec)
{
	struct bench_ctx ctx;
	int status = 0;
	size_t i;

	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = cfg;
	ctx.rec = rec;
	ctx.stop = &stop_signal;
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
	if (strlen(ctx.path) < sizeof(signal_unlink_path))
		memcpy(signal_unlink_path, ctx.path, strlen(ctx.path) + 1);
	if (align) {
		ctx.direct = 1;
		ctx.align = *align;
	}

	for (i = 0; i < bench_ntests; i++) {
		const struct bench_test *t = bench_tests[i];
		struct result *res = record_add_result(rec, t->name, t->title,
						       t->unit);

		if (!applicable(cfg, t) || stop_signal || status)
			continue;
		if (t->run(&ctx, res)) {
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
			unlink(ctx.path);
	}
	if (stop_signal && !status)
		status = EXIT_FAILED;
out:
	files_state_free(ctx.files);
	if (ctx.dirfd >= 0)
		close(ctx.dirfd);
	signal_unlink_path[0] = '\0';
	remove_tree(ctx.dir);
	free(ctx.path);
	free(ctx.dir);
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
	struct dio_align align;
	FILE *json = NULL, *csv = NULL;
	char err[512];
	const char *dir;
	unsigned rep;
	int status;

	memset(&host, 0, sizeof(host));
	memset(&target, 0, sizeof(target));
	config_init(&cfg);
	switch (options_parse(&cfg, argc, argv, err, sizeof(err))) {
	case OPTIONS_EXIT:
		status = 0;
		goto out;
	case OPTIONS_ERROR:
		status = usage_error("%s", err);
		goto out;
	case OPTIONS_OK:
		break;
	}
	host_detect(&host);
	resolve_file_size(&cfg, &host);
	status = check_settings(&cfg);
	if (status)
		goto out;
	status = drop_privileges(&cfg);
	if (status)
		goto out;
	dir = cfg.ndirs ? cfg.dirs[0] : ".";
	status = check_directory(&cfg, dir, &target);
	if (status)
		goto out;
	if (cfg.direct && cfg.file_size) {
		status = check_direct(&cfg, dir, &align);
		if (status)
			goto out;
	}
	if (cfg.json_path && !(json = open_output("--json", cfg.json_path))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (cfg.csv_path && !(csv = open_output("--csv", cfg.csv_path))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!cfg.seed_given) {
		uint32_t seed;

		if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
			seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		cfg.seed = seed;
	}
	install_signals();

	for (rep = 1; rep <= cfg.repeats; rep++) {
		struct record *rec = record_new();

		fill_record(rec, &cfg, &host, &target, dir, rep);
		status = suite_run(&cfg, dir,
				   cfg.direct && cfg.file_size ? &align : NULL, rec);
		free(rec->end);
		rec->end = record_now_iso8601();
		if (stop_signal)
			status = 128 + stop_signal;
		rec->exit_status = status;
		if (write_outputs(rec, &cfg, json, csv) && !status)
			status = EXIT_FAILED;
		record_free(rec);
		if (status)
			break;
		/* a new seed per repetition keeps the data unique across them */
		cfg.seed = (cfg.seed + 1) & 0xffffffffu;
	}
	if (stop_signal)
		status = 128 + stop_signal;
out:
	if (json)
		fclose(json);
	if (csv)
		fclose(csv);
	fs_target_release(&target);
	host_release(&host);
	config_release(&cfg);
	return status;
}
