/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_NUMFMT_H
#define CLYDE_NUMFMT_H

/*
 * Number formatting shared by the report's writers (HTML, text
 * comparison and the others).
 */

#include <stddef.h>
#include <stdint.h>

/*
 * A rate as bonnie++ prints it into buf: "%.0f"; below 10 and not whole
 * with two decimals; seeks/s below 1000 with one decimal.
 */
void report_fmt_value(char *buf, size_t len, double v, const char *unit);

/* A latency of ns nanoseconds in microseconds: 2, 1 or 0 decimals. */
void report_fmt_us(char *buf, size_t len, uint64_t ns);

#endif
