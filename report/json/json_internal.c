// SPDX-License-Identifier: GPL-2.0-only
/* Small JSON helpers every part of the record's writer and reader shares. */
#include "report/json/json_internal.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct json_object *rjson_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

struct json_object *rjson_num(double d)
{
	char buf[32];

	if (!isfinite(d))
		return NULL;
	snprintf(buf, sizeof(buf), "%.15g", d);
	return json_object_new_double_s(d, buf);
}

int rjson_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* *v: the member if it has type t (a double: or an integer); 1 when it
 * does, 0 when absent or null, -EINVAL for another type. */
static int typed_member(const struct jval *obj, const char *key,
			enum jtype t, const struct jval **v)
{
	*v = jv_member(obj, key);
	if (!*v)
		return 0;
	if (jv_is(*v, t) || (t == JT_DOUBLE && jv_is(*v, JT_INT)))
		return 1;
	return -EINVAL;
}

int rjson_get_int(const struct jval *obj, const char *key, int64_t min,
		  int64_t max, int64_t *out)
{
	const struct jval *v;
	int rc = typed_member(obj, key, JT_INT, &v);

	if (rc <= 0)
		return rc;
	if (jv_int64(v) < min || jv_int64(v) > max)
		return -ERANGE;
	*out = jv_int64(v);
	return 0;
}

int rjson_get_u64(const struct jval *obj, const char *key, uint64_t *out)
{
	const struct jval *v;
	int rc = typed_member(obj, key, JT_INT, &v);

	if (rc <= 0)
		return rc;
	if (!v->big && v->i < 0)
		return -EINVAL;
	*out = jv_uint64(v);
	return 0;
}

int rjson_get_double(const struct jval *obj, const char *key, double *out)
{
	const struct jval *v;
	int rc = typed_member(obj, key, JT_DOUBLE, &v);

	if (rc > 0 && !isfinite(jv_double(v)))
		return -ERANGE;	/* 1e999 */
	if (rc > 0)
		*out = jv_double(v);
	return rc < 0 ? rc : 0;
}

int rjson_get_str(const struct jval *obj, const char *key, char **out)
{
	const struct jval *v;
	int rc = typed_member(obj, key, JT_STRING, &v);

	if (rc > 0)
		record_set_str(out, jv_text(v));
	return rc < 0 ? rc : 0;
}

void rjson_add_reason(struct json_object *o, enum reason_kind kind, int sig)
{
	const char *name = reason_kind_name(kind);

	if (name)
		json_object_object_add(o, "reason_kind",
				       json_object_new_string(name));
	if (sig)
		json_object_object_add(o, "signal", json_object_new_int(sig));
}

/* An old record's reason text: its kind and signal, as they were worded
 * ("interrupted by signal 2 (SIGINT)", "not run: interrupted by signal 2",
 * "not run: interrupted by SIGINT"). */
static void legacy_reason(enum result_status st, const char *reason,
			  enum reason_kind *kind, int *sig)
{
	static const char *const names[] = { "SIGHUP", "SIGINT", "SIGTERM" };
	static const int nums[] = { SIGHUP, SIGINT, SIGTERM };
	size_t i;

	if ((st != RESULT_SKIPPED && st != RESULT_NOT_RUN) || !reason)
		return;
	if (!strncmp(reason, "not run", 7)) {
		*kind = REASON_NOT_RUN;
		reason += 7 + strspn(reason + 7, ": ");
		if (strncmp(reason, "interrupted", 11))
			return;
	} else if (!strncmp(reason, "interrupted", 11)) {
		*kind = REASON_INTERRUPTED;
	} else {
		return;
	}
	reason += 11;
	if (sscanf(reason, " by signal %d", sig) == 1)
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(reason, " by ", 4) &&
		    !strcmp(reason + 4, names[i]))
			*sig = nums[i];
}

int rjson_get_reason(const struct jval *o, enum result_status st,
		     const char *reason, enum reason_kind *kind, int *sig)
{
	const struct jval *v = jv_member(o, "reason_kind");
	int64_t n = 0;

	*kind = REASON_NONE;
	*sig = 0;
	if (!v && !jv_member(o, "signal")) {
		legacy_reason(st, reason, kind, sig);
		return 0;
	}
	if (v && (!jv_is(v, JT_STRING) || reason_kind_parse(jv_text(v), kind)))
		return -EINVAL;
	if (rjson_get_int(o, "signal", 0, 128, &n))
		return -EINVAL;
	*sig = (int)n;
	return 0;
}
