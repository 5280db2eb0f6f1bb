// SPDX-License-Identifier: GPL-2.0-only
/*
 * Qualification criteria read from their INI file (libinih): every key
 * and bound checked, a message naming FILE:LINE for the first wrong one.
 * criteria.c checks the rules against the runs.
 */
#include "criteria.h"
#include "criteria_rule.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "histogram.h"
#include "record_util.h"
#include "../lib/xalloc.h"

static const struct {
	const char *key;
	enum crit_what what;
	enum crit_kind kind;
	int matrix;
	int upper;	/* an upper bound */
	int lat;	/* W_LAT, W_RD, W_WR: which figure (HIST_S_*) */
} keys[] = {
	{ "min", W_MIN, K_RATE, 0, 0, 0 },
	{ "max", W_MAX, K_RATE, 0, 1, 0 },
	{ "max_cpu", W_MAX_CPU, K_PCT, 0, 1, 0 },
	{ "max_cv", W_MAX_CV, K_PCT, 0, 1, 0 },
	{ "min_ratio", W_MIN_RATIO, K_RATIO, 0, 0, 0 },
	{ "not_worse", W_NOT_WORSE, K_BOOL, 0, 0, 0 },
	{ "max_latency_mean", W_LAT, K_TIME, 0, 1, HIST_S_MEAN },
	{ "max_p50", W_LAT, K_TIME, 0, 1, HIST_S_P50 },
	{ "max_p90", W_LAT, K_TIME, 0, 1, HIST_S_P90 },
	{ "max_p99", W_LAT, K_TIME, 0, 1, HIST_S_P99 },
	{ "max_p99.9", W_LAT, K_TIME, 0, 1, HIST_S_P99_9 },
	{ "max_latency", W_LAT, K_TIME, 0, 1, HIST_S_MAX },
	{ "min_iops", W_MIN_IOPS, K_COUNT, 1, 0, 0 },
	{ "min_mbps", W_MIN_MBPS, K_RATE, 1, 0, 0 },
	{ "max_read_mean", W_RD, K_TIME, 1, 1, HIST_S_MEAN },
	{ "max_read_p50", W_RD, K_TIME, 1, 1, HIST_S_P50 },
	{ "max_read_p90", W_RD, K_TIME, 1, 1, HIST_S_P90 },
	{ "max_read_p99", W_RD, K_TIME, 1, 1, HIST_S_P99 },
	{ "max_read_p99.9", W_RD, K_TIME, 1, 1, HIST_S_P99_9 },
	{ "max_read_max", W_RD, K_TIME, 1, 1, HIST_S_MAX },
	{ "max_write_mean", W_WR, K_TIME, 1, 1, HIST_S_MEAN },
	{ "max_write_p50", W_WR, K_TIME, 1, 1, HIST_S_P50 },
	{ "max_write_p90", W_WR, K_TIME, 1, 1, HIST_S_P90 },
	{ "max_write_p99", W_WR, K_TIME, 1, 1, HIST_S_P99 },
	{ "max_write_p99.9", W_WR, K_TIME, 1, 1, HIST_S_P99_9 },
	{ "max_write_max", W_WR, K_TIME, 1, 1, HIST_S_MAX },
	{ "min_ratio", W_MX_RATIO, K_RATIO, 1, 0, 0 },
};

struct loader {
	struct criteria *cr;
	char *err;
	size_t errlen;
};

static int fail(struct loader *l, const char *fmt, const char *a,
		const char *b)
{
	snprintf(l->err, l->errlen, fmt, a, b);
	return 0;
}

