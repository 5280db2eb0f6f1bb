// SPDX-License-Identifier: GPL-2.0-only
/* Qualification criteria: an INI file of bounds; see criteria.h. */
#include "criteria.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "cmpmatrix.h"
#include "record_util.h"
#include "report.h"
#include "../lib/xalloc.h"

enum crit_what {
	W_MIN, W_MAX, W_MAX_CPU, W_MAX_CV, W_MIN_RATIO, W_NOT_WORSE,
	W_LAT,		/* a figure of the test's latency summary */
	/* matrix */
	W_MIN_IOPS, W_MIN_MBPS, W_RD, W_WR,	/* W_RD, W_WR: of the cell's
						 * read, write summary */
	W_MX_RATIO,
};

enum crit_kind { K_RATE, K_TIME, K_PCT, K_RATIO, K_BOOL, K_COUNT };

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

struct crit_rule {
	char *section, *key, *bound;
	enum crit_what what;
	enum crit_kind kind;
	int upper;
	int lat;		/* of keys[] */
	double limit;		/* rates as given (scale below), times in ns,
				 * percentages as a fraction */
	double scale;		/* rates: KiB/s (MiB/s for min_mbps) per unit
				 * written; 0 when written without a unit */
	char unit[16];		/* as written, for showing the measured */
	/* the section: a test, all tests, or a cell */
	int all, matrix;
	uint64_t bs;
	unsigned threads, qd, read_pct;
	int qd_any, random;
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

void crit_verdicts_release(struct crit_verdicts *v)
{
	free(v->v);
	memset(v, 0, sizeof(*v));
}

static struct crit_verdict *verdict(struct crit_verdicts *out,
				    const struct crit_rule *r, size_t g)
{
	struct crit_verdict *v = record_append(&out->v, &out->n,
					       sizeof(*out->v));

	v->group = g;
	v->section = r->section;
	v->key = r->key;
	v->bound = r->bound;
	v->test = (size_t)-1;
	return v;
}

/*
 * A time of x ns as shown beside its bound: in the bound's unit, unless
 * the number would then need an exponent ("5.098e-06 s"); then in the
 * unit that keeps it between 1 and 1000.
 */
static void time_shown(double x, const char *unit, double *shown,
		       const char **u)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i, n = sizeof(units) / sizeof(units[0]);

	for (i = 0; i < n && strcmp(unit, units[i].name); i++)
		;
	if (!strcmp(unit, "\xc2\xb5s"))
		i = 1;		/* us as written */
	else if (i == n)
		i = 2;		/* ms when none was written */
	*shown = x / units[i].ns;
	*u = i == 1 ? unit : units[i].name;
	if (x == 0 || (fabs(*shown) >= 1e-3 && fabs(*shown) < 1e4))
		return;
	for (i = 0; i + 1 < n && fabs(x) >= 1000 * units[i].ns; i++)
		;
	*shown = x / units[i].ns;
	*u = units[i].name;
}

/* Compare x (NAN: not measured) with the rule; fill measured and pass. */
static void judge(struct crit_verdicts *out, struct crit_verdict *v,
		  const struct crit_rule *r, double x, const char *unit)
{
	double shown = x;
	const char *u = unit;

	if (isnan(x)) {
		snprintf(v->measured, sizeof(v->measured), "not measured");
		v->pass = 0;
	} else {
		double lim = r->limit;

		if (r->kind == K_RATE && r->scale > 0) {
			lim = r->limit * r->scale;
			shown = x / r->scale;
			u = r->unit;
		} else if (r->kind == K_TIME) {
			time_shown(x, r->unit, &shown, &u);
		} else if (r->kind == K_PCT) {
			shown = x * 100;
			u = "%";
		}
		v->pass = r->upper ? x <= lim : x >= lim;
		snprintf(v->measured, sizeof(v->measured),
			 fabs(shown) >= 1e4 ? "%.0f%s%s" : "%.4g%s%s", shown,
			 *u ? " " : "", u);
	}
	if (!v->pass)
		out->nfail++;
}

/* Figure k (HIST_S_*) of the latency summary of s, in ns. */
static double lat_figure(const struct cmp_stat *s, int k)
{
	struct hist_summary sum;

	hist_summarize(&s->lat, &sum);
	if (!sum.count)
		return NAN;
	if (k != HIST_S_MAX && (s->marks & CMP_MAX_ONLY))
		return NAN;	/* bonnie++ keeps only the maximum */
	return sum.v[k];
}

