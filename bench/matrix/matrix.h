/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_MATRIX_H
#define CLYDE_MATRIX_H

/*
 * `clyde matrix`: block size x threads x pattern x read mix, XDISK and
 * vdbench style.  Checks the options and the target before creating
 * anything, prefills the files with unique data, runs every cell for
 * --time after --ramp with its threads released together, and writes the
 * XDISK tables, the JSON record and the long CSV.  Returns the exit status:
 * 0, 1 a cell or the prefill failed, 2 bad usage or input, 128+N signal.
 */
int cmd_matrix(int argc, char **argv);

#endif
