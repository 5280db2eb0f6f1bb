// SPDX-License-Identifier: GPL-2.0-only
/*
 * Qualification criteria read from their INI file (libinih): every key
 * and bound checked, a message naming FILE:LINE for the first wrong one.
 * criteria.c checks the rules against the runs.
 */
#include "report/analyze/criteria.h"
#include "report/analyze/criteria_rule.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "report/analyze/stats.h"
#include "report/model/bonnie.h"
#include "report/model/histogram.h"
#include "report/model/record_util.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

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
	{ "min_iops_at_mean", W_IOPS_AT, K_COUNT, 1, 0, HIST_S_MEAN },
	{ "min_iops_at_p99", W_IOPS_AT, K_COUNT, 1, 0, HIST_S_P99 },
};

/* A section's margin = M (for its not_worse; [all]'s for every one). */
struct margin {
	char *section;
	double m;
};

struct loader {
	struct criteria *cr;
	char *err;
	size_t errlen;
	struct margin *margins;
	size_t nmargins;
	char **seen;	/* "section]key" of every key read, to refuse twice */
	size_t nseen;
};

static int fail(struct loader *l, const char *fmt, const char *a,
		const char *b)
{
	snprintf(l->err, l->errlen, fmt, a, b);
	return 0;
}

/*
 * 1 when key was already given in section (section names compare without
 * case, as resolve_margins reads them), else 0 with it noted.
 */
