/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ZONES_H
#define CLYDE_ZONES_H

/*
 * `clyde zones`: throughput across a whole block device or file, zone by
 * zone, as bonnie++'s zcav (bench/zones/zones.c: the record, the sweeps and
 * the outputs; bench/zones/zones_target.c: the target; bench/zones/zones_io.c: one
 * sweep).  Returns the exit status: 0, 1 an I/O
 * failed or a created file ran out of space (results written), 2 bad
 * usage or input (nothing left behind), 128+N signal N (the zones done
 * are written).
 */
int cmd_zones(int argc, char **argv);

#endif
