/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_RUN_H
#define CLYDE_RUN_H

/*
 * `clyde run`: the classic suite.  Parses the options, checks the target,
 * runs the tests (-x times), writes every requested output from the run
 * record, and returns the exit status: 0 success, 1 a test failed, 2 bad
 * usage or input, 128+N interrupted by signal N.
 */
int cmd_run(int argc, char **argv);

/* record_fill_env() lives in bench/env.c */
#include "bench/env.h"

#endif
