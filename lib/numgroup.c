// SPDX-License-Identifier: GPL-2.0-only
/* Thousands grouping; see numgroup.h. */
#include "lib/numgroup.h"

#include <stdio.h>

void num_grouped(char *buf, size_t len, const char *fmt, double v)
{
	char raw[352];
	size_t i, o = 0, digits, start;

	if (!len)
		return;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(raw, sizeof(raw), fmt, v);
#pragma GCC diagnostic pop
	start = raw[0] == '-' || raw[0] == '+';
	for (digits = 0; raw[start + digits] >= '0' &&
	     raw[start + digits] <= '9'; digits++)
		;
	for (i = 0; raw[i] && o + 1 < len; i++) {
		buf[o++] = raw[i];
		/* a comma after each integer digit that has a multiple of
		 * three integer digits after it */
		if (i >= start && i + 1 < start + digits &&
		    (start + digits - i - 1) % 3 == 0 && o + 1 < len)
			buf[o++] = ',';
	}
	buf[o] = '\0';
}
