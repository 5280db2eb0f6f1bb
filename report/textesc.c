// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control characters of input strings escaped for the text outputs
 * (textesc.h).
 */
#include "textesc.h"

#include <string.h>

#include "../lib/xalloc.h"

/* The escape of c into out (at least 5 bytes); its length, 0 when c
 * needs none. */
static size_t esc(unsigned char c, char *out)
{
	static const char hex[] = "0123456789abcdef";

	if (c >= 0x20 && c != 0x7f)
		return 0;
	out[0] = '\\';
	if (c == '\n' || c == '\t' || c == '\r') {
		out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
		return 2;
	}
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 0xf];
	return 4;
}

char *text_escape(char *buf, size_t len, const char *s)
{
	size_t k = 0;
	char e[5];

	if (!len)
		return buf;
	for (; s && *s; s++) {
		size_t n = esc((unsigned char)*s, e);

		if (!n) {
			e[0] = *s;
			n = 1;
		}
		if (k + n >= len)
			break;
		memcpy(buf + k, e, n);
		k += n;
	}
	buf[k] = '\0';
	return buf;
}

char *text_escaped(const char *s)
{
	size_t len = (s ? strlen(s) : 0) * 4 + 1;

	return text_escape(xmalloc(len), len, s);
}

void text_put(FILE *out, const char *s)
{
	char e[5];

	for (; s && *s; s++) {
		size_t n = esc((unsigned char)*s, e);

		if (n)
			fwrite(e, 1, n, out);
		else
			putc(*s, out);
	}
}