static int given_twice(struct loader *l, const char *section,
		       const char *key)
{
	size_t i, n = strlen(section);
	char *sk;

	for (i = 0; i < l->nseen; i++)
		if (!strncasecmp(l->seen[i], section, n) &&
		    l->seen[i][n] == ']' && !strcmp(l->seen[i] + n + 1, key))
			return 1;
	sk = xmalloc(n + strlen(key) + 2);
	sprintf(sk, "%s]%s", section, key);
	*(char **)record_append(&l->seen, &l->nseen, sizeof(sk)) = sk;
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

/* "margin = 0.95" or "95 %": 0 < m <= 1 into *m, or -1. */
static int parse_margin(const char *v, double *m)
{
	const char *s = v;
	char *end;

	skip_ws(&s);
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	errno = 0;
	*m = strtod(s, &end);
	if (end == s || errno)
		return -1;
	s = end;
	skip_ws(&s);
	if (*s == '%') {
		*m /= 100;
		s++;
		skip_ws(&s);
	}
	return *s || !(*m > 0 && *m <= 1) ? -1 : 0;
}

static int add_margin(struct loader *l, const char *section,
		      const char *value)
{
	struct margin mg;

	if (parse_margin(value, &mg.m))
		return fail(l, "margin: cannot read '%s' (a ratio above 0, "
			    "at most 1: 0.95 or 95 %%)%s", value, "");
	mg.section = xstrdup(section);
	*(struct margin *)record_append(&l->margins, &l->nmargins,
					sizeof(mg)) = mg;
	return 1;
}

/*
 * Each not_worse's margin: its section's (the last given), else [all]'s,
 * else STATS_NI_MARGIN; the margins then freed.
 */
static void resolve_margins(struct loader *l)
{
	size_t i, k;

	for (i = 0; i < l->cr->nrules; i++) {
		struct crit_rule *r = &l->cr->rules[i];
		double own = 0, all = 0;

		for (k = 0; k < l->nmargins; k++) {
			if (!strcasecmp(l->margins[k].section, r->section))
				own = l->margins[k].m;
			if (!strcasecmp(l->margins[k].section, "all"))
				all = l->margins[k].m;
		}
		r->margin = own ? own : all ? all : STATS_NI_MARGIN;
	}
	for (k = 0; k < l->nmargins; k++)
		free(l->margins[k].section);
	free(l->margins);
	l->margins = NULL;
	l->nmargins = 0;
}

/*
 * Whether a section names matrix cells: "matrix ..." always (the older
 * form), else a name figures.h reads that is not a bonnie++ test's
 * ("Random seeks" is a test).  -1 with why in err for a "matrix ..."
 * section that does not read.
 */
static int cell_section(struct crit_rule *r, const char *sec, char *err,
			size_t errlen)
{
	if (strncasecmp(sec, "matrix ", 7)) {
		if (bonnie_test_find(sec))
			return 0;
		if (fig_parse(sec, &r->cell, err, errlen))
			return 0;	/* a test (checked against the runs) */
	} else if (fig_parse(sec, &r->cell, err, errlen)) {
		return -1;
	}
	r->matrix = 1;
	return 1;
}

/*
 * A section naming one figure of its cells ("... IO/s") takes min or max,
 * read here as the matrix key that bounds that figure.
 */
static const char *figure_key(const struct crit_rule *r, const char *key,
			      char *buf, size_t len)
{
	static const char *const stat[] = {
		[HIST_S_MEAN] = "mean", [HIST_S_MIN] = "min",
		[HIST_S_P50] = "p50", [HIST_S_P90] = "p90",
		[HIST_S_P99] = "p99", [HIST_S_P99_9] = "p99.9",
		[HIST_S_MAX] = "max",
	};
	const struct fig_sel *s = &r->cell;
	int max = !strcmp(key, "max");

	if (!r->matrix || !(s->has & FIGS_FIGURE))
		return key;
	if (strcmp(key, "min") && !max)
		return NULL;
	if (!max && s->kind == FIG_IOPS)
		return "min_iops";
	if (!max && s->kind == FIG_MBPS)
		return "min_mbps";
	if (max && (s->kind == FIG_READ || s->kind == FIG_WRITE)) {
		snprintf(buf, len, "max_%s_%s", s->kind == FIG_READ ? "read" :
			 "write", stat[s->lat]);
		return buf;
	}
	return NULL;
}

/*
 * "28.6M IO/s at 0.21 ms": a count of IO/s (k, M, G: thousands,
 * millions, billions; "IO/s" optional) at a time (ns, us, ms, s; ms
 * when none): 0 with r->limit and r->at_ns, or -1.
 */
static int parse_at(struct crit_rule *r, const char *v)
{
	const char *at = strstr(v, " at ");
	char count[64];
	size_t n;
	double scale = 1;
	int rc;

	if (!at || (size_t)(at - v) >= sizeof(count))
		return -1;
	n = (size_t)(at - v);
	memcpy(count, v, n);
	count[n] = '\0';
	while (n && isspace((unsigned char)count[n - 1]))
		count[--n] = '\0';
	if (n > 4 && !strcasecmp(count + n - 4, "io/s"))
		count[n -= 4] = '\0';
	while (n && isspace((unsigned char)count[n - 1]))
		count[--n] = '\0';
	if (n && strchr("kKmMgG", count[n - 1])) {
		scale = strchr("kK", count[n - 1]) ? 1e3 :
			strchr("mM", count[n - 1]) ? 1e6 : 1e9;
		count[--n] = '\0';
	}
	r->kind = K_TIME;
	rc = parse_value(r, at + 4);
	r->at_ns = r->limit;
	r->kind = K_COUNT;
	if (!rc)
		rc = parse_value(r, count);
	r->limit *= scale;
	return rc;
}

/* Whether key is one of a matrix cell's. */
static int matrix_key(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].matrix && !strcmp(keys[i].key, key))
			return 1;
	return 0;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *l = user;
	struct criteria *cr = l->cr;
	struct crit_rule r;
	char why[160] = "", kbuf[32];
	const char *key;
	size_t i;
	int rc;

	if (given_twice(l, section, name))
		return fail(l, "[%s]: '%s' given twice",
			    section, name);
	if (!strcasecmp(section, "baseline")) {
		if (strcmp(name, "label"))
			return fail(l, "[baseline]: unknown key '%s'%s", name,
				    " (label = LABEL or #N)");
		free(cr->baseline);
		cr->baseline = xstrdup(value);
		return 1;
	}
	memset(&r, 0, sizeof(r));
	rc = cell_section(&r, section, why, sizeof(why));
	if (rc < 0)
		return fail(l, "[%s]: not a matrix cell: %s", section, why);
	r.all = !strcasecmp(section, "all");
	if (!strcmp(name, "margin"))
		return add_margin(l, section, value);
	key = figure_key(&r, name, kbuf, sizeof(kbuf));
	if (!key)
		return fail(l, "[%s]: '%s' does not bound the figure the "
			    "section names (min for IO/s and MB/s, max for a "
			    "latency; or name only the cell)", section, name);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].key, key) && keys[i].matrix == r.matrix)
			break;
	if (i == sizeof(keys) / sizeof(keys[0]) && !r.matrix && *why &&
	    matrix_key(key))
		/* a cell's key in a section that does not read as a cell */
		return fail(l, "[%s]: not a matrix cell: %s", section, why);
	if (i == sizeof(keys) / sizeof(keys[0]))
		return fail(l, "[%s]: unknown key '%s'", section, name);
	r.what = keys[i].what;
	r.lat = keys[i].lat;
	r.kind = keys[i].kind;
	r.upper = keys[i].upper;
	if (r.kind == K_BOOL && parse_value(&r, value))
		return fail(l, "%s: '%s' must be yes or no", name, value);
	if (r.what == W_IOPS_AT ? parse_at(&r, value) : parse_value(&r, value))
		return fail(l, "%s: cannot read '%s' (a number with a unit "
			    "that fits the key)", name, value);
	r.section = xstrdup(section);
	/* a figure's section: the key that bounds it ("max_read_p99",
	 * not "max"), so the verdict names what it checked */
	r.key = xstrdup(key);
	r.bound = xstrdup(value);
	*(struct crit_rule *)record_append(&cr->rules, &cr->nrules,
					   sizeof(r)) = r;
	return 1;
}

