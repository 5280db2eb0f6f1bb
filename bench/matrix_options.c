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

#include "../lib/optable.h"
#include "../lib/units.h"
#include "../lib/xalloc.h"

#define BS_MIN 512u
#define BS_MAX (64u * 1024 * 1024)
#define THREADS_MAX 1024u
#define QD_MAX 1024u

static void set_param(struct record *rec, const char *key, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));
static void set_param(struct record *rec, const char *key, const char *fmt,
		      ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	record_set_param(rec, key, buf, 0);
}

static void set_num(struct record *rec, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	record_set_param(rec, key, buf, 1);
}

/*
 * Split a comma list and parse each item with one() into a new *out of
 * *count items; empty items and empty lists are errors.  0 or -1 (err set).
 */
static int parse_list(const char *opt, const char *arg, void **out,
		      size_t *count, size_t elem,
		      int (*one)(const char *s, void *dst), const char *what,
		      char *err, size_t errlen)
{
	char *copy = xstrdup(arg), *s = copy, *comma;
	size_t n = 0, alloc = 0;
	void *arr = NULL;

	for (;;) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		xgrow(&arr, &alloc, n + 1, elem);
		if (!*s || one(s, (char *)arr + n * elem)) {
			errf(err, errlen, "%s: '%s' is not %s", opt, s, what);
			free(arr);
			free(copy);
			return -1;
		}
		n++;
		if (!comma)
			break;
		s = comma + 1;
	}
	free(copy);
	free(*out);
	*out = arr;
	*count = n;
	return 0;
}

static int one_bs(const char *s, void *dst)
{
	uint64_t v;

	if (parse_size(s, 1, &v) || v < BS_MIN || v > BS_MAX || v % BS_MIN)
		return -1;
	*(uint64_t *)dst = v;
	return 0;
}

static int parse_bs(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	return parse_list("--bs", arg, (void **)&cfg->bs, &cfg->nbs,
			  sizeof(*cfg->bs), one_bs, "a block size (a multiple "
			  "of 512 from 512 to 64M)", err, errlen);
}

static void list_param(struct record *rec, const char *key,
		       const uint64_t *u64, const unsigned *u, size_t n)
{
	char buf[512];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len < sizeof(buf) - 24; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%"
					PRIu64, i ? "," : "",
					u64 ? u64[i] : (uint64_t)u[i]);
	record_set_param(rec, key, buf, n == 1);
}

static void params_bs(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	list_param(out, "block_sizes", cfg->bs, NULL, cfg->nbs);
}

static int one_threads(const char *s, void *dst)
{
	uint64_t v;

	if (parse_uint(s, THREADS_MAX, &v) || !v)
		return -1;
	*(unsigned *)dst = (unsigned)v;
	return 0;
}

static int parse_threads(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	return parse_list("--threads", arg, (void **)&cfg->threads,
			  &cfg->nthreads, sizeof(*cfg->threads), one_threads,
			  "a thread count from 1 to 1024", err, errlen);
}

static void params_threads(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	list_param(out, "threads", NULL, cfg->threads, cfg->nthreads);
}

static int one_pattern(const char *s, void *dst)
{
	if (!strcmp(s, "random") || !strcmp(s, "rand"))
		*(int *)dst = 1;
	else if (!strcmp(s, "seq") || !strcmp(s, "sequential"))
		*(int *)dst = 0;
	else
		return -1;
	return 0;
}

static int parse_pattern(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	return parse_list("--pattern", arg, (void **)&cfg->random,
			  &cfg->npatterns, sizeof(*cfg->random), one_pattern,
			  "random or seq", err, errlen);
}

static void params_pattern(const void *p, void *out)
{
	const struct matrix_config *cfg = p;
	char buf[256];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < cfg->npatterns && len < sizeof(buf) - 12; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "," : "",
					cfg->random[i] ? "random" : "seq");
	record_set_param(out, "patterns", buf, 0);
}

static int one_mix(const char *s, void *dst)
{
	uint64_t v;

	if (parse_uint(s, 100, &v))
		return -1;
	*(unsigned *)dst = (unsigned)v;
	return 0;
}

static int parse_mix(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	return parse_list("--mix", arg, (void **)&cfg->mix,
			  &cfg->nmix, sizeof(*cfg->mix), one_mix,
			  "a read percentage from 0 to 100", err, errlen);
}

static void params_mix(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	list_param(out, "read_pcts", NULL, cfg->mix, cfg->nmix);
}

static int parse_qd(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;
	uint64_t v;

	if (parse_uint(arg, QD_MAX, &v) || !v)
		return errf(err, errlen, "--qd: '%s' is not a queue depth "
			    "from 1 to %u", arg, QD_MAX);
	cfg->qd = (unsigned)v;
	return 0;
}

