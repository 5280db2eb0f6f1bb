// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options table of `clyde zones`: one row per option, which parses
 * it, documents it in --help and writes it into the run record.
 */
#include "bench/zones/zones_options.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/common_options.h"
#include "fsops/engine.h"
#include "lib/units.h"

#define BS_MIN 512u
#define BS_MAX (64 * MiB)
#define QD_MAX 1024u
#define PASSES_MAX 1000u

static int parse_engine(void *p, const char *arg, char *err, size_t errlen)
{
	struct zones_config *cfg = p;
	const struct io_engine_ops *ops = io_engine_find(arg);

	if (!ops)
		return errf(err, errlen, "--engine: '%s' is not io_uring, "
			    "libaio, psync or null", arg);
	cfg->engine = ops->name;
	cfg->engine_given = 1;
	return 0;
}

static void params_engine(const void *p, void *out)
{
	record_set_param(out, "engine",
			 ((const struct zones_config *)p)->engine, 0);
}

static void show_engine(const void *p, char *buf, size_t len)
{
	const char *e = ((const struct zones_config *)p)->engine;

	snprintf(buf, len, "%s", e ? e : "io_uring where the kernel allows, "
		 "else libaio");
}

enum {
	KEY_SIZE = 256, KEY_ZONE, KEY_BS, KEY_QD, KEY_ENGINE, KEY_PASSES,
	KEY_WRITE, KEY_FORCE,
};

#define CFG struct zones_config

static const struct opt_def option_table[] = {
	{ .name = "target", .key = 'd', .type = OPT_STRING,
	  OPT_FIELD(CFG, target), .what = "path", .param = "target",
	  .flags = OPTF_ONCE,
	  .metavar = "DEVICE|FILE",
	  .help = "what to sweep: a block device (opened exclusively, refused "
		  "when mounted or in use), an existing file, or with --size "
		  "a new file clyde creates, fills and removes (a path, or a "
		  "directory to make it in)" },
	{ .name = "size", .key = KEY_SIZE, .type = OPT_SIZE,
	  OPT_FIELD(CFG, size), .unit = MiB, .min = 1, .param = "size",
	  .metavar = "SIZE", .def_help = "the whole target",
	  .help = "the size of the file to create (at least --bs); on an "
		  "existing file or device, sweep only its first SIZE bytes "
		  "(more than it holds is refused) (MiB without suffix)" },
	{ .name = "zone", .key = KEY_ZONE, .type = OPT_SIZE,
	  OPT_FIELD(CFG, zone), .unit = MiB, .min = 1, .param = "zone",
	  .metavar = "SIZE",
	  .def_help = "the target / 200 rounded up to a multiple of --bs, "
		      "at least 8 x --qd x --bs (fewer zones for a target "
		      "under 1600 queues), at most the target: about 200 "
		      "zones",
	  .help = "bytes per zone, a multiple of --bs, at least --qd x --bs "
		  "and at most the target (MiB without suffix)" },
	{ .name = "bs", .key = KEY_BS, .type = OPT_SIZE, OPT_FIELD(CFG, bs),
	  .min = BS_MIN, .max = BS_MAX, .multiple = BS_MIN, .def = "1m",
	  .what = "block size", .param = "bs", .metavar = "SIZE",
	  .help = "bytes per I/O, a multiple of 512 and of the target's "
		  "direct I/O alignment (bytes without suffix)" },
	{ .name = "qd", .key = KEY_QD, .type = OPT_UINT, OPT_FIELD(CFG, qd),
	  OPT_GIVEN(CFG, qd_given), .min = 1, .max = QD_MAX, .def = "4",
	  .what = "queue depth", .param = "queue_depth", .metavar = "N",
	  .help = "I/Os in flight (psync: 1, whatever is asked)" },
	{ .name = "engine", .key = KEY_ENGINE, .has_arg = required_argument,
	  .metavar = "io_uring|libaio|psync|null", .type = OPT_CUSTOM,
	  .help = "I/O engine (psync with a warning when the default cannot "
		  "be used here; null measures clyde's own cost, no I/O)",
	  .parse = parse_engine, .params = params_engine,
	  .show = show_engine },
	{ .name = "passes", .key = KEY_PASSES, .type = OPT_UINT,
	  OPT_FIELD(CFG, passes), .min = 1, .max = PASSES_MAX, .def = "1",
	  .what = "pass count", .param = "passes", .metavar = "N",
	  .help = "sweep the target N times; the table shows each pass and "
		  "the spread between them" },
	{ .name = "write", .key = KEY_WRITE, .type = OPT_FLAG,
	  OPT_FIELD(CFG, write), .param = "write",
	  .help = "each pass writes the target (unique data) before reading "
		  "it: destroys its data; a device neither blank nor holding "
		  "only clyde's data, or an existing file, also needs "
		  "--force" },
	{ .name = "force", .key = KEY_FORCE, .type = OPT_FLAG,
	  OPT_FIELD(CFG, force), .param = "force",
	  .help = "with --write: overwrite a device that is neither blank "
		  "nor holding only clyde's data (a filesystem signature, a "
		  "damaged filesystem's superblock copy, other data), or an "
		  "existing file" },
	COMMON_SEED(CFG, KEY_COMMON_SEED),
	COMMON_LABEL(CFG),
	COMMON_JSON(CFG),
	COMMON_CSV(CFG, "append one CSV row per zone and sweep, '#' comments "
		   "and a blank line between sweeps (gnuplot: plot FILE using "
		   "1:6 with lines)"),
	COMMON_TAG(CFG),
	COMMON_QUIET(CFG, "the tables on stderr (stdout stays empty), no "
		     "progress display"),
	OPTABLE_HELP,
	OPTABLE_VERSION,
};

