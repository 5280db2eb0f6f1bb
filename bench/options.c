// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options table of `clyde run`.  One row per option: how it is spelled
 * (bonnie++'s letter and a GNU long name), how it is parsed, its help line,
 * and how it is written into the run record.  Nothing about an option is
 * spelled anywhere else.
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/optable.h"
#include "../lib/units.h"
#include "../lib/xalloc.h"

#define CHUNK_MIN 256u
#define CHUNK_MAX (1024u * 1024)

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/*
 * Split s at ':' into at most max fields; empty fields stay NULL.  Returns
 * the field count or -1 when there are more than max.  s is modified.
 */
static int split_colons(char *s, char **field, int max)
{
	int n = 0;

	for (;;) {
		char *colon = strchr(s, ':');

		if (n == max)
			return -1;
		if (colon)
			*colon = '\0';
		field[n++] = *s ? s : NULL;
		if (!colon)
			return n;
		s = colon + 1;
	}
}

static int parse_chunk(const char *opt, const char *s, uint64_t *out,
		       char *err, size_t errlen)
{
	if (parse_size(s, 1, out))
		return errf(err, errlen, "%s: chunk size '%s' is not a size",
			    opt, s);
	if (!is_pow2(*out) || *out < CHUNK_MIN || *out > CHUNK_MAX)
		return errf(err, errlen,
			    "%s: chunk size '%s' must be a power of two from 256 to 1M",
			    opt, s);
	return 0;
}

/* --- the options, in --help order --- */

static int parse_dir(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	if (!*arg)
		return errf(err, errlen, "-d: empty directory name");
	xgrow((void **)&cfg->dirs, &cfg->dirs_alloc, cfg->ndirs + 1,
	      sizeof(*cfg->dirs));
	cfg->dirs[cfg->ndirs++] = xstrdup(arg);
	return 0;
}

static void params_dir(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	record_set_param(out, "directory", cfg->ndirs ? cfg->dirs[0] : ".", 0);
}

static int parse_file_size(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	char *copy = xstrdup(arg), *f[4];
	uint64_t v;
	int n = split_colons(copy, f, 4), rc = -1;

	if (n < 0) {
		errf(err, errlen, "-s: '%s' has more than size:chunk:seeks:seekers",
		     arg);
		goto out;
	}
	if (!f[0] || parse_size(f[0], MiB, &v)) {
		errf(err, errlen, "-s: '%s' is not a size", f[0] ? f[0] : "");
		goto out;
	}
	cfg->file_size = v;
	cfg->file_size_given = 1;
	if (n > 1 && f[1] && parse_chunk("-s", f[1], &cfg->chunk_size, err,
					 errlen))
		goto out;
	if (n > 2 && f[2] && (parse_uint(f[2], UINT32_MAX, &v) || !v)) {
		errf(err, errlen, "-s: seek count '%s' must be a number from 1",
		     f[2]);
		goto out;
	}
	if (n > 2 && f[2])
		cfg->seeks = v;
	if (n > 3 && f[3] && (parse_uint(f[3], 1024, &v) || !v)) {
		errf(err, errlen,
		     "-s: seeker count '%s' must be a number from 1 to 1024",
		     f[3]);
		goto out;
	}
	if (n > 3 && f[3])
		cfg->seekers = (unsigned)v;
	rc = 0;
out:
	free(copy);
	return rc;
}

static void set_uint_param(struct record *rec, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	record_set_param(rec, key, buf, 1);
}

static void set_int_param(struct record *rec, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	record_set_param(rec, key, buf, 1);
}

static void params_file_size(const void *p, void *out)
{
	const struct bench_config *cfg = p;
	struct record *rec = out;

	set_uint_param(rec, PARAM_FILE_SIZE, cfg->file_size);
	set_uint_param(rec, PARAM_CHUNK_SIZE, cfg->chunk_size);
	set_uint_param(rec, PARAM_SEEKS, cfg->seeks);
	set_uint_param(rec, PARAM_SEEKERS, cfg->seekers);
}

static int parse_files(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	char *copy = xstrdup(arg), *f[5];
	uint64_t v;
	int n = split_colons(copy, f, 5), rc = -1;

	if (n < 0) {
		errf(err, errlen, "-n: '%s' has more than num:max:min:dirs:chunk",
		     arg);
		goto out;
	}
	if (!f[0] || parse_uint(f[0], UINT32_MAX / 1024, &v)) {
		errf(err, errlen, "-n: file count '%s' is not a number",
		     f[0] ? f[0] : "");
		goto out;
	}
	cfg->num_files = v * 1024;
	if (n > 1 && f[1]) {
		if (!strcmp(f[1], "-1")) {
			cfg->max_size = FILES_HARDLINKS;
		} else if (!strcmp(f[1], "-2")) {
			cfg->max_size = FILES_SYMLINKS;
		} else if (parse_size(f[1], 1, &v) || v > INT64_MAX) {
			errf(err, errlen,
			     "-n: maximum size '%s' is not a size, -1 (hard links) or -2 (symlinks)",
			     f[1]);
			goto out;
		} else {
			cfg->max_size = (int64_t)v;
		}
	}
	if (n > 2 && f[2]) {
		if (parse_size(f[2], 1, &v) || v > INT64_MAX) {
			errf(err, errlen, "-n: minimum size '%s' is not a size",
			     f[2]);
			goto out;
		}
		cfg->min_size = (int64_t)v;
	}
	if (cfg->max_size >= 0 && cfg->min_size > cfg->max_size) {
		errf(err, errlen,
		     "-n: minimum size %" PRId64 " is larger than maximum %" PRId64,
		     cfg->min_size, cfg->max_size);
		goto out;
	}
	if (n > 3 && f[3]) {
		if (parse_uint(f[3], 100000, &v)) {
			errf(err, errlen,
			     "-n: directory count '%s' must be a number from 0 to 100000",
			     f[3]);
			goto out;
		}
		cfg->num_dirs = v;
	}
	if (n > 4 && f[4] && parse_chunk("-n", f[4], &cfg->file_chunk_size,
					 err, errlen))
		goto out;
	rc = 0;
out:
	free(copy);
	return rc;
}

static void params_files(const void *p, void *out)
{
	const struct bench_config *cfg = p;
	struct record *rec = out;

	set_uint_param(rec, PARAM_NUM_FILES, cfg->num_files);
	set_int_param(rec, PARAM_MAX_SIZE, cfg->max_size);
	set_int_param(rec, PARAM_MIN_SIZE, cfg->min_size);
	set_uint_param(rec, PARAM_NUM_DIRS, cfg->num_dirs);
	set_uint_param(rec, PARAM_FILE_CHUNK_SIZE, cfg->file_chunk_size);
}

static int parse_label(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	if (!*arg || strchr(arg, ',') || strchr(arg, '\n'))
		return errf(err, errlen,
			    "-m: label '%s' must be non-empty, without commas or newlines",
			    arg);
	free(cfg->label);
	cfg->label = xstrdup(arg);
	return 0;
}

static void params_label(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	if (cfg->label)
		record_set_param(out, "label", cfg->label, 0);
}

static int parse_ram(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	if (parse_size(arg, MiB, &cfg->ram))
		return errf(err, errlen, "-r: '%s' is not a size", arg);
	return 0;
}

static void params_ram(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "ram", cfg->ram);
}

