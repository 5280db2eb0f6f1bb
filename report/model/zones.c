// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zones section of a run record: the model, its figures, the text
 * tables and summary (see zones.h).  JSON is in json_zones.c, the CSV in
 * zones_csv.c.
 */
#include "report/model/zones.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/record_util.h"
#include "lib/textcols.h"
#include "lib/units.h"
#include "lib/xalloc.h"

/* above this many passes the table shows min/mean/max, not each pass
 * (with 4 the table was 83 columns wide) */
#define TABLE_PASSES 3
#define SLOWEST 5
/* the text fits in this many columns (a word longer than a line, such as
 * a long path, is broken inside) */
#define TEXT_WIDTH 79

struct record_zones *zones_new(void)
{
	struct record_zones *z = xcalloc(1, sizeof(*z));

	z->schema = ZONES_SCHEMA_VERSION;
	return z;
}

void zones_free(struct record_zones *z)
{
	size_t i;

	if (!z)
		return;
	for (i = 0; i < z->nsweeps; i++) {
		record_str_free(z->sweeps[i].reason);
		free(z->sweeps[i].zones);
		hist_release(&z->sweeps[i].lat);
	}
	free(z->sweeps);
	record_str_free(z->kind);
	record_str_free(z->engine);
	record_str_free(z->error);
	free(z);
}

struct zones_sweep *zones_add_sweep(struct record_zones *z, unsigned pass,
				    int write)
{
	struct zones_sweep *s;

	xgrow((void **)&z->sweeps, &z->alloc, z->nsweeps + 1,
	      sizeof(*z->sweeps));
	s = &z->sweeps[z->nsweeps++];
	memset(s, 0, sizeof(*s));
	s->pass = pass;
	s->write = write;
	s->residency = -1;
	hist_init(&s->lat);
	return s;
}

struct zone_row *zones_add_row(struct zones_sweep *s)
{
	struct zone_row *r;

	xgrow((void **)&s->zones, &s->alloc, s->nzones + 1, sizeof(*s->zones));
	r = &s->zones[s->nzones++];
	memset(r, 0, sizeof(*r));
	r->resident = -1;
	hist_summary_ms(NULL, r->lat_ms);
	return r;
}

void zones_row_finish(struct zone_row *r, const struct histogram *h)
{
	r->mibps = r->elapsed > 0 ? (double)r->bytes / r->elapsed / MiB_D : 0;
	hist_summary_ms(h, r->lat_ms);
}

void zones_sweep_finish(struct zones_sweep *s)
{
	size_t i;

	s->bytes = 0;
	for (i = 0; i < s->nzones; i++)
		s->bytes += s->zones[i].bytes;
	s->mibps = s->elapsed > 0 ? (double)s->bytes / s->elapsed / MiB_D : 0;
}

void zones_sweep_name(const struct record_zones *z,
		      const struct zones_sweep *s, char *buf, size_t len)
{
	const char *dir = s->write ? "write" : "read";

	if (z->passes > 1)
		snprintf(buf, len, "pass %u %s", s->pass, dir);
	else
		snprintf(buf, len, "%s", dir);
}

int zones_row_coarse(const struct zone_row *r)
{
	return r->ios && !isnan(r->lat_ms[HIST_S_MEAN]) &&
	       r->elapsed * 1e3 < r->lat_ms[HIST_S_MEAN];
}

int zones_row_rated(const struct zone_row *r)
{
	return !r->errors && r->bytes && r->elapsed > 0 && !zones_row_coarse(r);
}

/* A zone mostly in the page cache at its sweep's start. */
static int zones_row_cached(const struct zone_row *r)
{
	return r->resident >= ZONES_CACHED_SHARE;
}

/* Zones of sweep s that are coarse, or read holes; their hole bytes. */
static size_t zones_sweep_coarse(const struct zones_sweep *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nzones; i++)
		n += !s->zones[i].errors && zones_row_coarse(&s->zones[i]);
	return n;
}

