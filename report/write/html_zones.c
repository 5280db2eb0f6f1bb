// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zones section of the page (clyde zones records): an inline SVG line
 * chart of MiB/s against the offset, a line per run and sweep (so two
 * arrays, or two passes of one, overlay), the minimum, mean and maximum
 * of each sweep, its latency summary (the set of every writer:
 * histogram.h), the slowest zones, and the zones with I/O errors.
 * Written through html_emit.h only.
 */
#include "report/write/html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/write/html_emit.h"
#include "report/model/zones.h"
#include "lib/units.h"
#include "lib/xalloc.h"

#define CH_W 760
#define CH_H 340
#define CH_L 64		/* left margin: the MiB/s labels */
#define CH_R 16
#define CH_T 14
#define CH_B 42		/* bottom margin: the offset labels */
#define NSLOW 10

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
};
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

/* One line of the chart: a sweep of a run. */
struct series {
	size_t run;
	const struct record *rec;
	const struct zones_sweep *s;
	char name[160];
};

int html_zones_has(const struct compare *c)
{
	size_t r;

	for (r = 0; r < c->nrecs; r++)
		if (c->recs[r]->zones)
			return 1;
	return 0;
}

static size_t collect(const struct compare *c, struct series **out)
{
	struct series *v = NULL;
	size_t r, i, n = 0, alloc = 0;

	for (r = 0; r < c->nrecs; r++) {
		const struct record_zones *z = c->recs[r]->zones;

		for (i = 0; z && i < z->nsweeps; i++) {
			struct series *x;
			char sweep[48];

			xgrow((void **)&v, &alloc, n + 1, sizeof(*v));
			x = &v[n++];
			x->run = r;
			x->rec = c->recs[r];
			x->s = &z->sweeps[i];
			zones_sweep_name(z, x->s, sweep, sizeof(sweep));
			snprintf(x->name, sizeof(x->name), "run %zu (%s): %s",
				 r + 1, x->rec->label ? x->rec->label : "?",
				 sweep);
		}
	}
	*out = v;
	return n;
}

