/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_OPTABLE_H
#define CLYDE_OPTABLE_H

/*
 * Options as data: a command describes each option in one row of a
 * struct opt_def table, and the same table parses the command line
 * (getopt_long, short and long spellings), prints --help and writes the
 * effective settings out.  The command keeps only its rows and their
 * functions; cfg is the command's own configuration struct.
 */

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

struct opt_def {
	const char *name;	/* long name */
	int key;		/* short letter, or a value > 255: long only */
	int has_arg;		/* no_, required_ or optional_argument */
	const char *metavar;	/* the argument in --help; NULL: none */
	const char *help;	/* one line of --help (the terminal wraps) */
	/*
	 * Apply the option (arg is NULL when it has none) to cfg: 0, or -1
	 * with a one-line message naming the option in err.  NULL: an action
	 * row, --help or --version (OPTABLE_HELP, OPTABLE_VERSION), that
	 * optable_parse() carries out itself.
	 */
	int (*parse)(void *cfg, const char *arg, char *err, size_t errlen);
	/*
	 * Write the effective setting from cfg into out, the caller's sink
	 * (clyde's commands pass their struct record).  NULL: not written.
	 */
	void (*params)(const void *cfg, void *out);
};

/* The action rows: --help prints optable_usage(), --version the version. */
#define OPTABLE_HELP(key)						\
	{ "help", (key), no_argument, NULL, "show this help", NULL, NULL }
#define OPTABLE_VERSION(key)						\
	{ "version", (key), no_argument, NULL, "show the version",	\
	  NULL, NULL }

#define OPTABLE_SIZE(table) (sizeof(table) / sizeof((table)[0]))

/* A command's options: its rows and the text around them in --help. */
struct optable {
	const struct opt_def *rows;
	size_t nrows;
	const char *head;	/* --help before the option lines */
	const char *tail;	/* --help after them */
	int operands;		/* 0: operands are "unexpected argument" */
};

/*
 * Parse argv (argv[0] is the command name) with the rows of t into cfg.
 * Returns 0 when every option is applied (optind then indexes the first
 * operand), 1 when an action row (parse NULL) named "help" printed
 * optable_usage() or one named "version" printed "clyde VERSION" on stdout,
 * or -1 with "option -x is unknown", "option '--foo' needs an argument",
 * "unexpected argument 'x'" or the row's own message in err.
 */
int optable_parse(const struct optable *t, void *cfg, int argc, char **argv,
		  char *err, size_t errlen);

/* --help: head, then "  -s, --size SIZE" and the help line a row, tail. */
void optable_usage(const struct optable *t, FILE *out);

/* Every row's params hook, in table order. */
void optable_params(const struct optable *t, const void *cfg, void *out);

/*
 * A row's string setting: replace *dst by a copy of arg, or fail with the
 * message empty ("--json: empty file name") when arg is "".
 */
int optable_set_string(char **dst, const char *arg, const char *empty,
		       char *err, size_t errlen);

/* Format a message into err (errlen bytes) and return -1. */
__attribute__((format(printf, 3, 4)))
int errf(char *err, size_t errlen, const char *fmt, ...);

#endif
