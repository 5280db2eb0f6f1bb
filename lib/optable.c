// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options-table engine: defaults, getopt_long, --help and params from
 * one table of typed rows.
 */
#include "optable.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int optable_set_string(char **dst, const char *arg, const char *empty,
		       char *err, size_t errlen)
{
	if (!*arg)
		return errf(err, errlen, "%s", empty);
	free(*dst);
	*dst = xstrdup(arg);
	return 0;
}

/* --- fields --- */

static void *field(void *cfg, size_t off)
{
	return (char *)cfg + off;
}

static const void *cfield(const void *cfg, size_t off)
{
	return (const char *)cfg + off;
}

static void store_uint(void *dst, size_t width, uint64_t v)
{
	if (width == sizeof(uint8_t)) {
		uint8_t x = (uint8_t)v;

		memcpy(dst, &x, sizeof(x));
	} else if (width == sizeof(uint16_t)) {
		uint16_t x = (uint16_t)v;

		memcpy(dst, &x, sizeof(x));
	} else if (width == sizeof(uint32_t)) {
		uint32_t x = (uint32_t)v;

		memcpy(dst, &x, sizeof(x));
	} else {
		memcpy(dst, &v, sizeof(v));
	}
}

static uint64_t load_uint(const void *src, size_t width)
{
	if (width == sizeof(uint8_t)) {
		uint8_t x;

		memcpy(&x, src, sizeof(x));
		return x;
	} else if (width == sizeof(uint16_t)) {
		uint16_t x;

		memcpy(&x, src, sizeof(x));
		return x;
	} else if (width == sizeof(uint32_t)) {
		uint32_t x;

		memcpy(&x, src, sizeof(x));
		return x;
	}
	{
		uint64_t x;

		memcpy(&x, src, sizeof(x));
		return x;
	}
}

static size_t load_size_t(const void *cfg, size_t off)
{
	size_t n;

	memcpy(&n, cfield(cfg, off), sizeof(n));
	return n;
}

