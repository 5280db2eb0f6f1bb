// SPDX-License-Identifier: GPL-2.0-only
/* Reading result files by content; the clyde JSON lines reader. */
#include "report/import/import.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "report/model/record_util.h"
#include "lib/xalloc.h"

void import_init(struct import *im)
{
	memset(im, 0, sizeof(*im));
}

static void file_reset(struct import *im)
{
	size_t i;

	for (i = 0; i < im->nseen; i++)
		free(im->seen[i].text);
	free(im->seen);
	free(im->file_fio_first);
	free(im->file_fio_other_first);
	im->seen = NULL;
	im->nseen = im->seen_alloc = 0;
	im->file_fio_first = im->file_fio_other_first = NULL;
	im->file_fio_other = im->file_fio_plain = 0;
	im->file_fio_normal = 0;
	im->file_warnings = im->file_hidden = im->file_foreign = 0;
	im->file_bonnie_text = im->file_bonnie_progress = 0;
	im->file_fio_text = 0;
}

void import_release(struct import *im)
{
	size_t i;

	file_reset(im);

	for (i = 0; i < im->nrecs; i++)
		record_free(im->recs[i]);
	free(im->recs);
	for (i = 0; i < im->nwarnings; i++)
		free(im->warnings[i]);
	free(im->warnings);
	record_reader_free(im->reader);
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

void import_note(struct import *im, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_warning(im, record_vasprintf(fmt, ap));
	va_end(ap);
}

/* FNV-1a, 64 bits (Fowler, Noll, Vo; IETF draft-eastlake-fnv). */
static unsigned long long fnv1a(const char *s)
{
	unsigned long long h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

unsigned long import_seen_line(struct import *im, const char *text,
			       unsigned long lineno)
{
	unsigned long long h = fnv1a(text);
	size_t i;

	for (i = 0; i < im->nseen; i++)
		if (im->seen[i].hash == h && !strcmp(im->seen[i].text, text))
			return im->seen[i].line;
	xgrow((void **)&im->seen, &im->seen_alloc, im->nseen + 1,
	      sizeof(*im->seen));
	im->seen[im->nseen].hash = h;
	im->seen[im->nseen].line = lineno;
	im->seen[im->nseen++].text = xstrdup(text);
	return 0;
}

/* A line (l bytes, without its newline) that is one of fio's own
 * messages ("fio: terminating on signal 2"); a line of fio's JSON never
 * begins so.  The first is kept to quote.  A line of fio's normal or
 * terse text output counted too (a file of only that is no results). */
static void count_fio_line(struct import *im, const char *p, size_t l)
{
	im->file_fio_plain += fio_text_line(p, l) != 0;
	if (l > 5 && !memcmp(p, "fio: ", 5) && !im->file_fio_text++) {
		im->file_fio_first = xmalloc(l + 1);
		memcpy(im->file_fio_first, p, l);
		im->file_fio_first[l] = '\0';
	}
}

static void count_fio_messages(struct import *im, const char *buf,
			       size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		count_fio_line(im, p, l);
		p += l + 1;
	}
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/*
 * A file that gave no results: one line that says so and why (the
 * reader stops on it), after its warnings when they tell more than its
 * first (records of a format clyde reads, each refused), in place of
 * them when not (one problem, or lines of no format: not a results
 * file).
 */
static void no_results(struct import *im, const char *name, int only_fio)
{
	size_t i, nw = im->file_warnings, l = strlen(name);
	char *first = NULL;

	if (im->file_fio_plain) {
		first = xasprintf("%s: fio's text output (normal or "
				  "terse), not its JSON: no results (fio "
				  "--output-format=json writes them)", name);
		nw = 1;	/* it says it all */
	} else if (only_fio) {
		first = xasprintf("%s: no results, only fio's own messages "
				  "(%zu line%s, the first: %s)", name,
				  im->file_fio_text,
				  plural(im->file_fio_text),
				  im->file_fio_first);
	} else if (nw && im->file_first < im->nwarnings) {
		const char *w = im->warnings[im->file_first];
		/* "NAME:LINE: what" without the name */
		int at_line = !strncmp(w, name, l) && w[l] == ':';

		first = xasprintf("%s: no results found (neither clyde JSON, "
				  "bonnie++ CSV nor fio JSON): %zu problem%s, "
				  "the first %s%s", name, nw, plural(nw),
				  at_line ? "on line " : "",
				  at_line ? w + l + 1 : w);
	} else {
		first = xasprintf("%s: no results found (neither clyde JSON, "
				  "bonnie++ CSV nor fio JSON)", name);
	}
	if (nw == 1 || im->file_foreign == nw) {
		/* one problem, or not a results file: the line says it all */
		for (i = im->file_first; i < im->nwarnings; i++)
			free(im->warnings[i]);
		im->nwarnings = im->file_first;
		im->file_hidden = 0;
	}
	if (im->file_hidden)
		add_warning(im, xasprintf("%s: %zu more warning%s not shown",
					  name, im->file_hidden,
					  plural(im->file_hidden)));
	add_warning(im, first);
	file_reset(im);
}

/*
 * The end of one file: its tools' own text said once, how many warnings
 * were not shown, and why it gave nothing (n == 0).
 */
static void file_done(struct import *im, const char *name, int n)
{
	size_t b = im->file_bonnie_text, pr = im->file_bonnie_progress;
	size_t f = im->file_fio_text;
	int only_fio = n == 0 && f && !b && !pr && !im->file_warnings;

	if (b || pr)
		add_warning(im, xasprintf("%s: %zu line%s of bonnie++'s text "
					  "tables%s ignored", name, b + pr,
					  plural(b + pr), pr ? " and progress "
					  "messages" : ""));
	if (f && !only_fio)
		add_warning(im, xasprintf("%s: %zu line%s of fio's own "
					  "messages ignored (the first: %s)",
					  name, f, plural(f),
					  im->file_fio_first));
	if (im->file_fio_other)
		add_warning(im, xasprintf("%s: %zu line%s of %s ignored (the "
					  "first: %s)", name,
					  im->file_fio_other,
					  plural(im->file_fio_other),
					  im->file_fio_normal ?
					  "fio's normal (text) output" :
					  "text outside fio's JSON",
					  im->file_fio_other_first));
	if (n == 0) {
		no_results(im, name, only_fio);
		return;
	}
	if (im->file_hidden)
		add_warning(im, xasprintf("%s: %zu more warning%s not shown",
					  name, im->file_hidden,
					  plural(im->file_hidden)));
	file_reset(im);
}

void import_add(struct import *im, struct record *rec)
{
	xgrow((void **)&im->recs, &im->recs_alloc, im->nrecs + 1,
	      sizeof(*im->recs));
	im->recs[im->nrecs++] = rec;
}

/*
 * One clyde JSON line, line lineno of name, l bytes at text (ended by
 * "\0" or "\n\0" when terminated, read in place; else copied): 1 a
 * record, 0 a warning.
 */
static int clyde_line(struct import *im, const char *name,
		      unsigned long lineno, const char *text, size_t l,
		      int terminated)
{
	char err[256], *line = NULL;
	struct record *rec;

	if (!terminated) {
		line = xmalloc(l + 1);
		memcpy(line, text, l);
		line[l] = '\0';
	}
	if (!im->reader)
		im->reader = record_reader_new();
	rec = record_reader_read(im->reader, line ? line : text, err,
				 sizeof(err));
	free(line);
	if (!rec) {
		import_warn(im, "%s:%lu: %s", name, lineno, err);
		return 0;
	}
	rec->source = xasprintf("%s:%lu (clyde JSON)", name, lineno);
	import_add(im, rec);
	return 1;
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
		size_t sp = 0;

		lineno++;
		while (sp < l && strchr(" \t\r", p[sp]))
			sp++;
		if (sp < l)
			n += clyde_line(im, name, lineno, p, l, 0);
		p += l + (nl ? 1 : 0);
	}
	return n;
}

/*
 * clyde JSON lines and bonnie++ CSV lines, mixed, in file order, fed one
 * line at a time: a line starting with '{' is JSON, read into a record
 * at once (its JSON tree freed before the next line); the lines between
 * two JSON lines ('#' lines, blank lines, bonnie++ CSV, a warning when
 * a line is none) are held until the next JSON line or the end, and
 * read as bonnie++ CSV, their first line's number kept.
 */
struct line_feed {
	struct import *im;
	const char *name;
	unsigned long lineno;		/* lines fed */
	char *csv;			/* the lines since the last JSON line */
	size_t csv_len, csv_alloc;
	unsigned long csv_line;		/* csv's first line */
	int n;				/* records read */
	int terminated;			/* each line fed ends in a NUL */
};

static void feed_csv(struct line_feed *lf)
{
	if (lf->csv_len)
		lf->n += import_bonnie_at(lf->im, lf->name, lf->csv_line,
					  lf->csv, lf->csv_len);
	lf->csv_len = 0;
}

/* One line of the file, l bytes with its newline when it has one. */
static void feed_line(struct line_feed *lf, const char *p, size_t l)
{
	size_t sp = 0;

	lf->lineno++;
	while (sp < l && strchr(" \t", p[sp]))
		sp++;
	if (sp < l && p[sp] == '{') {
		/* the bonnie++ lines before it first, in file order */
		feed_csv(lf);
		lf->n += clyde_line(lf->im, lf->name, lf->lineno, p,
				    l && p[l - 1] == '\n' ? l - 1 : l,
				    lf->terminated);
		return;
	}
	if (!lf->csv_len)
		lf->csv_line = lf->lineno;
	xgrow((void **)&lf->csv, &lf->csv_alloc, lf->csv_len + l + 1, 1);
	memcpy(lf->csv + lf->csv_len, p, l);
	lf->csv_len += l;
}

/* The end of the lines: the bonnie++ lines held read; records read. */
static int feed_end(struct line_feed *lf)
{
	feed_csv(lf);
	free(lf->csv);
	lf->csv = NULL;
	lf->csv_alloc = 0;
	return lf->n;
}

static int import_lines(struct import *im, const char *name, const char *buf,
			size_t len)
{
	struct line_feed lf = { .im = im, .name = name };
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);

		feed_line(&lf, p, l);
		p += l;
	}
	return feed_end(&lf);
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

	file_reset(im);
	im->file_first = im->nwarnings;
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
	count_fio_messages(im, buf, len);
	if (looks_like_fio(buf, len)) {
		im->file_fio_plain = 0;	/* what fio_text_out counts */
		n = import_fio(im, name, buf, len);
	}
	else
		n = import_lines(im, name, buf, len);
	file_done(im, name, n);
	return n;
}

