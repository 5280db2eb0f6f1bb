// SPDX-License-Identifier: GPL-2.0-only
/*
 * Messages on stderr: one prefix rule, one escaping rule (diag.h).
 */
#include "lib/diag.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/textesc.h"

static const char *command;

void diag_set_command(const char *cmd)
{
	command = cmd;
}

/*
 * The line: prefix, kind ("warning: " or ""), the message escaped, made
 * whole before one fwrite: stderr is unbuffered, so the line is one
 * write(2), never interleaved with a forked worker's line.
 */
static void say(const char *kind, const char *fmt, va_list ap)
{
	char msg[4096], line[4 * sizeof(msg) + 64];
	int k;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	k = snprintf(line, sizeof(line) - 1, "clyde%s%s: %s",
		     command ? " " : "", command ? command : "", kind);
	if (k < 0 || (size_t)k >= sizeof(line) - 1)
		k = 0;
	k += (int)text_escape(line + k, sizeof(line) - 1 - (size_t)k, msg);
	line[k++] = '\n';
	fwrite(line, 1, (size_t)k, stderr);
}

int diag_verror(const char *fmt, va_list ap)
{
	say("", fmt, ap);
	return -1;
}

int diag_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	return -1;
}

void diag_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void diag_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	exit(status);
}
