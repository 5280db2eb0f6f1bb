// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one escaping rule of input strings in messages and text outputs
 * (textesc.h).
 */
#include "lib/textesc.h"

#include <stdint.h>
#include <string.h>

#include "lib/xalloc.h"

size_t text_utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t len, i;

	if (!n)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		len = 2, cp = u[0] & 0x1f;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		len = 3, cp = u[0] & 0x0f;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		len = 4, cp = u[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* The code point of the valid character of len bytes at u. */
static uint32_t code_point(const unsigned char *u, size_t len)
{
	static const unsigned char lead[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = u[0] & lead[len];
	size_t i;

	for (i = 1; i < len; i++)
		cp = cp << 6 | (u[i] & 0x3f);
	return cp;
}

/* Whether code point cp is a C1 control or reorders the text around it. */
static int hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * The next character of s (*in bytes of it consumed) as it is shown, into
 * out (at least 7 bytes): its length.  An ASCII character of also (NULL:
 * none) is shown as \xNN.
 */
static size_t esc(const char *s, size_t *in, char *out, const char *also)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = (unsigned char)*s;
	size_t len = text_utf8_len(s, strnlen(s, 4));
	uint32_t cp;
	int extra = also && len == 1 && strchr(also, c);

	*in = len ? len : 1;
	if (len == 1 && c >= 0x20 && c != 0x7f && !extra) {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	if ((c == '\n' || c == '\t' || c == '\r') && !extra) {
		out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
		return 2;
	}
	if (len <= 1) {
		out[1] = 'x';
		out[2] = hex[c >> 4];
		out[3] = hex[c & 0xf];
		return 4;
	}
	cp = code_point((const unsigned char *)s, len);
	if (!hidden(cp)) {
		memcpy(out, s, len);
		return len;
	}
	snprintf(out, 7, "\\u%04X", (unsigned)cp);
	return 6;
}

size_t text_escape(char *buf, size_t len, const char *s)
{
	size_t k = 0, in, n;
	char e[8];

	if (!len)
		return 0;
	for (; s && *s; s += in) {
		n = esc(s, &in, e, NULL);
		if (k + n >= len)
			break;
		memcpy(buf + k, e, n);
		k += n;
	}
	buf[k] = '\0';
	return k;
}

char *text_escaped(const char *s)
{
	size_t len = (s ? strlen(s) : 0) * 4 + 1;
	char *buf = xmalloc(len);

	text_escape(buf, len, s);
	return buf;
}

void text_put_also(FILE *out, const char *s, const char *also)
{
	size_t in, n;
	char e[8];

	for (; s && *s; s += in) {
		n = esc(s, &in, e, also);
		fwrite(e, 1, n, out);
	}
}

void text_put(FILE *out, const char *s)
{
	text_put_also(out, s, NULL);
}
