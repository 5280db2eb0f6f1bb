// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a cell's or figure's name (the grammar is in figures.h) and
 * matching it against cells; figures.c builds the names and the lists.
 */
#include "report/analyze/figures.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/model/histogram.h"
#include "lib/xalloc.h"

#define MAXWORDS 32

struct words {
	char *buf;
	char *w[MAXWORDS];
	size_t n;
};

/* Lower-cased words, cut at blanks, commas, ';' and an em dash. */
static int split(const char *name, struct words *ws)
{
	char *p;

	ws->buf = xstrdup(name);
	ws->n = 0;
	for (p = ws->buf; *p; p++) {
		if (!strncmp(p, "\xe2\x80\x94", 3)) {
			memset(p, ' ', 3);
			p += 2;
			continue;
		}
		*p = (char)tolower((unsigned char)*p);
		if (*p == ',' || *p == ';' || *p == '\t')
			*p = ' ';
	}
	for (p = strtok(ws->buf, " "); p; p = strtok(NULL, " ")) {
		if (ws->n == MAXWORDS)
			return -1;
		ws->w[ws->n++] = p;
	}
	return 0;
}

static int is_word(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return 1;
	return 0;
}

/* A whole decimal number: 0 and *v, or -1. */
static int number(const char *w, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)*w))
		return -1;
	errno = 0;
	*v = strtoul(w, &end, 10);
	return *end || errno || *v > 1000000000ul ? -1 : 0;
}

/* "N%": 0 and *v (at most 100), or -1. */
static int percent(const char *w, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)*w))
		return -1;
	*v = strtoul(w, &end, 10);
	return strcmp(end, "%") || *v > 100 ? -1 : 0;
}

/* "8k", "1mib", "512b": bytes (binary units), or -1 without a unit. */
static int size(const char *w, uint64_t *v)
{
	static const struct { const char *u; uint64_t f; } units[] = {
		{ "b", 1 }, { "k", 1024 }, { "kb", 1024 }, { "kib", 1024 },
		{ "m", 1 << 20 }, { "mb", 1 << 20 }, { "mib", 1 << 20 },
		{ "g", 1 << 30 }, { "gb", 1 << 30 }, { "gib", 1 << 30 },
	};
	char *end;
	double x;
	size_t i;

	if (!isdigit((unsigned char)*w))
		return -1;
	x = strtod(w, &end);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].u) && x > 0 && x < 1e12) {
			*v = (uint64_t)(x * (double)units[i].f + 0.5);
			return 0;
		}
	return -1;
}

static const char *const stat_words[] = {
	"mean", "min", "p50", "p90", "p99", "p99.9", "max", NULL,
};
static const int stat_index[] = {
	HIST_S_MEAN, HIST_S_MIN, HIST_S_P50, HIST_S_P90, HIST_S_P99,
	HIST_S_P99_9, HIST_S_MAX,
};

static int stat_of(const char *w)
{
	size_t i;

	if (!strcmp(w, "avg") || !strcmp(w, "average"))
		return HIST_S_MEAN;
	for (i = 0; stat_words[i]; i++)
		if (!strcmp(w, stat_words[i]))
			return stat_index[i];
	return -1;
}

struct reader {
	struct fig_sel *s;
	struct words ws;
	size_t i;
	int hit;		/* the words after "hit" */
	int stat;		/* a statistic word waiting for read/write */
	char *err;
	size_t errlen;
};

static const char *next(const struct reader *r)
{
	return r->i + 1 < r->ws.n ? r->ws.w[r->i + 1] : "";
}

static int bad(struct reader *r, const char *why)
{
	snprintf(r->err, r->errlen, "'%s' %s", r->ws.w[r->i], why);
	return -1;
}

static int set(struct reader *r, unsigned part)
{
	static const char *const names[] = {
		"block size", "threads", "queue depth", "pattern", "profile",
		"hit area", "hit %", "figure",
	};
	size_t b;

	if (!(r->s->has & part)) {
		r->s->has |= part;
		return 0;
	}
	for (b = 0; !(part & (1u << b)); b++)
		;
	snprintf(r->err, r->errlen, "'%s': a second %s", r->ws.w[r->i],
		 names[b]);
	return -1;
}