/* "-c" or "--qd": how the messages name a row */
static const char *spelling(const struct opt_def *o, char *buf, size_t len)
{
	if (o->key > 0 && o->key < 256)
		snprintf(buf, len, "-%c", o->key);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

/* --- one value --- */

static uint64_t size_max(const struct opt_def *o)
{
	return o->max ? o->max : UINT64_MAX;
}

static const char *choice_list(const struct opt_def *o, char *buf, size_t len)
{
	size_t i, n = 0, k = 0;

	for (n = 0; o->choices[n].name; n++)
		;
	buf[0] = '\0';
	for (i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
				      !i ? "" : i + 1 == n ? " or " : ", ",
				      o->choices[i].name);
	return buf;
}

/* What a scalar of type ty must be, for the messages. */
static void describe(const struct opt_def *o, enum opt_type ty, char *buf,
		     size_t len)
{
	char lo[32], hi[32];

	switch (ty) {
	case OPT_UINT:
		if (o->max)
			snprintf(buf, len, "a number from %" PRIu64 " to %"
				 PRIu64, o->min, o->max);
		else
			snprintf(buf, len, "a number from %" PRIu64, o->min);
		break;
	case OPT_SIZE:
		format_size(lo, sizeof(lo), o->min);
		format_size(hi, sizeof(hi), size_max(o));
		if (o->multiple)
			snprintf(buf, len, "a multiple of %" PRIu64 " from %s "
				 "to %s", o->multiple, lo, hi);
		else if (o->max)
			snprintf(buf, len, "a size from %s to %s", lo, hi);
		else if (o->min)
			snprintf(buf, len, "a size of at least %s", lo);
		else
			snprintf(buf, len, "a size (k, m, g, t suffixes)");
		break;
	case OPT_SECONDS:
		snprintf(buf, len, "a number of seconds from %.15g to %.15g "
			 "(decimal, s or ms suffix)", o->dmin, o->dmax);
		break;
	case OPT_ENUM:
		choice_list(o, buf, len);
		break;
	default:
		snprintf(buf, len, "a value");
	}
}

/* "OPT: WHAT 'ARG' must be RANGE" */
static int bad_value(const struct opt_def *o, enum opt_type ty,
		     const char *opt, const char *arg, char *err,
		     size_t errlen)
{
	char range[160];

	describe(o, ty, range, sizeof(range));
	return errf(err, errlen, "%s: %s%s'%s' must be %s", opt,
		    o->what ? o->what : "", o->what ? " " : "", arg, range);
}

/* Parse one scalar of type ty into dst (width bytes).  0 or -1. */
static int parse_scalar(const struct opt_def *o, enum opt_type ty,
			const char *s, void *dst, size_t width)
{
	uint64_t v;
	double d;
	size_t i;

	switch (ty) {
	case OPT_UINT:
		if (parse_uint(s, o->max ? o->max : UINT64_MAX, &v) ||
		    v < o->min)
			return -1;
		store_uint(dst, width, v);
		return 0;
	case OPT_SIZE:
		if (parse_size(s, o->unit ? o->unit : 1, &v) || v < o->min ||
		    v > size_max(o) || (o->multiple && v % o->multiple))
			return -1;
		store_uint(dst, width, v);
		return 0;
	case OPT_SECONDS:
		if (parse_seconds(s, &d) || d < o->dmin || d > o->dmax)
			return -1;
		memcpy(dst, &d, sizeof(d));
		return 0;
	case OPT_ENUM:
		for (i = 0; o->choices[i].name; i++)
			if (!strcmp(s, o->choices[i].name)) {
				store_uint(dst, width,
					   (uint64_t)(unsigned)o->choices[i].value);
				return 0;
			}
		return -1;
	default:
		return -1;
	}
}

/* The text of one scalar, as --help shows it (sizes with a suffix). */
static void show_scalar(const struct opt_def *o, enum opt_type ty,
			const void *src, size_t width, int human, char *buf,
			size_t len)
{
	uint64_t v;
	double d;
	size_t i;

	switch (ty) {
	case OPT_SIZE:
		v = load_uint(src, width);
		if (human)
			format_size(buf, len, v);
		else
			snprintf(buf, len, "%" PRIu64, v);
		break;
	case OPT_SECONDS:
		memcpy(&d, src, sizeof(d));
		snprintf(buf, len, "%.15g", d);
		break;
	case OPT_ENUM:
		v = load_uint(src, width);
		snprintf(buf, len, "?");
		for (i = 0; o->choices[i].name; i++)
			if ((uint64_t)(unsigned)o->choices[i].value == v) {
				snprintf(buf, len, "%s", o->choices[i].name);
				break;
			}
		break;
	default:
		snprintf(buf, len, "%" PRIu64, load_uint(src, width));
	}
}

/* --- one row --- */

static int parse_list_row(const struct opt_def *o, void *cfg, const char *arg,
			  const char *opt, char *err, size_t errlen)
{
	char *copy = xstrdup(arg), *s = copy, *comma;
	size_t n = 0, alloc = 0;
	void *arr = NULL, **dst = field(cfg, o->off);

	for (;;) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		xgrow(&arr, &alloc, n + 1, o->elem_width);
		if (!*s || parse_scalar(o, o->elem, s,
					(char *)arr + n * o->elem_width,
					o->elem_width)) {
			bad_value(o, o->elem, opt, s, err, errlen);
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
	free(*dst);
	*dst = arr;
	memcpy(field(cfg, o->count_off), &n, sizeof(n));
	return 0;
}

static int tag_key_char(char c)
{
	return c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
	       (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int parse_kv_row(const struct opt_def *o, void *cfg, const char *arg,
			const char *opt, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	struct opt_kv **arr = field(cfg, o->off);
	size_t n = load_size_t(cfg, o->count_off);
	size_t alloc = load_size_t(cfg, o->alloc_off);
	const char *p;

	if (!eq || eq == arg)
		return errf(err, errlen, "%s: '%s' is not KEY=VALUE", opt,
			    arg);
	for (p = arg; p < eq; p++)
		if (!tag_key_char(*p))
			return errf(err, errlen, "%s: key in '%s' may only use "
				    "letters, digits, '_', '-' and '.'", opt,
				    arg);
	xgrow((void **)arr, &alloc, n + 1, sizeof(**arr));
	(*arr)[n].key = xasprintf("%.*s", (int)(eq - arg), arg);
	(*arr)[n].value = xstrdup(eq + 1);
	n++;
	memcpy(field(cfg, o->count_off), &n, sizeof(n));
	memcpy(field(cfg, o->alloc_off), &alloc, sizeof(alloc));
	return 0;
}

static int parse_string_row(const struct opt_def *o, void *cfg,
			    const char *arg, const char *opt, char *err,
			    size_t errlen)
{
	char **dst = field(cfg, o->off);

	if (!*arg)
		return errf(err, errlen, "%s: empty %s", opt,
			    o->what ? o->what : "value");
	if ((o->flags & OPTF_LABEL) && strpbrk(arg, ",\n\r"))
		return errf(err, errlen, "%s: %s '%s' must be one line without "
			    "commas", opt, o->what ? o->what : "value", arg);
	free(*dst);
	*dst = xstrdup(arg);
	return 0;
}

/* Apply arg (NULL: none) to the row's field.  0 or -1 (err set). */
static int apply(const struct opt_def *o, void *cfg, const char *arg,
		 const char *opt, char *err, size_t errlen)
{
	int one = 1;

	switch (o->type) {
	case OPT_CUSTOM:
	case OPT_ACTION:
		return o->parse ? o->parse(cfg, arg, err, errlen) : 0;
	case OPT_FLAG:
		memcpy(field(cfg, o->off), &one, sizeof(one));
		break;
	case OPT_UINT:
	case OPT_SIZE:
	case OPT_SECONDS:
	case OPT_ENUM:
		if (parse_scalar(o, o->type, arg, field(cfg, o->off),
				 o->width))
			return bad_value(o, o->type, opt, arg, err, errlen);
		break;
	case OPT_LIST:
		if (parse_list_row(o, cfg, arg, opt, err, errlen))
			return -1;
		break;
	case OPT_STRING:
		if (parse_string_row(o, cfg, arg, opt, err, errlen))
			return -1;
		break;
	case OPT_KV:
		if (parse_kv_row(o, cfg, arg, opt, err, errlen))
			return -1;
		break;
	}
	return o->parse ? o->parse(cfg, arg, err, errlen) : 0;
}

int optable_defaults(const struct optable *t, void *cfg, char *err,
		     size_t errlen)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];

		char opt[64];

		spelling(o, opt, sizeof(opt));
		if (o->def && o->type != OPT_CUSTOM && o->type != OPT_ACTION &&
		    apply(o, cfg, o->def, opt, err, errlen))
			return -1;
	}
	return 0;
}

/* --- --help --- */

/* "(default X)" of a row, from cfg; "" when it has none to show. */
static void row_default(const struct opt_def *o, const void *cfg, char *buf,
			size_t len)
{
	char val[256];
	size_t i, n, k;

	val[0] = '\0';
	if (o->def_help) {
		snprintf(val, sizeof(val), "%s", o->def_help);
	} else if (!cfg) {
		if (o->def && o->type != OPT_FLAG)
			snprintf(val, sizeof(val), "%s", o->def);
	} else if (o->type == OPT_CUSTOM) {
		if (o->show)
			o->show(cfg, val, sizeof(val));
	} else if (o->type == OPT_UINT || o->type == OPT_SIZE ||
		   o->type == OPT_SECONDS || o->type == OPT_ENUM) {
		show_scalar(o, o->type, cfield(cfg, o->off), o->width, 1, val,
			    sizeof(val));
	} else if (o->type == OPT_STRING) {
		const char *s = *(char *const *)cfield(cfg, o->off);

		if (s)
			snprintf(val, sizeof(val), "%s", s);
	} else if (o->type == OPT_LIST) {
		const char *arr = *(const void *const *)cfield(cfg, o->off);

		n = load_size_t(cfg, o->count_off);
		for (i = 0, k = 0; i < n && k + 40 < sizeof(val); i++) {
			if (i)
				val[k++] = ',';
			show_scalar(o, o->elem, arr + i * o->elem_width,
				    o->elem_width, 1, val + k,
				    sizeof(val) - k);
			k += strlen(val + k);
		}
	}
	if (val[0])
		snprintf(buf, len, " (default %s)", val);
	else
		buf[0] = '\0';
}

static int row_has_arg(const struct opt_def *o)
{
	if (o->type == OPT_CUSTOM)
		return o->has_arg;
	if (o->type == OPT_FLAG || o->type == OPT_ACTION)
		return no_argument;
	return o->has_arg == optional_argument ? optional_argument :
	       required_argument;
}

void optable_usage(const struct optable *t, FILE *out)
{
	void *cfg = NULL;
	size_t i;

	if (t->init && t->cfg_size) {
		cfg = xcalloc(1, t->cfg_size);
		t->init(cfg);
	}
	fputs(t->head, out);
	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];
		char head[96], def[300];
		size_t len;

		if (o->key > 0 && o->key < 256)
			snprintf(head, sizeof(head), "  -%c, ", o->key);
		else
			snprintf(head, sizeof(head), "      ");
		len = strlen(head);
		if (!o->metavar)
			snprintf(head + len, sizeof(head) - len, "--%s",
				 o->name);
		else if (row_has_arg(o) == optional_argument)
			snprintf(head + len, sizeof(head) - len, "--%s[=%s]",
				 o->name, o->metavar);
		else
			snprintf(head + len, sizeof(head) - len, "--%s %s",
				 o->name, o->metavar);
		row_default(o, cfg, def, sizeof(def));
		fprintf(out, "%s\n        %s%s\n", head, o->help, def);
	}
	fputs(t->tail, out);
	if (cfg) {
		if (t->release)
			t->release(cfg);
		free(cfg);
	}
}

