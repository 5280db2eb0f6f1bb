/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_INFO_H
#define CLYDE_INFO_H

/*
 * `clyde info PATH...`: what clyde detects about each target (mount,
 * filesystem geometry, device stack, host), as text or, with --json, as one
 * record per line (the record of a run, without results).
 * `clyde info --probe IMAGE...`: what libblkid finds on an image or device.
 * Exit status: 0, 1 when a path or image could not be examined, 2 usage.
 */
int cmd_info(int argc, char **argv);

/* record_fill_env() lives in bench/env.c */
#include "bench/env.h"

#endif