static void check_test(struct crit_verdicts *out, const struct crit_rule *r,
		       const struct compare *c, size_t t)
{
	size_t g;

	for (g = 0; g < c->ngroups; g++) {
		const struct cmp_stat *s = &c->groups[g].stats[t];
		struct crit_verdict *v;
		struct stats_welch w;
		double x = s->n ? s->mean : NAN;
		const char *unit = c->tests[t].unit;

		if (!s->n && !s->too_fast)
			continue;
		if ((r->what == W_MIN_RATIO || r->what == W_NOT_WORSE) &&
		    g == c->baseline)
			continue;
		v = verdict(out, r, g);
		v->test = t;
		snprintf(v->figure, sizeof(v->figure), "%s", c->tests[t].title);
		switch (r->what) {
		case W_MAX_CPU:
			x = s->n ? s->cpu / 100 : NAN;
			break;
		case W_MAX_CV:
			x = s->n > 1 ? s->sum.cv : NAN;
			break;
		case W_MIN_RATIO:
			x = compare_ratio(c, g, t);
			unit = "";
			break;
		case W_NOT_WORSE:
			compare_welch(c, g, t, &w);
			snprintf(v->measured, sizeof(v->measured), "%s",
				 compare_verdict_word(&w));
			v->pass = !r->limit || w.verdict == STATS_SAME ||
				  (w.verdict == STATS_DIFFERENT && w.t > 0);
			if (w.verdict == STATS_UNTESTED) {
				v->pass = 0;
				snprintf(v->measured, sizeof(v->measured),
					 "untested (n < 2)");
			}
			if (!v->pass)
				out->nfail++;
			continue;
		case W_MIN:
		case W_MAX:
			if (r->scale == 0 && r->kind == K_RATE)
				break;
			if (strcmp(unit, "KiB/s"))
				x = NAN;	/* a byte rate on files/s */
			break;
		default:
			x = lat_figure(s, r->lat);
			break;
		}
		judge(out, v, r, x, unit);
	}
}

static double cell_figure(const struct cmpm_fig *f, const struct cmpm_fig *b,
			  const struct crit_rule *r)
{
	switch (r->what) {
	case W_MIN_IOPS: return f->fig.iops;
	case W_MIN_MBPS: return f->fig.mbps;
	case W_RD: return f->fig.rlat[r->lat] * 1e6;	/* ms to ns */
	case W_WR: return f->fig.wlat[r->lat] * 1e6;
	default: return b->n && b->iops > 0 && f->n ? f->iops / b->iops : NAN;
	}
}

static void check_cell(struct crit_verdicts *out, const struct crit_rule *r,
		       const struct compare *c, const struct cmpm *m)
{
	size_t ti, k, i, found = 0;

	for (ti = 0; ti < m->ntables; ti++) {
		const struct cmpm_table *t = &m->tables[ti];

		if (t->bs != r->bs || t->threads != r->threads ||
		    (!r->qd_any && t->qd != r->qd))
			continue;
		for (k = 0; k < t->ncells; k++) {
			struct cmpm_fig base;

			if (t->cells[k].random != r->random ||
			    t->cells[k].read_pct != r->read_pct)
				continue;
			cmpm_figures(c, t, k, m->baseline, -1, &base);
			for (i = 0; i < m->ngroups; i++) {
				size_t g = m->groups[i];
				struct crit_verdict *v;
				struct cmpm_fig f;

				cmpm_figures(c, t, k, g, -1, &f);
				if (!f.status || (r->what == W_MX_RATIO &&
						  g == m->baseline))
					continue;
				found++;
				v = verdict(out, r, g);
				v->bs = t->bs;
				v->threads = t->threads;
				v->qd = t->qd;
				v->random = t->cells[k].random;
				v->read_pct = t->cells[k].read_pct;
				snprintf(v->figure, sizeof(v->figure),
					 "%s %u thr qd %u %s %s", f.fig.bs,
					 t->threads, t->qd, f.fig.pattern,
					 f.fig.profile);
				judge(out, v, r, !f.n ? NAN :
				      cell_figure(&f, &base, r),
				      r->kind == K_COUNT ? "IO/s" :
				      r->kind == K_RATE ? "MiB/s" : "");
			}
		}
	}
	if (!found) {
		struct crit_verdict *v = verdict(out, r, CRIT_NO_GROUP);

		snprintf(v->figure, sizeof(v->figure), "%s", r->section);
		judge(out, v, r, NAN, "");
	}
}

const char *criteria_unknown_test(const struct criteria *cr,
				  const struct compare *c)
{
	size_t i, t;

	for (i = 0; i < cr->nrules; i++) {
		const struct crit_rule *r = &cr->rules[i];

		for (t = 0; t < c->ntests && !r->all && !r->matrix; t++)
			if (!strcmp(r->section, c->tests[t].name) ||
			    !strcasecmp(r->section, c->tests[t].title))
				break;
		if (!r->all && !r->matrix && t == c->ntests)
			return r->section;
	}
	return NULL;
}

void criteria_check(const struct criteria *cr, const struct compare *c,
		    struct crit_verdicts *out)
{
	struct cmpm m;
	size_t i, t;

	memset(out, 0, sizeof(*out));
	cmpm_build(&m, c);
	for (i = 0; i < cr->nrules; i++) {
		const struct crit_rule *r = &cr->rules[i];
		size_t before = out->n;

		if (r->matrix) {
			check_cell(out, r, c, &m);
			continue;
		}
		for (t = 0; t < c->ntests; t++)
			if (r->all || !strcmp(r->section, c->tests[t].name) ||
			    !strcasecmp(r->section, c->tests[t].title))
				check_test(out, r, c, t);
		if (out->n == before && !r->all) {
			struct crit_verdict *v = verdict(out, r,
							 CRIT_NO_GROUP);

			snprintf(v->figure, sizeof(v->figure), "%s",
				 r->section);
			judge(out, v, r, NAN, "");
		}
	}
	cmpm_release(&m);
}
