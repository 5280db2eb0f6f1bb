// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options table of `clyde run`.  One row per option: how it is spelled
 * (bonnie++'s letter and a GNU long name), how it is parsed, its help line,
 * and how it is written into the run record.  Nothing about an option is
 * spelled anywhere else.
 */
#include "bench/classic/options.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "lib/optable.h"
#include "bench/common_options.h"
#include "lib/units.h"
#include "lib/xalloc.h"

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
	if (f[0] && *f[0] && strspn(f[0], "0123456789") == strlen(f[0]) &&
	    parse_uint(f[0], UINT32_MAX / 1024, &v)) {
		errf(err, errlen, "-n: file count '%s' is too large: at most %u "
		     "(x 1024 files)", f[0], UINT32_MAX / 1024);
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

/*
 * bonnie++'s -Z FILE draws its random numbers (seek offsets, file names
 * and sizes, orders) from FILE.  clyde draws its choices and its test data
 * from one seed: the data generator (fsops/datagen.h) makes every 4 KiB it
 * writes unique and incompressible from it.  Filling the data from a
 * file's bytes would make it only as random as the file, and reducing the
 * file to a seed would not use its numbers as bonnie++ does: refused.
 */
static int parse_random_file(void *p, const char *arg, char *err,
			     size_t errlen)
{
	(void)p;
	return errf(err, errlen, "-Z '%s': not supported: clyde's random "
		    "choices and test data come from one seed, which keeps "
		    "every block it writes unique and incompressible; a "
		    "file's bytes cannot promise that, and a seed made from "
		    "them would not use its numbers as bonnie++ does (repeat "
		    "a run with -z and the seed its record holds)", arg);
}

static void params_sync(const void *p, void *out)
{
	const struct bench_config *cfg = p;

	record_set_param(out, "sync", cfg->sync_mode == 's' ? "semaphores" :
			 cfg->sync_mode == 'p' ? "prompt" : "none", 0);
}

static void show_file_size(const void *p, char *buf, size_t len)
{
	const struct bench_config *cfg = p;
	char size[32];

	format_size(size, sizeof(size), cfg->file_size);
	snprintf(buf, len, "%s:%" PRIu64 ":%" PRIu64 ":%u; the size is "
		 "twice --device-cache when that is larger", size,
		 cfg->chunk_size, cfg->seeks, cfg->seekers);
}

static void show_files(const void *p, char *buf, size_t len)
{
	const struct bench_config *cfg = p;

	snprintf(buf, len, "%" PRIu64 ":%" PRId64 ":%" PRId64 ":%" PRIu64
		 ":%" PRIu64, cfg->num_files / 1024, cfg->max_size,
		 cfg->min_size, cfg->num_dirs, cfg->file_chunk_size);
}

static void show_char_size(const void *p, char *buf, size_t len)
{
	const struct bench_config *cfg = p;

	format_size(buf, len, cfg->char_size);
}

enum {
	KEY_CHAR_IO = 256,
	KEY_DEVICE_CACHE,
	KEY_BONNIE_SIZE,
	KEY_DROP_CACHES,
	KEY_SYNC_TIMEOUT,
	KEY_STONEWALL,
	KEY_FSYNC_WRITES,
};

#define CFG struct bench_config

static const struct opt_choice char_io_choices[] = {
	{ "syscall", CHAR_IO_SYSCALL },
	{ "stdio", CHAR_IO_STDIO },
	{ NULL, 0 },
};

static const struct opt_def option_table[] = {
	{ COMMON_DIRS(CFG, dirs, ndirs), .metavar = "DIR",
	  .help = "directory to test in, repeatable; clyde works in a new "
		  "directory of its own inside it (default .)" },
	{ "size", 's', required_argument, "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  "I/O test file size (MiB without suffix; 0 skips the I/O tests), "
	  "chunk size in bytes, seek count and seeker threads",
	  parse_file_size, params_file_size, .show = show_file_size },
	{ "files", 'n', required_argument, "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]",
	  "file tests: NUM x 1024 files (0 skips them), sizes MIN..MAX "
	  "bytes (MAX -1: hard links, -2: symlinks), spread over DIRS "
	  "directories, written in CHUNK bytes",
	  parse_files, params_files, .show = show_files },
	COMMON_LABEL(CFG),
	{ .name = "ram", .key = 'r', .type = OPT_SIZE, OPT_FIELD(CFG, ram),
	  .unit = MiB, .param = "ram", .metavar = "SIZE",
	  .def_help = "detected",
	  .help = "RAM size for --bonnie-size (MiB without suffix)" },
	{ .name = "repeat", .key = 'x', .type = OPT_UINT,
	  OPT_FIELD(CFG, repeats), .min = 1, .max = 100000, .def = "1",
	  .param = "repeats", .what = "repeat count", .metavar = "N",
	  .help = "run the suite N times, one record each" },
	OPT_CUSTOM_ROW("user", 'u', required_argument, "USER[:GROUP]",
	  "run as this user (root may run without it); the outputs are "
	  "opened first, as the invoking user",
	  parse_user, params_user),
	OPT_CUSTOM_ROW("group", 'g', required_argument, "GROUP",
	  "run as this group", parse_group, params_group),
	COMMON_QUIET(CFG, "CSV on stdout, the table on stderr"),
	{ "per-char", 'f', optional_argument, "SIZE",
	  "per-char test size (MiB without suffix); -f alone skips the "
	  "per-char tests", parse_char_size, params_char_size,
	  .show = show_char_size },
	{ .name = "char-io", .key = KEY_CHAR_IO, .type = OPT_ENUM,
	  OPT_FIELD(CFG, char_io), .choices = char_io_choices,
	  .def = "syscall", .param = "char_io", .metavar = "syscall|stdio",
	  .help = "per-char I/O: one-byte read(2)/write(2) as bonnie++ 2.00, "
		  "or stdio getc/putc as bonnie++ 1.03" },
	{ .name = "sync-writes", .key = 'b', .type = OPT_FLAG,
	  OPT_FIELD(CFG, sync_writes), .param = "sync_writes",
	  .help = "as bonnie++ 1.03 and 2.00a do it: fsync every file the "
		  "create tests make (and its directory), the directory "
		  "after every delete, every seek update; block writes are "
		  "left alone" },
	{ .name = "fsync-writes", .key = KEY_FSYNC_WRITES, .type = OPT_FLAG,
	  OPT_FIELD(CFG, fsync_writes), .param = "fsync_writes",
	  .help = "what bonnie++'s man page says -b does: fsync after "
		  "every write of the bulk tests (block write, rewrite, seek "
		  "updates)" },
	{ .name = "direct", .key = 'D', .type = OPT_FLAG,
	  OPT_FIELD(CFG, direct), .param = "direct",
	  .help = "O_DIRECT for every bulk I/O phase" },
	COMMON_SEED(CFG, 'z'),
	OPT_CUSTOM_ROW("random-file", 'Z', required_argument, "FILE",
		       "bonnie++'s file of random numbers: refused, clyde "
		       "draws its choices and its data from the seed (-z)",
		       parse_random_file, NULL),
	COMMON_JSON(CFG),
	COMMON_CSV(CFG, "append the bonnie++ 1.98 CSV line"),
	COMMON_TAG(CFG),
	{ .name = "device-cache", .key = KEY_DEVICE_CACHE, .type = OPT_SIZE,
	  OPT_FIELD(CFG, device_cache), .unit = MiB,
	  .param = "device_cache", .metavar = "SIZE",
	  .help = "cache below the host (controller, array; MiB without "
		  "suffix): the default file is at least twice it" },
	{ .name = "bonnie-size", .key = KEY_BONNIE_SIZE, .type = OPT_FLAG,
	  OPT_FIELD(CFG, bonnie_size), .param = "bonnie_size",
	  .help = "default file size as bonnie++: twice the RAM" },
	{ .name = "drop-caches", .key = KEY_DROP_CACHES, .type = OPT_FLAG,
	  OPT_FIELD(CFG, drop_caches), .param = "drop_caches",
	  .help = "drop dentries and inodes before the stat and delete "
		  "phases (root)" },
	COMMON_PROCS(CFG, "run N worker processes per -d in step, each with "
		     "its own files, released together at every test; "
		     "several -d run one set of workers each"),
	OPT_CUSTOM_ROW("semaphores", 'p', required_argument, "N",
	  "as bonnie++: create the semaphores (key 4711) that N copies "
	  "started with -y s wait on, and exit; -1 removes them",
	  parse_sem_create, NULL),
	OPT_CUSTOM_ROW("sync", 'y', required_argument, "s|p",
	  "as bonnie++: before each test wait on the -p semaphores (s) or "
	  "for Enter on stdin (p)", parse_sync, params_sync),
	{ .name = "sync-timeout", .key = KEY_SYNC_TIMEOUT,
	  .type = OPT_SECONDS, OPT_FIELD(CFG, sync_timeout),
	  .dmin = 0.001, .dmax = 1e7, .def = "600",
	  .param = "sync_timeout", .metavar = "SECONDS",
	  .help = "give up waiting for the other copies (-y s) after this "
		  "long" },
	{ .name = "stonewall", .key = KEY_STONEWALL, .type = OPT_SECONDS,
	  OPT_FIELD(CFG, stonewall), .dmax = 1e7, .def = "0",
	  .param = "stonewall", .metavar = "SECONDS",
	  .help = "as mdtest -W: once the first worker has run a file phase "
		  "this long, all end it at their next operation (0: off)" },
	OPTABLE_HELP,
	OPTABLE_VERSION,
};

static void init_cfg(void *cfg)
{
	config_init(cfg);
}

static void release_cfg(void *cfg)
{
	config_release(cfg);
}

static const struct optable run_options = {
	.rows = option_table,
	.nrows = OPTABLE_SIZE(option_table),
	.head = "usage: clyde [run] [options]\n"
		"       clyde COMMAND [options]    (clyde COMMAND --help)\n"
		"Run bonnie++'s classic suite, measured honestly, on a mounted "
		"filesystem.\n\n",
	.tail = "\nExit status: 0 success, 1 a test failed (results so far are "
		"written),\n2 bad usage or input, 128+N interrupted by signal "
		"N.\n",
	.operands = 0,
	.init = init_cfg,
	.cfg_size = sizeof(struct bench_config),
	.release = release_cfg,
};

void config_init(struct bench_config *cfg)
{
	char err[256];

	*cfg = (struct bench_config){
		.file_size = 2 * GiB,
		.chunk_size = 8192,
		.seeks = 8192,
		.seekers = 5,
		.char_size = 3 * MiB,
		.num_files = 16 * 1024,
		.max_size = 0,
		.min_size = 0,
		.num_dirs = 0,
		.file_chunk_size = 8192,
	};
	if (optable_defaults(&run_options, cfg, err, sizeof(err)))
		abort();	/* a row's .def does not parse: a bug */
}

void config_release(struct bench_config *cfg)
{
	optable_release(&run_options, cfg);
	free(cfg->user);
	free(cfg->group);
	memset(cfg, 0, sizeof(*cfg));
}

enum options_result options_parse(struct bench_config *cfg, int argc,
				  char **argv, char *err, size_t errlen)
{
	return (enum options_result)optable_parse(&run_options, cfg, argc,
						  argv, err, errlen);
}

void options_record(const struct bench_config *cfg, struct record *rec)
{
	common_options_record(&run_options, cfg, rec);
}
