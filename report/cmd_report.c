// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde report`: the options table (in the shape of bench/options.c: one
 * row per option, parsed, documented and applied from that row only), the
 * input files, and the chosen writer.
 */
#include "cmd_report.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "import.h"
#include "report.h"
#include "../lib/xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

enum report_format { FMT_HTML, FMT_CSV, FMT_BONNIE, FMT_TEXT };

struct report_config {
	const char *output;
	enum report_format format;
	const char *baseline;
	const char *title;
	const char *template_dir;
};

struct report_option {
	const char *name;
	int key;
	int has_arg;
	const char *metavar;
	const char *help;
	int (*parse)(struct report_config *cfg, const char *arg, char *err,
		     size_t errlen);
};

static int parse_output(struct report_config *cfg, const char *arg,
			char *err, size_t errlen)
{
	if (!*arg) {
		snprintf(err, errlen, "-o: empty file name");
		return -1;
	}
	cfg->output = arg;
	return 0;
}

static int parse_format(struct report_config *cfg, const char *arg,
			char *err, size_t errlen)
{
	static const char *const names[] = { "html", "csv", "bonnie", "text" };
	size_t i;

	for (i = 0; i < 4; i++)
		if (!strcmp(arg, names[i])) {
			cfg->format = (enum report_format)i;
			return 0;
		}
	snprintf(err, errlen, "--format: '%s' is not html, csv, bonnie or "
		 "text", arg);
	return -1;
}

static int parse_baseline(struct report_config *cfg, const char *arg,
			  char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	cfg->baseline = arg;
	return 0;
}

static int parse_title(struct report_config *cfg, const char *arg,
		       char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	cfg->title = arg;
	return 0;
}

static int parse_template(struct report_config *cfg, const char *arg,
			  char *err, size_t errlen)
{
	FILE *f;
	char *probe = xasprintf("%s/.", arg);

	f = fopen(probe, "r");
	free(probe);
	if (!f) {
		snprintf(err, errlen, "--template: cannot use directory '%s': "
			 "%s", arg, strerror(errno));
		return -1;
	}
	fclose(f);
	cfg->template_dir = arg;
	return 0;
}

enum { KEY_TEMPLATE = 256, KEY_HELP, KEY_VERSION };

static const struct report_option option_table[] = {
	{ "output", 'o', required_argument, "FILE",
	  "write the report to FILE (default: standard output)",
	  parse_output },
	{ "format", 'f', required_argument, "html|csv|bonnie|text",
	  "html: one self-contained page (default); csv: one row per run "
	  "and test; bonnie: bonnie++ 1.98 lines for bon_csv2html; text: "
	  "80 columns", parse_format },
	{ "baseline", 'b', required_argument, "LABEL",
	  "compare every configuration with the one of this label (or #N, "
	  "the Nth; default the first)", parse_baseline },
	{ "title", 't', required_argument, "TEXT",
	  "title of the page (default \"clyde report\")", parse_title },
	{ "template", KEY_TEMPLATE, required_argument, "DIR",
	  "take report.html, report.css and report.js from DIR when there "
	  "(default: the built-in ones)", parse_template },
	{ "help", KEY_HELP, no_argument, NULL, "show this help", NULL },
	{ "version", KEY_VERSION, no_argument, NULL, "show the version",
	  NULL },
};

#define NOPTIONS (sizeof(option_table) / sizeof(option_table[0]))

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: clyde report [options] FILE...\n"
	      "Compare runs from clyde JSON records, bonnie++ CSV (1.03, "
	      "1.9x, 1.98) and fio\nJSON, recognised by content (\"-\" reads "
	      "standard input).\n\n", out);
	for (i = 0; i < NOPTIONS; i++) {
		const struct report_option *o = &option_table[i];
		char head[80];
		int n;

		if (o->key < 256)
			n = snprintf(head, sizeof(head), "  -%c, ", o->key);
		else
			n = snprintf(head, sizeof(head), "      ");
		if (o->metavar)
			snprintf(head + n, sizeof(head) - (size_t)n,
				 "--%s %s", o->name, o->metavar);
		else
			snprintf(head + n, sizeof(head) - (size_t)n, "--%s",
				 o->name);
		fprintf(out, "%s\n        %s\n", head, o->help);
	}
	fputs("\nExit status: 0 success, 1 the report could not be written, "
	      "2 bad usage or\nno input with anything usable.  Malformed "
	      "lines are warned about as FILE:LINE\nand skipped.\n", out);
}