static void params_qd(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, "queue_depth", cfg->qd);
}

static int parse_engine(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	if (!strcmp(arg, "psync"))
		cfg->engine = "psync";
	else if (!strcmp(arg, "libaio"))
		cfg->engine = "libaio";
	else
		return errf(err, errlen, "--engine: '%s' is not psync or "
			    "libaio", arg);
	return 0;
}

static void params_engine(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_param(out, "engine", "%s", cfg->engine ? cfg->engine : "psync");
}

#define FLAG_OPTION(field)						\
static int parse_##field(void *p, const char *arg, char *err,		\
			 size_t errlen)					\
{									\
	struct matrix_config *cfg = p;					\
									\
	(void)arg, (void)err, (void)errlen;				\
	cfg->field = 1;							\
	return 0;							\
}									\
static void params_##field(const void *p, void *out)			\
{									\
	const struct matrix_config *cfg = p;				\
									\
	set_num(out, #field, cfg->field);				\
}

FLAG_OPTION(buffered)
FLAG_OPTION(shared_file)
FLAG_OPTION(overwrite)
FLAG_OPTION(raw_device)
FLAG_OPTION(force)
FLAG_OPTION(verify)
FLAG_OPTION(no_prefill)
FLAG_OPTION(quiet)

static int parse_hit_area(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;
	uint64_t v;

	if (parse_size(arg, 1024 * 1024, &v) || !v)
		return errf(err, errlen, "--hit-area: '%s' is not a size", arg);
	cfg->hit_area = v;
	return 0;
}

static void params_hit_area(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, "hit_area", (double)cfg->hit_area);
}

static int parse_hit_pct(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;
	uint64_t v;

	if (parse_uint(arg, 100, &v))
		return errf(err, errlen, "--hit-pct: '%s' is not a percentage "
			    "from 0 to 100", arg);
	cfg->hit_pct = (unsigned)v;
	cfg->hit_pct_given = 1;
	return 0;
}

static void params_hit_pct(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, "hit_pct", cfg->hit_pct);
}

static int one_curve(const char *s, void *dst)
{
	uint64_t v;

	if (parse_uint(s, 100, &v) || !v)
		return -1;
	*(unsigned *)dst = (unsigned)v;
	return 0;
}

static int parse_curve(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	return parse_list("--curve", arg, (void **)&cfg->curve,
			  &cfg->ncurve, sizeof(*cfg->curve), one_curve,
			  "a percentage from 1 to 100", err, errlen);
}

static void params_curve(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	list_param(out, "curve", NULL, cfg->curve, cfg->ncurve);
}

static int parse_dir(void *p, const char *arg, char *err, size_t errlen)
{
	return optable_set_string(&((struct matrix_config *)p)->target, arg,
				  "-d: empty path", err, errlen);
}

static void params_dir(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	record_set_param(out, "directory", cfg->target ? cfg->target : ".", 0);
}

static int parse_msize(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;
	uint64_t v;

	if (parse_size(arg, 1024 * 1024, &v) || !v)
		return errf(err, errlen, "--size: '%s' is not a size", arg);
	cfg->size = v;
	cfg->size_given = 1;
	return 0;
}

static void params_msize(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, PARAM_FILE_SIZE, (double)cfg->size);
}

/* Seconds: a decimal number with an optional s or ms suffix. */
static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v))
		return -1;
	if (!strcmp(end, "ms"))
		v /= 1000;
	else if (*end && strcmp(end, "s"))
		return -1;
	if (v < 0 || v > 86400)
		return -1;
	*out = v;
	return 0;
}

static int parse_time(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	if (parse_seconds(arg, &cfg->time) || cfg->time < 0.01)
		return errf(err, errlen, "--time: '%s' is not a duration "
			    "from 0.01 s to 86400 s", arg);
	return 0;
}

static void params_time(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, "time", cfg->time);
}

static int parse_ramp(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	if (parse_seconds(arg, &cfg->ramp))
		return errf(err, errlen, "--ramp: '%s' is not a duration "
			    "from 0 to 86400 s", arg);
	return 0;
}

static void params_ramp(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, "ramp", cfg->ramp);
}

static int parse_seed(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	if (parse_uint(arg, UINT32_MAX, &cfg->seed))
		return errf(err, errlen, "--seed: '%s' is not a number from 0 "
			    "to %u", arg, UINT32_MAX);
	cfg->seed_given = 1;
	return 0;
}

static void params_seed(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, PARAM_SEED, (double)cfg->seed);
}

