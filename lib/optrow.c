// SPDX-License-Identifier: GPL-2.0-only
/*
 * One row of an options table (optrow.h): reading and writing its field,
 * parsing its argument by type, showing its default, writing its param.
 */
#include "lib/optrow.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/xalloc.h"

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
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
const char *optrow_spelling(const struct opt_def *o, char *buf, size_t len)
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

/* Whether s has a control character (C0, DEL): a label or a tag value is
 * one line that no terminal takes for an escape sequence. */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
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
	if (has_control(eq + 1))
		return errf(err, errlen, "%s: the value in '%.*s=...' "
			    "must be one line without control characters",
			    opt, (int)(eq - arg), arg);
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
	if ((o->flags & OPTF_LABEL) && has_control(arg))
		return errf(err, errlen, "%s: %s '%s' must be one line without "
			    "control characters", opt,
			    o->what ? o->what : "value", arg);
	if ((o->flags & OPTF_LABEL) && strchr(arg, ','))
		return errf(err, errlen, "%s: %s '%s' must be one line without "
			    "commas", opt, o->what ? o->what : "value", arg);
	if ((o->flags & OPTF_ONCE) && *dst)
		return errf(err, errlen, "%s: given twice ('%s', then '%s'); "
			    "give one", opt, *dst, arg);
	free(*dst);
	*dst = xstrdup(arg);
	return 0;
}

/*
 * One path more for a path list (-d of every command): one set of rules,
 * whichever command's row it is.
 */
static int parse_paths_row(const struct opt_def *o, void *cfg,
			   const char *arg, const char *opt, char *err,
			   size_t errlen)
{
	char ***arr = field(cfg, o->off);
	size_t n = load_size_t(cfg, o->count_off), i, len = strlen(arg);

	if (!len)
		return errf(err, errlen, "%s: empty %s", opt,
			    o->what ? o->what : "path");
	if (len >= PATH_MAX)
		return errf(err, errlen, "%s: a path of %zu bytes is too long "
			    "(PATH_MAX is %d)", opt, len, PATH_MAX);
	for (i = 0; i < n; i++)
		if (!strcmp((*arr)[i], arg))
			return errf(err, errlen, "%s: '%s' is given twice",
				    opt, arg);
	if (o->max && n >= o->max)
		return errf(err, errlen, "%s: at most %" PRIu64 " paths", opt,
			    o->max);
	*arr = xrealloc(*arr, (n + 1) * sizeof(**arr));
	(*arr)[n++] = xstrdup(arg);
	memcpy(field(cfg, o->count_off), &n, sizeof(n));
	return 0;
}

static void release_paths(const struct opt_def *o, void *cfg)
{
	char ***arr = field(cfg, o->off);
	size_t n = load_size_t(cfg, o->count_off), i;

	for (i = 0; i < n; i++)
		free((*arr)[i]);
	free(*arr);
	*arr = NULL;
	n = 0;
	memcpy(field(cfg, o->count_off), &n, sizeof(n));
}

/* OPTF_NONE's "none": an empty list, or a zero field. */
static void apply_none(const struct opt_def *o, void *cfg)
{
	size_t zero = 0;

	if (o->type == OPT_LIST) {
		void **dst = field(cfg, o->off);

		free(*dst);
		*dst = NULL;
		memcpy(field(cfg, o->count_off), &zero, sizeof(zero));
	} else {
		memset(field(cfg, o->off), 0, o->width);
	}
}

/* Apply arg (NULL: none) to the row's field.  0 or -1 (err set). */
int optrow_apply(const struct opt_def *o, void *cfg, const char *arg,
		 const char *opt, char *err, size_t errlen)
{
	int one = 1;

	if ((o->flags & OPTF_NONE) && arg && !strcmp(arg, "none")) {
		apply_none(o, cfg);
		return o->parse ? o->parse(cfg, arg, err, errlen) : 0;
	}
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
	case OPT_PATHS:
		if (parse_paths_row(o, cfg, arg, opt, err, errlen))
			return -1;
		break;
	}
	return o->parse ? o->parse(cfg, arg, err, errlen) : 0;
}

/* --- --help --- */

/* "(default X)" of a row, from cfg; "" when it has none to show. */
void optrow_default(const struct opt_def *o, const void *cfg, char *buf,
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

int optrow_has_arg(const struct opt_def *o)
{
	if (o->type == OPT_CUSTOM)
		return o->has_arg;
	if (o->type == OPT_FLAG || o->type == OPT_ACTION)
		return no_argument;
	return o->has_arg == optional_argument ? optional_argument :
	       required_argument;
}


/* --- params --- */

static void typed_params(const struct opt_def *o, const void *cfg,
			 const struct opt_sink *sink)
{
	char val[1024];
	size_t i, n, k;

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
		/* always an array in the record, one value too (record.h) */
		sink->param(sink->out, o->param, val, 2);
		break;
	}
	case OPT_PATHS: {
		char *const *arr = *(char *const *const *)cfield(cfg, o->off);

		n = load_size_t(cfg, o->count_off);
		sink->param(sink->out, o->param, n ? arr[0] : ".", 0);
		break;
	}
	default:
		break;
	}
}

void optrow_params(const struct opt_def *o, const void *cfg,
		   const struct opt_sink *sink)
{
	if (o->type != OPT_CUSTOM)
		typed_params(o, cfg, sink);
	if (o->params)
		o->params(cfg, sink->out);
}


void optrow_release(const struct opt_def *o, void *cfg)
{
	void **p = field(cfg, o->off);
	struct opt_kv *kv;
	size_t j, n;

	switch (o->type) {
	case OPT_STRING:
	case OPT_LIST:
		free(*p);
		*p = NULL;
		break;
	case OPT_PATHS:
		release_paths(o, cfg);
		break;
	case OPT_KV:
		kv = *p;
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
	default:
		break;
	}
}
