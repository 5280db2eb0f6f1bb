// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options-table engine: defaults, getopt_long, --help and params from
 * one table of typed rows.
 */
#include "lib/optable.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

int optable_defaults(const struct optable *t, void *cfg, char *err,
		     size_t errlen)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];

		char opt[64];

		optrow_spelling(o, opt, sizeof(opt));
		if (o->def && o->type != OPT_CUSTOM && o->type != OPT_ACTION &&
		    optrow_apply(o, cfg, o->def, opt, err, errlen))
			return -1;
	}
	return 0;
}

/* --- --help --- */

/*
 * The help of an option, text (its default, " (default 600)", at the
 * end), broken at spaces into lines of at most 80 columns, each indented
 * by indent spaces; "(default N)" is not broken, and a word longer than a
 * line stands alone.
 */
static void put_help(FILE *out, const char *text, size_t indent)
{
	const size_t width = 80;
	size_t col = 0, n;

	for (; *text; text += n) {
		n = strcspn(text, " ");
		if (!strncmp(text, "(default ", 9))
			n = 9 + strcspn(text + 9, " ");
		if (col && col + 1 + n > width) {
			fputc('\n', out);
			col = 0;
		}
		if (!col)
			col = (size_t)fprintf(out, "%*s", (int)indent, "");
		else
			col += (size_t)fprintf(out, " ");
		col += fwrite(text, 1, n, out);
		while (text[n] == ' ')
			n++;
	}
	fputc('\n', out);
}

/*
 * --help: head, then "  -s, --size SIZE" and the help line a row (with
 * "(default X)" from a cfg made by t->init), tail.
 */
static void optable_usage(const struct optable *t, FILE *out)
{
	void *cfg = NULL;
	size_t i;

	if (t->init && t->cfg_size) {
		cfg = xcalloc(1, t->cfg_size);
		t->init(cfg);
	}
	fputs(t->head, out);
	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];
		char head[96], def[300], *text;
		size_t len;

		if (o->key > 0 && o->key < 256)
			snprintf(head, sizeof(head), "  -%c, ", o->key);
		else
			snprintf(head, sizeof(head), "      ");
		len = strlen(head);
		if (!o->metavar)
			snprintf(head + len, sizeof(head) - len, "--%s",
				 o->name);
		else if (optrow_has_arg(o) == optional_argument)
			snprintf(head + len, sizeof(head) - len, "--%s[=%s]",
				 o->name, o->metavar);
		else
			snprintf(head + len, sizeof(head) - len, "--%s %s",
				 o->name, o->metavar);
		optrow_default(o, cfg, def, sizeof(def));
		text = xasprintf("%s%s", o->help, def);
		fprintf(out, "%s\n", head);
		put_help(out, text, 8);
		free(text);
	}
	fputs(t->tail, out);
	if (cfg) {
		if (t->release)
			t->release(cfg);
		free(cfg);
	}
}

/* --- parsing --- */

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
		int has_arg = optrow_has_arg(o);

		longopts[i].name = o->name;
		longopts[i].has_arg = has_arg;
		longopts[i].flag = NULL;
		longopts[i].val = o->key;
		if (o->key >= 256)
			continue;
		s[k++] = (char)o->key;
		if (has_arg != no_argument)
			s[k++] = ':';
		if (has_arg == optional_argument)
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

/*
 * Keep a message on one line: control characters an argument brought
 * (a newline in -m) are shown as \n, \t or \xNN.
 */
static void one_line(char *err, size_t errlen)
{
	char *copy = xstrdup(err);
	size_t i, k = 0;

	for (i = 0; copy[i] && k + 5 < errlen; i++) {
		unsigned char c = (unsigned char)copy[i];

		if (c == '\n')
			k += (size_t)snprintf(err + k, errlen - k, "\\n");
		else if (c == '\t')
			k += (size_t)snprintf(err + k, errlen - k, "\\t");
		else if (c < 0x20 || c == 0x7f)
			k += (size_t)snprintf(err + k, errlen - k, "\\x%02x",
					      c);
		else
			err[k++] = (char)c;
	}
	err[k] = '\0';
	free(copy);
}

/*
 * An operand where none is taken.  After an option whose argument is
 * optional (-f), say that the argument goes attached: "-f 2" is -f alone
 * and an operand 2.
 */
static int unexpected(const struct optable *t, int argc, char **argv,
		      char *err, size_t errlen)
{
	const char *prev = optind > 1 && optind - 1 < argc ?
			   argv[optind - 1] : "";
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct opt_def *o = &t->rows[i];
		char shortname[3] = { '-', (char)o->key, '\0' };
		char longname[80];

		if (optrow_has_arg(o) != optional_argument)
			continue;
		snprintf(longname, sizeof(longname), "--%s", o->name);
		if ((o->key < 256 && !strcmp(prev, shortname)) ||
		    !strcmp(prev, longname)) {
			if (o->key < 256)
				return errf(err, errlen, "%s: unexpected "
					    "argument '%s': an argument of %s "
					    "goes attached (%s%s or --%s=%s)",
					    prev, argv[optind], prev,
					    shortname, argv[optind], o->name,
					    argv[optind]);
			return errf(err, errlen, "%s: unexpected argument "
				    "'%s': an argument of %s goes attached "
				    "(--%s=%s)", prev, argv[optind], prev,
				    o->name, argv[optind]);
		}
	}
	return errf(err, errlen, "unexpected argument '%s'", argv[optind]);
}

int optable_parse(const struct optable *t, void *cfg, int argc, char **argv,
		  char *err, size_t errlen)
{
	char *shortopts;
	struct option *longopts = build_opts(t->rows, t->nrows, &shortopts);
	int c, rc = 0, one = 1;

	optind = 1;
	opterr = 0;
	while (!rc &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt_def *o = find_key(t->rows, t->nrows, c);
		char opt[64];

		if (o)
			optrow_spelling(o, opt, sizeof(opt));
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
		} else if (o && (o->type == OPT_ACTION ||
				 (o->type == OPT_CUSTOM && !o->parse))) {
			rc = action(t, o);
		} else if (o && optrow_apply(o, cfg, optarg, opt, err, errlen)) {
			rc = -1;
		} else if (o && o->given) {
			memcpy((char *)cfg + o->given - 1, &one, sizeof(one));
		}
	}
	free(longopts);
	free(shortopts);
	if (!rc && !t->operands && optind < argc)
		rc = unexpected(t, argc, argv, err, errlen);
	if (rc < 0)
		one_line(err, errlen);
	return rc;
}

/* --- params --- */

void optable_params(const struct optable *t, const void *cfg,
		    const struct opt_sink *sink)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		optrow_params(&t->rows[i], cfg, sink);
}

void optable_release(const struct optable *t, void *cfg)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		optrow_release(&t->rows[i], cfg);
}
