// SPDX-License-Identifier: GPL-2.0-only
/* The options-table engine: getopt_long, --help and params from one table. */
#include "optable.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int optable_set_string(char **dst, const char *arg, const char *empty,
		       char *err, size_t errlen)
{
	if (!*arg)
		return errf(err, errlen, "%s", empty);
	free(*dst);
	*dst = xstrdup(arg);
	return 0;
}

void optable_usage(const struct optable *t, FILE *out)
{
	size_t i;

	fputs(t->head, out);
	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];
		char head[80];
		size_t len;

		if (o->key < 256)
			snprintf(head, sizeof(head), "  -%c, ", o->key);
		else
			snprintf(head, sizeof(head), "      ");
		len = strlen(head);
		if (!o->metavar)
			snprintf(head + len, sizeof(head) - len, "--%s",
				 o->name);
		else if (o->has_arg == optional_argument)
			snprintf(head + len, sizeof(head) - len, "--%s[=%s]",
				 o->name, o->metavar);
		else
			snprintf(head + len, sizeof(head) - len, "--%s %s",
				 o->name, o->metavar);
		fprintf(out, "%s\n        %s\n", head, o->help);
	}
	fputs(t->tail, out);
}

/* getopt_long's spellings of the table: ":" + letters, and the long rows. */
static struct option *build_opts(const struct opt_def *table, size_t n,
				 char **shortopts)
{
	struct option *longopts = xcalloc(n + 1, sizeof(*longopts));
	char *s = xmalloc(3 * n + 2);
	size_t i, k = 0;

	s[k++] = ':';	/* report a missing argument as ':' */
	for (i = 0; i < n; i++) {
		const struct opt_def *o = &table[i];

		longopts[i].name = o->name;
		longopts[i].has_arg = o->has_arg;
		longopts[i].flag = NULL;
		longopts[i].val = o->key;
		if (o->key >= 256)
			continue;
		s[k++] = (char)o->key;
		if (o->has_arg != no_argument)
			s[k++] = ':';
		if (o->has_arg == optional_argument)
			s[k++] = ':';
	}
	s[k] = '\0';
	*shortopts = s;
	return longopts;
}

static const struct opt_def *find_key(const struct opt_def *table, size_t n,
				      int key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (table[i].key == key)
			return &table[i];
	return NULL;
}

/* An action row: --help or --version.  1 */
static int action(const struct optable *t, const struct opt_def *o)
{
	if (!strcmp(o->name, "help"))
		optable_usage(t, stdout);
	else
		printf("clyde %s\n", CLYDE_VERSION);
	return 1;
}

int optable_parse(const struct optable *t, void *cfg, int argc, char **argv,
		  char *err, size_t errlen)
{
	char *shortopts;
	struct option *longopts = build_opts(t->rows, t->nrows, &shortopts);
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (!rc &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt_def *o = find_key(t->rows, t->nrows, c);

		if (c == '?' || c == ':') {
			const char *what = c == ':' ? "needs an argument" :
					   NULL;

			if (optopt && optopt < 256)
				rc = errf(err, errlen, "option -%c %s",
					  optopt, what ? what : "is unknown");
			else
				rc = errf(err, errlen, "option '%s' %s",
					  argv[optind - 1], what ? what :
					  "is unknown or ambiguous");
		} else if (o && !o->parse) {
			rc = action(t, o);
		} else if (o && o->parse(cfg, optarg, err, errlen)) {
			rc = -1;
		}
	}
	free(longopts);
	free(shortopts);
	if (!rc && !t->operands && optind < argc)
		rc = errf(err, errlen, "unexpected argument '%s'",
			  argv[optind]);
	return rc;
}

void optable_params(const struct optable *t, const void *cfg, void *out)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].params)
			t->rows[i].params(cfg, out);
}
