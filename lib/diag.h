/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_DIAG_H
#define CLYDE_DIAG_H

/*
 * The one way a message reaches stderr (git's usage.c): one line, one
 * prefix rule and one escaping rule.
 *
 *   clyde: -d: '/x/\x1b[31m': No such file or directory
 *   clyde report: warning: 2 runs without a bonnie++ test
 *
 * The prefix is "clyde: ", or "clyde CMD: " after diag_set_command(CMD);
 * a warning adds "warning: ".  The whole message is escaped as
 * textesc.h says (control bytes, bytes that are not UTF-8, bidi
 * overrides), so every %s that came from an input (a path, a label, a
 * line of a file) is shown, never obeyed: it cannot end the line, forge
 * another, colour the terminal or reorder the text.  Nothing here
 * allocates, so it works when memory is out.
 */

#include <stdarg.h>

/* The command whose messages follow ("report"); NULL: clyde alone. */
void diag_set_command(const char *cmd);

/* An error: its line, and -1 (return error(...) as git does). */
__attribute__((format(printf, 1, 2)))
int diag_error(const char *fmt, ...);

__attribute__((format(printf, 1, 0)))
int diag_verror(const char *fmt, va_list ap);

/* A warning: "warning: " after the prefix. */
__attribute__((format(printf, 1, 2)))
void diag_warning(const char *fmt, ...);

/* A note, information on the way (a prompt, a verdict): its line. */
__attribute__((format(printf, 1, 2)))
void diag_note(const char *fmt, ...);

/* An error, then exit(status). */
__attribute__((format(printf, 2, 3), noreturn))
void diag_die(int status, const char *fmt, ...);

#endif