/* --- parsing --- */

/* getopt_long's spellings of the table: ":" + letters, and the long rows. */
static struct option *build_opts(const struct opt_def *table, size_t n,
				 char **shortopts)
{
	struct option *longopts = xcalloc(n + 1, sizeof(*longopts));
	char *s = xmalloc(3 * n + 2);
	size_t i, k = 0;

	s[k++] = ':';	/* report a missing argument as ':' */
	for (i = 0; i < n; i++) {
		const struct opt_def *o = &table[i];
		int has_arg = row_has_arg(o);

		longopts[i].name = o->name;
		longopts[i].has_arg = has_arg;
		longopts[i].flag = NULL;
		longopts[i].val = o->key;
		if (o->key >= 256)
			continue;
		s[k++] = (char)o->key;
		if (has_arg != no_argument)
			s[k++] = ':';
		if (has_arg == optional_argument)
			s[k++] = ':';
	}
	s[k] = '\0';
	*shortopts = s;
	return longopts;
}

static const struct opt_def *find_key(const struct opt_def *table, size_t n,
				      int key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (table[i].key == key)
			return &table[i];
	return NULL;
}

/* An action row: --help or --version.  1 */
static int action(const struct optable *t, const struct opt_def *o)
{
	if (!strcmp(o->name, "help"))
		optable_usage(t, stdout);
	else
		printf("clyde %s\n", CLYDE_VERSION);
	return 1;
}