/* 0 parsed, 1 help/version printed, -1 error in err. */
static int parse_options(struct report_config *cfg, int argc, char **argv,
			 char *err, size_t errlen)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 2];
	size_t i, s = 0;
	int c;

	shortopts[s++] = ':';
	for (i = 0; i < NOPTIONS; i++) {
		longopts[i].name = option_table[i].name;
		longopts[i].has_arg = option_table[i].has_arg;
		longopts[i].flag = NULL;
		longopts[i].val = option_table[i].key;
		if (option_table[i].key < 256) {
			shortopts[s++] = (char)option_table[i].key;
			if (option_table[i].has_arg != no_argument)
				shortopts[s++] = ':';
		}
	}
	shortopts[s] = '\0';
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[NOPTIONS]));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			if (optopt && optopt < 256)
				snprintf(err, errlen, "option -%c %s", optopt,
					 c == ':' ? "needs an argument" :
					 "is unknown");
			else
				snprintf(err, errlen, "option '%s' %s",
					 argv[optind - 1], c == ':' ?
					 "needs an argument" :
					 "is unknown or ambiguous");
			return -1;
		}
		if (c == KEY_HELP) {
			usage(stdout);
			return 1;
		}
		if (c == KEY_VERSION) {
			printf("clyde %s\n", CLYDE_VERSION);
			return 1;
		}
		for (i = 0; i < NOPTIONS; i++)
			if (option_table[i].key == c && option_table[i].parse &&
			    option_table[i].parse(cfg, optarg, err, errlen))
				return -1;
	}
	if (optind >= argc) {
		snprintf(err, errlen, "no input files (see clyde report "
			 "--help)");
		return -1;
	}
	return 0;
}

static int write_report(const struct report_config *cfg,
			const struct compare *c, const struct import *im,
			char **inputs, size_t ninputs, FILE *out, char *err,
			size_t errlen)
{
	struct report_opts o = {
		.title = cfg->title ? cfg->title : "clyde report",
		.template_dir = cfg->template_dir,
		.inputs = inputs,
		.ninputs = ninputs,
		.warnings = im->warnings,
		.nwarnings = im->nwarnings,
	};
	int rc;

	switch (cfg->format) {
	case FMT_HTML:
		return report_write_html(c, &o, out, err, errlen);
	case FMT_CSV:
		rc = report_write_longcsv(c, out);
		break;
	case FMT_BONNIE:
		rc = report_write_bonnie(c, out);
		break;
	default:
		rc = report_write_cmptext(c, out);
		break;
	}
	if (rc)
		snprintf(err, errlen, "cannot write the report: %s",
			 strerror(errno));
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_config cfg = { .format = FMT_HTML };
	struct import im;
	struct compare c;
	char err[512];
	FILE *out = stdout;
	size_t i;
	int rc;

	rc = parse_options(&cfg, argc, argv, err, sizeof(err));
	if (rc > 0)
		return 0;
	if (rc < 0) {
		fprintf(stderr, "clyde report: %s\n", err);
		return 2;
	}
	import_init(&im);
	for (i = (size_t)optind; i < (size_t)argc; i++)
		import_file(&im, argv[i]);
	for (i = 0; i < im.nwarnings; i++)
		fprintf(stderr, "clyde report: %s\n", im.warnings[i]);
	if (!im.nrecs) {
		fprintf(stderr, "clyde report: nothing usable in the input\n");
		import_release(&im);
		return 2;
	}
	if (compare_build(&c, im.recs, im.nrecs, cfg.baseline, err,
			  sizeof(err))) {
		fprintf(stderr, "clyde report: %s\n", err);
		import_release(&im);
		return 2;
	}
	if (cfg.output && strcmp(cfg.output, "-")) {
		out = fopen(cfg.output, "w");
		if (!out) {
			fprintf(stderr, "clyde report: cannot create '%s': "
				"%s\n", cfg.output, strerror(errno));
			compare_release(&c);
			import_release(&im);
			return 1;
		}
	}
	rc = write_report(&cfg, &c, &im, argv + optind,
			  (size_t)(argc - optind), out, err, sizeof(err));
	if (out != stdout && fclose(out) == EOF && !rc) {
		snprintf(err, sizeof(err), "cannot write '%s': %s",
			 cfg.output, strerror(errno));
		rc = -1;
	}
	if (rc)
		fprintf(stderr, "clyde report: %s\n", err);
	compare_release(&c);
	import_release(&im);
	return rc ? 1 : 0;
}
