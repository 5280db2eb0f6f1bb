// SPDX-License-Identifier: GPL-2.0-only
/*
 * bonnie++ CSV lines into run records: 1.03 (27 fields, no version
 * field), 1.96 and 1.97 (48 fields), 1.98 (50 fields, bonnie++ 2.00 and
 * 2.00a, and clyde's own --csv).  Header lines are skipped; "+++++" (too
 * fast for bonnie++ to time) becomes a skipped result marked low
 * precision; empty fields are tests not run; maximum latencies in us, ms
 * or s become a one-sample histogram (bonnie++ keeps nothing else).
 */
#include "report/import/import.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/bonnie.h"
#include "lib/units.h"
#include "lib/xalloc.h"

#define MAX_FIELDS 64

/* Field positions of one format; -1: the format has no such field. */
struct layout {
	const char *format;	/* "bonnie++ 1.98 CSV" */
	int nfields;
	int version, name, concurrency, seed, file_size, chunk, seeks;
	int seekers, io, num_files, max_size, min_size, num_dirs;
	int file_chunk, file, latency;
	int stdio;		/* per-char through stdio (1.03) */
};

static const struct layout fmt_198 = {
	"bonnie++ 1.98 CSV", 50, 1, 2, 3, 4, 5, 6, 7, 8, BONNIE_CSV198_IO,
	21, 22, 23, 24, 25, BONNIE_CSV198_FILES, BONNIE_CSV198_LATENCY, 0,
};
static const struct layout fmt_197 = {
	"bonnie++ 1.97 CSV", 48, 1, 2, 3, 4, 5, 6, -1, -1, 7, 19, 20, 21, 22,
	23, 24, 36, 0,
};
static const struct layout fmt_103 = {
	"bonnie++ 1.03 CSV", 27, -1, 0, -1, -1, 1, -1, -1, -1, 2, 14, -1, -1,
	-1, -1, 15, -1, 1,
};

struct line {
	struct import *im;
	const char *file;
	unsigned long lineno;
	const char *raw;	/* the whole line, before the split */
	char *f[MAX_FIELDS];
	int n;
	size_t nfields;		/* all of them, past MAX_FIELDS too */
	int bad;		/* warnings given for this line */
};

__attribute__((format(printf, 2, 3)))
static void warn(struct line *l, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	import_warn(l->im, "%s:%lu: %s", l->file, l->lineno, msg);
	l->bad++;
}

static const char *fld(const struct line *l, int i)
{
	return i >= 0 && i < l->n ? l->f[i] : "";
}

/* 2^63 and 2^64: the first doubles an int64_t / uint64_t cannot hold */
#define TWO_63 9223372036854775808.0
#define TWO_64 18446744073709551616.0

/*
 * A size like bonnie++ prints it (lib's parse_size: digits and an optional
 * k/m/g/t) that an int64_t holds: 0, -1 when s is not a size, -ERANGE when
 * it is one no int64_t holds.
 */
static int bonnie_size(const char *s, uint64_t unit, int64_t *out)
{
	uint64_t v;
	int rc = parse_size(s, unit, &v);

	if (rc)
		return rc;
	if (v > INT64_MAX)
		return -ERANGE;
	*out = (int64_t)v;
	return 0;
}

/* The warning for a size field that bonnie_size refused with rc. */
static void size_warn(struct line *l, const char *what, const char *s,
		      int rc)
{
	if (rc == -ERANGE)
		warn(l, "%s '%s' is out of range (8 EiB at most)", what, s);
	else
		warn(l, "%s '%s' is not a size", what, s);
}

static void set_int(struct record *rec, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	record_set_param(rec, key, buf, 1);
}

static int parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*out) || *out < 0 ?
	       -1 : 0;
}