static int parse_repeat(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	uint64_t v;

	if (parse_uint(arg, 100000, &v) || !v)
		return errf(err, errlen,
			    "-x: repeat count '%s' must be a number from 1 to 100000",
			    arg);
	cfg->repeats = (unsigned)v;
	return 0;
}

static void params_repeat(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "repeats", cfg->repeats);
}

static int parse_group_name(struct bench_config *cfg, const char *name,
			    const char *opt, char *err, size_t errlen)
{
	struct group *gr = getgrnam(name);
	uint64_t id;

	if (!gr && !parse_uint(name, UINT32_MAX - 1, &id))
		gr = getgrgid((gid_t)id);
	if (!gr)
		return errf(err, errlen, "%s: no such group '%s'", opt, name);
	cfg->gid = gr->gr_gid;
	cfg->group_given = 1;
	free(cfg->group);
	cfg->group = xstrdup(gr->gr_name);
	return 0;
}

static int parse_user(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	const char *colon = strchr(arg, ':');
	char *name = colon ? strndup(arg, (size_t)(colon - arg)) : xstrdup(arg);
	struct passwd *pw = NULL;
	uint64_t id;

	if (!name)
		return errf(err, errlen, "-u: out of memory");
	if (*name) {
		pw = getpwnam(name);
		if (!pw && !parse_uint(name, UINT32_MAX - 1, &id))
			pw = getpwuid((uid_t)id);
	}
	if (!pw) {
		errf(err, errlen, "-u: no such user '%s'", name);
		free(name);
		return -1;
	}
	free(name);
	cfg->uid = pw->pw_uid;
	cfg->user_given = 1;
	free(cfg->user);
	cfg->user = xstrdup(pw->pw_name);
	if (!cfg->group_given)
		cfg->gid = pw->pw_gid;
	if (colon && colon[1])
		return parse_group_name(cfg, colon + 1, "-u", err, errlen);
	return 0;
}