static int parse_json(void *p, const char *arg, char *err, size_t errlen)
{
	return optable_set_string(&((struct matrix_config *)p)->json_path, arg,
				  "--json: empty file name", err, errlen);
}

static int parse_csv(void *p, const char *arg, char *err, size_t errlen)
{
	return optable_set_string(&((struct matrix_config *)p)->csv_path, arg,
				  "--csv: empty file name", err, errlen);
}

static int parse_label(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;

	(void)err, (void)errlen;
	free(cfg->label);
	cfg->label = xstrdup(arg);
	return 0;
}

static int parse_tag(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return errf(err, errlen, "--tag: '%s' is not KEY=VALUE", arg);
	xgrow((void **)&cfg->tags, &cfg->tags_alloc, cfg->ntags + 1,
	      sizeof(*cfg->tags));
	cfg->tags[cfg->ntags].key = xasprintf("%.*s", (int)(eq - arg), arg);
	cfg->tags[cfg->ntags].value = xstrdup(eq + 1);
	cfg->ntags++;
	return 0;
}

static int parse_procs(void *p, const char *arg, char *err, size_t errlen)
{
	struct matrix_config *cfg = p;
	uint64_t v;

	if (parse_uint(arg, 1024, &v) || !v)
		return errf(err, errlen, "-c: process count '%s' must be a "
			    "number from 1 to 1024", arg);
	cfg->procs = (unsigned)v;
	return 0;
}

static void params_procs(const void *p, void *out)
{
	const struct matrix_config *cfg = p;

	set_num(out, "procs", cfg->procs ? cfg->procs : 1);
}

enum {
	KEY_BS = 256, KEY_THREADS, KEY_PATTERN, KEY_MIX, KEY_QD, KEY_ENGINE,
	KEY_BUFFERED, KEY_SHARED, KEY_OVERWRITE, KEY_RAW, KEY_FORCE,
	KEY_SIZE, KEY_TIME, KEY_RAMP, KEY_SEED, KEY_JSON, KEY_CSV, KEY_TAG,
	KEY_VERIFY, KEY_NO_PREFILL, KEY_HIT_AREA, KEY_HIT_PCT, KEY_CURVE,
	KEY_HELP,
};

