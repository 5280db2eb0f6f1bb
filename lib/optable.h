/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_OPTABLE_H
#define CLYDE_OPTABLE_H

/*
 * Options as data: a command describes each option in one row of a
 * struct opt_def table, and the same table sets the defaults, parses the
 * command line (getopt_long, short and long spellings), prints --help with
 * the real defaults and writes the effective settings into the record's
 * params.  A typed row names its field by offset and says everything else
 * (default, bounds, unit, param key, help) itself:
 *
 *	{ .name = "qd", .key = KEY_QD, .type = OPT_UINT,
 *	  OPT_FIELD(struct matrix_config, qd), .min = 1, .max = 1024,
 *	  .def = "1", .param = "queue_depth", .metavar = "N",
 *	  .help = "queue depth per thread" },
 *
 * A row of type OPT_CUSTOM does the same through its parse and params
 * hooks (for options with several fields, such as -s SIZE:CHUNK:...).
 */

#include "lib/optrow.h"

/*
 * The action rows every command has: -h and --help print the usage
 * on stdout, --version "clyde VERSION"; both exit 0.  A command's own keys
 * stay clear of 'h' and OPTABLE_KEY_VERSION.
 */
#define OPTABLE_KEY_VERSION 0x2000
#define OPTABLE_HELP							\
	{ .name = "help", .key = 'h', .type = OPT_ACTION,		\
	  .help = "show this help" }
#define OPTABLE_VERSION							\
	{ .name = "version", .key = OPTABLE_KEY_VERSION,		\
	  .type = OPT_ACTION, .help = "show the version" }

#define OPTABLE_SIZE(table) (sizeof(table) / sizeof((table)[0]))

/* A command's options: its rows and the text around them in --help. */
struct optable {
	const struct opt_def *rows;
	size_t nrows;
	const char *head;	/* --help before the option lines */
	const char *tail;	/* --help after them */
	int operands;		/* 0: operands are "unexpected argument" */
	/* the defaults --help shows: a cfg after optable_defaults() and the
	   command's own init (NULL: only .def texts) */
	void (*init)(void *cfg);
	size_t cfg_size;
	void (*release)(void *cfg);
};

/*
 * Apply every row's .def to cfg (its fields zeroed by the caller) as if
 * given on the command line, without marking them given.  0, or -1 with
 * the message in err (a row whose default does not parse: a bug).
 */
int optable_defaults(const struct optable *t, void *cfg, char *err,
		     size_t errlen);

/*
 * Parse argv (argv[0] is the command name) with the rows of t into cfg.
 * Returns 0 when every option is applied (optind then indexes the first
 * operand), 1 when an action row named "help" printed the usage (head,
 * each row's option and help line with its default, tail) or
 * one named "version" printed "clyde VERSION" on stdout, or -1 with
 * "option -x is unknown", "option '--foo' needs an argument",
 * "unexpected argument 'x'" or the row's own message in err.
 */
int optable_parse(const struct optable *t, void *cfg, int argc, char **argv,
		  char *err, size_t errlen);

/* Every row's param (typed rows) or params hook (custom), in table order. */
void optable_params(const struct optable *t, const void *cfg,
		    const struct opt_sink *sink);

/* Free what the typed rows allocated in cfg (strings, lists, KV pairs). */
void optable_release(const struct optable *t, void *cfg);

#endif