static int parse_group(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	return parse_group_name(cfg, arg, "-g", err, errlen);
}

static void params_user(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	if (cfg->user)
		record_set_param(out, "user", cfg->user, 0);
}

static void params_group(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	if (cfg->group)
		record_set_param(out, "group", cfg->group, 0);
}

static int parse_quiet(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	(void)arg, (void)err, (void)errlen;
	cfg->quiet = 1;
	return 0;
}

static void params_quiet(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "quiet", (uint64_t)cfg->quiet);
}

/* -f alone skips the per-char tests; -fN sets their size (MiB). */
static int parse_char_size(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	cfg->char_size_given = 1;
	if (!arg) {
		cfg->char_size = 0;
		return 0;
	}
	if (parse_size(arg, MiB, &cfg->char_size))
		return errf(err, errlen, "-f: '%s' is not a size", arg);
	return 0;
}

static void params_char_size(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "char_size", cfg->char_size);
}

static int parse_char_io(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	if (!strcmp(arg, "syscall"))
		cfg->char_io = CHAR_IO_SYSCALL;
	else if (!strcmp(arg, "stdio"))
		cfg->char_io = CHAR_IO_STDIO;
	else
		return errf(err, errlen,
			    "--char-io: '%s' is neither 'syscall' nor 'stdio'",
			    arg);
	return 0;
}

static void params_char_io(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	record_set_param(out, "char_io",
			 cfg->char_io == CHAR_IO_STDIO ? "stdio" : "syscall", 0);
}

static int parse_sync_writes(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	(void)arg, (void)err, (void)errlen;
	cfg->sync_writes = 1;
	return 0;
}

static void params_sync_writes(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "sync_writes", (uint64_t)cfg->sync_writes);
}

static int parse_direct(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	(void)arg, (void)err, (void)errlen;
	cfg->direct = 1;
	return 0;
}

static void params_direct(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "direct", (uint64_t)cfg->direct);
}

static int parse_seed(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	if (parse_uint(arg, UINT32_MAX, &cfg->seed))
		return errf(err, errlen,
			    "-z: seed '%s' must be a number from 0 to 4294967295",
			    arg);
	cfg->seed_given = 1;
	return 0;
}

static void params_seed(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, PARAM_SEED, cfg->seed);
}

static int parse_json(void *p, const char *arg, char *err, size_t errlen)
{
	return optable_set_string(&((struct bench_config *)p)->json_path, arg,
				  "--json: empty file name", err, errlen);
}