/* A figure word: read/write (with a statistic), IO/s, MB/s, CPU. */
static int figure_word(struct reader *r, const char *w)
{
	static const char *const iops[] = { "io/s", "iops", NULL };
	static const char *const mbps[] = { "mb/s", "mib/s", "mbps", NULL };
	int k;

	if (!strcmp(w, "read") || !strcmp(w, "write")) {
		r->s->kind = *w == 'r' ? FIG_READ : FIG_WRITE;
		k = stat_of(next(r));
		if (k >= 0)
			r->i++;
		r->s->lat = k >= 0 ? k : r->stat >= 0 ? r->stat : HIST_S_MEAN;
		r->stat = -1;
	} else if (is_word(w, iops)) {
		r->s->kind = FIG_IOPS;
	} else if (is_word(w, mbps)) {
		r->s->kind = FIG_MBPS;
	} else if (!strcmp(w, "cpu")) {
		r->s->kind = FIG_CPU;
		if (!strcmp(next(r), "%"))
			r->i++;
	} else {
		return 1;
	}
	return set(r, FIGS_FIGURE);
}

/* "80/20": the read % when the two make 100. */
static int mix_slash(const char *w, unsigned long *rd)
{
	unsigned long wr;
	char *end;

	if (!isdigit((unsigned char)*w))
		return -1;
	*rd = strtoul(w, &end, 10);
	if (*end != '/' || !isdigit((unsigned char)end[1]))
		return -1;
	wr = strtoul(end + 1, &end, 10);
	return *end || *rd + wr != 100 ? -1 : 0;
}

/* A word with digits: sizes, counts, percentages, NxM, R/W. */
static int numeric_word(struct reader *r, const char *w)
{
	struct fig_cell *c = &r->s->cell;
	unsigned long v, q;
	uint64_t b;
	char *end;
	static const char *const thr[] = { "thr", "thread", "threads", NULL };
	static const char *const blk[] = { "block", "blocks", "bs", NULL };

	if (!mix_slash(w, &v)) {
		c->read_pct = (unsigned)v;
		return set(r, FIGS_MIX);
	}
	if (!percent(w, &v)) {
		if (!strcmp(next(r), "read") || !strcmp(next(r), "write")) {
			c->read_pct = (unsigned)(*next(r) == 'r' ? v : 100 - v);
			r->i++;
			return set(r, FIGS_MIX);
		}
		if (r->hit) {
			c->hit_pct = (unsigned)v;
			return set(r, FIGS_HITPCT);
		}
		if ((r->s->has & FIGS_PATTERN) && !(r->s->has & FIGS_MIX)) {
			c->read_pct = (unsigned)v;
			return set(r, FIGS_MIX);
		}
		return bad(r, "is a % of what (N% read, N% write, hit N%, "
			   "curve N%)?");
	}
	if (!size(w, &b)) {
		if (r->hit) {
			c->hit_area = b;
			return set(r, FIGS_HIT);
		}
		c->bs = b;
		return set(r, FIGS_BS);
	}
	v = strtoul(w, &end, 10);
	if (*end == 'x' && isdigit((unsigned char)end[1])) {
		q = strtoul(end + 1, &end, 10);
		if (*end || !v || !q)
			return bad(r, "is not THREADSxQUEUE_DEPTH");
		c->threads = (unsigned)v;
		c->qd = (unsigned)q;
		return set(r, FIGS_THREADS) || set(r, FIGS_QD);
	}
	if (number(w, &v))
		return bad(r, "is not a number, size or percentage");
	if (r->hit && !v) {	/* "hit 0": no hit area */
		c->hit_area = 0;
		c->hit_pct = 0;
		return set(r, FIGS_HIT) || set(r, FIGS_HITPCT);
	}
	if (is_word(next(r), thr) ||
	    (!(r->s->has & (FIGS_THREADS | FIGS_PATTERN)) &&
	     !is_word(next(r), blk))) {
		if (is_word(next(r), thr))
			r->i++;
		if (!v)
			return bad(r, "threads: at least 1");
		c->threads = (unsigned)v;
		return set(r, FIGS_THREADS);
	}
	if (is_word(next(r), blk) && v) {
		c->bs = v;
		return set(r, FIGS_BS);
	}
	if ((r->s->has & FIGS_PATTERN) && !(r->s->has & FIGS_MIX) &&
	    v <= 100) {
		c->read_pct = (unsigned)v;
		return set(r, FIGS_MIX);
	}
	return bad(r, "is a number of what (N thr, qd N, N% read)?");
}

