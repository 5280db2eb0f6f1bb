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

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_CUSTOM = 0,	/* parse and params hooks */
	OPT_FLAG,	/* int field set to 1; param 0 or 1 */
	OPT_UINT,	/* unsigned or uint64_t field, decimal, min..max */
	OPT_SIZE,	/* uint64_t bytes: a number in .unit bytes or with a
			   k/m/g/t suffix, min..max, a multiple of .multiple */
	OPT_SECONDS,	/* double: decimal seconds, s or ms suffix, dmin..dmax */
	OPT_ENUM,	/* int field: one of .choices; param the name */
	OPT_LIST,	/* comma list of .elem (OPT_UINT, OPT_SIZE or OPT_ENUM)
			   into a malloc'ed array at off, its length at
			   count_off */
	OPT_STRING,	/* char * field, not empty; OPTF_LABEL: one line, no
			   commas (it goes into CSV), no control
			   characters */
	OPT_KV,		/* KEY=VALUE, repeatable: struct opt_kv array at off,
			   count at count_off, allocation at alloc_off; the
			   key is [A-Za-z0-9_.-]+; written as tags */
	OPT_ACTION,	/* --help or --version: optable_parse() prints */
};

/* OPT_STRING flags */
#define OPTF_LABEL 1u		/* no comma, no control character */

/* A name of an OPT_ENUM row, and its value. */
struct opt_choice {
	const char *name;
	int value;
};

/* One KEY=VALUE of an OPT_KV row. */
struct opt_kv {
	char *key;
	char *value;
};

/* Where a row's value lives: .off and .width of FIELD in struct TYPE. */
#define OPT_FIELD(type, field)						\
	.off = offsetof(type, field), .width = sizeof(((type *)0)->field)
/* An int set to 1 when the option is given (not by the default). */
#define OPT_GIVEN(type, field) .given = offsetof(type, field) + 1
/* OPT_LIST and OPT_KV: the size_t element count (and allocation). */
#define OPT_COUNT(type, field) .count_off = offsetof(type, field)
#define OPT_ALLOC(type, field) .alloc_off = offsetof(type, field)

struct opt_def {
	const char *name;	/* long name */
	int key;		/* short letter, or a value > 255: long only */
	int has_arg;		/* OPT_CUSTOM: no_, required_ or
				   optional_argument; typed rows: by type */
	const char *metavar;	/* the argument in --help; NULL: none */
	const char *help;	/* one line of --help (the terminal wraps);
				   the engine adds "(default X)" */
	/*
	 * OPT_CUSTOM: apply the option (arg is NULL when it has none) to
	 * cfg: 0, or -1 with a one-line message naming the option in err.
	 * A typed row may have parse too: it runs after the value is stored
	 * (a cross-check or a side effect, e.g. -u resolving names).
	 */
	int (*parse)(void *cfg, const char *arg, char *err, size_t errlen);
	/*
	 * OPT_CUSTOM: write the effective setting from cfg into out, the
	 * sink's out (clyde's commands pass their struct record).
	 */
	void (*params)(const void *cfg, void *out);

	enum opt_type type;
	size_t off, width;	/* the field (OPT_FIELD) */
	size_t given;		/* OPT_GIVEN; 0: none */
	size_t count_off;	/* OPT_LIST, OPT_KV */
	size_t alloc_off;	/* OPT_KV */
	enum opt_type elem;	/* OPT_LIST: the element type */
	size_t elem_width;	/* OPT_LIST: sizeof an element */
	uint64_t min, max;	/* OPT_UINT, OPT_SIZE (max 0: no bound) */
	uint64_t unit;		/* OPT_SIZE without suffix (0: bytes) */
	uint64_t multiple;	/* OPT_SIZE: must divide by it (0: any) */
	double dmin, dmax;	/* OPT_SECONDS (dmax 0: 86400) */
	const struct opt_choice *choices; /* OPT_ENUM, NULL-name ended */
	unsigned flags;		/* OPTF_* */
	const char *def;	/* default, parsed as the argument would be */
	const char *def_help;	/* the default in words when it is computed */
	const char *param;	/* the record's param key; NULL: not written */
	const char *what;	/* the error's noun ("a thread count") */
	/* OPT_CUSTOM: the current value for "(default X)" in --help */
	void (*show)(const void *cfg, char *buf, size_t len);
};

/* A row of type OPT_CUSTOM, in the order of the fields above. */
#define OPT_CUSTOM_ROW(name_, key_, has_arg_, metavar_, help_, parse_,	\
		       params_)						\
	{ .name = (name_), .key = (key_), .has_arg = (has_arg_),	\
	  .metavar = (metavar_), .help = (help_), .parse = (parse_),	\
	  .params = (params_), .type = OPT_CUSTOM }

/* The action rows: --help prints optable_usage(), --version the version. */
#define OPTABLE_HELP(k)							\
	{ .name = "help", .key = (k), .type = OPT_ACTION,		\
	  .help = "show this help" }
#define OPTABLE_VERSION(k)						\
	{ .name = "version", .key = (k), .type = OPT_ACTION,		\
	  .help = "show the version" }

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

/* Where optable_params() writes: out is passed back to both functions. */
struct opt_sink {
	void *out;
	void (*param)(void *out, const char *key, const char *value,
		      int numeric);
	void (*kv)(void *out, const char *key, const char *value);
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
 * operand), 1 when an action row named "help" printed optable_usage() or
 * one named "version" printed "clyde VERSION" on stdout, or -1 with
 * "option -x is unknown", "option '--foo' needs an argument",
 * "unexpected argument 'x'" or the row's own message in err.
 */
int optable_parse(const struct optable *t, void *cfg, int argc, char **argv,
		  char *err, size_t errlen);

/*
 * --help: head, then "  -s, --size SIZE" and the help line a row (with
 * "(default X)" from a cfg made by t->init), tail.
 */
void optable_usage(const struct optable *t, FILE *out);

/* Every row's param (typed rows) or params hook (custom), in table order. */
void optable_params(const struct optable *t, const void *cfg,
		    const struct opt_sink *sink);

/* Free what the typed rows allocated in cfg (strings, lists, KV pairs). */
void optable_release(const struct optable *t, void *cfg);

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