static int parse_csv(void *p, const char *arg, char *err, size_t errlen)
{
	return optable_set_string(&((struct bench_config *)p)->csv_path, arg,
				  "--csv: empty file name", err, errlen);
}

static int parse_tag(void *vcfg, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = vcfg;
	const char *eq = strchr(arg, '=');
	const char *p;

	if (!eq || eq == arg)
		return errf(err, errlen, "--tag: '%s' is not key=value", arg);
	for (p = arg; p < eq; p++)
		if (!(*p == '_' || *p == '-' || *p == '.' ||
		      (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return errf(err, errlen,
				    "--tag: key in '%s' may only use letters, digits, '_', '-' and '.'",
				    arg);
	xgrow((void **)&cfg->tags, &cfg->tags_alloc, cfg->ntags + 1,
	      sizeof(*cfg->tags));
	cfg->tags[cfg->ntags].key = strndup(arg, (size_t)(eq - arg));
	if (!cfg->tags[cfg->ntags].key)
		return errf(err, errlen, "--tag: out of memory");
	cfg->tags[cfg->ntags].value = xstrdup(eq + 1);
	cfg->ntags++;
	return 0;
}

static int parse_device_cache(void *p, const char *arg, char *err,
			      size_t errlen)
{
	struct bench_config *cfg = p;

	if (parse_size(arg, MiB, &cfg->device_cache))
		return errf(err, errlen, "--device-cache: '%s' is not a size",
			    arg);
	return 0;
}

static void params_device_cache(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "device_cache", cfg->device_cache);
}

static int parse_bonnie_size(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	(void)arg, (void)err, (void)errlen;
	cfg->bonnie_size = 1;
	return 0;
}

static void params_bonnie_size(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "bonnie_size", (uint64_t)cfg->bonnie_size);
}

static int parse_drop_caches(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	(void)arg, (void)err, (void)errlen;
	cfg->drop_caches = 1;
	return 0;
}

static void params_drop_caches(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "drop_caches", (uint64_t)cfg->drop_caches);
}

static int parse_procs(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	uint64_t v;

	if (parse_uint(arg, 1024, &v) || !v)
		return errf(err, errlen,
			    "-c: process count '%s' must be a number from 1 to 1024",
			    arg);
	cfg->procs = (unsigned)v;
	return 0;
}

static void params_procs(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	set_uint_param(out, "procs", cfg->procs);
}

static int parse_sem_create(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	uint64_t v;

	if (!strcmp(arg, "-1")) {
		cfg->sem_procs = -1;
	} else if (parse_uint(arg, 32767, &v) || !v) {
		return errf(err, errlen,
			    "-p: '%s' must be a process count from 1 to 32767, "
			    "or -1 to remove the semaphores", arg);
	} else {
		cfg->sem_procs = (long)v;
	}
	cfg->sem_create = 1;
	return 0;
}

static int parse_sync(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;

	if (strcmp(arg, "s") && strcmp(arg, "p"))
		return errf(err, errlen,
			    "-y: '%s' is neither 's' (semaphores) nor 'p' (prompt)",
			    arg);
	cfg->sync_mode = arg[0];
	return 0;
}

static void params_sync(const void *p, void *out)
{
	const struct bench_config *cfg = p;
	struct record *rec = out;
	char buf[32];

	record_set_param(rec, "sync", cfg->sync_mode == 's' ? "semaphores" :
			 cfg->sync_mode == 'p' ? "prompt" : "none", 0);
	snprintf(buf, sizeof(buf), "%g", cfg->sync_timeout);
	record_set_param(rec, "sync_timeout", buf, 1);
}

static int parse_sync_timeout(void *p, const char *arg, char *err,
			      size_t errlen)
{
	struct bench_config *cfg = p;
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 1e7)
		return errf(err, errlen,
			    "--sync-timeout: '%s' must be a number of seconds "
			    "above 0", arg);
	cfg->sync_timeout = v;
	return 0;
}