/* The words that say which part comes next, or mean nothing alone. */
static int keyword(struct reader *r, const char *w)
{
	static const char *const noise[] = {
		"matrix", "block", "blocks", "size", "bs", "-", "ms", "(ms)",
		"latency", "area", "thr", "thread", "threads", "cell", NULL,
	};
	unsigned long v;

	if (!strcmp(w, "random") || !strcmp(w, "rand") ||
	    !strcmp(w, "seq") || !strcmp(w, "sequential")) {
		r->s->cell.random = w[0] == 'r';
		return set(r, FIGS_PATTERN);
	}
	if (!strcmp(w, "qd") || !strcmp(w, "depth") ||
	    (!strcmp(w, "queue") && !strcmp(next(r), "depth"))) {
		if (!strcmp(w, "queue"))
			r->i++;
		if (number(next(r), &v) || !v)
			return bad(r, "needs a queue depth after it");
		r->i++;
		r->s->cell.qd = (unsigned)v;
		return set(r, FIGS_QD);
	}
	if (!strncmp(w, "qd", 2) && !number(w + 2, &v) && v) {
		r->s->cell.qd = (unsigned)v;
		return set(r, FIGS_QD);
	}
	if (!strcmp(w, "curve") || !strcmp(w, "at")) {
		if ((percent(next(r), &v) && number(next(r), &v)) || !v ||
		    v > 1000)
			return bad(r, "needs the point's % after it");
		r->i++;
		r->s->cell.curve_pct = (unsigned)v;
		return 0;
	}
	if (is_word(w, noise))
		return 0;
	return 1;
}

static int word(struct reader *r)
{
	const char *w = r->ws.w[r->i];
	int rc;

	if (!strcmp(w, "hit")) {
		r->hit = 2;	/* the next two words: area and % */
		return 0;
	}
	if (r->hit && !strcmp(w, "area"))
		return 0;
	if (r->hit && !strcmp(w, "none")) {
		r->s->cell.hit_area = 0;
		r->s->cell.hit_pct = 0;
		r->hit = 0;
		return set(r, FIGS_HIT) || set(r, FIGS_HITPCT);
	}
	if (stat_of(w) >= 0) {
		r->stat = stat_of(w);
		rc = 0;
	} else if ((rc = keyword(r, w)) <= 0 || (rc = figure_word(r, w)) <= 0) {
		;
	} else if (isdigit((unsigned char)*w)) {
		rc = numeric_word(r, w);
	} else {
		rc = bad(r, "is not a word of a cell's name (see clyde(1), "
			 "FIGURE NAMES)");
	}
	if (r->hit)
		r->hit--;
	return rc;
}

/* A statistic without read or write: the side the profile has. */
static int pending_stat(struct reader *r)
{
	struct fig_sel *s = r->s;

	if (r->stat < 0)
		return 0;
	if (!(s->has & FIGS_FIGURE) && (s->has & FIGS_MIX) &&
	    (s->cell.read_pct == 100 || s->cell.read_pct == 0)) {
		s->kind = s->cell.read_pct ? FIG_READ : FIG_WRITE;
		s->lat = r->stat;
		s->has |= FIGS_FIGURE;
		return 0;
	}
	snprintf(r->err, r->errlen, "a statistic of what (read or write)?");
	return -1;
}

int fig_parse(const char *name, struct fig_sel *sel, char *err,
	      size_t errlen)
{
	struct reader r = { .s = sel, .stat = -1, .err = err,
			    .errlen = errlen };
	int rc = 0;

	memset(sel, 0, sizeof(*sel));
	if (split(name, &r.ws)) {
		free(r.ws.buf);
		snprintf(err, errlen, "more than %d words", MAXWORDS);
		return -1;
	}
	for (r.i = 0; !rc && r.i < r.ws.n; r.i++)
		rc = word(&r);
	if (!rc)
		rc = pending_stat(&r);
	if (!rc && !(sel->has & FIGS_CELL)) {
		snprintf(err, errlen, "no block size, threads, queue depth, "
			 "pattern or profile in it");
		rc = -1;
	}
	free(r.ws.buf);
	return rc;
}

int fig_sel_cell(const struct fig_sel *s, const struct fig_cell *c)
{
	const struct fig_cell *w = &s->cell;

	return (!(s->has & FIGS_BS) || w->bs == c->bs) &&
	       (!(s->has & FIGS_THREADS) || w->threads == c->threads) &&
	       (!(s->has & FIGS_QD) || w->qd == c->qd) &&
	       (!(s->has & FIGS_PATTERN) || w->random == c->random) &&
	       (!(s->has & FIGS_MIX) || w->read_pct == c->read_pct) &&
	       (!(s->has & FIGS_HIT) || w->hit_area == c->hit_area) &&
	       (!(s->has & FIGS_HITPCT) || w->hit_pct == c->hit_pct) &&
	       w->curve_pct == c->curve_pct;
}

int fig_sel_matches(const struct fig_sel *s, const struct fig_id *f)
{
	if (f->kind == FIG_TEST || !fig_sel_cell(s, &f->cell))
		return 0;
	if (!(s->has & FIGS_FIGURE))
		return 1;
	return s->kind == f->kind &&
	       ((f->kind != FIG_READ && f->kind != FIG_WRITE) ||
		s->lat == f->lat);
}