/* Read the rest of f onto *buf (len bytes, alloc), NUL-terminated: 0, or
 * the system's error. */
static int read_rest(FILE *f, char **buf, size_t *len, size_t *alloc)
{
	size_t got;

	do {
		xgrow((void **)buf, alloc, *len + 65536 + 1, 1);
		got = fread(*buf + *len, 1, *alloc - *len - 1, f);
		*len += got;
	} while (got);
	(*buf)[*len] = '\0';
	return ferror(f) ? errno : 0;
}

/* Forget what the file being read gave so far: from record first on,
 * and its warnings. */
static void file_undo(struct import *im, size_t first)
{
	size_t i;

	for (i = first; i < im->nrecs; i++)
		record_free(im->recs[i]);
	im->nrecs = first;
	for (i = im->file_first; i < im->nwarnings; i++)
		free(im->warnings[i]);
	im->nwarnings = im->file_first;
	file_reset(im);
}

/*
 * A file read one line at a time.  stream.kept: the text so far, for a
 * pipe (it cannot be read again when it turns out to be fio JSON), until
 * a record is read from it: a stream of records is no fio document, and
 * a fleet's records piped in are not held twice.
 */
struct stream {
	FILE *f;
	char *line, *kept;
	size_t line_cap, kept_len, kept_alloc;
	off_t start;			/* where the file was at first */
	unsigned long long bytes;	/* read so far */
	int blank;			/* only white space so far */
	int err;			/* the system's, when reading failed */
};

