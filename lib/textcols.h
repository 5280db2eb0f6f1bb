/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TEXTCOLS_H
#define CLYDE_TEXTCOLS_H

/*
 * Columns of the text outputs: what "80 columns" means for strings from
 * an input (labels, paths, warnings), and the one latency format of the
 * text tables.  Columns are display columns, as `LC_ALL=C.UTF-8 wc -L`
 * counts them: wcwidth() of each UTF-8 character, 2 for an East-Asian
 * wide one (日本語 is 6), 0 for a combining mark, 1 for any other (or for
 * every character where no C.UTF-8 locale is installed); a byte that
 * starts no valid character is 1.  Control characters are escaped first
 * (textesc.h), so they count as their escape.
 */

#include <stddef.h>
#include <stdio.h>

/* The display columns of s (NULL: 0); of its first n bytes. */
size_t text_cols(const char *s);
size_t text_cols_n(const char *s, size_t n);

/* The bytes of the longest start of s in at most cols columns. */
size_t text_bytes_of_cols(const char *s, size_t cols);

/*
 * s escaped into buf (len bytes) in at most cols columns: when it needs
 * more, cut at a character boundary and ended by "..." so that the cut
 * shows.  Returns buf.
 */
char *text_fit(char *buf, size_t len, const char *s, size_t cols);

/*
 * As text_fit, but a cut keeps both ends ("8K 1 thr...100% write"): for
 * names whose end tells them apart as much as their start.
 */
char *text_fit_ends(char *buf, size_t len, const char *s, size_t cols);

/*
 * Write text (lines ended by '\n' or not) to out with each line broken at
 * spaces into lines of at most width columns; continuation lines start
 * with indent spaces (a hanging indent).  A word longer than the room is
 * broken inside, so no line passes width whatever the input.  Control
 * characters other than '\n' are escaped.
 */
void text_wrap(FILE *out, const char *text, size_t width, size_t indent);

/*
 * The same for the text fmt makes, all of it escaped first (newlines
 * included, so that what came from an input stays on its lines).
 */
__attribute__((format(printf, 4, 5)))
void text_wrapf(FILE *out, size_t width, size_t indent, const char *fmt,
		...);

/* The widest figure text_fmt_ns prints, in columns. */
#define TEXT_NS_COLS 7

/*
 * A latency in ns with three significant digits and a unit that keeps the
 * number below 1000 ("850ns", "5.47us", "12.3ms", "120s"), at most
 * TEXT_NS_COLS columns for any value (days, "213504d", past 999999 s).
 */
void text_fmt_ns(char *buf, size_t len, double ns);

#endif