/* "33679us", "450ms", "2s" into nanoseconds; -ERANGE past 2^64 ns. */
static int parse_latency(const char *s, uint64_t *ns)
{
	char *end;
	double v, mult;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || !(v >= 0))
		return -1;
	if (errno == ERANGE || isinf(v))
		return -ERANGE;
	if (errno)
		return -1;
	if (!strcmp(end, "us"))
		mult = 1e3;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (!strcmp(end, "s"))
		mult = 1e9;
	else if (!strcmp(end, "ns"))
		mult = 1;
	else
		return -1;
	if (v * mult >= TWO_64)
		return -ERANGE;
	*ns = (uint64_t)(v * mult);
	return 0;
}

static void size_fields(struct line *l, const struct layout *lay,
			struct record *rec)
{
	const char *s = fld(l, lay->file_size);
	int64_t v;
	int rc;

	if (*s) {
		char *copy = xstrdup(s), *colon = strchr(copy, ':');

		if (colon)	/* 1.03: size:chunk */
			*colon++ = '\0';
		rc = bonnie_size(copy, MiB, &v);
		if (rc)
			size_warn(l, "file size", s, rc);
		else
			set_int(rec, PARAM_FILE_SIZE, v);
		rc = colon ? bonnie_size(colon, 1, &v) : 0;
		if (colon && !rc)
			set_int(rec, PARAM_CHUNK_SIZE, v);
		else if (colon)
			size_warn(l, "chunk size", colon, rc);
		free(copy);
	}
	s = fld(l, lay->chunk);
	if (*s) {
		rc = bonnie_size(s, 1, &v);
		if (rc)
			size_warn(l, "chunk size", s, rc);
		else
			set_int(rec, PARAM_CHUNK_SIZE, v);
	}
	s = fld(l, lay->seeks);
	if (*s && !bonnie_size(s, 1, &v))
		set_int(rec, PARAM_SEEKS, v);
	s = fld(l, lay->seekers);
	if (*s && !bonnie_size(s, 1, &v))
		set_int(rec, PARAM_SEEKERS, v);
}

static void max_size_field(struct line *l, struct record *rec, const char *s)
{
	int64_t v;
	int rc;

	if (!*s)
		return;
	if (!strcmp(s, "link"))
		set_int(rec, PARAM_MAX_SIZE, -1);
	else if (!strcmp(s, "symlink"))
		set_int(rec, PARAM_MAX_SIZE, -2);
	else if (!strcmp(s, "-1") || !strcmp(s, "-2"))
		set_int(rec, PARAM_MAX_SIZE, atoi(s));
	else if ((rc = bonnie_size(s, 1, &v)))
		size_warn(l, "file size", s, rc);
	else
		set_int(rec, PARAM_MAX_SIZE, v);
}

/* -n as "16", "16:1000:100" or "16:1000:100/10" (1.03 packs it all). */
static void files_fields(struct line *l, const struct layout *lay,
			 struct record *rec)
{
	const char *s = fld(l, lay->num_files);
	char *copy, *p, *slash, *colon;
	double num;
	int64_t v;
	int rc;

	if (!*s)
		return;
	copy = xstrdup(s);
	slash = strchr(copy, '/');
	if (slash) {
		*slash++ = '\0';
		if (bonnie_size(slash, 1, &v))
			warn(l, "directory count '%s' is not a number", slash);
		else
			set_int(rec, PARAM_NUM_DIRS, v);
	}
	colon = strchr(copy, ':');
	if (colon)
		*colon++ = '\0';
	if (parse_double(copy, &num))
		warn(l, "file count '%s' is not a number", s);
	else if (num * 1024.0 + 0.5 >= TWO_63)
		warn(l, "file count '%s' is out of range", s);
	else
		set_int(rec, PARAM_NUM_FILES, (int64_t)(num * 1024.0 + 0.5));
	if (colon) {
		p = strchr(colon, ':');
		if (p)
			*p++ = '\0';
		max_size_field(l, rec, colon);
		rc = p && *p ? bonnie_size(p, 1, &v) : 0;
		if (p && *p && !rc)
			set_int(rec, PARAM_MIN_SIZE, v);
		else if (p && *p)
			size_warn(l, "file size", p, rc);
	}
	free(copy);
	max_size_field(l, rec, fld(l, lay->max_size));
	s = fld(l, lay->min_size);
	if (*s && !bonnie_size(s, 1, &v))
		set_int(rec, PARAM_MIN_SIZE, v);
	s = fld(l, lay->num_dirs);
	if (*s && !bonnie_size(s, 1, &v))
		set_int(rec, PARAM_NUM_DIRS, v);
	s = fld(l, lay->file_chunk);
	if (*s && !bonnie_size(s, 1, &v))
		set_int(rec, PARAM_FILE_CHUNK_SIZE, v);
}

