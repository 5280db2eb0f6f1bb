/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_COMMON_OPTIONS_H
#define CLYDE_COMMON_OPTIONS_H

/*
 * The option rows every benchmark command shares (--json, --csv, --tag,
 * -m, -z/--seed, -c, -q), each defined once here with one validation, and
 * the sink that writes a table's params into a run record.  A command's
 * table lists them as COMMON_JSON(struct its_config) ...; the command's
 * config struct has the fields these rows name (json_path, csv_path,
 * label, tags/ntags/tags_alloc, seed/seed_given, procs, quiet).
 */

#include "lib/optable.h"
#include "report/model/record.h"

/* What a command's option parser returns. */
enum options_result {
	OPTIONS_OK = 0,
	OPTIONS_EXIT = 1,	/* --help or --version printed: exit 0 */
	OPTIONS_ERROR = -1,	/* err holds a one-line message */
};

/* long-only keys of the shared rows; a command's own start at 256 */
enum {
	KEY_COMMON_JSON = 0x1000,
	KEY_COMMON_CSV,
	KEY_COMMON_TAG,
	KEY_COMMON_SEED,
};

#define COMMON_JSON(T)							\
	{ .name = "json", .key = KEY_COMMON_JSON, .type = OPT_STRING,	\
	  .flags = OPTF_ONCE, OPT_FIELD(T, json_path), .metavar = "FILE",	\
	  .what = "file name",						\
	  .help = "append the run record as one JSON line" }

/* help: what the command writes there */
#define COMMON_CSV(T, csv_help)						\
	{ .name = "csv", .key = KEY_COMMON_CSV, .type = OPT_STRING,	\
	  .flags = OPTF_ONCE, OPT_FIELD(T, csv_path), .metavar = "FILE",	\
	  .what = "file name", .help = (csv_help) }

#define COMMON_TAG(T)							\
	{ .name = "tag", .key = KEY_COMMON_TAG, .type = OPT_KV,		\
	  OPT_FIELD(T, tags), OPT_COUNT(T, ntags),			\
	  OPT_ALLOC(T, tags_alloc), .metavar = "KEY=VALUE",		\
	  .help = "tag the run (repeatable; KEY of letters, digits, "	\
		  "'_', '-' and '.'), e.g. --tag controller=fc" }

#define COMMON_LABEL(T)							\
	{ .name = "label", .key = 'm', .type = OPT_STRING,		\
	  .flags = OPTF_LABEL, OPT_FIELD(T, label), .param = "label",	\
	  .what = "label", .metavar = "NAME",				\
	  .def_help = "the host name",					\
	  .help = "label of the run, one line without commas" }

/*
 * -d, repeatable, in every command: the fields of its row (a command adds
 * .metavar, .help and its own hooks).  The paths are malloc'ed copies at
 * FIELD, their number at COUNT; an empty path, one of PATH_MAX bytes or
 * more, one given twice or more than COMMON_DIRS_MAX are refused (exit 2);
 * param "directory" is the first, "." when none.
 */
#define COMMON_DIRS_MAX 256
#define COMMON_DIRS(T, field_, count_)					\
	.name = "directory", .key = 'd', .type = OPT_PATHS,		\
	OPT_FIELD(T, field_), OPT_COUNT(T, count_),			\
	.max = COMMON_DIRS_MAX, .what = "path", .param = "directory"

/* key: 'z' in bonnie++'s command line, KEY_COMMON_SEED elsewhere */
#define COMMON_SEED(T, key_)						\
	{ .name = "seed", .key = (key_), .type = OPT_UINT,			\
	  OPT_FIELD(T, seed), OPT_GIVEN(T, seed_given),			\
	  .max = UINT32_MAX, .param = PARAM_SEED, .what = "seed",	\
	  .metavar = "N", .def_help = "random, recorded",		\
	  .help = "random seed" }

#define COMMON_PROCS(T, procs_help)					\
	{ .name = "procs", .key = 'c', .type = OPT_UINT,		\
	  OPT_FIELD(T, procs), .min = 1, .max = 1024, .def = "1",	\
	  .param = "procs", .what = "process count", .metavar = "N",	\
	  .help = (procs_help) }

#define COMMON_QUIET(T, quiet_help)					\
	{ .name = "quiet", .key = 'q', .type = OPT_FLAG,		\
	  OPT_FIELD(T, quiet), .param = "quiet", .help = (quiet_help) }

/* Every param and tag of t's rows for cfg into rec. */
void common_options_record(const struct optable *t, const void *cfg,
			   struct record *rec);

#endif
