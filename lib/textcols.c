// SPDX-License-Identifier: GPL-2.0-only
/* Columns of the text outputs (textcols.h). */
#include "lib/textcols.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "lib/textesc.h"
#include "lib/xalloc.h"

/* A byte that continues a UTF-8 character takes no column of its own. */
static int continues(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * Display widths as `LC_ALL=C.UTF-8 wc -L` counts them: wcwidth() under
 * a C.UTF-8 locale object, made once and used only around the count
 * (uselocale, the caller's locale restored), so the program's own locale
 * never changes; without that locale, one column per character.
 */
static locale_t utf8_locale(void)
{
	static locale_t loc;
	static int tried;

	if (!tried) {
		tried = 1;
		loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	return loc;
}

/*
 * The character at s (at most n bytes, n > 0): its bytes in *len and its
 * columns (a combining mark 0, a wide character 2).  A byte that starts
 * no valid character is one column of its own.  Call with the UTF-8
 * locale in use, or have_wc 0.
 */
static size_t char_cols(const char *s, size_t n, size_t *len, int have_wc)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = u[0] < 0x80 ? 1 : u[0] >= 0xc2 && u[0] < 0xe0 ? 2 :
		   u[0] >= 0xe0 && u[0] < 0xf0 ? 3 :
		   u[0] >= 0xf0 && u[0] < 0xf5 ? 4 : 0, i;
	wchar_t wc;
	int w;

	if (!k || k > n) {
		*len = 1;
		return 1;
	}
	for (i = 1; i < k; i++)
		if (!continues(u[i])) {
			*len = 1;
			return 1;
		}
	*len = k;
	if (k == 1 || !have_wc)
		return 1;
	wc = k == 2 ? (wchar_t)(((u[0] & 0x1f) << 6) | (u[1] & 0x3f)) :
	     k == 3 ? (wchar_t)(((u[0] & 0x0f) << 12) |
				((u[1] & 0x3f) << 6) | (u[2] & 0x3f)) :
		      (wchar_t)(((u[0] & 0x07) << 18) | ((u[1] & 0x3f) << 12) |
				((u[2] & 0x3f) << 6) | (u[3] & 0x3f));
	w = wcwidth(wc);
	return w < 0 ? 1 : (size_t)w;
}

/* Use the UTF-8 locale for a count: returns whether it is there. */
static int wc_begin(locale_t *old)
{
	locale_t loc = utf8_locale();

	if (!loc)
		return 0;
	*old = uselocale(loc);
	return 1;
}

static void wc_end(int have_wc, locale_t old)
{
	if (have_wc)
		uselocale(old);
}

/* The display columns of the n bytes at s. */
static size_t cols_n(const char *s, size_t n)
{
	locale_t old = (locale_t)0;
	int have = wc_begin(&old);
	size_t i = 0, c = 0, len;

	while (i < n) {
		c += char_cols(s + i, n - i, &len, have);
		i += len;
	}
	wc_end(have, old);
	return c;
}

size_t text_cols(const char *s)
{
	return s ? cols_n(s, strlen(s)) : 0;
}

size_t text_cols_n(const char *s, size_t n)
{
	return cols_n(s, n);
}

/*
 * Bytes of the longest start of s (slen bytes) in at most cols columns,
 * whole characters, with the zero-width marks that follow the last one.
 */
static size_t bytes_of_cols(const char *s, size_t slen, size_t cols)
{
	locale_t old = (locale_t)0;
	int have = wc_begin(&old);
	size_t i = 0, n = 0, len, w;

	while (i < slen) {
		w = char_cols(s + i, slen - i, &len, have);
		if (n + w > cols)
			break;
		n += w;
		i += len;
	}
	wc_end(have, old);
	return i;
}

size_t text_bytes_of_cols(const char *s, size_t cols)
{
	return bytes_of_cols(s, strlen(s), cols);
}

char *text_fit(char *buf, size_t len, const char *s, size_t cols)
{
	char *e = text_escaped(s);
	size_t el = strlen(e), keep = el, mark = 0;

	if (!len) {
		free(e);
		return buf;
	}
	if (text_cols(e) > cols) {
		mark = cols >= 3 ? 3 : 0;
		keep = bytes_of_cols(e, el, cols - mark);
	}
	while (keep && keep + mark >= len) {	/* buf too small: cut more */
		mark = len > 3 ? 3 : 0;
		while (--keep && continues((unsigned char)e[keep]))
			;
	}
	memcpy(buf, e, keep);
	memcpy(buf + keep, "...", mark);
	buf[keep + mark] = '\0';
	free(e);
	return buf;
}

char *text_fit_ends(char *buf, size_t len, const char *s, size_t cols)
{
	char *e = text_escaped(s);
	size_t el = strlen(e), ec = text_cols(e), head, tail, hb, tb;

	if (ec <= cols || cols < 9) {
		free(e);
		return text_fit(buf, len, s, cols);
	}
	head = (cols - 3 + 1) / 2;
	tail = cols - 3 - head;
	hb = bytes_of_cols(e, el, head);
	tb = el - bytes_of_cols(e, el, ec - tail);
	/* the last column may be wide: drop characters until the tail fits */
	while (tb && cols_n(e, hb) + 3 + cols_n(e + el - tb, tb) > cols)
		while (--tb && continues((unsigned char)e[el - tb]))
			;
	if (hb + 3 + tb >= len) {
		free(e);
		return text_fit(buf, len, s, cols);
	}
	memcpy(buf, e, hb);
	memcpy(buf + hb, "...", 3);
	memcpy(buf + hb + 3, e + el - tb, tb);
	buf[hb + 3 + tb] = '\0';
	free(e);
	return buf;
}

/* The columns of the word (up to a space) at s, of at most n bytes. */
static size_t word_cols(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != ' ')
		i++;
	return cols_n(s, i);
}

/* One line (no '\n') of n bytes, wrapped. */
static void wrap_line(FILE *out, const char *s, size_t n, size_t width,
		      size_t indent)
{
	size_t lead = strspn(s, " "), pad = 0;

	if (indent >= width)
		indent = 0;
	if (lead > n)
		lead = n;
	for (;;) {
		size_t room = width - pad, fit, cut, start;

		if (cols_n(s, n) <= room)
			break;
		fit = bytes_of_cols(s, n, room);
		/* the last space in the room, past the line's own indent */
		start = pad ? 0 : lead;
		for (cut = fit; cut > start && s[cut] != ' '; cut--)
			;
		/*
		 * A word longer than any line (a path) is broken where the
		 * line ends, not moved to a line of its own and broken there.
		 */
		if (cut > start && word_cols(s + cut + 1, n - cut - 1) >
		    width - indent)
			cut = fit;
		if (cut <= start)
			cut = fit;	/* one word longer than the room */
		fprintf(out, "%*s%.*s\n", (int)pad, "", (int)cut, s);
		while (cut < n && s[cut] == ' ')
			cut++;
		s += cut;
		n -= cut;
		pad = indent;
		if (!n)
			return;
	}
	fprintf(out, "%*s%.*s\n", (int)pad, "", (int)n, s);
}

void text_wrap(FILE *out, const char *text, size_t width, size_t indent)
{
	const char *p = text ? text : "", *nl;
	size_t len;
	char *line, *e;

	/* each line escaped whole (a character is more than one byte),
	 * then wrapped */
	for (;;) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (!nl && !len)
			break;
		line = xmalloc(len + 1);
		memcpy(line, p, len);
		line[len] = '\0';
		e = text_escaped(line);
		wrap_line(out, e, strlen(e), width, indent);
		free(e);
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
}

void text_fmt_ns(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		int decimals;
		double below;	/* the printed number, rounded */
		const char *unit;
	} steps[] = {
		{ 1, 0, 1000, "ns" },
		{ 1e3, 2, 10, "us" },
		{ 1e3, 1, 100, "us" },
		{ 1e3, 0, 1000, "us" },
		{ 1e6, 2, 10, "ms" },
		{ 1e6, 1, 100, "ms" },
		{ 1e6, 0, 1000, "ms" },
		{ 1e9, 2, 10, "s" },
		{ 1e9, 1, 100, "s" },
		{ 1e9, 0, 1e6, "s" },
		{ 86400e9, 0, 1e6, "d" },
	};
	size_t i;

	if (!isfinite(ns) || ns < 0) {
		snprintf(buf, len, "?");
		return;
	}
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		snprintf(buf, len, "%.*f%s", steps[i].decimals,
			 ns / steps[i].scale, steps[i].unit);
		/* judged as printed: 9.996 us is "10.0us", not "10.00us" */
		if (strtod(buf, NULL) < steps[i].below)
			return;
	}
	/* beyond 2^64 ns, which no histogram holds */
	snprintf(buf, len, ">999kd");
}

void text_wrapf(FILE *out, size_t width, size_t indent, const char *fmt,
		...)
{
	va_list ap;
	char *s = NULL, *e;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	e = text_escaped(s);
	text_wrap(out, e, width, indent);
	free(e);
	free(s);
}