static void skip_ws(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

/* A rate's unit: the factor to KiB/s (to MiB/s when mib). */
static int rate_unit(const char *u, int mib, double *scale)
{
	static const struct { const char *u; double f; } units[] = {
		{ "k/s", 1 }, { "kib/s", 1 }, { "kb/s", 1 }, { "k", 1 },
		{ "m/s", 1024 }, { "mib/s", 1024 }, { "mb/s", 1024 },
		{ "g/s", 1048576 }, { "gib/s", 1048576 }, { "gb/s", 1048576 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(u, units[i].u)) {
			*scale = units[i].f / (mib ? 1024 : 1);
			return 0;
		}
	return -1;
}

static int parse_value(struct crit_rule *r, const char *v)
{
	const char *s = v;
	char *end;
	double x;

	skip_ws(&s);
	if (r->kind == K_BOOL) {
		if (!strcasecmp(s, "yes") || !strcasecmp(s, "true") ||
		    !strcmp(s, "1"))
			r->limit = 1;
		else if (!strcasecmp(s, "no") || !strcasecmp(s, "false") ||
			 !strcmp(s, "0"))
			r->limit = 0;
		else
			return -1;
		return 0;
	}
	/* a decimal number: strtod would also take 0x10, inf and nan */
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno || !isfinite(x) || x < 0)
		return -1;
	s = end;
	skip_ws(&s);
	snprintf(r->unit, sizeof(r->unit), "%s", s);
	switch (r->kind) {
	case K_TIME:
		if (!*s || !strcmp(s, "ms"))
			x *= 1e6;
		else if (!strcmp(s, "us") || !strcmp(s, "\xc2\xb5s"))
			x *= 1e3;
		else if (!strcmp(s, "s"))
			x *= 1e9;
		else if (strcmp(s, "ns"))
			return -1;
		if (!*s)
			snprintf(r->unit, sizeof(r->unit), "ms");
		break;
	case K_PCT:
		if (*s && strcmp(s, "%"))
			return -1;
		x /= 100;
		snprintf(r->unit, sizeof(r->unit), "%%");
		break;
	case K_RATE:
		r->scale = 0;
		if (*s && rate_unit(s, r->what == W_MIN_MBPS, &r->scale))
			return -1;
		if (!*s && r->what == W_MIN_MBPS)
			r->scale = 1;
		break;
	case K_RATIO:
	case K_COUNT:
		if (*s && strcasecmp(s, "IO/s"))
			return -1;
		break;
	default:
		break;
	}
	r->limit = x;
	return 0;
}

/* "matrix 8k 16x32 random 100": 0 and the cell in r, or -1. */
static int parse_cell(struct crit_rule *r, const char *sec)
{
	char bs[32], thr[32], pat[32], pct[32], extra[2];
	char *end;
	double b;

	if (sscanf(sec, "matrix %31s %31s %31s %31s %1s", bs, thr, pat, pct,
		   extra) != 4)
		return -1;
	b = strtod(bs, &end);
	if (b <= 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		b *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		b *= 1048576, end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -1;
	r->bs = (uint64_t)b;
	r->threads = (unsigned)strtoul(thr, &end, 10);
	r->qd_any = 1;
	if (*end == 'x') {
		r->qd = (unsigned)strtoul(end + 1, &end, 10);
		r->qd_any = 0;
	}
	if (*end || !r->threads || (!r->qd_any && !r->qd))
		return -1;
	if (!strcasecmp(pat, "random"))
		r->random = 1;
	else if (!strcasecmp(pat, "seq") || !strcasecmp(pat, "sequential"))
		r->random = 0;
	else
		return -1;
	r->read_pct = (unsigned)strtoul(pct, &end, 10);
	if ((*end && strcmp(end, "%")) || r->read_pct > 100)
		return -1;
	r->matrix = 1;
	return 0;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *l = user;
	struct criteria *cr = l->cr;
	struct crit_rule r;
	size_t i;
	int matrix = !strncasecmp(section, "matrix ", 7);

	if (!strcasecmp(section, "baseline")) {
		if (strcmp(name, "label"))
			return fail(l, "[baseline]: unknown key '%s'%s", name,
				    " (label = LABEL or #N)");
		free(cr->baseline);
		cr->baseline = xstrdup(value);
		return 1;
	}
	memset(&r, 0, sizeof(r));
	if (matrix && parse_cell(&r, section))
		return fail(l, "[%s]: a matrix cell is 'matrix BS THREADS[xQD] "
			    "random|seq READ%%'%s", section, "");
	r.all = !strcasecmp(section, "all");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].key, name) && keys[i].matrix == matrix)
			break;
	if (i == sizeof(keys) / sizeof(keys[0]))
		return fail(l, "[%s]: unknown key '%s'", section, name);
	r.what = keys[i].what;
	r.lat = keys[i].lat;
	r.kind = keys[i].kind;
	r.upper = keys[i].upper;
	if (parse_value(&r, value))
		return fail(l, "%s: cannot read '%s' (a number with a unit "
			    "that fits the key)", name, value);
	r.section = xstrdup(section);
	r.key = xstrdup(name);
	r.bound = xstrdup(value);
	*(struct crit_rule *)record_append(&cr->rules, &cr->nrules,
					   sizeof(r)) = r;
	return 1;
}

/* The number of f's first line libinih cannot hold whole, else 0. */
static int long_line(FILE *f)
{
	int ch, line = 1, len = 0;

	while ((ch = getc(f)) != EOF) {
		if (ch == '\n') {
			line++;
			len = 0;
		} else if (++len > INI_MAX_LINE - 2) {
			return line;
		}
	}
	rewind(f);
	return 0;
}

int criteria_load(struct criteria *cr, const char *path, char *err,
		  size_t errlen)
{
	struct loader l = { .cr = cr, .err = err, .errlen = errlen };
	char msg[256] = "";
	FILE *f;
	int rc;

	memset(cr, 0, sizeof(*cr));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "--criteria: cannot open '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	l.err = msg;
	l.errlen = sizeof(msg);
	rc = long_line(f);
	if (rc) {
		/* libinih would read the rest as a line of its own */
		fclose(f);
		snprintf(err, errlen, "%s:%d: longer than %d characters", path,
			 rc, INI_MAX_LINE - 2);
		return -1;
	}
	rc = ini_parse_file(f, handler, &l);
	fclose(f);
	if (rc) {
		snprintf(err, errlen, "%s:%d: %s", path, rc,
			 *msg ? msg : "not an INI line ([section] or key = "
			 "value)");
		criteria_release(cr);
		return -1;
	}
	if (!cr->nrules) {
		snprintf(err, errlen, "%s: no criteria in it", path);
		criteria_release(cr);
		return -1;
	}
	cr->path = xstrdup(path);
	return 0;
}

void criteria_release(struct criteria *cr)
{
	size_t i;

	for (i = 0; i < cr->nrules; i++) {
		free(cr->rules[i].section);
		free(cr->rules[i].key);
		free(cr->rules[i].bound);
	}
	free(cr->rules);
	free(cr->baseline);
	free(cr->path);
	memset(cr, 0, sizeof(*cr));
}
