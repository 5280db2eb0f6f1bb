// SPDX-License-Identifier: GPL-2.0-only
/*
 * bonnie++'s 1.98 CSV line (bonnie++ 2.00 and 2.00a), field for field, so
 * bon_csv2html, bon_csv2txt and every script that reads bonnie++ results
 * take clyde's.  Unlike bonnie++: no "+++++" (a low precision result keeps
 * its number), io_chunk_size is filled in when known, and num_dirs and
 * file_chunk_size are each in their own field.
 */
#include "report/model/record.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/bonnie.h"
#include "lib/textesc.h"

#define CSV_FIELDS 50

struct line {
	FILE *f;
	int nfields;
};

static void field_start(struct line *l)
{
	if (l->nfields++)
		putc(',', l->f);
}

__attribute__((format(printf, 2, 3)))
static void field(struct line *l, const char *fmt, ...)
{
	va_list ap;

	field_start(l);
	va_start(ap, fmt);
	vfprintf(l->f, fmt, ap);
	va_end(ap);
}

static void empty(struct line *l, int n)
{
	while (n--)
		field_start(l);
}

/*
 * Free text, escaped by the one rule (textesc.h: a line break is \n, ESC
 * \x1b), and a comma as \x2c: bonnie++'s line has no quoting, and
 * bon_csv2html splits it at every comma, so one would shift every later
 * field.
 */
static void text_chars(struct line *l, const char *s)
{
	text_put_also(l->f, s, ",");
}

/* A whole number field from a double: an int64_t where one holds it (as
 * the cast did), the exact digits beyond, empty for NaN or infinity. */
static void int_field(struct line *l, double v)
{
	if (!isfinite(v))
		empty(l, 1);
	else if (v > -9223372036854775808.0 && v < 9223372036854775808.0)
		field(l, "%" PRId64, (int64_t)v);
	else
		field(l, "%.0f", trunc(v));
}

static void text_field(struct line *l, const char *s)
{
	field_start(l);
	text_chars(l, s);
}

static void rate_field(struct line *l, const struct record *rec,
		       const char *name)
{
	const struct result *res = bonnie_result(rec, name);

	if (!res) {
		empty(l, 2);
		return;
	}
	if (!strcmp(name, bonnie_tests[BONNIE_SEEKS].name))
		field(l, res->value >= 1000.0 ? "%.0f" : "%.1f", res->value);
	else
		int_field(l, res->value);
	int_field(l, res->cpu);
}

static void latency_field(struct line *l, const struct record *rec,
			  const char *name)
{
	char buf[32];

	bonnie_latency(buf, sizeof(buf), bonnie_result(rec, name));
	field(l, "%s", buf);
}

static void size_field(struct line *l, int64_t v)
{
	char buf[32];

	bonnie_print_size(buf, sizeof(buf), (uint64_t)v, " km");
	field(l, "%s", buf);
}

/*
 * A setting the record has, else an empty field: a line converted from
 * bonnie++ 1.03 (no seeks, seekers) or with an empty field keeps it
 * unknown rather than stating bonnie++'s defaults (findings F22).
 */
static void param_field(struct line *l, const struct record *rec,
			const char *key, int size)
{
	int64_t v;

	if (record_param_int(rec, key, &v))
		empty(l, 1);
	else if (size)
		size_field(l, v);
	else
		field(l, "%" PRId64, v);
}

static void io_part(struct line *l, const struct record *rec,
		    const struct bonnie_shape *s)
{
	char buf[32];
	size_t i;

	if (s->file_size > 0) {
		bonnie_file_size(buf, sizeof(buf), s->file_size);
		field(l, "%s", buf);
		param_field(l, rec, PARAM_CHUNK_SIZE, 1);
		param_field(l, rec, PARAM_SEEKS, 0);
		param_field(l, rec, PARAM_SEEKERS, 0);
	} else {
		empty(l, 4);
	}
	for (i = 0; i < BONNIE_NIO; i++)
		rate_field(l, rec, bonnie_tests[i].name);
}

static void file_part(struct line *l, const struct record *rec,
		      const struct bonnie_shape *s)
{
	char buf[32];
	size_t i;

	if (s->num_files > 0) {
		bonnie_num_files(buf, sizeof(buf), s->num_files);
		field(l, "%s", buf);
		if (s->max_size == -1) {
			field(l, "link");
			empty(l, 1);
		} else if (s->max_size == -2) {
			field(l, "symlink");
			empty(l, 1);
		} else if (s->max_size > 0) {
			field(l, "%" PRId64, s->max_size);
			if (s->min_size > 0)
				field(l, "%" PRId64, s->min_size);
			else
				empty(l, 1);
		} else {
			empty(l, 2);
		}
		if (s->num_dirs > 1)
			field(l, "%" PRId64, s->num_dirs);
		else
			empty(l, 1);
		if (s->file_chunk_size != BONNIE_DEFAULT_CHUNK)
			size_field(l, s->file_chunk_size);
		else
			empty(l, 1);
	} else {
		empty(l, 5);
	}
	for (i = BONNIE_NIO; i < BONNIE_NTESTS; i++)
		rate_field(l, rec, bonnie_tests[i].name);
}

int record_write_bonnie_csv(const struct record *rec, FILE *out)
{
	struct bonnie_shape s;
	struct line l = { NULL, 0 };
	char *buf = NULL;
	size_t len = 0, i;
	int rc = 0;

	l.f = open_memstream(&buf, &len);
	if (!l.f)
		return -1;
	bonnie_shape(rec, &s);

	field(&l, "1.98");
	/* bonnie_version: any text; "clyde-0.1.0" says who wrote the line */
	text_field(&l, rec->tool ? rec->tool : "clyde");
	text_chars(&l, "-");
	text_chars(&l, rec->version ? rec->version : "unknown");
	text_field(&l, rec->label ? rec->label : rec->host.hostname);
	field(&l, "%" PRId64, s.concurrency);
	text_field(&l, record_param(rec, PARAM_SEED));
	io_part(&l, rec, &s);
	file_part(&l, rec, &s);
	for (i = 0; i < BONNIE_NTESTS; i++)
		latency_field(&l, rec, bonnie_tests[i].name);
	putc('\n', l.f);

	if (fclose(l.f) == EOF) {
		free(buf);
		return -1;
	}
	if (l.nfields != CSV_FIELDS) {	/* a bug here, not the user's */
		free(buf);
		errno = EINVAL;
		return -1;
	}
	if (fwrite(buf, 1, len, out) != len || fflush(out) == EOF)
		rc = -1;
	free(buf);
	return rc;
}
