/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CLEAN_H
#define CLYDE_CLEAN_H

/*
 * `clyde clean DIR...`: remove what clyde left in each DIR after being
 * killed: its own marked directories (bench/rundir.h) whose process of
 * this host no longer runs.  Nothing else is touched.
 */
int cmd_clean(int argc, char **argv);

#endif
