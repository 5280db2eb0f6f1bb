/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CMDUTIL_H
#define CLYDE_CMDUTIL_H

/*
 * The plumbing the benchmark commands (`clyde run`, `clyde matrix`) share:
 * their exit codes, the stop-on-signal protocol, usage errors, opening the
 * outputs they append to, and removing the directory they made.  This is
 * the command layer: it prints to stderr.
 */

#include <signal.h>
#include <stdio.h>

#include "options.h"

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

/* What an output file holds: an existing one must start the same way. */
enum cmd_out_format {
	CMD_OUT_JSON,		/* JSON lines: each a '{' record */
	CMD_OUT_BONNIE_CSV,	/* bonnie++ 1.98 lines of clyde run */
	CMD_OUT_MATRIX_CSV,	/* clyde matrix's long CSV, its header first */
	CMD_OUT_ZONES_CSV,	/* clyde zones' CSV, "# clyde zones" first */
};

/*
 * Open path to append (opt names the option in the message).  An existing
 * non-empty file whose first line is not of format fmt is refused (nothing
 * written).  When fresh or created is not NULL: *fresh is set when the
 * file is new or empty, *created when it is new.  NULL after a usage error
 * message.
 */
FILE *cmd_open_output(const char *opt, const char *path,
		      enum cmd_out_format fmt, int *fresh, int *created);

/*
 * What a command does after its options were parsed (r): 0 to go on; 1 to
 * end with *status, 0 after --help or --version, EXIT_USAGE after printing
 * err.
 */
int cmd_parsed(enum options_result r, const char *err, int *status);

/* Remove dir and all it holds (the command made all of it). */
void cmd_remove_tree(const char *dir);

#endif