static size_t zones_sweep_holes(const struct zones_sweep *s, uint64_t *bytes)
{
	size_t i, n = 0;

	*bytes = 0;
	for (i = 0; i < s->nzones; i++) {
		n += s->zones[i].unalloc > 0;
		*bytes += s->zones[i].unalloc;
	}
	return n;
}

void zones_sweep_stats(const struct zones_sweep *s, struct zones_stats *st)
{
	double sum = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	st->min = st->mean = st->max = NAN;
	st->imin = st->imax = -1;
	for (i = 0; i < s->nzones; i++) {
		const struct zone_row *r = &s->zones[i];

		if (r->errors)
			st->nerr++;
		else if (zones_row_coarse(r))
			st->ncoarse++;
		if (!zones_row_rated(r))
			continue;
		if (!st->n || r->mibps < st->min) {
			st->min = r->mibps;
			st->imin = (long)i;
		}
		if (!st->n || r->mibps > st->max) {
			st->max = r->mibps;
			st->imax = (long)i;
		}
		sum += r->mibps;
		st->n++;
	}
	if (st->n)
		st->mean = sum / (double)st->n;
}

/* ---- text ---- */

static void size_str(char *buf, size_t len, uint64_t b)
{
	if (b >= (uint64_t)GiB_D && !(b % (1024 * 1024)))
		snprintf(buf, len, "%.2f GiB", (double)b / GiB_D);
	else if (b >= 1024 * 1024 && !(b % (1024 * 1024)))
		snprintf(buf, len, "%" PRIu64 " MiB", b / 1024 / 1024);
	else if (b >= 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", (double)b / MiB_D);
	else
		snprintf(buf, len, "%" PRIu64 " KiB", b / 1024);
}

static void num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", prec, v);
}

/*
 * Text printed at 'first' (the prefix of the first line), words wrapped
 * at TEXT_WIDTH columns, the lines after it indented by 'indent' spaces.
 * One paragraph: every control character of the text, a newline too, is
 * escaped (textesc.h: paths, warnings and errors come from inputs), and a
 * word longer than a line (a path) is broken inside (text_wrap).
 */
__attribute__((format(printf, 4, 5)))
static void wrapf(FILE *out, const char *first, int indent,
		  const char *fmt, ...)
{
	char *body;
	va_list ap;

	va_start(ap, fmt);
	body = record_vasprintf(fmt, ap);
	va_end(ap);
	text_wrapf(out, TEXT_WIDTH, (size_t)indent, "%s%s", first, body);
	free(body);
}

static void header_line(const struct record *rec, FILE *out)
{
	const struct record_zones *z = rec->zones;
	char total[32], zone[32], bs[32];

	size_str(total, sizeof(total), z->size);
	size_str(zone, sizeof(zone), z->zone_size);
	size_str(bs, sizeof(bs), z->bs);
	wrapf(out, "clyde zones: ", 2, "'%s' (%s%s)",
	      rec->target.path ? rec->target.path : "?",
	      z->kind ? z->kind : "?", z->created ? ", created by clyde" : "");
	wrapf(out, "  ", 2, "%s in %zu zones of %s, %s I/Os, %s qd %u, %s, "
	      "%u pass%s", total, z->nzones, zone, bs,
	      z->engine ? z->engine : "?", z->qd,
	      z->direct ? "O_DIRECT" : "buffered", z->passes,
	      z->passes == 1 ? "" : "es");
}

/* The sweeps of one direction, in pass order. */
static size_t sweeps_of(const struct record_zones *z, int write,
			const struct zones_sweep **out)
{
	size_t i, n = 0;

	for (i = 0; i < z->nsweeps; i++)
		if (z->sweeps[i].write == write)
			out[n++] = &z->sweeps[i];
	return n;
}

/* A zone's mark in the table: E an I/O failed, H it read holes, C it was
 * mostly in the page cache at the start, ~ its time is below its I/Os'
 * mean latency (low precision). */
static char mark(const struct zone_row *r)
{
	if (r->errors)
		return 'E';
	if (r->unalloc)
		return 'H';
	if (zones_row_cached(r))
		return 'C';
	return zones_row_coarse(r) ? '~' : ' ';
}