static void result_fields(struct line *l, struct record *rec,
			  const struct bonnie_test *t, const char *val,
			  const char *cpu, const char *lat)
{
	struct result *res;
	uint64_t ns;
	double v;

	res = record_add_result(rec, t->name, t->title, t->unit);
	if (!*val && !*cpu)
		return;		/* not run */
	if (val[0] == '+' && strspn(val, "+") == strlen(val)) {
		result_set_status(res, RESULT_SKIPPED,
				  "bonnie++ printed %s: under 0.5 s, too "
				  "short to time", val);
		res->flags |= RESULT_LOW_PRECISION;
		goto latency;	/* bonnie++ still timed each operation */
	}
	if (parse_double(val, &v)) {
		warn(l, "%s: '%s' is not a number", t->name, val);
		return;
	}
	res->value = v;
	res->residency = -1;
	result_set_status(res, RESULT_OK, NULL);
	if (cpu[0] == '+') {
		res->flags |= RESULT_LOW_PRECISION;
	} else if (*cpu && parse_double(cpu, &res->cpu)) {
		warn(l, "%s: CPU '%s' is not a number", t->name, cpu);
		res->cpu = 0;
	}
latency:
	if (lat && *lat) {
		int rc = parse_latency(lat, &ns);

		if (rc == -ERANGE)
			warn(l, "%s: latency '%s' is out of range",
			     t->name, lat);
		else if (rc)
			warn(l, "%s: latency '%s' is not <n>us, <n>ms or <n>s",
			     t->name, lat);
		else
			hist_set_one(&res->lat, ns);
	}
}

static struct record *parse_line(struct line *l, const struct layout *lay)
{
	struct record *rec = record_new();
	const char *s;
	int t, base;

	record_set_str(&rec->tool, "bonnie++");
	if (lay->version >= 0)
		record_set_str(&rec->version, fld(l, lay->version));
	else
		record_set_str(&rec->version, "1.03");
	record_set_str(&rec->label, fld(l, lay->name));
	rec->repetition = 1;
	rec->source = xasprintf("%s:%lu (%s)", l->file, l->lineno,
				lay->format);
	record_set_param(rec, "char_io", lay->stdio ? "stdio" : "syscall", 0);
	s = fld(l, lay->concurrency);
	if (*s && strspn(s, "0123456789") == strlen(s))
		record_set_param(rec, PARAM_CONCURRENCY, s, 1);
	s = fld(l, lay->seed);
	if (*s && strspn(s, "0123456789") == strlen(s))
		record_set_param(rec, PARAM_SEED, s, 1);
	size_fields(l, lay, rec);
	files_fields(l, lay, rec);
	for (t = 0; t < BONNIE_NTESTS; t++) {
		base = bonnie_csv_rate_field((enum bonnie_test_id)t, lay->io,
					     lay->file);
		result_fields(l, rec, &bonnie_tests[t], fld(l, base),
			      fld(l, base + 1),
			      lay->latency >= 0 ? fld(l, lay->latency + t) :
			      NULL);
	}
	return rec;
}

static int is_header(const struct line *l)
{
	return !strcmp(l->f[0], "format_version") ||
	       (!strcmp(l->f[0], "name") && l->n > 1 &&
		!strcmp(l->f[1], "size"));
}

