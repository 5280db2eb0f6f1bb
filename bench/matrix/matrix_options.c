// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options table of `clyde matrix`: one row per option, which parses
 * it, documents it in --help and writes it into the run record.
 */
#include "bench/matrix/matrix_options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fsops/engine.h"
#include "lib/optable.h"
#include "bench/common_options.h"
#include "lib/units.h"
#include "lib/xalloc.h"

#define BS_MIN 512u
#define BS_MAX (64 * MiB)
#define THREADS_MAX 1024u
#define QD_MAX 1024u

static int parse_engine(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	const struct io_engine_ops *ops = io_engine_find(arg);

	if (!ops)
		return errf(err, errlen, "--engine: '%s' is not io_uring, "
			    "libaio, psync or null", arg);
	cfg->engine = ops->name;
	return 0;
}

static void params_engine(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	/* cmd_matrix resolves the default before the record is written */
	record_set_param(out, "engine", cfg->engine ? cfg->engine : "default",
			 0);
}

static void param_num(void *out, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	record_set_param(out, key, buf, 1);
}

/* -d, repeatable (COMMON_DIRS): targets[0] is also target. */
static int parse_dir(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	(void)arg;
	(void)err;
	(void)errlen;
	cfg->target = cfg->targets[0];
	return 0;
}

static void params_dir(const void *p, void *out)
{
	const struct matrix_config *cfg = p;
	char buf[4096];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < cfg->ntargets && len < sizeof(buf) - 1; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "," : "", cfg->targets[i]);
	record_set_param(out, "targets", cfg->ntargets ? buf : ".", 0);
	param_num(out, "ntargets", cfg->ntargets ? (double)cfg->ntargets : 1);
}

static int parse_prefill_bs(void *p, const char *arg, char *err,
			    size_t errlen)
{
	struct matrix_config *cfg = p;
	uint64_t v;

	if (parse_size(arg, 1, &v) || v < BS_MIN || v > BS_MAX ||
	    v % BS_MIN)
		return errf(err, errlen, "--prefill-bs: '%s' is not a block "
			    "size (a multiple of 512 from 512 to 64M)", arg);
	cfg->prefill_bs = v;
	return 0;
}

static void params_prefill_bs(const void *p, void *out)
{
	param_num(out, "prefill_bs", (double)matrix_prefill_bs(p));
}

/* --profile was applied before the other options (matrix_options_parse):
 * here it is only checked again; two different ones are refused. */
static int parse_profile(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	if (cfg->profile && !strcmp(cfg->profile, arg))
		return 0;
	if (cfg->profile)
		return errf(err, errlen, "--profile: '%s' and '%s': one "
			    "profile only", cfg->profile, arg);
	return matrix_profile_apply(cfg, arg, err, errlen);
}

static void params_profile(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	record_set_param(out, "profile", cfg->profile ? cfg->profile : "none",
			 0);
}

static int parse_steady(void *p, const char *arg, char *err, size_t errlen)
{
	return matrix_steady_parse(p, arg, err, errlen);
}

static void params_steady(const void *p, void *out)
{
	const struct matrix_config *cfg = p;
	char buf[64];

	matrix_steady_name(cfg, buf, sizeof(buf));
	record_set_param(out, "steady", buf, 0);
	param_num(out, "steady_window", cfg->steady_window);
}

enum {
	KEY_BS = 256, KEY_THREADS, KEY_PATTERN, KEY_MIX, KEY_QD, KEY_ENGINE,
	KEY_BUFFERED, KEY_SHARED, KEY_OVERWRITE, KEY_RAW, KEY_FORCE,
	KEY_SIZE, KEY_TIME, KEY_RAMP, KEY_VERIFY, KEY_NO_PREFILL,
	KEY_HIT_AREA, KEY_HIT_PCT, KEY_CURVE, KEY_SQPOLL, KEY_HIPRI,
	KEY_PREFILL_BS, KEY_PROFILE, KEY_STEADY, KEY_STEADY_WINDOW,
	KEY_CURVE_MAX,
};

#define CFG struct matrix_config

