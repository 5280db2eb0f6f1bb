/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TEXTESC_H
#define CLYDE_TEXTESC_H

/*
 * Strings from an input (a -d path, a label, a tag) as the text outputs
 * print them: a control character (C0, DEL) is shown as \n, \t, \r or
 * \xNN, the way clyde's error messages show them, so that no path can
 * start a line of its own (a forged "warning:" or figure line) or send a
 * terminal an escape sequence.  Every text writer uses these.
 */

#include <stdio.h>

/* s escaped, in malloc'd memory (xalloc: never NULL); NULL gives "". */
char *text_escaped(const char *s);

/* s escaped into buf of len bytes (cut at len - 1); returns buf. */
char *text_escape(char *buf, size_t len, const char *s);

/* Write s escaped to out. */
void text_put(FILE *out, const char *s);

#endif