static int import_line(struct line *l)
{
	const struct layout *lay;
	struct record *rec;
	unsigned long first;

	if (is_header(l))
		return 0;
	if (!strcmp(l->f[0], "1.98"))
		lay = &fmt_198;
	else if (!strcmp(l->f[0], "1.96") || !strcmp(l->f[0], "1.97"))
		lay = &fmt_197;
	else if (l->n == fmt_103.nfields)
		lay = &fmt_103;
	else {
		warn(l, "not a bonnie++ CSV line (%zu field%s; 1.03 has 27, "
		     "1.96/1.97 48, 1.98 50)", l->nfields,
		     l->nfields == 1 ? "" : "s");
		l->im->file_foreign++;
		return 0;
	}
	if (l->n != lay->nfields) {
		warn(l, "%zu fields where %s has %d", l->nfields, lay->format,
		     lay->nfields);
		return 0;
	}
	first = import_seen_line(l->im, l->raw, l->lineno);
	if (first) {
		/* one run's line twice (a copy-paste, a file appended
		 * twice): two repeats of it would be a lie */
		warn(l, "the same line as line %lu: read once", first);
		return 0;
	}
	rec = parse_line(l, lay);
	import_add(l->im, rec);
	return 1;
}

/*
 * bonnie++'s own text around its CSV lines, which is no result: 1 a line
 * of its tables (from a "------Sequential Output------" or "------
 * Sequential Create------" heading to the next line with a comma; a table
 * has none), 2 a progress message ("Writing intelligently...done", "Using
 * uid:0, gid:0."), 0 anything else.
 */
static int bonnie_text(const char *text, int *in_table)
{
	static const char *const progress[] = {
		"Writing ", "Rewriting", "Reading ", "start 'em",
		"Create files in ", "Stat files in ", "Delete files in ",
	};
	size_t i;

	if (strstr(text, "------Sequential Output------") ||
	    strstr(text, "------Sequential Create------")) {
		*in_table = 1;
		return 1;
	}
	if (!strncmp(text, "Using uid:", 10))
		return 2;
	for (i = 0; i < sizeof(progress) / sizeof(progress[0]); i++)
		if (!strncmp(text, progress[i], strlen(progress[i])) &&
		    strstr(text, "..."))
			return 2;
	if (strchr(text, ','))
		*in_table = 0;
	return *in_table;
}

int import_bonnie(struct import *im, const char *name, const char *buf,
		  size_t len)
{
	return import_bonnie_at(im, name, 1, buf, len);
}

int import_bonnie_at(struct import *im, const char *name,
		     unsigned long lineno, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	struct line l = { .im = im, .file = name, .lineno = lineno - 1 };
	int n = 0, in_table = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *text = xmalloc(ll + 1), *s;

		memcpy(text, p, ll);
		text[ll] = '\0';
		p += ll + (nl ? 1 : 0);
		l.lineno++;
		if (ll && text[ll - 1] == '\r')
			text[--ll] = '\0';
		if (!text[strspn(text, " \t")] || text[0] == '#' ||
		    !strncmp(text, "fio: ", 5)) {
			/* fio's messages: import.c counts them */
			free(text);
			continue;
		}
		switch (bonnie_text(text, &in_table)) {
		case 1:
			im->file_bonnie_text++;
			free(text);
			continue;
		case 2:
			im->file_bonnie_progress++;
			free(text);
			continue;
		}
		l.raw = xstrdup(text);
		l.n = 0;
		l.bad = 0;
		l.nfields = 1;
		for (s = text; (s = strchr(s, ',')); s++)
			l.nfields++;
		for (s = text;;) {
			char *comma = strchr(s, ',');

			if (l.n == MAX_FIELDS)
				break;
			if (comma)
				*comma = '\0';
			l.f[l.n++] = s;
			if (!comma)
				break;
			s = comma + 1;
		}
		n += import_line(&l);
		free((char *)l.raw);
		free(text);
	}
	return n;
}