static int parse_stonewall(void *p, const char *arg, char *err, size_t errlen)
{
	struct bench_config *cfg = p;
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0) || v > 1e7)
		return errf(err, errlen,
			    "--stonewall: '%s' must be a number of seconds, "
			    "0 or more", arg);
	cfg->stonewall = v;
	return 0;
}

static void params_stonewall(const void *p, void *out)
{
	const struct bench_config *cfg = p;
	char buf[32];

	snprintf(buf, sizeof(buf), "%g", cfg->stonewall);
	record_set_param(out, "stonewall", buf, 1);
}

enum {
	KEY_JSON = 256,
	KEY_CSV,
	KEY_TAG,
	KEY_CHAR_IO,
	KEY_DEVICE_CACHE,
	KEY_BONNIE_SIZE,
	KEY_DROP_CACHES,
	KEY_SYNC_TIMEOUT,
	KEY_STONEWALL,
	KEY_HELP,
	KEY_VERSION,
};

static const struct opt_def option_table[] = {
	{ "directory", 'd', required_argument, "DIR",
	  "directory to test in; clyde works in a new directory of its own "
	  "inside it (default .)", parse_dir, params_dir },
	{ "size", 's', required_argument, "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  "I/O test file size (MiB without suffix; default 2G or twice "
	  "--device-cache; 0 skips the I/O tests), chunk size in bytes "
	  "(8192), seek count (8192) and seeker threads (5)",
	  parse_file_size, params_file_size },
	{ "files", 'n', required_argument, "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]",
	  "file tests: NUM x 1024 files (default 16; 0 skips them), sizes "
	  "MIN..MAX bytes (MAX -1: hard links, -2: symlinks), spread over "
	  "DIRS directories, written in CHUNK bytes (8192)",
	  parse_files, params_files },
	{ "label", 'm', required_argument, "NAME",
	  "label of the run (default: the host name)",
	  parse_label, params_label },
	{ "ram", 'r', required_argument, "SIZE",
	  "RAM size for --bonnie-size (MiB without suffix; default: detected)",
	  parse_ram, params_ram },
	{ "repeat", 'x', required_argument, "N",
	  "run the suite N times, one record each (default 1)",
	  parse_repeat, params_repeat },
	{ "user", 'u', required_argument, "USER[:GROUP]",
	  "run as this user (root may run without it)",
	  parse_user, params_user },
	{ "group", 'g', required_argument, "GROUP",
	  "run as this group", parse_group, params_group },
	{ "quiet", 'q', no_argument, NULL,
	  "CSV on stdout, the table on stderr", parse_quiet, params_quiet },
	{ "per-char", 'f', optional_argument, "SIZE",
	  "per-char test size (MiB without suffix; default 3); -f alone "
	  "skips the per-char tests", parse_char_size, params_char_size },
	{ "char-io", KEY_CHAR_IO, required_argument, "syscall|stdio",
	  "per-char I/O: one-byte read(2)/write(2) as bonnie++ 2.00 "
	  "(default), or stdio getc/putc as bonnie++ 1.03",
	  parse_char_io, params_char_io },
	{ "sync-writes", 'b', no_argument, NULL,
	  "no write buffering: fsync after every write",
	  parse_sync_writes, params_sync_writes },
	{ "direct", 'D', no_argument, NULL,
	  "O_DIRECT for every bulk I/O phase", parse_direct, params_direct },
	{ "seed", 'z', required_argument, "N",
	  "random seed (default: random, recorded)", parse_seed, params_seed },
	{ "json", KEY_JSON, required_argument, "FILE",
	  "append the run record as one JSON line", parse_json, NULL },
	{ "csv", KEY_CSV, required_argument, "FILE",
	  "append the bonnie++ 1.98 CSV line", parse_csv, NULL },
	{ "tag", KEY_TAG, required_argument, "KEY=VALUE",
	  "tag the run (repeatable), e.g. --tag controller=fc",
	  parse_tag, NULL },
	{ "device-cache", KEY_DEVICE_CACHE, required_argument, "SIZE",
	  "cache below the host (controller, array; MiB without suffix): "
	  "the default file is at least twice it",
	  parse_device_cache, params_device_cache },
	{ "bonnie-size", KEY_BONNIE_SIZE, no_argument, NULL,
	  "default file size as bonnie++: twice the RAM",
	  parse_bonnie_size, params_bonnie_size },
	{ "drop-caches", KEY_DROP_CACHES, no_argument, NULL,
	  "drop dentries and inodes before the stat and delete phases (root)",
	  parse_drop_caches, params_drop_caches },
	{ "procs", 'c', required_argument, "N",
	  "run N worker processes per -d in step, each with its own files, "
	  "released together at every test (default 1); several -d run one "
	  "set of workers each", parse_procs, params_procs },
	{ "semaphores", 'p', required_argument, "N",
	  "as bonnie++: create the semaphores (key 4711) that N copies "
	  "started with -y s wait on, and exit; -1 removes them",
	  parse_sem_create, NULL },
	{ "sync", 'y', required_argument, "s|p",
	  "as bonnie++: before each test wait on the -p semaphores (s) or "
	  "for Enter on stdin (p)", parse_sync, params_sync },
	{ "sync-timeout", KEY_SYNC_TIMEOUT, required_argument, "SECONDS",
	  "give up waiting for the other copies (-y s) after this long "
	  "(default 600)", parse_sync_timeout, NULL },
	{ "stonewall", KEY_STONEWALL, required_argument, "SECONDS",
	  "as mdtest -W: once the first worker has run a file phase this "
	  "long, all end it at their next operation (0: off)",
	  parse_stonewall, params_stonewall },
	OPTABLE_HELP(KEY_HELP),
	OPTABLE_VERSION(KEY_VERSION),
};

static const struct optable run_options = {
	.rows = option_table,
	.nrows = OPTABLE_SIZE(option_table),
	.head = "usage: clyde [run] [options]\n"
		"Run bonnie++'s classic suite, measured honestly, on a mounted "
		"filesystem.\n\n",
	.tail = "\nExit status: 0 success, 1 a test failed (results so far are "
		"written),\n2 bad usage or input, 128+N interrupted by signal "
		"N.\n",
	.operands = 0,
};

void config_init(struct bench_config *cfg)
{
	*cfg = (struct bench_config){
		.file_size = 2 * GiB,
		.chunk_size = 8192,
		.seeks = 8192,
		.seekers = 5,
		.char_size = 3 * MiB,
		.char_io = CHAR_IO_SYSCALL,
		.num_files = 16 * 1024,
		.max_size = 0,
		.min_size = 0,
		.num_dirs = 0,
		.file_chunk_size = 8192,
		.repeats = 1,
		.procs = 1,
		.sync_timeout = 600,
	};
}

void config_release(struct bench_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->ndirs; i++)
		free(cfg->dirs[i]);
	free(cfg->dirs);
	for (i = 0; i < cfg->ntags; i++) {
		free(cfg->tags[i].key);
		free(cfg->tags[i].value);
	}
	free(cfg->tags);
	free(cfg->label);
	free(cfg->user);
	free(cfg->group);
	free(cfg->json_path);
	free(cfg->csv_path);
	memset(cfg, 0, sizeof(*cfg));
}

void options_usage(FILE *out)
{
	optable_usage(&run_options, out);
}

enum options_result options_parse(struct bench_config *cfg, int argc,
				  char **argv, char *err, size_t errlen)
{
	return (enum options_result)optable_parse(&run_options, cfg, argc,
						  argv, err, errlen);
}

void options_record(const struct bench_config *cfg, struct record *rec)
{
	size_t i;

	optable_params(&run_options, cfg, rec);
	for (i = 0; i < cfg->ntags; i++)
		record_add_tag(rec, cfg->tags[i].key, cfg->tags[i].value);
}