/* Zones of sweep s marked C (cached). */
static size_t zones_sweep_cached(const struct zones_sweep *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nzones; i++)
		n += !s->zones[i].errors && !s->zones[i].unalloc &&
		     zones_row_cached(&s->zones[i]);
	return n;
}

static void table_row(FILE *out, const struct record_zones *z,
		      const struct zones_sweep *const *sw, size_t n,
		      size_t zi)
{
	double lo = INFINITY, hi = -INFINITY, sum = 0, wsum = 0, p99 = NAN;
	uint64_t ios = 0;
	char b[32];
	size_t k, have = 0;
	int err = 0;

	fprintf(out, "%5zu %11.3f", zi + 1,
		(double)zi * (double)z->zone_size / GiB_D);
	for (k = 0; k < n; k++) {
		const struct zone_row *r = zi < sw[k]->nzones ?
					   &sw[k]->zones[zi] : NULL;

		if (!r) {
			if (n <= TABLE_PASSES)
				fprintf(out, " %9s", "");
			continue;
		}
		err |= r->errors != 0;
		if (n <= TABLE_PASSES) {
			num(b, sizeof(b), r->mibps, 1);
			fprintf(out, " %8s%c", b, mark(r));
		}
		if (zones_row_rated(r)) {
			lo = r->mibps < lo ? r->mibps : lo;
			hi = r->mibps > hi ? r->mibps : hi;
			sum += r->mibps;
			have++;
		}
		if (r->ios) {
			wsum += r->lat_ms[HIST_S_MEAN] * (double)r->ios;
			ios += r->ios;
			if (isnan(p99) || r->lat_ms[HIST_S_P99] > p99)
				p99 = r->lat_ms[HIST_S_P99];
		}
	}
	if (n > TABLE_PASSES) {
		num(b, sizeof(b), have ? lo : NAN, 1);
		fprintf(out, " %9s", b);
		num(b, sizeof(b), have ? sum / (double)have : NAN, 1);
		fprintf(out, " %9s", b);
		num(b, sizeof(b), have ? hi : NAN, 1);
		fprintf(out, " %8s%c", b, err ? 'E' : ' ');
	}
	if (n > 1) {
		num(b, sizeof(b), have > 1 && sum > 0 ?
		    (hi - lo) / (sum / (double)have) * 100 : NAN, 1);
		fprintf(out, " %6s%s", b, strcmp(b, "-") ? "%" : " ");
	}
	num(b, sizeof(b), ios ? wsum / (double)ios : NAN, 3);
	fprintf(out, " %8s", b);
	num(b, sizeof(b), p99, 3);
	fprintf(out, " %8s\n", b);
}

/* What the table's marks mean, for those it shows. */
static void legend(FILE *out, const struct zones_sweep *const *sw, size_t n)
{
	int holes = 0, coarse = 0, cached = 0;
	uint64_t b;
	size_t k;

	for (k = 0; k < n; k++) {
		holes |= zones_sweep_holes(sw[k], &b) > 0;
		coarse |= zones_sweep_coarse(sw[k]) > 0;
		cached |= zones_sweep_cached(sw[k]) > 0;
	}
	if (holes)
		wrapf(out, "  H: ", 5, "the zone read unallocated space (holes) "
		      "of the file or of the loop device's backing file: no "
		      "data came from the storage, the rate flatters it");
	if (cached)
		wrapf(out, "  C: ", 5, "cached: %.0f %% or more of the zone was "
		      "in the host page cache at the sweep's start (of the file "
		      "or of the loop device's backing file): its reads may "
		      "have come from memory, not from the storage",
		      ZONES_CACHED_SHARE * 100);
	if (coarse)
		wrapf(out, "  ~: ", 5, "low precision: the zone took less time "
		      "than its I/Os' mean latency (the queue ran across its "
		      "boundaries); left out of min/max and the slowest zones");
}