/*
 * Keep a message on one line: control characters an argument brought
 * (a newline in -m) are shown as \n, \t or \xNN.
 */
static void one_line(char *err, size_t errlen)
{
	char *copy = xstrdup(err);
	size_t i, k = 0;

	for (i = 0; copy[i] && k + 5 < errlen; i++) {
		unsigned char c = (unsigned char)copy[i];

		if (c == '\n')
			k += (size_t)snprintf(err + k, errlen - k, "\\n");
		else if (c == '\t')
			k += (size_t)snprintf(err + k, errlen - k, "\\t");
		else if (c < 0x20 || c == 0x7f)
			k += (size_t)snprintf(err + k, errlen - k, "\\x%02x",
					      c);
		else
			err[k++] = (char)c;
	}
	err[k] = '\0';
	free(copy);
}

int optable_parse(const struct optable *t, void *cfg, int argc, char **argv,
		  char *err, size_t errlen)
{
	char *shortopts;
	struct option *longopts = build_opts(t->rows, t->nrows, &shortopts);
	int c, rc = 0, one = 1;

	optind = 1;
	opterr = 0;
	while (!rc &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt_def *o = find_key(t->rows, t->nrows, c);
		char opt[64];

		if (o)
			spelling(o, opt, sizeof(opt));
		if (c == '?' || c == ':') {
			const char *what = c == ':' ? "needs an argument" :
					   NULL;

			if (optopt && optopt < 256)
				rc = errf(err, errlen, "option -%c %s",
					  optopt, what ? what : "is unknown");
			else
				rc = errf(err, errlen, "option '%s' %s",
					  argv[optind - 1], what ? what :
					  "is unknown or ambiguous");
		} else if (o && (o->type == OPT_ACTION ||
				 (o->type == OPT_CUSTOM && !o->parse))) {
			rc = action(t, o);
		} else if (o && apply(o, cfg, optarg, opt, err, errlen)) {
			rc = -1;
		} else if (o && o->given) {
			memcpy(field(cfg, o->given - 1), &one, sizeof(one));
		}
	}
	free(longopts);
	free(shortopts);
	if (!rc && !t->operands && optind < argc)
		rc = errf(err, errlen, "unexpected argument '%s'",
			  argv[optind]);
	if (rc < 0)
		one_line(err, errlen);
	return rc;
}

