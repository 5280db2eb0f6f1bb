/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_HOUT_H
#define CLYDE_HOUT_H

/*
 * The HTML emitter: every element, attribute and text node of the report
 * goes through these functions, so a string from an input record cannot
 * reach the page unescaped.  The page is polyglot HTML5 that a strict
 * XML parser accepts: every element is closed, every attribute quoted,
 * every value escaped (& < > " ' and, in attributes, tab and newline as
 * character references), control characters, stray bytes and UTF-8
 * sequences XML forbids (U+FFFE, surrogates, overlong forms) replaced by
 * one U+FFFD each.
 *
 * Element and attribute names are the program's own, never data: they
 * must be [a-z0-9:-]+ (abort() otherwise, a programming error).  Values
 * may be anything, NULL included (an attribute whose value is NULL is
 * left out; NULL text writes nothing).  Stream errors stay in the FILE:
 * check ferror()/fflush() once at the end.
 *
 *	h_open(f, "td", "class", "num", "data-test", name, NULL);
 *	h_textf(f, "%.0f", v);
 *	h_close(f, "td");
 *
 * writes <td class="num" data-test="...">123</td>.
 */

#include <stdarg.h>
#include <stdio.h>

/*
 * <tag name="value" ...>: the attributes are (name, value) pairs of
 * strings ended by a NULL name.  A pair with a NULL value is skipped.
 */
void h_open(FILE *f, const char *tag, ...);

/* The same as a self-closed element, <tag name="value" .../>. */
void h_void(FILE *f, const char *tag, ...);

/* </tag>. */
void h_close(FILE *f, const char *tag);

/*
 * An element piecewise, for attributes whose values are formatted:
 * h_start() writes "<tag", h_attr()/h_attrf() add one attribute each
 * (the value escaped after formatting), and h_end() writes ">" or, with
 * self_close, "/>".
 */
void h_start(FILE *f, const char *tag);
void h_attr(FILE *f, const char *name, const char *value);
__attribute__((format(printf, 3, 4)))
void h_attrf(FILE *f, const char *name, const char *fmt, ...);
void h_end(FILE *f, int self_close);

/* A text node: s escaped (NULL writes nothing). */
void h_text(FILE *f, const char *s);

/* A formatted text node (numbers, counts): the result is escaped too. */
__attribute__((format(printf, 2, 3)))
void h_textf(FILE *f, const char *fmt, ...);

/* <tag>text</tag> with no attributes, text escaped. */
void h_elem(FILE *f, const char *tag, const char *text);

/*
 * Markup that is part of the program: a string literal only (the macro
 * refuses anything else at compile time), e.g. h_lit(f, "&#215;") or a
 * fixed fragment such as h_lit(f, "<br/>").  Never data.
 */
#define h_lit(f, s) h_lit_((f), "" s "")
void h_lit_(FILE *f, const char *literal);

/*
 * Markup with a head written only when something follows it, e.g. a
 * section folded only when it wrote something: h_fold_open gives a stream
 * into outer (NULL when out of memory) that writes the len bytes of head
 * before its first byte and passes everything on as it comes (nothing is
 * held: a page of 100,000 runs is not kept in memory); h_fold_close
 * closes it and says whether anything was written.  head is markup the
 * emitter made, and so is what the writers put through the stream.
 */
struct h_fold {
	FILE *f;		/* the writers' stream */
	FILE *outer;
	const char *head;
	size_t len;
	int started;		/* head written */
};
FILE *h_fold_open(struct h_fold *fo, FILE *outer, const char *head,
		  size_t len);
int h_fold_close(struct h_fold *fo);

/*
 * An id or fragment name made from input strings: prefix (the program's
 * own, [a-z0-9-]) then s with every byte outside [A-Za-z0-9_-] written
 * as ".XX" (two lower-case hex digits), so that the result is a valid
 * XML name token and different strings give different ids.  Returns a
 * malloc'ed string (never NULL).
 */
char *h_slug(const char *prefix, const char *s);

#endif