static void zone_table(FILE *out, const struct record_zones *z, int write)
{
	const struct zones_sweep **sw = xcalloc(z->nsweeps + 1, sizeof(*sw));
	size_t n = sweeps_of(z, write, sw), k, rows = 0;

	if (!n) {
		free(sw);
		return;
	}
	for (k = 0; k < n; k++)
		if (sw[k]->nzones > rows)
			rows = sw[k]->nzones;
	putc('\n', out);
	wrapf(out, "", 0, "%s MiB/s per zone%s; latency per I/O in ms%s",
	      write ? "Write" : "Read",
	      n > 1 ? ", spread = (max - min) / mean over the passes" : "",
	      n > 1 ? " (mean of all passes, worst pass's p99)" : "");
	fputs(" zone  offset GiB", out);
	if (n <= TABLE_PASSES)
		for (k = 0; k < n; k++)
			fprintf(out, "    pass %u", sw[k]->pass);
	else
		fputs("       min      mean       max", out);
	if (n > 1)
		fputs("  spread", out);
	fputs("  mean ms   p99 ms\n", out);
	for (k = 0; k < rows; k++)
		table_row(out, z, sw, n, k);
	legend(out, sw, n);
	free(sw);
}

static void errors_list(FILE *out, const struct record_zones *z)
{
	size_t i, k;
	int any = 0;

	for (i = 0; i < z->nsweeps; i++) {
		const struct zones_sweep *s = &z->sweeps[i];
		char name[32];

		zones_sweep_name(z, s, name, sizeof(name));
		for (k = 0; k < s->nzones; k++) {
			const struct zone_row *r = &s->zones[k];

			if (!r->errors)
				continue;
			if (!any)
				fputs("\nE: I/O errors (the sweep went on past "
				      "them):\n", out);
			any = 1;
			wrapf(out, "  ", 4, "%s, zone %zu: %" PRIu64 " I/O%s "
			      "failed, the first at offset %" PRIu64 " (%.3f "
			      "GiB): %s", name, k + 1, r->errors,
			      r->errors == 1 ? "" : "s", r->err_offset,
			      (double)r->err_offset / GiB_D,
			      r->err ? strerror(r->err) : "short transfer");
			if (r->bad_unit)
				wrapf(out, "    ", 4, "read again in %" PRIu64
				      "-byte units: the first unreadable at "
				      "offset %" PRIu64, r->bad_unit,
				      r->bad_offset);
		}
	}
}

static void summary(FILE *out, const struct record_zones *z)
{
	size_t i;

	if (z->nsweeps)
		fputs("\nSummary (zone MiB/s without the zones with "
		      "errors)\n", out);
	for (i = 0; i < z->nsweeps; i++) {
		const struct zones_sweep *s = &z->sweeps[i];
		struct zones_stats st;
		char name[32], a[32], b[32], c[32];
		uint64_t hb;

		zones_sweep_name(z, s, name, sizeof(name));
		zones_sweep_stats(s, &st);
		fprintf(out, "  %-13s %.1f MiB in %.2f s = %.1f MiB/s", name,
			(double)s->bytes / MiB_D, s->elapsed, s->mibps);
		if (s->nzones < z->nzones)
			fprintf(out, " (%zu of %zu zones)", s->nzones,
				z->nzones);
		fputc('\n', out);
		if (st.n) {
			num(a, sizeof(a), st.min, 1);
			num(b, sizeof(b), st.mean, 1);
			num(c, sizeof(c), st.max, 1);
			fprintf(out, "  %-13s zones min %s (zone %ld, %.3f GiB) "
				"mean %s\n", "", a, st.imin + 1,
				(double)s->zones[st.imin].offset / GiB_D, b);
			fprintf(out, "  %-13s       max %s (zone %ld, %.3f GiB)"
				"\n", "", c, st.imax + 1,
				(double)s->zones[st.imax].offset / GiB_D);
		}
		if (s->lat.count)
			fprintf(out, "  %-13s %" PRIu64 " I/Os (latency in the "
				"table below)\n", "", s->lat.count);
		if (s->residency >= 0)
			fprintf(out, "  %-13s %.0f %% in the host page cache at "
				"the start\n", "", s->residency * 100);
		if (zones_sweep_holes(s, &hb))
			wrapf(out, "                ", 16, "%zu zone%s read holes "
			      "(%.1f MiB unallocated): reads of holes move no "
			      "data, so this rate flatters the storage",
			      zones_sweep_holes(s, &hb),
			      zones_sweep_holes(s, &hb) == 1 ? "" : "s",
			      (double)hb / MiB_D);
		if (st.ncoarse)
			wrapf(out, "                ", 16, "%zu zone%s of low "
			      "precision (~), not in min/max", st.ncoarse,
			      st.ncoarse == 1 ? "" : "s");
		if (st.nerr)
			fprintf(out, "  %-13s %zu zone%s with I/O errors\n", "",
				st.nerr, st.nerr == 1 ? "" : "s");
		if (s->stopped)
			wrapf(out, "                ", 16, "stopped: "
			      RECORD_STOPPED_TEXT);
		if (s->status == RESULT_FAILED)
			wrapf(out, "                ", 16, "failed: %s",
			      s->reason ? s->reason : "?");
	}
}