static const struct opt_choice pattern_choices[] = {
	{ "random", 1 }, { "seq", 0 }, { "rand", 1 }, { "sequential", 0 },
	{ NULL, 0 },
};

/* A flag row: the field and the param key share the name. */
#define FLAG_ROW(name_, key_, field_, help_)				\
	{ .name = (name_), .key = (key_), .type = OPT_FLAG,		\
	  OPT_FIELD(CFG, field_), .param = #field_, .help = (help_) }

static const struct opt_def option_table[] = {
	{ COMMON_DIRS(CFG, targets, ntargets), .metavar = "PATH",
	  .help = "directory to test in (clyde makes its files in a new "
		  "directory of its own there; default .), or an existing "
		  "file with --overwrite, or a block device with "
		  "--raw-device; repeat for several targets of one kind: a "
		  "cell's threads are spread over them round robin, as "
		  "vdbench's SDs",
	  .parse = parse_dir, .params = params_dir },
	OPT_CUSTOM_ROW("profile", KEY_PROFILE, required_argument, "NAME",
		       matrix_profile_help, parse_profile, params_profile),
	{ .name = "bs", .key = KEY_BS, .type = OPT_LIST, .elem = OPT_SIZE,
	  OPT_FIELD(CFG, bs), OPT_COUNT(CFG, nbs),
	  .elem_width = sizeof(uint64_t), .min = BS_MIN, .max = BS_MAX,
	  .multiple = BS_MIN, .what = "block size", .def = "8k,16k,1m",
	  .param = "block_sizes", .metavar = "SIZE,...",
	  .help = "block sizes (bytes without suffix)" },
	{ .name = "threads", .key = KEY_THREADS, .type = OPT_LIST,
	  .elem = OPT_UINT, OPT_FIELD(CFG, threads), OPT_COUNT(CFG, nthreads),
	  .elem_width = sizeof(unsigned), .min = 1, .max = THREADS_MAX,
	  .what = "thread count", .def = "1,16", .param = "threads",
	  .metavar = "N,...", .help = "thread counts" },
	{ .name = "pattern", .key = KEY_PATTERN, .type = OPT_LIST,
	  .elem = OPT_ENUM, OPT_FIELD(CFG, random), OPT_COUNT(CFG, npatterns),
	  .elem_width = sizeof(int), .choices = pattern_choices,
	  .def = "random,seq", .param = "patterns",
	  .metavar = "random|seq,...", .help = "access patterns" },
	{ .name = "mix", .key = KEY_MIX, .type = OPT_LIST, .elem = OPT_UINT,
	  OPT_FIELD(CFG, mix), OPT_COUNT(CFG, nmix),
	  .elem_width = sizeof(unsigned), .max = 100,
	  .what = "read percentage", .def = "100,0,50,80",
	  .param = "read_pcts", .metavar = "PCT,...",
	  .help = "read percentages" },
	{ .name = "qd", .key = KEY_QD, .type = OPT_UINT, OPT_FIELD(CFG, qd),
	  .min = 1, .max = QD_MAX, .def = "1", .what = "queue depth",
	  .param = "queue_depth", .metavar = "N",
	  .help = "queue depth per thread, fixed (psync: 1)" },
	OPT_CUSTOM_ROW("engine", KEY_ENGINE, required_argument,
		       "io_uring|libaio|psync|null",
		       "I/O engine (default io_uring where the kernel allows "
		       "it, else libaio; null completes every I/O at once "
		       "without the kernel, to measure clyde's own cost)",
		       parse_engine, params_engine),
	FLAG_ROW("sqpoll", KEY_SQPOLL, sqpoll,
		 "io_uring: a kernel thread takes the submissions (no system "
		 "call per batch; its CPU time is the process's)"),
	FLAG_ROW("hipri", KEY_HIPRI, hipri,
		 "io_uring: poll the device for completions (needs O_DIRECT "
		 "and a block queue that polls)"),
	FLAG_ROW("buffered", KEY_BUFFERED, buffered,
		 "buffered I/O instead of O_DIRECT"),
	FLAG_ROW("shared-file", KEY_SHARED, shared_file,
		 "one file for all threads, each in its own region (default: "
		 "a file per thread)"),
	FLAG_ROW("overwrite", KEY_OVERWRITE, overwrite,
		 "-d may be an existing regular file, whose data is destroyed"),
	FLAG_ROW("raw-device", KEY_RAW, raw_device,
		 "-d may be a block device (opened exclusively; its data is "
		 "destroyed)"),
	FLAG_ROW("force", KEY_FORCE, force,
		 "with --raw-device: use a device that is neither blank nor "
		 "holding only clyde's data (a filesystem signature, a "
		 "damaged filesystem's superblock copy, other data)"),
	FLAG_ROW("verify", KEY_VERIFY, verify,
		 "data validation: every block carries its offset, generation "
		 "and checksum, every read is checked, a mismatch fails the "
		 "run (exit 1) naming file, offset, expected and found"),
	FLAG_ROW("no-prefill", KEY_NO_PREFILL, no_prefill,
		 "a file or device target already holds data: do not "
		 "prefill; with --verify, first read and check every block an "
		 "earlier --verify run left there (same --bs list; the check "
		 "reveals corruption, but not a write that run lost)"),
	{ .name = "hit-area", .key = KEY_HIT_AREA, .type = OPT_SIZE,
	  OPT_FIELD(CFG, hit_area), .unit = MiB, .min = 1,
	  .flags = OPTF_NONE, .param = "hit_area", .metavar = "SIZE|none",
	  .help = "cache-hit area, as vdbench's hitarea: hits go to the "
		  "first SIZE bytes of each file (of each thread's region "
		  "with --shared-file), misses to the rest of it, the miss "
		  "area (MiB without suffix); none: no hit area (switches "
		  "off --profile's, and its --hit-pct)" },
	{ .name = "hit-pct", .key = KEY_HIT_PCT, .type = OPT_UINT,
	  OPT_FIELD(CFG, hit_pct), OPT_GIVEN(CFG, hit_pct_given), .max = 100,
	  .what = "percentage", .param = "hit_pct", .metavar = "PCT",
	  .help = "% of the I/Os that are hits (needs --hit-area); the "
		  "others go to the miss area" },
	{ .name = "curve", .key = KEY_CURVE, .type = OPT_LIST,
	  .elem = OPT_UINT, OPT_FIELD(CFG, curve), OPT_COUNT(CFG, ncurve),
	  .elem_width = sizeof(unsigned), .min = 1, .max = 100,
	  .flags = OPTF_NONE, .what = "percentage", .param = "curve",
	  .metavar = "PCT,...|none",
	  .help = "rate curve: after each cell, rerun it rate-limited at "
		  "these % of its maximum IO/s (or of --curve-max) and "
		  "record IO/s and latency at each point; each thread "
		  "keeps a schedule of one I/O per interval from the "
		  "start and catches up at once when behind it (fio's "
		  "rate_process=linear); none: no curve (switches off "
		  "--profile's)" },
	{ .name = "curve-max", .key = KEY_CURVE_MAX, .type = OPT_UINT,
	  OPT_FIELD(CFG, curve_max), .min = 1, .max = 1000000000,
	  .flags = OPTF_NONE, .def_help = "none", .param = "curve_max",
	  .metavar = "IOPS|none", .what = "IO/s",
	  .help = "the IO/s that --curve's 100 % stands for in every cell "
		  "(all its threads together); none: each cell's own "
		  "maximum, measured first" },
	OPT_CUSTOM_ROW("prefill-bs", KEY_PREFILL_BS, required_argument,
		       "SIZE", "block size of the prefill's sequential writes "
		       "(default the largest of 1M and --bs); the prefill is "
		       "timed and recorded", parse_prefill_bs,
		       params_prefill_bs),
	{ .name = "size", .key = KEY_SIZE, .type = OPT_SIZE,
	  OPT_FIELD(CFG, size), OPT_GIVEN(CFG, size_given), .unit = MiB,
	  .min = 1, .def = "1g", .param = PARAM_FILE_SIZE,
	  .metavar = "SIZE",
	  .help = "size of each thread's file, or of the shared file (MiB "
		  "without suffix; a file or device: its size); without it, "
		  "1G clipped so that all files fit in half the free space, "
		  "at least 32M" },
	OPT_CUSTOM_ROW("steady", KEY_STEADY, required_argument, "KIND:LIMIT",
		       "end each cell once it is in steady state, as fio's "
		       "steadystate=: KIND iops or bw (every sample within "
		       "LIMIT of the window's mean), iops_slope or bw_slope "
		       "(the least-squares slope within LIMIT per second); "
		       "LIMIT% is a percentage of the mean; 10 samples per "
		       "window; otherwise the cell ends at --time; the "
		       "cell's figures are those of its last window",
		       parse_steady, params_steady),
	{ .name = "steady-window", .key = KEY_STEADY_WINDOW,
	  .type = OPT_SECONDS, OPT_FIELD(CFG, steady_window), .dmin = 0.01,
	  .dmax = 86400, .metavar = "SECONDS",
	  .def_help = "1, or --time / 2 if shorter",
	  .help = "the --steady window" },
	{ .name = "time", .key = KEY_TIME, .type = OPT_SECONDS,
	  OPT_FIELD(CFG, time), .dmin = 0.01, .dmax = 86400, .def = "5",
	  .param = "time", .metavar = "SECONDS",
	  .help = "measured time per cell (s or ms suffix)" },
	{ .name = "ramp", .key = KEY_RAMP, .type = OPT_SECONDS,
	  OPT_FIELD(CFG, ramp), .dmax = 86400, .def = "1", .param = "ramp",
	  .metavar = "SECONDS",
	  .help = "unmeasured warm-up before each cell" },
	COMMON_SEED(CFG, KEY_COMMON_SEED),
	COMMON_LABEL(CFG),
	COMMON_PROCS(CFG, "run every cell in N worker processes in step, "
		     "each with its own files and the cell's threads"),
	COMMON_JSON(CFG),
	COMMON_CSV(CFG, "append one long-CSV row per cell (header when the "
		   "file is new)"),
	COMMON_TAG(CFG),
	COMMON_QUIET(CFG, "the tables on stderr (stdout stays empty), no "
		     "progress display"),
	OPTABLE_HELP,
	OPTABLE_VERSION,
};

static void init_cfg(void *cfg)
{
	matrix_config_init(cfg);
}

static void release_cfg(void *cfg)
{
	matrix_config_release(cfg);
}

static const struct optable matrix_options = {
	.rows = option_table,
	.nrows = OPTABLE_SIZE(option_table),
	.head = "usage: clyde matrix [options] -d DIR\n"
		"Block size x threads x pattern x read mix, XDISK/vdbench "
		"style, on prefilled\nfiles.\n\n",
	.tail = "\nExit status: 0 success, 1 a cell failed (results so far are "
		"written),\n2 bad usage or input, 128+N interrupted by signal "
		"N.\n",
	.operands = 0,
	.init = init_cfg,
	.cfg_size = sizeof(struct matrix_config),
	.release = release_cfg,
};

void matrix_config_init(struct matrix_config *cfg)
{
	char err[256];

	memset(cfg, 0, sizeof(*cfg));
	if (optable_defaults(&matrix_options, cfg, err, sizeof(err)))
		abort();	/* a row's .def does not parse: a bug */
}

void matrix_config_release(struct matrix_config *cfg)
{
	optable_release(&matrix_options, cfg);
	memset(cfg, 0, sizeof(*cfg));
}

/* --steady and --steady-window: the window defaulted (half of --time, at
 * most 1 s) and within --time.  0, or -1 with err. */
static int check_steady(struct matrix_config *cfg, char *err, size_t errlen)
{
	if (cfg->steady == STEADY_NONE && cfg->steady_window > 0) {
		snprintf(err, errlen, "--steady-window: needs --steady");
		return -1;
	}
	if (cfg->steady == STEADY_NONE)
		return 0;
	if (cfg->steady_window <= 0)
		cfg->steady_window = cfg->time / 2 < 1 ? cfg->time / 2 : 1;
	if (cfg->steady_window > cfg->time) {
		snprintf(err, errlen, "--steady-window: %g s is longer than "
			 "--time %g s", cfg->steady_window, cfg->time);
		return -1;
	}
	return 0;
}

/* What the --engine asked can do: its queue depth, --sqpoll, --hipri
 * (which needs direct I/O).  0, or -1 with err. */
static int check_engine(const struct matrix_config *cfg, char *err,
			size_t errlen)
{
	/* NULL engine: the default, chosen by cmd_matrix (a probe) */
	const struct io_engine_ops *ops = cfg->engine ?
					  io_engine_find(cfg->engine) : NULL;

	if (ops && ops->max_depth && cfg->qd > ops->max_depth) {
		snprintf(err, errlen, "--qd: %s does at most %u I/O at a "
			 "time; queue depth %u needs another --engine",
			 ops->name, ops->max_depth, cfg->qd);
		return -1;
	}
	if (ops && cfg->sqpoll && !(ops->flags & IO_ENGINE_SQPOLL)) {
		snprintf(err, errlen, "--sqpoll: only with --engine io_uring");
		return -1;
	}
	if (ops && cfg->hipri && !(ops->flags & IO_ENGINE_HIPRI)) {
		snprintf(err, errlen, "--hipri: only with --engine io_uring");
		return -1;
	}
	if (cfg->hipri && cfg->buffered) {
		snprintf(err, errlen, "--hipri: polled completions need "
			 "direct I/O, not --buffered");
		return -1;
	}
	return 0;
}

/* The options that need another: --hit-area and --hit-pct, --curve-max
 * and --curve, --force and --raw-device.  0, or -1 with err. */
static int check_pairs(struct matrix_config *cfg, char *err, size_t errlen)
{
	const char *msg = NULL;

	if (!cfg->hit_area && cfg->hit_from_profile && !cfg->hit_pct_given)
		cfg->hit_pct = 0;	/* --hit-area none: the profile's too */
	if (cfg->hit_area && !cfg->hit_pct_given && !cfg->hit_from_profile)
		msg = "--hit-area: needs --hit-pct";
	else if (cfg->hit_pct_given && !cfg->hit_area)
		msg = "--hit-pct: needs --hit-area";
	else if (cfg->curve_max && !cfg->ncurve)
		msg = "--curve-max: needs --curve";
	else if (cfg->force && !cfg->raw_device)
		msg = "--force: only with --raw-device";
	if (!msg)
		return 0;
	snprintf(err, errlen, "%s", msg);
	return -1;
}

enum options_result matrix_options_parse(struct matrix_config *cfg, int argc,
					 char **argv, char *err,
					 size_t errlen)
{
	struct matrix_config first;
	int rc;

	/* a --profile sets defaults the other options override, wherever it
	 * stands: find it in a first pass, apply it, then parse again */
	matrix_config_init(&first);
	rc = optable_parse(&matrix_options, &first, argc, argv, err, errlen);
	if (!rc && first.profile)
		rc = matrix_profile_apply(cfg, first.profile, err, errlen);
	matrix_config_release(&first);
	if (!rc)
		rc = optable_parse(&matrix_options, cfg, argc, argv, err,
				   errlen);
	if (rc)
		return (enum options_result)rc;
	if (check_steady(cfg, err, errlen) || check_engine(cfg, err, errlen) ||
	    check_pairs(cfg, err, errlen))
		return OPTIONS_ERROR;
	return OPTIONS_OK;
}

void matrix_options_record(const struct matrix_config *cfg,
			   struct record *rec)
{
	common_options_record(&matrix_options, cfg, rec);
}

unsigned matrix_max_threads(const struct matrix_config *cfg)
{
	unsigned m = 0;
	size_t i;

	for (i = 0; i < cfg->nthreads; i++)
		if (cfg->threads[i] > m)
			m = cfg->threads[i];
	return m;
}

uint64_t matrix_prefill_bs(const struct matrix_config *cfg)
{
	uint64_t bs = matrix_max_bs(cfg);

	if (cfg->prefill_bs)
		return cfg->prefill_bs;
	return bs > MiB ? bs : MiB;
}

uint64_t matrix_max_bs(const struct matrix_config *cfg)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < cfg->nbs; i++)
		if (cfg->bs[i] > m)
			m = cfg->bs[i];
	return m;
}
