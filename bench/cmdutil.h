/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CMDUTIL_H
#define CLYDE_CMDUTIL_H

/*
 * The plumbing the benchmark commands (`clyde run`, `clyde matrix`) share:
 * their exit codes, the stop-on-signal protocol, usage errors (the
 * outputs they append to are bench/outputs.h).  This is
 * the command layer: it prints to stderr.
 */

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/common_options.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/*
 * Set by the first SIGINT, SIGTERM or SIGHUP after cmd_install_signals():
 * the command stops after the current operation.
 */
extern volatile sig_atomic_t cmd_stop_signal;

/* Set by every later signal: hurry the cleanup (never skip it). */
extern volatile sig_atomic_t cmd_hurry;

/*
 * Catch SIGINT, SIGTERM and SIGHUP as above and ignore SIGPIPE.  A second
 * signal calls second (when not NULL; it must be async-signal-safe, e.g.
 * unlink the big test file, kill the workers) and returns: the command
 * still removes all it made and writes the record of what finished, then
 * exits with 128 + the first signal.
 */
void cmd_install_signals(void (*second)(void));

/* "clyde: <message>" on stderr; returns EXIT_USAGE. */
__attribute__((format(printf, 1, 2)))
int cmd_usage_error(const char *fmt, ...);

/*
 * What a command does after its options were parsed (r): 0 to go on; 1 to
 * end with *status, 0 after --help or --version, EXIT_USAGE after printing
 * err.
 */
int cmd_parsed(enum options_result r, const char *err, int *status);

/* A seed for a run that was given none: getrandom(), else pid ^ time. */
uint32_t cmd_random_seed(void);

#endif