/* What stream_lines stopped at. */
enum stream_end { STREAM_EOF, STREAM_NUL, STREAM_FIO, STREAM_ERROR };

/*
 * A clyde record's line, as clyde writes it ("schema" first): it is not
 * fio's, and a record of 30 KB need not be searched for fio's words (three
 * searches of every line were an eighth of a report's time).  A record
 * written otherwise (by jq, with blanks) is searched as any other line.
 */
static int clyde_record_line(const char *p, size_t l)
{
	static const char head[] = "{\"schema\":";

	return l >= sizeof(head) - 1 && !memcmp(p, head, sizeof(head) - 1);
}

/*
 * Feed s's lines to lf until the end, or until a line shows the file is
 * not lines at all: binary (a NUL byte) or a fio JSON document, which
 * import_buffer reads whole.
 */
static enum stream_end stream_lines(struct stream *s, struct line_feed *lf)
{
	ssize_t got;

	while ((got = getline(&s->line, &s->line_cap, s->f)) > 0) {
		size_t l = (size_t)got, i;

		s->bytes += l;
		if (memchr(s->line, '\0', l))
			return STREAM_NUL;
		if (s->kept) {
			xgrow((void **)&s->kept, &s->kept_alloc,
			      s->kept_len + l + 1, 1);
			memcpy(s->kept + s->kept_len, s->line, l);
			s->kept_len += l;
		}
		for (i = 0; s->blank && i < l; i++)
			s->blank = strchr(" \t\r\n", s->line[i]) != NULL;
		if (!clyde_record_line(s->line, l)) {
			if (memmem(s->line, l, "\"fio version\"", 13))
				return STREAM_FIO;
			count_fio_line(lf->im, s->line,
				       s->line[l - 1] == '\n' ? l - 1 : l);
		}
		feed_line(lf, s->line, l);
		if (s->kept && lf->n) {
			free(s->kept);
			s->kept = NULL;
			s->kept_len = s->kept_alloc = 0;
		}
	}
	s->err = errno;
	/* getline's ENOMEM (a line longer than memory) is no end */
	return ferror(s->f) || !feof(s->f) ? STREAM_ERROR : STREAM_EOF;
}

