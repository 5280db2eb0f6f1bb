// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zones section of a run record as CSV: one row per zone and sweep,
 * '#' comments, a blank line between sweeps (see zones.h).
 */
#include "report/model/zones.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lib/textesc.h"
#include "lib/units.h"

/* A string in a '#' comment: on one line, whatever it holds, escaped by
 * the one rule of every text clyde writes (textesc.h). */
static void comment_str(FILE *out, const char *s)
{
	if (s)
		text_put(out, s);
}

static void csv_num(FILE *out, double v, int prec)
{
	if (!isnan(v))
		fprintf(out, "%.*f", prec, v);
	putc(',', out);
}

/*
 * The latency summary's columns: mean, p99 and max where the first clyde
 * zones CSV had them (7 to 9: scripts and gnuplot find columns by
 * number), the other figures of the set at the end of the row, in the
 * set's order.
 */
static int lat_in_place(int k)
{
	return k == HIST_S_MEAN || k == HIST_S_P99 || k == HIST_S_MAX;
}

/* The columns at the end: names (header) or r's figures; the page cache
 * share last (empty: not measured). */
static void lat_tail(FILE *out, const struct zone_row *r)
{
	int k;

	for (k = 0; k < HIST_SUMMARY_N; k++) {
		if (lat_in_place(k))
			continue;
		putc(',', out);
		if (!r)
			fprintf(out, "lat_%s_ms", hist_summary_key[k]);
		else if (!isnan(r->lat_ms[k]))
			fprintf(out, "%.4f", r->lat_ms[k]);
	}
	if (!r)
		fputs(",resident", out);
	else if (r->resident >= 0)
		fprintf(out, ",%.3f", r->resident);
	else
		putc(',', out);
	putc('\n', out);
}

int zones_write_csv(const struct record *rec, FILE *out)
{
	const struct record_zones *z = rec->zones;
	size_t i, k;

	if (!z)
		return 0;
	fputs("# clyde zones ", out);
	comment_str(out, rec->version);
	fputs(": '", out);
	comment_str(out, rec->target.path);
	fprintf(out, "' (%s), %" PRIu64 " bytes, %zu zones of %" PRIu64
		" bytes, %" PRIu64 "-byte I/Os, %s qd %u, %s; label '",
		z->kind ? z->kind : "?", z->size, z->nzones, z->zone_size,
		z->bs, z->engine ? z->engine : "?", z->qd,
		z->direct ? "O_DIRECT" : "buffered");
	comment_str(out, rec->label);
	fputs("', start ", out);
	comment_str(out, rec->start);
	fputs("\n# offset_gib,offset,length,pass,direction,mibps,lat_mean_ms,"
	      "lat_p99_ms,lat_max_ms,bytes,elapsed_s,ios,errors,error,"
	      "error_offset,unallocated_bytes,low_precision", out);
	lat_tail(out, NULL);
	for (i = 0; i < z->nsweeps; i++) {
		const struct zones_sweep *s = &z->sweeps[i];

		if (i)
			putc('\n', out);
		for (k = 0; k < s->nzones; k++) {
			const struct zone_row *r = &s->zones[k];

			fprintf(out, "%.6f,%" PRIu64 ",%" PRIu64 ",%u,%s,",
				(double)r->offset / GiB_D, r->offset,
				r->length, s->pass, s->write ? "write" : "read");
			csv_num(out, r->mibps, 3);
			csv_num(out, r->lat_ms[HIST_S_MEAN], 4);
			csv_num(out, r->lat_ms[HIST_S_P99], 4);
			csv_num(out, r->lat_ms[HIST_S_MAX], 4);
			fprintf(out, "%" PRIu64 ",%.6f,%" PRIu64 ",%" PRIu64 ",",
				r->bytes, r->elapsed, r->ios, r->errors);
			if (r->errors)
				fprintf(out, "\"%s\",%" PRIu64, r->err ?
					strerror(r->err) : "short transfer",
					r->err_offset);
			else
				putc(',', out);
			fprintf(out, ",%" PRIu64 ",%d", r->unalloc,
				zones_row_coarse(r));
			lat_tail(out, r);
		}
	}
	return ferror(out) ? -1 : 0;
}