/* The slowest zones of all sweeps, slowest first. */
static void slowest(FILE *out, const struct record_zones *z)
{
	const struct zone_row *best[SLOWEST];
	const struct zones_sweep *of[SLOWEST];
	size_t n = 0, i, k, j;

	for (i = 0; i < z->nsweeps; i++)
		for (k = 0; k < z->sweeps[i].nzones; k++) {
			const struct zone_row *r = &z->sweeps[i].zones[k];

			if (!zones_row_rated(r))
				continue;
			for (j = n; j > 0 && best[j - 1]->mibps > r->mibps; j--)
				if (j < SLOWEST) {
					best[j] = best[j - 1];
					of[j] = of[j - 1];
				}
			if (j < SLOWEST) {
				best[j] = r;
				of[j] = &z->sweeps[i];
				if (n < SLOWEST)
					n++;
			}
		}
	if (!n)
		return;
	fputs("  slowest zones:\n", out);
	for (j = 0; j < n; j++) {
		char name[32];

		zones_sweep_name(z, of[j], name, sizeof(name));
		fprintf(out, "    %.1f MiB/s at %.3f GiB (%s%s)\n",
			best[j]->mibps, (double)best[j]->offset / GiB_D, name,
			best[j]->unalloc ? ", H: holes" : "");
	}
}

/*
 * The latency summary of every sweep's I/Os, the set and the column heads
 * of clyde's other latency tables (hist_summary_label), in ms; 78 columns.
 */
static void latency_table(FILE *out, const struct record_zones *z)
{
	double ms[HIST_SUMMARY_N];
	char name[32], b[32];
	size_t i;
	int k, header = 0;

	for (i = 0; i < z->nsweeps; i++) {
		const struct zones_sweep *s = &z->sweeps[i];

		if (!s->lat.count)
			continue;
		if (!header) {
			fprintf(out, "\n%-15s", "Latency ms");
			for (k = 0; k < HIST_SUMMARY_N; k++)
				fprintf(out, " %8s", hist_summary_label[k]);
			putc('\n', out);
			header = 1;
		}
		zones_sweep_name(z, s, name, sizeof(name));
		hist_summary_ms(&s->lat, ms);
		fprintf(out, "  %-13s", name);
		for (k = 0; k < HIST_SUMMARY_N; k++) {
			num(b, sizeof(b), ms[k], ms[k] < 10000 ? 3 : 0);
			fprintf(out, " %8s", b);
		}
		putc('\n', out);
	}
}

int zones_write_text(const struct record *rec, FILE *out)
{
	const struct record_zones *z = rec->zones;
	size_t i;

	if (!z)
		return 0;
	header_line(rec, out);
	zone_table(out, z, 1);
	zone_table(out, z, 0);
	errors_list(out, z);
	summary(out, z);
	slowest(out, z);
	if (z->error)
		wrapf(out, "  failed: ", 4, "%s", z->error);
	latency_table(out, z);
	for (i = 0; i < rec->nwarnings; i++) {
		if (!i)
			putc('\n', out);
		wrapf(out, i ? "      " : "Note: ", 6, "%s", rec->warnings[i]);
	}
	return ferror(out) ? -1 : 0;
}
