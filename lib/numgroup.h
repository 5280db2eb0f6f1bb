/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_NUMGROUP_H
#define CLYDE_NUMGROUP_H

/*
 * A number with its integer digits grouped by thousands with commas
 * ("3,547,294", "1,234.56"), whatever the locale: a report is read on
 * other machines than the one that wrote it.
 */

#include <stddef.h>

/* printf(fmt, v) (fmt: one floating conversion) grouped into buf. */
void num_grouped(char *buf, size_t len, const char *fmt, double v)
	__attribute__((format(printf, 3, 0)));

#endif