/*
 * The number of f's first line that is not a line of text libinih reads
 * whole (*why says how), else 0: longer than its buffer (it would read
 * the rest as a line of its own), a NUL (it would end the line there) or
 * another control character, or bytes that are not UTF-8.
 */
static int not_text(FILE *f, const char **why)
{
	char *buf = NULL;
	size_t cap = 0, i, n;
	ssize_t len;
	int line = 0;

	while ((len = getline(&buf, &cap, f)) > 0) {
		line++;
		if (buf[len - 1] == '\n')
			len--;
		*why = "longer than the INI reader's line";
		if (len > INI_MAX_LINE - 2)
			goto bad;
		*why = "not text (a control character)";
		for (i = 0; i < (size_t)len; i += n) {
			unsigned char c = (unsigned char)buf[i];

			if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
				goto bad;
			n = text_utf8_len(buf + i, (size_t)len - i);
			*why = "not text (bytes that are not UTF-8)";
			if (!n)
				goto bad;
			*why = "not text (a control character)";
		}
	}
	free(buf);
	rewind(f);
	return 0;
bad:
	free(buf);
	return line;
}

static void free_seen(struct loader *l)
{
	size_t i;

	for (i = 0; i < l->nseen; i++)
		free(l->seen[i]);
	free(l->seen);
}

int criteria_load(struct criteria *cr, const char *path, char *err,
		  size_t errlen)
{
	struct loader l = { .cr = cr, .err = err, .errlen = errlen };
	char msg[256] = "";
	const char *why;
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
	rc = not_text(f, &why);
	if (rc) {
		fclose(f);
		if (strncmp(why, "longer", 6))
			snprintf(err, errlen, "%s:%d: %s", path, rc, why);
		else
			snprintf(err, errlen, "%s:%d: longer than %d characters",
				 path, rc, INI_MAX_LINE - 2);
		return -1;
	}
	rc = ini_parse_file(f, handler, &l);
	fclose(f);
	resolve_margins(&l);
	free_seen(&l);
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