static const struct opt_def option_table[] = {
	{ "directory", 'd', required_argument, "PATH",
	  "directory to test in (clyde makes its files in a new directory "
	  "of its own there; default .), or an existing file with "
	  "--overwrite, or a block device with --raw-device",
	  parse_dir, params_dir },
	{ "bs", KEY_BS, required_argument, "SIZE,...",
	  "block sizes (bytes without suffix; default 8k,16k,1m)",
	  parse_bs, params_bs },
	{ "threads", KEY_THREADS, required_argument, "N,...",
	  "thread counts (default 1,16)", parse_threads, params_threads },
	{ "pattern", KEY_PATTERN, required_argument, "random|seq,...",
	  "access patterns (default random,seq)", parse_pattern,
	  params_pattern },
	{ "mix", KEY_MIX, required_argument, "PCT,...",
	  "read percentages (default 100,0,50,80)", parse_mix, params_mix },
	{ "qd", KEY_QD, required_argument, "N",
	  "queue depth per thread (default 1; above 1 needs libaio)",
	  parse_qd, params_qd },
	{ "engine", KEY_ENGINE, required_argument, "psync|libaio",
	  "I/O engine (default psync, libaio when --qd > 1)",
	  parse_engine, params_engine },
	{ "buffered", KEY_BUFFERED, no_argument, NULL,
	  "buffered I/O instead of O_DIRECT", parse_buffered,
	  params_buffered },
	{ "shared-file", KEY_SHARED, no_argument, NULL,
	  "one file for all threads, each in its own region (default: a "
	  "file per thread)", parse_shared_file, params_shared_file },
	{ "overwrite", KEY_OVERWRITE, no_argument, NULL,
	  "-d may be an existing regular file, whose data is destroyed",
	  parse_overwrite, params_overwrite },
	{ "raw-device", KEY_RAW, no_argument, NULL,
	  "-d may be a block device (opened exclusively; its data is "
	  "destroyed)", parse_raw_device, params_raw_device },
	{ "force", KEY_FORCE, no_argument, NULL,
	  "with --raw-device: use a device carrying a filesystem, RAID or "
	  "partition table signature", parse_force, params_force },
	{ "verify", KEY_VERIFY, no_argument, NULL,
	  "data validation: every block carries its offset, generation and "
	  "checksum, every read is checked, a mismatch fails the run (exit "
	  "1) naming file, offset, expected and found",
	  parse_verify, params_verify },
	{ "no-prefill", KEY_NO_PREFILL, no_argument, NULL,
	  "a file or device target already holds data: do not prefill; with "
	  "--verify, first read and check every block an earlier --verify run "
	  "left there (same --bs list; the check reveals "
	  "corruption, but not a write that run lost)",
	  parse_no_prefill, params_no_prefill },
	{ "hit-area", KEY_HIT_AREA, required_argument, "SIZE",
	  "cache-hit area: the first SIZE bytes of each file (of each "
	  "thread's region with --shared-file; MiB without suffix)",
	  parse_hit_area, params_hit_area },
	{ "hit-pct", KEY_HIT_PCT, required_argument, "PCT",
	  "% of the I/Os sent to the hit area (needs --hit-area), the rest "
	  "to the whole file", parse_hit_pct, params_hit_pct },
	{ "curve", KEY_CURVE, required_argument, "PCT,...",
	  "rate curve: after each cell, rerun it rate-limited at these % of "
	  "its maximum IO/s and record IO/s and latency at each point",
	  parse_curve, params_curve },
	{ "size", KEY_SIZE, required_argument, "SIZE",
	  "size of each thread's file, or of the shared file (MiB without "
	  "suffix; default 1G; a file or device: its size)",
	  parse_msize, params_msize },
	{ "time", KEY_TIME, required_argument, "SECONDS",
	  "measured time per cell (default 5; s or ms suffix)",
	  parse_time, params_time },
	{ "ramp", KEY_RAMP, required_argument, "SECONDS",
	  "unmeasured warm-up before each cell (default 1)",
	  parse_ramp, params_ramp },
	{ "seed", KEY_SEED, required_argument, "N",
	  "random seed (default: random, recorded)", parse_seed,
	  params_seed },
	{ "label", 'm', required_argument, "NAME",
	  "label of the run (default: the host name)", parse_label, NULL },
	{ "procs", 'c', required_argument, "N",
	  "run every cell in N worker processes in step, each with its own "
	  "files and the cell's threads (default 1)",
	  parse_procs, params_procs },
	{ "json", KEY_JSON, required_argument, "FILE",
	  "append the run record as one JSON line", parse_json, NULL },
	{ "csv", KEY_CSV, required_argument, "FILE",
	  "append one long-CSV row per cell (header when the file is new)",
	  parse_csv, NULL },
	{ "tag", KEY_TAG, required_argument, "KEY=VALUE",
	  "tag the run (repeatable)", parse_tag, NULL },
	{ "quiet", 'q', no_argument, NULL,
	  "the tables on stderr (stdout stays empty), no progress display",
	  parse_quiet, params_quiet },
	OPTABLE_HELP(KEY_HELP),
};

static void *dup_array(const void *src, size_t size)
{
	void *p = xmalloc(size);

	memcpy(p, src, size);
	return p;
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
};

void matrix_config_init(struct matrix_config *cfg)
{
	static const uint64_t bs[] = { 8192, 16384, 1024 * 1024 };
	static const unsigned threads[] = { 1, 16 }, mix[] = { 100, 0, 50, 80 };
	static const int random[] = { 1, 0 };

	memset(cfg, 0, sizeof(*cfg));
	cfg->bs = dup_array(bs, sizeof(bs));
	cfg->nbs = 3;
	cfg->threads = dup_array(threads, sizeof(threads));
	cfg->nthreads = 2;
	cfg->random = dup_array(random, sizeof(random));
	cfg->npatterns = 2;
	cfg->mix = dup_array(mix, sizeof(mix));
	cfg->nmix = 4;
	cfg->qd = 1;
	cfg->size = 1024 * 1024 * 1024;
	cfg->time = 5;
	cfg->ramp = 1;
}

void matrix_config_release(struct matrix_config *cfg)
{
	size_t i;

	free(cfg->target);
	free(cfg->bs);
	free(cfg->threads);
	free(cfg->random);
	free(cfg->mix);
	free(cfg->curve);
	free(cfg->json_path);
	free(cfg->csv_path);
	free(cfg->label);
	for (i = 0; i < cfg->ntags; i++) {
		free(cfg->tags[i].key);
		free(cfg->tags[i].value);
	}
	free(cfg->tags);
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
	if (!cfg->engine)
		cfg->engine = cfg->qd > 1 ? "libaio" : "psync";
	if (cfg->qd > 1 && !strcmp(cfg->engine, "psync")) {
		snprintf(err, errlen, "--qd: psync does one I/O at a time; "
			 "queue depth %u needs --engine libaio", cfg->qd);
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
	size_t i;

	optable_params(&matrix_options, cfg, rec);
	for (i = 0; i < cfg->ntags; i++)
		record_add_tag(rec, cfg->tags[i].key, cfg->tags[i].value);
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
