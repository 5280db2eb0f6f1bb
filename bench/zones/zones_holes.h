/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ZONES_HOLES_H
#define CLYDE_ZONES_HOLES_H

#include <stdint.h>

#include "report/model/zones.h"

/*
 * Mark the zones of read sweep s that lie over unallocated space (holes)
 * of file 'path', whose byte 'base' is the target's byte 0 (a loop
 * device's backing file and its offset, or the file swept itself, base 0):
 * each zone's unalloc is set to its hole bytes, found with SEEK_DATA and
 * SEEK_HOLE (a filesystem without them reports everything as data).
 * Returns the zones marked, or -errno when the file cannot be opened.
 */
long zones_mark_holes(const char *path, uint64_t base, struct zones_sweep *s);

#endif
