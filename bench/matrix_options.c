// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options table of `clyde matrix`: one row per option, which parses
 * it, documents it in --help and writes it into the run record.
 */
#include "matrix_options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../fsops/engine.h"
#include "../lib/optable.h"
#include "common_options.h"
#include "../lib/units.h"
#include "../lib/xalloc.h"

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

enum {
	KEY_BS = 256, KEY_THREADS, KEY_PATTERN, KEY_MIX, KEY_QD, KEY_ENGINE,
	KEY_BUFFERED, KEY_SHARED, KEY_OVERWRITE, KEY_RAW, KEY_FORCE,
	KEY_SIZE, KEY_TIME, KEY_RAMP, KEY_VERIFY, KEY_NO_PREFILL,
	KEY_HIT_AREA, KEY_HIT_PCT, KEY_CURVE, KEY_SQPOLL, KEY_HIPRI,
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
	{ .name = "directory", .key = 'd', .type = OPT_STRING,
	  OPT_FIELD(CFG, target), .what = "path", .metavar = "PATH",
	  .def_help = ".",
	  .help = "directory to test in (clyde makes its files in a new "
		  "directory of its own there), or an existing file with "
		  "--overwrite, or a block device with --raw-device",
	  .params = NULL },
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
		 "with --raw-device: use a device carrying a filesystem, RAID "
		 "or partition table signature"),
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
	  .param = "hit_area", .metavar = "SIZE",
	  .help = "cache-hit area: the first SIZE bytes of each file (of "
		  "each thread's region with --shared-file; MiB without "
		  "suffix)" },
	{ .name = "hit-pct", .key = KEY_HIT_PCT, .type = OPT_UINT,
	  OPT_FIELD(CFG, hit_pct), OPT_GIVEN(CFG, hit_pct_given), .max = 100,
	  .what = "percentage", .param = "hit_pct", .metavar = "PCT",
	  .help = "% of the I/Os sent to the hit area (needs --hit-area), "
		  "the rest to the whole file" },
	{ .name = "curve", .key = KEY_CURVE, .type = OPT_LIST,
	  .elem = OPT_UINT, OPT_FIELD(CFG, curve), OPT_COUNT(CFG, ncurve),
	  .elem_width = sizeof(unsigned), .min = 1, .max = 100,
	  .what = "percentage", .param = "curve", .metavar = "PCT,...",
	  .help = "rate curve: after each cell, rerun it rate-limited at "
		  "these % of its maximum IO/s and record IO/s and latency "
		  "at each point" },
	{ .name = "size", .key = KEY_SIZE, .type = OPT_SIZE,
	  OPT_FIELD(CFG, size), OPT_GIVEN(CFG, size_given), .unit = MiB,
	  .min = 1, .def = "1g", .param = PARAM_FILE_SIZE,
	  .metavar = "SIZE",
	  .help = "size of each thread's file, or of the shared file (MiB "
		  "without suffix; a file or device: its size)" },
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
	COMMON_HELP,
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
		"style, on prefilled files.\n\n",
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

void matrix_options_usage(FILE *out)
{
	optable_usage(&matrix_options, out);
}

enum options_result matrix_options_parse(struct matrix_config *cfg, int argc,
					 char **argv, char *err,
					 size_t errlen)
{
	int rc = optable_parse(&matrix_options, cfg, argc, argv, err, errlen);

	if (rc)
		return (enum options_result)rc;
	/* NULL engine: the default, chosen by cmd_matrix (a probe) */
	if (cfg->engine) {
		const struct io_engine_ops *ops = io_engine_find(cfg->engine);

		if (ops->max_depth && cfg->qd > ops->max_depth) {
			snprintf(err, errlen, "--qd: %s does at most %u I/O "
				 "at a time; queue depth %u needs another "
				 "--engine", ops->name, ops->max_depth,
				 cfg->qd);
			return OPTIONS_ERROR;
		}
		if (cfg->sqpoll && !(ops->flags & IO_ENGINE_SQPOLL)) {
			snprintf(err, errlen, "--sqpoll: only with --engine "
				 "io_uring");
			return OPTIONS_ERROR;
		}
		if (cfg->hipri && !(ops->flags & IO_ENGINE_HIPRI)) {
			snprintf(err, errlen, "--hipri: only with --engine "
				 "io_uring");
			return OPTIONS_ERROR;
		}
	}
	if (cfg->hipri && cfg->buffered) {
		snprintf(err, errlen, "--hipri: polled completions need "
			 "direct I/O, not --buffered");
		return OPTIONS_ERROR;
	}
	if (cfg->hit_area && !cfg->hit_pct_given) {
		snprintf(err, errlen, "--hit-area: needs --hit-pct");
		return OPTIONS_ERROR;
	}
	if (cfg->hit_pct_given && !cfg->hit_area) {
		snprintf(err, errlen, "--hit-pct: needs --hit-area");
		return OPTIONS_ERROR;
	}
	if (cfg->force && !cfg->raw_device) {
		snprintf(err, errlen, "--force: only with --raw-device");
		return OPTIONS_ERROR;
	}
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

uint64_t matrix_max_bs(const struct matrix_config *cfg)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < cfg->nbs; i++)
		if (cfg->bs[i] > m)
			m = cfg->bs[i];
	return m;
}
