// SPDX-License-Identifier: GPL-2.0-only
/* Number formatting shared by the report's writers (numfmt.h). */
#include "report/write/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/numgroup.h"

void report_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "seeks/s") && v < 1000)
		snprintf(buf, len, "%.1f", v);
	else if (v < 10 && v != floor(v))
		snprintf(buf, len, "%.2f", v);
	else
		num_grouped(buf, len, "%.0f", v);
}

void report_fmt_ci(char *buf, size_t len, const struct stats_summary *s,
		   const char *unit)
{
	char lo[32], hi[32];

	if (s->n < 2) {
		snprintf(buf, len, "single run");
		return;
	}
	if (!stats_has_interval(s)) {
		snprintf(buf, len, "no interval: a value is not positive");
		return;
	}
	report_fmt_value(lo, sizeof(lo), s->ci_lo, unit);
	report_fmt_value(hi, sizeof(hi), s->ci_hi, unit);
	snprintf(buf, len, "%s..%s", lo, hi);
}

void report_fmt_us(char *buf, size_t len, uint64_t ns)
{
	double us = (double)ns / 1000.0;

	if (us < 10)
		snprintf(buf, len, "%.2f", us);
	else if (us < 1000)
		snprintf(buf, len, "%.1f", us);
	else
		snprintf(buf, len, "%.0f", us);
}
