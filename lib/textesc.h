/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TEXTESC_H
#define CLYDE_TEXTESC_H

/*
 * The one escaping rule for strings from an input (a -d path, a label, a
 * tag, a file's contents) in every message and every text output:
 *
 *   - a C0 control character or DEL: \n, \t, \r, else \xNN;
 *   - a byte that starts no valid UTF-8 character: \xNN;
 *   - a C1 control (U+0080..U+009F) and a bidirectional formatting
 *     character (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069):
 *     \uNNNN;
 *   - anything else as it is (valid UTF-8 text, 日本語 included).
 *
 * So no input can start a line of its own (a forged "warning:" or figure
 * line), send a terminal an escape sequence, or reorder the text around
 * it (U+202E).  An escape is never longer than 4 bytes per input byte.
 * Every message (diag.h) and every text writer uses these.
 */

#include <stddef.h>
#include <stdio.h>

/*
 * The length of the valid UTF-8 character at s (at most n bytes; s[0]
 * below 0x80 is 1), or 0 when s starts none (overlong, a surrogate,
 * above U+10FFFF, cut short).
 */
size_t text_utf8_len(const char *s, size_t n);

/*
 * s escaped into buf of len bytes, cut at a whole character so that it
 * fits with its NUL: the length written.  Allocates nothing.
 */
size_t text_escape(char *buf, size_t len, const char *s);

/* s escaped, in malloc'd memory (xalloc: never NULL); NULL gives "". */
char *text_escaped(const char *s);

/* Write s escaped to out. */
void text_put(FILE *out, const char *s);

/*
 * The same, and each ASCII character of also as \xNN too: what a format
 * cannot hold as it is (bonnie++'s CSV line, split at every comma, has no
 * quoting: "," makes "fc,raid5" fc\x2craid5).
 */
void text_put_also(FILE *out, const char *s, const char *also);

#endif
