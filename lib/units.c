// SPDX-License-Identifier: GPL-2.0-only
/* Sizes and counts as clyde's command lines spell them. */
#include "lib/units.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (errno == ERANGE)
		return -ERANGE;
	if (errno)
		return -1;
	if (*end) {
		switch (*end) {
		case 'k': case 'K': mult = KiB; break;
		case 'm': case 'M': mult = MiB; break;
		case 'g': case 'G': mult = GiB; break;
		case 't': case 'T': mult = TiB; break;
		default: return -1;
		}
		if (end[1])
			return -1;
	}
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
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

int parse_seconds(const char *s, double *out)
{
	const char *p = s;
	int dots = 0, digits = 0;
	char *end;
	double v;

	if (!s)
		return -1;
	for (; (*p >= '0' && *p <= '9') || *p == '.'; p++) {
		if (*p == '.')
			dots++;
		else
			digits++;
	}
	if (!digits || dots > 1 || (*p && strcmp(p, "s") && strcmp(p, "ms")))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end != p)
		return -1;
	if (!strcmp(p, "ms"))
		v /= 1000;
	*out = v;
	return 0;
}

int mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

int add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_add_overflow(a, b, out) ? -1 : 0;
}
