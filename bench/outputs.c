// SPDX-License-Identifier: GPL-2.0-only
/* The output files of a benchmark command, as one set (outputs.h). */
#include "bench/outputs.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cmdutil.h"
#include "lib/diag.h"
#include "lib/xalloc.h"

/* The start of a file of each format, and its name for the message. */
static const struct {
	const char *start, *alt, *name;
} formats[] = {
	[OUT_JSON] = { "{", NULL, "clyde JSON records" },
	[OUT_BONNIE_CSV] = { "1.98,", "format_version,",
			     "bonnie++ 1.98 CSV lines" },
	[OUT_MATRIX_CSV] = { "label,start,engine,", NULL,
			     "a clyde matrix CSV" },
	[OUT_ZONES_CSV] = { "# clyde zones ", NULL, "a clyde zones CSV" },
};

size_t outputs_add(struct outputs *s, const char *opt, const char *path,
		   enum output_format fmt)
{
	struct output *o = &s->out[s->n];

	memset(o, 0, sizeof(*o));
	o->opt = opt;
	o->path = path;
	o->fmt = fmt;
	return s->n++;
}

FILE *outputs_file(const struct outputs *s, size_t i)
{
	return s->out[i].f;
}

/*
 * 1 when the first line of the non-empty file path starts as fmt's files
 * do (appending another format makes the file unreadable), 0 when not,
 * -1 when it cannot be read (fopen "a" reports that).
 */
static int same_format(const char *path, enum output_format fmt)
{
	const char *alt = formats[fmt].alt;
	char line[64];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return !strncmp(line, formats[fmt].start,
			strlen(formats[fmt].start)) ||
	       (alt && !strncmp(line, alt, strlen(alt)));
}

/*
 * A file that does not exist yet: dangling symlinks followed to the name
 * they point at, its directory resolved, and its name.
 */
static char *resolved(const char *path)
{
	char *cur = xstrdup(path), *copy, *copy2, *dir, *out;
	char link[PATH_MAX];
	struct stat st;
	int hops;

	for (hops = 0; hops < 40 && !lstat(cur, &st) && S_ISLNK(st.st_mode);
	     hops++) {
		ssize_t n = readlink(cur, link, sizeof(link) - 1);
		char *next;

		if (n < 0)
			break;
		link[n] = '\0';
		copy = xstrdup(cur);
		next = link[0] == '/' ? xstrdup(link) :
		       xasprintf("%s/%s", dirname(copy), link);
		free(copy);
		free(cur);
		cur = next;
	}
	copy = xstrdup(cur);
	copy2 = xstrdup(cur);
	dir = realpath(dirname(copy), NULL);
	out = dir ? xasprintf("%s/%s", dir, basename(copy2)) : xstrdup(cur);
	free(dir);
	free(copy);
	free(copy2);
	free(cur);
	return out;
}

/* Whether a and b name one file. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea = stat(a, &sa), eb = stat(b, &sb), same;
	char *ra, *rb;

	if (!ea && !eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (!ea || !eb)
		return 0;
	ra = resolved(a);
	rb = resolved(b);
	same = !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

static int check_distinct(const struct outputs *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++)
		for (j = i + 1; s->out[i].path && j < s->n; j++)
			if (s->out[j].path &&
			    same_file(s->out[i].path, s->out[j].path))
				return cmd_usage_error(
					"%s '%s' and %s '%s' are one file: "
					"give each output a file of its own",
					s->out[i].opt, s->out[i].path,
					s->out[j].opt, s->out[j].path);
	return 0;
}

static int open_one(struct output *o)
{
	struct stat st;
	int isnew = stat(o->path, &st) != 0;

	o->created = isnew;
	o->fresh = isnew || st.st_size == 0;
	if (!isnew && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    same_format(o->path, o->fmt) == 0)
		return cmd_usage_error("%s: '%s' is not empty and does not "
				       "hold %s: refusing to append to it",
				       o->opt, o->path, formats[o->fmt].name);
	o->f = fopen(o->path, "a");
	if (!o->f)
		return cmd_usage_error("%s: cannot open '%s': %s", o->opt,
				       o->path, strerror(errno));
	return 0;
}

int outputs_open(struct outputs *s)
{
	size_t i;

	if (check_distinct(s))
		return EXIT_USAGE;
	for (i = 0; i < s->n; i++)
		if (s->out[i].path && open_one(&s->out[i])) {
			outputs_abort(s);
			return EXIT_USAGE;
		}
	return 0;
}

int outputs_done(struct outputs *s, size_t i, int rc)
{
	struct output *o = &s->out[i];

	if (!o->f)
		return 0;
	if (!rc && !fflush(o->f) && !ferror(o->f))
		return 0;
	diag_error("%s: cannot write '%s': %s", o->opt, o->path,
		   strerror(errno));
	return -1;
}

static void close_all(struct outputs *s, int remove)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct output *o = &s->out[i];

		if (o->f) {
			fclose(o->f);
			if (remove && o->created)
				unlink(o->path);
		}
		o->f = NULL;
		o->created = 0;
	}
}

void outputs_commit(struct outputs *s)
{
	close_all(s, 0);
}

void outputs_abort(struct outputs *s)
{
	close_all(s, 1);
}
