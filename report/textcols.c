// SPDX-License-Identifier: GPL-2.0-only
/* Columns of the text outputs (textcols.h). */
#include "textcols.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "textesc.h"

/* A byte that continues a UTF-8 character takes no column of its own. */
static int continues(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t text_cols(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += !continues((unsigned char)*s);
	return n;
}

/* Bytes of s's first cols columns (whole characters). */
static size_t bytes_of_cols(const char *s, size_t slen, size_t cols)
{
	size_t i = 0, n = 0;

	while (i < slen) {
		if (!continues((unsigned char)s[i]) && n++ == cols)
			break;
		i++;
	}
	return i;
}

/* The display columns of the n bytes at s. */
static size_t cols_n(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += !continues((unsigned char)s[i]);
	return c;
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
	char *e;
	size_t i = 0, j = 0, n;

	/* escape all but the line ends, then wrap line by line */
	n = strlen(text ? text : "");
	e = malloc(n * 4 + 1);
	if (!e)
		return;
	for (; text && text[i]; i++) {
		char one[2] = { text[i], '\0' }, esc[8];

		if (text[i] == '\n')
			e[j++] = '\n';
		else
			j += strlen(strcpy(e + j,
					   text_escape(esc, sizeof(esc), one)));
	}
	e[j] = '\0';
	for (i = 0; i < j; ) {
		const char *nl = memchr(e + i, '\n', j - i);
		size_t len = nl ? (size_t)(nl - (e + i)) : j - i;

		wrap_line(out, e + i, len, width, indent);
		i += len + (nl ? 1 : 0);
	}
	free(e);
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