static void init_cfg(void *cfg)
{
	zones_config_init(cfg);
}

static void release_cfg(void *cfg)
{
	zones_config_release(cfg);
}

static const struct optable zones_options = {
	.rows = option_table,
	.nrows = OPTABLE_SIZE(option_table),
	.head = "usage: clyde zones [options] -d DEVICE|FILE\n"
		"Throughput across a whole device or file, zone by zone, as "
		"bonnie++'s zcav:\nsequential O_DIRECT reads (with --write, "
		"writes, then reads) from start to\nend; per zone MiB/s and "
		"latency (mean, min, p50, p90, p99, p99.9, max).\nRead-only "
		"unless --write.\n\n",
	.tail = "\nExit status: 0 success, 1 an I/O failed (the sweep goes on; "
		"results are\nwritten), 2 bad usage or input, 128+N "
		"interrupted by signal N (the zones\ndone are written).\n",
	.operands = 0,
	.init = init_cfg,
	.cfg_size = sizeof(struct zones_config),
	.release = release_cfg,
};

void zones_config_init(struct zones_config *cfg)
{
	char err[256];

	memset(cfg, 0, sizeof(*cfg));
	if (optable_defaults(&zones_options, cfg, err, sizeof(err)))
		abort();	/* a row's .def does not parse: a bug */
}

void zones_config_release(struct zones_config *cfg)
{
	optable_release(&zones_options, cfg);
	memset(cfg, 0, sizeof(*cfg));
}

enum options_result zones_options_parse(struct zones_config *cfg, int argc,
					char **argv, char *err,
					size_t errlen)
{
	const struct io_engine_ops *ops;
	int rc = optable_parse(&zones_options, cfg, argc, argv, err, errlen);

	if (rc)
		return (enum options_result)rc;
	if (!cfg->target) {
		snprintf(err, errlen, "-d: no target (a block device or a file; "
			 "see clyde zones --help)");
		return OPTIONS_ERROR;
	}
	ops = cfg->engine_given ? io_engine_find(cfg->engine) :
	      io_engine_default(NULL);
	if (ops->max_depth && cfg->qd > ops->max_depth) {
		if (cfg->qd_given) {
			snprintf(err, errlen, "--qd: %s keeps at most %u I/O%s "
				 "in flight; queue depth %u needs another "
				 "--engine", ops->name, ops->max_depth,
				 ops->max_depth == 1 ? "" : "s", cfg->qd);
			return OPTIONS_ERROR;
		}
		cfg->qd = ops->max_depth;
	}
	cfg->engine = ops->name;
	if (cfg->force && !cfg->write) {
		snprintf(err, errlen, "--force: only with --write (a read "
			 "changes nothing)");
		return OPTIONS_ERROR;
	}
	if (cfg->zone && cfg->zone % cfg->bs) {
		snprintf(err, errlen, "--zone: %" PRIu64 " bytes is not a "
			 "multiple of --bs %" PRIu64, cfg->zone, cfg->bs);
		return OPTIONS_ERROR;
	}
	return OPTIONS_OK;
}

void zones_options_record(const struct zones_config *cfg,
			  struct record *rec)
{
	common_options_record(&zones_options, cfg, rec);
}