/* A round step for about n ticks over [0, max]. */
static double nice_step(double max, int n)
{
	double raw = max / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double px_x(double gib, double xmax)
{
	return CH_L + gib / xmax * (CH_W - CH_L - CH_R);
}

/* Above ymax (a clipped outlier): on the top edge. */
static double px_y(double mibps, double ymax)
{
	if (mibps > ymax)
		mibps = ymax;
	return CH_H - CH_B - mibps / ymax * (CH_H - CH_T - CH_B);
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The top of the y axis: the fastest zone, unless a few outliers (on a
 * busy machine a zone's time can shift to its neighbour: a spike beside a
 * dip) stand far above the rest; then 1.5 x the 98th percentile, and the
 * zones above it are drawn on the top edge and counted under the chart.
 */
static double y_top(const struct series *v, size_t n, double *max,
		    size_t *nclip)
{
	double *all = NULL, top;
	size_t k, i, m = 0, alloc = 0;

	*max = 0;
	*nclip = 0;
	for (k = 0; k < n; k++)
		for (i = 0; i < v[k].s->nzones; i++) {
			xgrow((void **)&all, &alloc, m + 1, sizeof(*all));
			all[m++] = v[k].s->zones[i].mibps;
		}
	if (!m)
		return 0;
	qsort(all, m, sizeof(*all), dbl_cmp);
	*max = all[m - 1];
	top = 1.5 * all[(m - 1) * 98 / 100];
	if (*max <= top || top <= 0)
		top = *max;
	for (i = 0; i < m; i++)
		*nclip += all[i] > top;
	free(all);
	return top;
}

static void axes(FILE *f, double xmax, double ymax)
{
	double step, v;

	step = nice_step(ymax, 6);
	for (v = 0; v <= ymax * 1.0001; v += step) {
		h_start(f, "line");
		h_attr(f, "class", "grid");
		h_attrf(f, "x1", "%d", CH_L);
		h_attrf(f, "x2", "%d", CH_W - CH_R);
		h_attrf(f, "y1", "%.1f", px_y(v, ymax));
		h_attrf(f, "y2", "%.1f", px_y(v, ymax));
		h_attr(f, "stroke", "#ddd");
		h_end(f, 1);
		h_start(f, "text");
		h_attrf(f, "x", "%d", CH_L - 4);
		h_attrf(f, "y", "%.1f", px_y(v, ymax) + 4);
		h_attr(f, "text-anchor", "end");
		h_end(f, 0);
		h_textf(f, "%.0f", v);
		h_close(f, "text");
	}
	step = nice_step(xmax, 8);
	for (v = 0; v <= xmax * 1.0001; v += step) {
		h_start(f, "line");
		h_attrf(f, "x1", "%.1f", px_x(v, xmax));
		h_attrf(f, "x2", "%.1f", px_x(v, xmax));
		h_attrf(f, "y1", "%d", CH_H - CH_B);
		h_attrf(f, "y2", "%d", CH_H - CH_B + 4);
		h_attr(f, "stroke", "#333");
		h_end(f, 1);
		h_start(f, "text");
		h_attrf(f, "x", "%.1f", px_x(v, xmax));
		h_attrf(f, "y", "%d", CH_H - CH_B + 16);
		h_attr(f, "text-anchor", "middle");
		h_end(f, 0);
		h_textf(f, step < 0.1 ? "%.3f" : step < 1 ? "%.2f" : "%.0f", v);
		h_close(f, "text");
	}
	h_start(f, "path");
	h_attrf(f, "d", "M%d %d V%d H%d", CH_L, CH_T, CH_H - CH_B, CH_W - CH_R);
	h_attr(f, "stroke", "#333");
	h_attr(f, "fill", "none");
	h_end(f, 1);
	h_start(f, "text");
	h_attrf(f, "x", "%d", (CH_L + CH_W - CH_R) / 2);
	h_attrf(f, "y", "%d", CH_H - 6);
	h_attr(f, "text-anchor", "middle");
	h_end(f, 0);
	h_text(f, "offset (GiB)");
	h_close(f, "text");
	h_start(f, "text");
	h_attrf(f, "transform", "translate(14 %d) rotate(-90)",
		(CH_T + CH_H - CH_B) / 2);
	h_attr(f, "text-anchor", "middle");
	h_end(f, 0);
	h_text(f, "MiB/s");
	h_close(f, "text");
}

/* The points of zones [from, to) of s, as "x,y x,y ...". */
static char *points(const struct zones_sweep *s, size_t from, size_t to,
		    double xmax, double ymax)
{
	char *buf = xmalloc((to - from) * 32 + 1);
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = from; i < to; i++) {
		const struct zone_row *r = &s->zones[i];
		double mid = ((double)r->offset + (double)r->length / 2) / GiB_D;

		len += (size_t)snprintf(buf + len, 32, "%s%.1f,%.1f",
					i > from ? " " : "",
					px_x(mid, xmax), px_y(r->mibps, ymax));
	}
	return buf;
}

/* A sweep's line, broken at zones with errors (red marks there). */
static void line(FILE *f, const struct series *x, size_t k, double xmax,
		 double ymax)
{
	const struct zones_sweep *s = x->s;
	size_t i, from = 0;

	h_start(f, "g");
	h_attrf(f, "data-series", "%zu", k + 1);
	h_attr(f, "data-name", x->name);
	h_end(f, 0);
	h_elem(f, "title", x->name);
	for (i = 0; i <= s->nzones; i++) {
		if (i < s->nzones && !s->zones[i].errors)
			continue;
		if (i > from) {
			char *pts = points(s, from, i, xmax, ymax);

			h_start(f, "polyline");
			h_attr(f, "points", pts);
			h_attr(f, "fill", "none");
			h_attr(f, "stroke", colours[k % NCOLOURS]);
			h_attr(f, "stroke-width", "1.6");
			if (s->write)
				h_attr(f, "stroke-dasharray", "6 3");
			h_end(f, 1);
			free(pts);
		}
		if (i < s->nzones) {
			const struct zone_row *r = &s->zones[i];

			h_start(f, "circle");
			h_attr(f, "class", "zone-error");
			h_attrf(f, "cx", "%.1f", px_x(((double)r->offset +
					(double)r->length / 2) / GiB_D, xmax));
			h_attrf(f, "cy", "%.1f", px_y(r->mibps, ymax));
			h_attr(f, "r", "4");
			h_attr(f, "fill", "#d00");
			h_end(f, 0);
			h_open(f, "title", NULL);
			h_textf(f, "I/O error at offset %" PRIu64,
				r->bad_unit ? r->bad_offset : r->err_offset);
			h_close(f, "title");
			h_close(f, "circle");
		}
		from = i + 1;
	}
	h_close(f, "g");
	h_lit(f, "\n");
}

static void legend(FILE *f, const struct series *v, size_t n)
{
	size_t k;

	h_open(f, "p", "class", "legend", NULL);
	for (k = 0; k < n; k++) {
		h_start(f, "span");
		h_attrf(f, "style", "color: %s", colours[k % NCOLOURS]);
		h_end(f, 0);
		if (v[k].s->write)
			h_lit(f, "&#9473; &#9473; ");
		else
			h_lit(f, "&#9644; ");
		h_close(f, "span");
		h_text(f, v[k].name);
		h_lit(f, " &#160; ");
	}
	h_close(f, "p");
	h_lit(f, "\n");
}

static void chart(FILE *f, const struct series *v, size_t n)
{
	double xmax = 0, ymax, top;
	size_t k, i, nclip;

	for (k = 0; k < n; k++)
		for (i = 0; i < v[k].s->nzones; i++) {
			const struct zone_row *r = &v[k].s->zones[i];
			double end = (double)(r->offset + r->length) / GiB_D;

			xmax = end > xmax ? end : xmax;
		}
	ymax = y_top(v, n, &top, &nclip);
	if (xmax <= 0 || ymax <= 0)
		return;
	if (!nclip)
		ymax *= 1.05;
	h_start(f, "svg");
	h_attr(f, "xmlns", "http://www.w3.org/2000/svg");
	h_attr(f, "class", "zones-chart");
	h_attrf(f, "width", "%d", CH_W);
	h_attrf(f, "height", "%d", CH_H);
	h_attr(f, "role", "img");
	h_attr(f, "aria-label", "MiB/s against the offset, per zone");
	h_attrf(f, "data-xmax-gib", "%.6f", xmax);
	h_attrf(f, "data-ymax-mibps", "%.3f", ymax);
	h_attrf(f, "data-clipped", "%zu", nclip);
	h_end(f, 0);
	axes(f, xmax, ymax);
	for (k = 0; k < n; k++)
		line(f, &v[k], k, xmax, ymax);
	h_close(f, "svg");
	h_lit(f, "\n");
	if (nclip) {
		h_open(f, "p", "class", "note", NULL);
		h_textf(f, "%zu zone%s above %.0f MiB/s %s drawn on the top "
			"edge (the fastest: %.0f MiB/s); see the CSV or JSON "
			"for their figures.", nclip, nclip == 1 ? "" : "s",
			ymax, nclip == 1 ? "is" : "are", top);
		h_close(f, "p");
		h_lit(f, "\n");
	}
	legend(f, v, n);
}

static void num_td(FILE *f, const char *fmt, double v)
{
	h_open(f, "td", "class", "num", NULL);
	if (isnan(v))
		h_lit(f, "-");
	else
		h_textf(f, fmt, v);
	h_close(f, "td");
}

/* The column heads of the latency summary: "mean ms" .. "max ms". */
static void lat_heads(FILE *f)
{
	int k;

	for (k = 0; k < HIST_SUMMARY_N; k++) {
		h_open(f, "th", NULL);
		h_textf(f, "%s ms", hist_summary_label[k]);
		h_close(f, "th");
	}
}

/* Its figures (hist_summary_ms), a cell each; "-" for one not known. */
static void lat_tds(FILE *f, const double ms[HIST_SUMMARY_N])
{
	int k;

	for (k = 0; k < HIST_SUMMARY_N; k++)
		num_td(f, "%.3f", ms[k]);
}

static void summary_table(FILE *f, const struct series *v, size_t n)
{
	size_t k;

	h_lit(f, "<table class=\"zones\">\n<tr><th>run and sweep</th>"
	      "<th>target</th><th>MiB</th><th>whole MiB/s</th>"
	      "<th>min zone</th><th>at GiB</th><th>mean zone</th>"
	      "<th>max zone</th><th>at GiB</th><th>zones with errors</th>"
	      "<th>cached at start</th></tr>\n");
	for (k = 0; k < n; k++) {
		const struct zones_sweep *s = v[k].s;
		struct zones_stats st;

		zones_sweep_stats(s, &st);
		h_open(f, "tr", NULL);
		h_open(f, "td", NULL);
		h_text(f, v[k].name);
		if (s->stopped)
			h_text(f, " (stopped: " RECORD_STOPPED_TEXT ")");
		h_close(f, "td");
		h_elem(f, "td", v[k].rec->target.path);
		num_td(f, "%.0f", (double)s->bytes / MiB_D);
		num_td(f, "%.1f", s->mibps);
		num_td(f, "%.1f", st.min);
		num_td(f, "%.3f", st.n ? (double)s->zones[st.imin].offset /
		       GiB_D : NAN);
		num_td(f, "%.1f", st.mean);
		num_td(f, "%.1f", st.max);
		num_td(f, "%.3f", st.n ? (double)s->zones[st.imax].offset /
		       GiB_D : NAN);
		num_td(f, "%.0f", (double)st.nerr);
		num_td(f, "%.0f %%", s->residency >= 0 ? s->residency * 100 :
		       NAN);
		h_close(f, "tr");
		h_lit(f, "\n");
	}
	h_lit(f, "</table>\n");
}

/* Every sweep's latency summary, as clyde's other latency tables. */
static void latency_table(FILE *f, const struct series *v, size_t n)
{
	double ms[HIST_SUMMARY_N];
	size_t k;

	h_lit(f, "<h3>Latency per I/O of each sweep</h3>\n<p class=\"note\">"
	      "In milliseconds, from the sweep's histogram of all its I/Os."
	      "</p>\n<table class=\"zones-latency\">\n<tr><th>run and "
	      "sweep</th><th>I/Os</th>");
	lat_heads(f);
	h_lit(f, "</tr>\n");
	for (k = 0; k < n; k++) {
		const struct zones_sweep *s = v[k].s;

		hist_summary_ms(&s->lat, ms);
		h_open(f, "tr", NULL);
		h_elem(f, "td", v[k].name);
		num_td(f, "%.0f", (double)s->lat.count);
		lat_tds(f, ms);
		h_close(f, "tr");
		h_lit(f, "\n");
	}
	h_lit(f, "</table>\n");
}

struct slow {
	const struct series *x;
	size_t zone;
	double mibps;
};

static int slow_cmp(const void *a, const void *b)
{
	double x = ((const struct slow *)a)->mibps;
	double y = ((const struct slow *)b)->mibps;

	return x < y ? -1 : x > y;
}

/* The slowest zones of every sweep together, and the failed ones. */
static void zone_tables(FILE *f, const struct series *v, size_t n)
{
	struct slow *all = NULL;
	size_t k, i, m = 0, alloc = 0, nerr = 0;

	for (k = 0; k < n; k++)
		for (i = 0; i < v[k].s->nzones; i++) {
			const struct zone_row *r = &v[k].s->zones[i];

			if (r->errors) {
				nerr++;
				continue;
			}
			if (!zones_row_rated(r))	/* low precision */
				continue;
			xgrow((void **)&all, &alloc, m + 1, sizeof(*all));
			all[m].x = &v[k];
			all[m].zone = i;
			all[m++].mibps = r->mibps;
		}
	qsort(all, m, sizeof(*all), slow_cmp);
	h_lit(f, "<h3>The slowest zones</h3>\n<table class=\"zones-slow\">\n"
	      "<tr><th>run and sweep</th><th>zone</th><th>offset GiB</th>"
	      "<th>MiB/s</th>");
	lat_heads(f);
	h_lit(f, "</tr>\n");
	for (i = 0; i < m && i < NSLOW; i++) {
		const struct zone_row *r = &all[i].x->s->zones[all[i].zone];

		h_open(f, "tr", NULL);
		h_elem(f, "td", all[i].x->name);
		num_td(f, "%.0f", (double)all[i].zone + 1);
		num_td(f, "%.3f", (double)r->offset / GiB_D);
		num_td(f, "%.1f", r->mibps);
		lat_tds(f, r->lat_ms);
		h_close(f, "tr");
		h_lit(f, "\n");
	}
	h_lit(f, "</table>\n");
	free(all);
	if (!nerr)
		return;
	h_lit(f, "<h3 id=\"zones-errors\">Zones with I/O errors</h3>\n"
	      "<table class=\"zones-errors\">\n<tr><th>run and sweep</th>"
	      "<th>zone</th><th>failed I/Os</th><th>first at offset</th>"
	      "<th>first unreadable unit</th><th>error</th></tr>\n");
	for (k = 0; k < n; k++)
		for (i = 0; i < v[k].s->nzones; i++) {
			const struct zone_row *r = &v[k].s->zones[i];

			if (!r->errors)
				continue;
			h_open(f, "tr", NULL);
			h_elem(f, "td", v[k].name);
			num_td(f, "%.0f", (double)i + 1);
			num_td(f, "%.0f", (double)r->errors);
			h_open(f, "td", "class", "num", NULL);
			h_textf(f, "%" PRIu64, r->err_offset);
			h_close(f, "td");
			h_open(f, "td", "class", "num", NULL);
			if (r->bad_unit)
				h_textf(f, "%" PRIu64 " (%" PRIu64 " bytes)",
					r->bad_offset, r->bad_unit);
			else
				h_lit(f, "-");
			h_close(f, "td");
			h_elem(f, "td", r->err ? strerror(r->err) :
			       "short transfer");
			h_close(f, "tr");
			h_lit(f, "\n");
		}
	h_lit(f, "</table>\n");
}

void html_zones(struct page *p)
{
	FILE *f = p->f;
	struct series *v;
	size_t n = collect(p->c, &v);

	if (!n) {
		free(v);
		return;
	}
	h_lit(f, "<h2 id=\"zones\">Zones: throughput across the target</h2>\n"
	      "<p class=\"note\">clyde zones: the target read (and with "
	      "--write written) from start to end in zones, O_DIRECT; each "
	      "point is a zone's MiB/s at its middle offset, a line per run "
	      "and sweep (writes dashed), broken at zones with I/O errors "
	      "(red).  A zone's time runs from the end of the zone before it "
	      "to its own last completion.  On a file, or a loop device "
	      "without direct I/O, the host page cache may serve part of it: "
	      "the share cached at the start of each sweep is in the "
	      "table.</p>\n");
	chart(f, v, n);
	summary_table(f, v, n);
	latency_table(f, v, n);
	zone_tables(f, v, n);
	free(v);
}
