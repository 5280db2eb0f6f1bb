// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML emitter (html_emit.h): elements, attributes and text, escaped by
 * construction.
 */
#include "report/write/html_emit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/record_util.h"
#include "lib/xalloc.h"

/*
 * Length of the UTF-8 sequence at s: the whole of a well-formed sequence
 * (*ok set when XML allows its code point: not a surrogate, U+FFFE or
 * U+FFFF, nor overlong), or 1 for a stray byte (*ok clear).
 */
static size_t utf8_len(const unsigned char *s, int *ok)
{
	uint32_t cp;
	size_t n, i;

	*ok = 0;
	if (s[0] < 0x80) {
		*ok = 1;
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 1;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*ok = !((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
		(n == 4 && cp < 0x10000) || cp > 0x10ffff ||
		(cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
		cp == 0xffff);
	return n;
}

/*
 * Escape str for text (in_attr 0) or a quoted attribute value (1):
 * & < > " ' always; tab and newline kept in text, character references
 * in attributes (which XML would otherwise normalise to spaces); other
 * control characters, stray bytes and sequences XML forbids (U+FFFE,
 * surrogates, overlong forms) as one U+FFFD each.
 */
static void esc(FILE *f, const char *str, int in_attr)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n;
	int ok;

	while (*s) {
		switch (*s) {
		case '&': fputs("&amp;", f); s++; continue;
		case '<': fputs("&lt;", f); s++; continue;
		case '>': fputs("&gt;", f); s++; continue;
		case '"': fputs("&quot;", f); s++; continue;
		case '\'': fputs("&#39;", f); s++; continue;
		case '\t':
			fputs(in_attr ? "&#9;" : "\t", f);
			s++;
			continue;
		case '\n':
			fputs(in_attr ? "&#10;" : "\n", f);
			s++;
			continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		n = utf8_len(s, &ok);
		if (ok)
			fwrite(s, 1, n, f);
		else
			fputs("\xef\xbf\xbd", f);
		s += n;
	}
}

/* Names are the program's: refuse anything but [a-z0-9:-]+. */
static const char *name_ok(const char *name)
{
	const char *s = name;

	if (!s || !*s)
		abort();
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == ':'))
			abort();
	return name;
}

void h_start(FILE *f, const char *tag)
{
	putc('<', f);
	fputs(name_ok(tag), f);
}

void h_attr(FILE *f, const char *name, const char *value)
{
	if (!value)
		return;
	putc(' ', f);
	fputs(name_ok(name), f);
	fputs("=\"", f);
	esc(f, value, 1);
	putc('"', f);
}

void h_attrf(FILE *f, const char *name, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = record_vasprintf(fmt, ap);
	va_end(ap);
	h_attr(f, name, s);
	free(s);
}

void h_end(FILE *f, int self_close)
{
	fputs(self_close ? "/>" : ">", f);
}

static void vopen(FILE *f, const char *tag, va_list ap, int self_close)
{
	const char *name, *value;

	h_start(f, tag);
	while ((name = va_arg(ap, const char *))) {
		value = va_arg(ap, const char *);
		h_attr(f, name, value);
	}
	h_end(f, self_close);
}

void h_open(FILE *f, const char *tag, ...)
{
	va_list ap;

	va_start(ap, tag);
	vopen(f, tag, ap, 0);
	va_end(ap);
}

void h_void(FILE *f, const char *tag, ...)
{
	va_list ap;

	va_start(ap, tag);
	vopen(f, tag, ap, 1);
	va_end(ap);
}

void h_close(FILE *f, const char *tag)
{
	fputs("</", f);
	fputs(name_ok(tag), f);
	putc('>', f);
}

void h_text(FILE *f, const char *s)
{
	if (s)
		esc(f, s, 0);
}

static void h_vtextf(FILE *f, const char *fmt, va_list ap)
{
	char *s = record_vasprintf(fmt, ap);

	esc(f, s, 0);
	free(s);
}

void h_textf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	h_vtextf(f, fmt, ap);
	va_end(ap);
}

void h_elem(FILE *f, const char *tag, const char *text)
{
	h_start(f, tag);
	h_end(f, 0);
	h_text(f, text);
	h_close(f, tag);
}

void h_lit_(FILE *f, const char *literal)
{
	fputs(literal, f);
}

/* fopencookie's write of an h_fold: the head first, then the bytes. */
static ssize_t fold_write(void *cookie, const char *buf, size_t n)
{
	struct h_fold *fo = cookie;

	if (!n)
		return 0;
	if (!fo->started) {
		fo->started = 1;
		if (fwrite(fo->head, 1, fo->len, fo->outer) != fo->len)
			return -1;
	}
	return fwrite(buf, 1, n, fo->outer) == n ? (ssize_t)n : -1;
}

FILE *h_fold_open(struct h_fold *fo, FILE *outer, const char *head,
		  size_t len)
{
	static const cookie_io_functions_t io = { .write = fold_write };

	fo->outer = outer;
	fo->head = head;
	fo->len = len;
	fo->started = 0;
	fo->f = fopencookie(fo, "w", io);
	return fo->f;
}

int h_fold_close(struct h_fold *fo)
{
	if (fo->f)
		fclose(fo->f);	/* a failed write shows on outer */
	fo->f = NULL;
	return fo->started;
}

char *h_slug(const char *prefix, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen(name_ok(prefix)), o;
	char *out = xmalloc(n + 3 * strlen((const char *)p) + 1);

	memcpy(out, prefix, n);
	o = n;
	for (; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-') {
			out[o++] = (char)*p;
			continue;
		}
		out[o++] = '.';
		out[o++] = hex[*p >> 4];
		out[o++] = hex[*p & 15];
	}
	out[o] = '\0';
	return out;
}
