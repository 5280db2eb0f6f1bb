// SPDX-License-Identifier: GPL-2.0-only
/* Sizes and counts as clyde's command lines spell them. */
#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t unit, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = unit;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		switch (*end) {
		case 'k': case 'K': mult = KiB; break;
		case 'm': case 'M': mult = MiB; break;
		case 'g': case 'G': mult = GiB; break;
		case 't': case 'T': mult = GiB * 1024; break;
		default: return -1;
		}
		if (end[1])
			return -1;
	}
	if (v && mult > UINT64_MAX / v)
		return -1;
	*out = v * mult;
	return 0;
}

void format_size(char *buf, size_t len, uint64_t bytes)
{
	if (bytes && bytes % GiB == 0)
		snprintf(buf, len, "%" PRIu64 "G", bytes / GiB);
	else if (bytes && bytes % MiB == 0)
		snprintf(buf, len, "%" PRIu64 "M", bytes / MiB);
	else if (bytes && bytes % KiB == 0)
		snprintf(buf, len, "%" PRIu64 "k", bytes / KiB);
	else
		snprintf(buf, len, "%" PRIu64, bytes);
}
