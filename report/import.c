// SPDX-License-Identifier: GPL-2.0-only
/* Reading result files by content; the clyde JSON lines reader. */
#include "import.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_util.h"
#include "../lib/xalloc.h"

void import_init(struct import *im)
{
	memset(im, 0, sizeof(*im));
}

void import_release(struct import *im)
{
	size_t i;

	for (i = 0; i < im->nrecs; i++)
		record_free(im->recs[i]);
	free(im->recs);
	for (i = 0; i < im->nwarnings; i++)
		free(im->warnings[i]);
	free(im->warnings);
	memset(im, 0, sizeof(*im));
}

static void add_warning(struct import *im, char *msg)
{
	xgrow((void **)&im->warnings, &im->warnings_alloc, im->nwarnings + 1,
	      sizeof(*im->warnings));
	im->warnings[im->nwarnings++] = msg;
}

void import_warn(struct import *im, const char *fmt, ...)
{
	va_list ap;

	if (im->file_warnings++ >= IMPORT_WARN_LIMIT) {
		im->file_hidden++;
		return;
	}
	va_start(ap, fmt);
	add_warning(im, record_vasprintf(fmt, ap));
	va_end(ap);
}

/* The end of one file's warnings: how many were not shown. */
static void file_done(struct import *im, const char *name)
{
	if (im->file_hidden)
		add_warning(im, xasprintf("%s: %zu more warning%s not shown",
					  name, im->file_hidden,
					  im->file_hidden == 1 ? "" : "s"));
	im->file_warnings = im->file_hidden = 0;
}

void import_add(struct import *im, struct record *rec)
{
	xgrow((void **)&im->recs, &im->recs_alloc, im->nrecs + 1,
	      sizeof(*im->recs));
	im->recs[im->nrecs++] = rec;
}

int import_clyde(struct import *im, const char *name, const char *buf,
		 size_t len)
{
	const char *p = buf, *end = buf + len;
	unsigned long lineno = 0;
	int n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char err[256];
		struct record *rec;
		char *line;

		lineno++;
		line = xmalloc(l + 1);
		memcpy(line, p, l);
		line[l] = '\0';
		p += l + (nl ? 1 : 0);
		if (!line[strspn(line, " \t\r")]) {
			free(line);
			continue;
		}
		rec = record_read_json(line, err, sizeof(err));
		free(line);
		if (!rec) {
			import_warn(im, "%s:%lu: %s", name, lineno, err);
			continue;
		}
		rec->source = xasprintf("%s:%lu (clyde JSON)", name, lineno);
		import_add(im, rec);
		n++;
	}
	return n;
}

/* One clyde JSON line, line lineno of name: 1 a record, 0 a warning. */
static int clyde_line(struct import *im, const char *name,
		      unsigned long lineno, const char *text, size_t l)
{
	char err[256], *line = xmalloc(l + 1);
	struct record *rec;

	memcpy(line, text, l);
	line[l] = '\0';
	rec = record_read_json(line, err, sizeof(err));
	free(line);
	if (!rec) {
		import_warn(im, "%s:%lu: %s", name, lineno, err);
		return 0;
	}
	rec->source = xasprintf("%s:%lu (clyde JSON)", name, lineno);
	import_add(im, rec);
	return 1;
}

int import_lines(struct import *im, const char *name, const char *buf,
		 size_t len)
{
	const char *p = buf, *end = buf + len, *csv = buf;
	unsigned long lineno = 0, csv_line = 1;
	int n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t sp = 0;

		lineno++;
		while (sp < l && strchr(" \t", p[sp]))
			sp++;
		if (sp < l && p[sp] == '{') {
			/* the bonnie++ lines before it first, in file order */
			n += import_bonnie_at(im, name, csv_line, csv,
					      (size_t)(p - csv));
			n += clyde_line(im, name, lineno, p, l);
			csv = p + l + (nl ? 1 : 0);
			csv_line = lineno + 1;
		}
		p += l + (nl ? 1 : 0);
	}
	return n + import_bonnie_at(im, name, csv_line, csv,
				    (size_t)(end - csv));
}

static int looks_like_fio(const char *buf, size_t len)
{
	return memmem(buf, len, "\"fio version\"", 13) != NULL;
}

int import_buffer(struct import *im, const char *name, const char *buf,
		  size_t len)
{
	size_t i;
	int n;

	im->file_warnings = im->file_hidden = 0;
	for (i = 0; i < len && buf[i] && strchr(" \t\r\n", buf[i]); i++)
		;
	if (i == len) {
		add_warning(im, xasprintf("%s: empty%s", name,
					  len ? " (only white space)" : ""));
		return 0;
	}
	if (memchr(buf, '\0', len)) {
		add_warning(im, xasprintf("%s: binary data (a NUL byte), not "
					  "clyde JSON, bonnie++ CSV or fio "
					  "JSON", name));
		return 0;
	}
	if (looks_like_fio(buf, len))
		n = import_fio(im, name, buf, len);
	else
		n = import_lines(im, name, buf, len);
	file_done(im, name);
	if (n == 0)
		add_warning(im, xasprintf("%s: no results found (neither "
					  "clyde JSON, bonnie++ CSV nor fio "
					  "JSON)", name));
	return n;
}

int import_file(struct import *im, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = NULL;
	size_t len = 0, alloc = 0, got;
	int n, err;

	if (!f) {
		add_warning(im, xasprintf("%s: cannot open: %s", path,
					  strerror(errno)));
		return -1;
	}
	for (;;) {
		xgrow((void **)&buf, &alloc, len + 65536 + 1, 1);
		got = fread(buf + len, 1, alloc - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	err = ferror(f) ? errno : 0;
	if (f != stdin)
		fclose(f);
	if (err) {
		add_warning(im, xasprintf("%s: cannot read: %s", path,
					  strerror(err)));
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	n = import_buffer(im, path, buf, len);
	free(buf);
	return n;
}
