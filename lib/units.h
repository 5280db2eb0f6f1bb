/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_UNITS_H
#define CLYDE_UNITS_H

/*
 * Numbers and sizes as clyde's command lines spell them (bonnie++'s
 * conventions): shared by every command's options table.
 */

#include <stddef.h>
#include <stdint.h>

#define KiB ((uint64_t)1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)
#define TiB (GiB * 1024)
#define PiB (TiB * 1024)

/* The same as doubles, for rates and offsets shown in MiB or GiB. */
#define MiB_D ((double)MiB)
#define GiB_D ((double)GiB)

/*
 * Parse a size: a decimal number with an optional binary suffix k, m, g or
 * t (any case); without a suffix it counts in units of unit bytes.  0,
 * -ERANGE when it is a size no uint64_t holds, or -1 (junk, negative).
 */
int parse_size(const char *s, uint64_t unit, uint64_t *out);

/* Parse a non-negative decimal integer no greater than max.  0 or -1. */
int parse_uint(const char *s, uint64_t max, uint64_t *out);

/*
 * Parse a duration: a plain decimal number (digits, at most one '.'; no
 * sign, exponent, hex, inf or nan) with an optional suffix s or ms, in
 * seconds.  0 or -1.
 */
int parse_seconds(const char *s, double *out);

/*
 * a * b and a + b into *out: 0, or -1 when the result does not fit in 64
 * bits (every size product goes through these: a wrapped size passes any
 * space check).
 */
int mul_u64(uint64_t a, uint64_t b, uint64_t *out);
int add_u64(uint64_t a, uint64_t b, uint64_t *out);

/* Format bytes as bonnie++ does: "512M", "2G", or plain bytes. */
void format_size(char *buf, size_t len, uint64_t bytes);

#endif
