/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_NUMFMT_H
#define CLYDE_NUMFMT_H

/*
 * Number formatting shared by the report's writers (HTML, text
 * comparison and the others).  Rates are grouped by thousands with commas
 * (3,547,294), whatever the locale, since a report is read elsewhere;
 * bonnie++'s own formats (its CSV, its 80-column table: report/model,
 * write/text.c, write/bonnie_csv.c) never come through here and keep
 * bonnie++'s plain digits.
 */

#include <stddef.h>
#include <stdint.h>

#include "report/analyze/stats.h"

/*
 * A rate into buf: "%.0f" grouped by thousands; below 10 and not whole
 * with two decimals; seeks/s below 1000 with one decimal.
 */
void report_fmt_value(char *buf, size_t len, double v, const char *unit);

/*
 * The 95 % interval of s as "lo..hi" (report_fmt_value each), or why
 * there is none: "single run", "no interval: a value is not positive".
 */
void report_fmt_ci(char *buf, size_t len, const struct stats_summary *s,
		   const char *unit);

/* A latency of ns nanoseconds in microseconds: 2, 1 or 0 decimals. */
void report_fmt_us(char *buf, size_t len, uint64_t ns);

#endif
