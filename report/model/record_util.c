// SPDX-License-Identifier: GPL-2.0-only
/* Small pieces the record's files share; see record_util.h. */
#include "report/model/record_util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/intern.h"
#include "lib/diag.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

/* record.h: off, every string a record's own; on, from the pool. */
static int strings_interned;

void record_strings_interned(int on)
{
	strings_interned = on;
	if (!on)
		intern_clear();
}

char *record_strdup(const char *s)
{
	if (!s)
		return NULL;
	/* the pool's strings are never written: the cast keeps the
	 * model's char * fields */
	return strings_interned ? (char *)intern(s) : xstrdup(s);
}

char *record_str_keep(char *s)
{
	char *kept;

	if (!s || !strings_interned)
		return s;
	kept = (char *)intern(s);
	free(s);
	return kept;
}

void record_str_free(char *s)
{
	if (s && !intern_holds(s))
		free(s);
}

void record_kv_free(struct record_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		record_str_free(kv[i].key);
		record_str_free(kv[i].value);
	}
	free(kv);
}

struct record_kv *record_kv_find(const struct record_kv *kv, size_t n,
				 const char *key)
{
	size_t i;

	/* by index: kv is NULL when n is 0, and NULL + 0 is undefined */
	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return (struct record_kv *)&kv[i];
	return NULL;
}

void *record_append(void *arrayp, size_t *n, size_t elem)
{
	char **array = arrayp;
	char *p;

	*array = xrealloc(*array, (*n + 1) * elem);
	p = *array + *n * elem;
	memset(p, 0, elem);
	(*n)++;
	return p;
}

uint64_t record_u64(double v)
{
	if (!(v > 0))		/* NaN too */
		return 0;
	return v < 18446744073709551616.0 ? (uint64_t)v : UINT64_MAX;
}

int64_t record_i64(double v)
{
	if (v != v)
		return 0;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return v < 9223372036854775808.0 ? (int64_t)v : INT64_MAX;
}

int record_int(double v)
{
	if (v != v)
		return 0;
	if (v <= (double)INT_MIN)
		return INT_MIN;
	return v < (double)INT_MAX + 1.0 ? (int)v : INT_MAX;
}

char *record_vasprintf(const char *fmt, va_list ap)
{
	va_list cp;
	char *s;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)		/* an encoding error: keep the format */
		return xstrdup(fmt);
	s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

void record_csv_field(FILE *f, const char *s)
{
	char *e, *p;
	int quote;

	if (!s)
		return;
	e = text_escaped(s);
	quote = strpbrk(e, ",\"") != NULL;
	if (quote)
		putc('"', f);
	for (p = e; *p; p++) {
		if (*p == '"')
			putc('"', f);
		putc(*p, f);
	}
	if (quote)
		putc('"', f);
	free(e);
}

/* s to key as its length and bytes ("-" for NULL): no two strings, or
 * runs of them, read alike. */
static void key_str(FILE *key, const char *s)
{
	if (s)
		fprintf(key, "%zu:%s", strlen(s), s);
	else
		fputc('-', key);
}

char *record_stack_devices_key(const struct record_stack *st)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *key = open_memstream(&buf, &len);

	if (!key)
		diag_die(1, "out of memory");
	for (i = 0; i < st->ndevs; i++) {
		const struct record_device *d = &st->devs[i];

		fprintf(key, "%d %zu ", d->parent, d->nfields);
		key_str(key, d->kind);
		key_str(key, d->name);
		for (k = 0; k < d->nfields; k++) {
			key_str(key, d->fields[k].key);
			key_str(key, d->fields[k].value);
		}
	}
	if (fclose(key))
		diag_die(1, "out of memory");
	return buf;
}