/* A fio JSON file found by stream_lines: read again, whole. */
static int stream_fio(struct import *im, const char *path, struct stream *s)
{
	if (!s->kept && fseeko(s->f, s->start, SEEK_SET)) {
		s->err = errno;
		return -1;
	}
	s->err = read_rest(s->f, &s->kept, &s->kept_len, &s->kept_alloc);
	return s->err ? -1 : import_buffer(im, path, s->kept, s->kept_len);
}

/*
 * One file, streamed: its clyde JSON lines become records as they are
 * read, so that memory holds the records, never the file's text.
 */
static int import_stream(struct import *im, const char *path,
			 struct stream *s)
{
	struct line_feed lf = { .im = im, .name = path, .terminated = 1 };
	size_t first = im->nrecs;
	enum stream_end how;
	int n;

	file_reset(im);
	im->file_first = im->nwarnings;
	how = stream_lines(s, &lf);
	n = feed_end(&lf);
	if (how != STREAM_EOF || s->blank)
		file_undo(im, first);
	switch (how) {
	case STREAM_NUL:
		add_warning(im, xasprintf("%s: binary data (a NUL byte), not "
					  "clyde JSON, bonnie++ CSV or fio "
					  "JSON", path));
		return 0;
	case STREAM_FIO:
		/* records and then fio: a file or a pipe alike (a pipe's
		 * text may be forgotten by now) */
		if (n > 0) {
			add_warning(im, xasprintf("%s:%lu: fio JSON after "
						  "records in one input: give "
						  "fio's output as an input of "
						  "its own", path,
						  lf.lineno + 1));
			return -1;
		}
		n = stream_fio(im, path, s);
		if (n >= 0)
			return n;
		/* fall through */
	case STREAM_ERROR:
		add_warning(im, xasprintf("%s: cannot read: %s", path,
					  strerror(s->err)));
		return -1;
	case STREAM_EOF:
		break;
	}
	if (s->blank) {
		add_warning(im, xasprintf("%s: empty%s", path, s->bytes ?
					  " (only white space)" : ""));
		return 0;
	}
	file_done(im, path, n);
	return n;
}

int import_file(struct import *im, const char *path)
{
	struct stream s = { .blank = 1 };
	struct stat st;
	int n;

	s.f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!s.f) {
		add_warning(im, xasprintf("%s: cannot open: %s", path,
					  strerror(errno)));
		return -1;
	}
	/* a pipe cannot be read again: what it gave is kept, in case */
	s.start = ftello(s.f);
	if (fstat(fileno(s.f), &st) || !S_ISREG(st.st_mode) || s.start < 0)
		s.kept = xmalloc(s.kept_alloc = 65536);
	n = import_stream(im, path, &s);
	if (s.f != stdin)
		fclose(s.f);
	free(s.line);
	free(s.kept);
	return n;
}