/* --- params --- */

static void row_params(const struct opt_def *o, const void *cfg,
		       const struct opt_sink *sink)
{
	char val[1024];
	size_t i, n, k;

	if (o->type == OPT_CUSTOM) {
		if (o->params)
			o->params(cfg, sink->out);
		return;
	}
	if (o->type == OPT_KV) {
		const struct opt_kv *kv =
			*(const struct opt_kv *const *)cfield(cfg, o->off);

		n = load_size_t(cfg, o->count_off);
		for (i = 0; i < n && sink->kv; i++)
			sink->kv(sink->out, kv[i].key, kv[i].value);
		return;
	}
	if (!o->param || !sink->param)
		return;
	switch (o->type) {
	case OPT_FLAG: {
		int v;

		memcpy(&v, cfield(cfg, o->off), sizeof(v));
		sink->param(sink->out, o->param, v ? "1" : "0", 1);
		break;
	}
	case OPT_UINT:
	case OPT_SIZE:
	case OPT_SECONDS:
	case OPT_ENUM:
		show_scalar(o, o->type, cfield(cfg, o->off), o->width, 0, val,
			    sizeof(val));
		sink->param(sink->out, o->param, val, o->type != OPT_ENUM);
		break;
	case OPT_STRING: {
		const char *s = *(char *const *)cfield(cfg, o->off);

		if (s)
			sink->param(sink->out, o->param, s, 0);
		break;
	}
	case OPT_LIST: {
		const char *arr = *(const void *const *)cfield(cfg, o->off);

		n = load_size_t(cfg, o->count_off);
		val[0] = '\0';
		for (i = 0, k = 0; i < n && k + 40 < sizeof(val); i++) {
			if (i)
				val[k++] = ',';
			show_scalar(o, o->elem, arr + i * o->elem_width,
				    o->elem_width, 0, val + k,
				    sizeof(val) - k);
			k += strlen(val + k);
		}
		sink->param(sink->out, o->param, val,
			    n == 1 && o->elem != OPT_ENUM);
		break;
	}
	default:
		break;
	}
}

void optable_params(const struct optable *t, const void *cfg,
		    const struct opt_sink *sink)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		row_params(&t->rows[i], cfg, sink);
}

void optable_release(const struct optable *t, void *cfg)
{
	size_t i, j, n;

	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];
		void **p = field(cfg, o->off);

		switch (o->type) {
		case OPT_STRING:
		case OPT_LIST:
			free(*p);
			*p = NULL;
			break;
		case OPT_KV: {
			struct opt_kv *kv = *p;

			n = load_size_t(cfg, o->count_off);
			for (j = 0; j < n; j++) {
				free(kv[j].key);
				free(kv[j].value);
			}
			free(kv);
			*p = NULL;
			n = 0;
			memcpy(field(cfg, o->count_off), &n, sizeof(n));
			memcpy(field(cfg, o->alloc_off), &n, sizeof(n));
			break;
		}
		default:
			break;
		}
	}
}
