// SPDX-License-Identifier: GPL-2.0-only
/* Number formatting shared by the report's writers (numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void report_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "seeks/s") && v < 1000)
		snprintf(buf, len, "%.1f", v);
	else if (v < 10 && v != floor(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.0f", v);
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
