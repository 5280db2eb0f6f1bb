/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_VERIFY_H
#define CLYDE_VERIFY_H

/*
 * Data validation, vdbench style.  Data is checked in units (the largest
 * size every block size is a multiple of); every unit starts with a
 * 32-byte header naming what it should be -- the file (stream), its offset
 * in the file and its generation (0 after the prefill, +1 at each write of
 * that unit) -- followed by unique data and a checksum over the whole unit.
 * A reader that knows the expected generation checks all of it; a reader
 * that does not (data written by an earlier run) checks the header's
 * offset, the stream and the checksum and learns the generation.
 */

#include <stddef.h>
#include <stdint.h>

#define VERIFY_HDR_SIZE 32u
#define VERIFY_ANY_GEN UINT32_MAX	/* expected generation unknown */

/* What a unit is, or should be. */
struct verify_id {
	uint64_t offset;	/* byte offset of the unit in its file */
	uint32_t stream;	/* the file's index in the run */
	uint32_t gen;		/* generation */
};

enum verify_result {
	VERIFY_OK = 0,
	VERIFY_BAD_MAGIC,	/* no header: not written by --verify */
	VERIFY_BAD_SUM,		/* the checksum does not match the data */
	VERIFY_BAD_ID,		/* intact, another offset or stream */
	VERIFY_BAD_GEN,		/* intact, another generation: stale */
};

/* Stamp one unit of unit bytes (>= VERIFY_HDR_SIZE, a multiple of 8). */
void verify_stamp(void *buf, size_t unit, const struct verify_id *id,
		  uint64_t seed);

/*
 * Check one unit against want (want->gen may be VERIFY_ANY_GEN).  found
 * gets what the header says (zero when the magic is missing).
 */
enum verify_result verify_check(const void *buf, size_t unit,
				const struct verify_id *want,
				struct verify_id *found);

/*
 * Does buf (VERIFY_HDR_SIZE bytes) start a unit header naming offset?
 * The magic and the offset: 96 bits that other data matches only by a
 * vanishing chance.  1 or 0; the checksum is not checked (the unit may be
 * longer than what the caller read).
 */
int verify_header_names(const void *buf, uint64_t offset);

/* "checksum mismatch", "stale generation" ...: what a result means. */
const char *verify_result_str(enum verify_result r);

#endif
