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

struct json_object *rjson_member(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	if (!obj || !json_object_object_get_ex(obj, key, &v))
		return NULL;
	return v;
}

/* *v: the member if it has type t (a double: or an integer); 1 when it
 * does, 0 when absent or null, -EINVAL for another type. */
static int typed_member(struct json_object *obj, const char *key,
			enum json_type t, struct json_object **v)
{
	*v = rjson_member(obj, key);
	if (!*v)
		return 0;
	if (json_object_is_type(*v, t) ||
	    (t == json_type_double && json_object_is_type(*v, json_type_int)))
		return 1;
	return -EINVAL;
}

int rjson_get_int(struct json_object *obj, const char *key, int64_t min,
		  int64_t max, int64_t *out)
{
	struct json_object *v;
	int rc = typed_member(obj, key, json_type_int, &v);

	if (rc <= 0)
		return rc;
	if (json_object_get_int64(v) < min || json_object_get_int64(v) > max)
		return -ERANGE;
	*out = json_object_get_int64(v);
	return 0;
}

int rjson_get_u64(struct json_object *obj, const char *key, uint64_t *out)
{
	struct json_object *v;
	int rc = typed_member(obj, key, json_type_int, &v);

	if (rc <= 0)
		return rc;
	/* json-c keeps integers above INT64_MAX as unsigned: their int64
	 * reads negative, their uint64 does not read 0 */
	if (json_object_get_int64(v) < 0 && !json_object_get_uint64(v))
		return -EINVAL;
	*out = json_object_get_uint64(v);
	return 0;
}

int rjson_get_double(struct json_object *obj, const char *key, double *out)
{
	struct json_object *v;
	int rc = typed_member(obj, key, json_type_double, &v);

	if (rc > 0 && !isfinite(json_object_get_double(v)))
		return -ERANGE;	/* NaN, Infinity: json-c reads them */
	if (rc > 0)
		*out = json_object_get_double(v);
	return rc < 0 ? rc : 0;
}

int rjson_get_str(struct json_object *obj, const char *key, char **out)
{
	struct json_object *v;
	int rc = typed_member(obj, key, json_type_string, &v);

	if (rc > 0)
		record_set_str(out, json_object_get_string(v));
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

int rjson_get_reason(struct json_object *o, enum result_status st,
		     const char *reason, enum reason_kind *kind, int *sig)
{
	struct json_object *v = rjson_member(o, "reason_kind");
	int64_t n = 0;

	*kind = REASON_NONE;
	*sig = 0;
	if (!v && !rjson_member(o, "signal")) {
		legacy_reason(st, reason, kind, sig);
		return 0;
	}
	if (v && (!json_object_is_type(v, json_type_string) ||
		  reason_kind_parse(json_object_get_string(v), kind)))
		return -EINVAL;
	if (rjson_get_int(o, "signal", 0, 128, &n))
		return -EINVAL;
	*sig = (int)n;
	return 0;
}
