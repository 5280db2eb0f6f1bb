/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_OPTROW_H
#define CLYDE_OPTROW_H

/*
 * One row of an options table (lib/optable.h has the table): what a row
 * says about its option, and parsing, showing and recording one row's
 * value by its type.  A row knows nothing of the table it is in.
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
	OPT_PATHS,	/* a path, repeatable: a char ** array of copies at
			   off, its length at count_off; refused: an empty
			   path, one PATH_MAX long or longer, one given
			   twice, more than .max (0: no bound); param the
			   first path, "." when none */
	OPT_ACTION,	/* --help or --version: optable_parse() prints */
};

/* Row flags */
#define OPTF_LABEL 1u		/* OPT_STRING: no comma, no control character */
#define OPTF_NONE 2u		/* OPT_LIST, OPT_UINT, OPT_SIZE: the argument
				   "none" empties the list or zeroes the field
				   (switches off what a default or a profile
				   set) */
#define OPTF_ONCE 4u		/* OPT_STRING without a default: given twice
				   is an error, never "the last one wins" */

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
	 * sink's out (clyde's commands pass their struct record).  A typed
	 * row may have params too: it runs after the row's own param.
	 */
	void (*params)(const void *cfg, void *out);

	enum opt_type type;
	size_t off, width;	/* the field (OPT_FIELD) */
	size_t given;		/* OPT_GIVEN; 0: none */
	size_t count_off;	/* OPT_LIST, OPT_KV, OPT_PATHS */
	size_t alloc_off;	/* OPT_KV */
	enum opt_type elem;	/* OPT_LIST: the element type */
	size_t elem_width;	/* OPT_LIST: sizeof an element */
	uint64_t min, max;	/* OPT_UINT, OPT_SIZE (max 0: no bound);
				   OPT_PATHS: max the count */
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


/* Where a row's param goes: out is passed back to both functions. */
struct opt_sink {
	void *out;
	void (*param)(void *out, const char *key, const char *value,
		      int numeric);
	void (*kv)(void *out, const char *key, const char *value);
};


/* Format a message into err (errlen bytes) and return -1. */
__attribute__((format(printf, 3, 4)))
int errf(char *err, size_t errlen, const char *fmt, ...);

/* "-c" or "--qd": how the messages name row o. */
const char *optrow_spelling(const struct opt_def *o, char *buf, size_t len);

/* Apply arg (NULL: none) to o's field in cfg.  0 or -1 (err set). */
int optrow_apply(const struct opt_def *o, void *cfg, const char *arg,
		 const char *opt, char *err, size_t errlen);

/* " (default X)" of o from cfg (NULL: its .def text), or "". */
void optrow_default(const struct opt_def *o, const void *cfg, char *buf,
		    size_t len);

/* getopt's has_arg of o. */
int optrow_has_arg(const struct opt_def *o);

/* o's param (typed) or params hook (custom) into sink. */
void optrow_params(const struct opt_def *o, const void *cfg,
		   const struct opt_sink *sink);

/* Free what a typed row allocated in cfg (strings, lists, KV pairs). */
void optrow_release(const struct opt_def *o, void *cfg);

#endif
