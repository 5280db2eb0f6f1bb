// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde report`: the options table (in the shape of bench/options.c: one
 * row per option, parsed, documented and applied from that row only), the
 * input files, and the chosen writer.
 */
#include "cmd_report.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "import.h"
#include "report.h"
#include "../lib/optable.h"
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

static int parse_output(void *p, const char *arg, char *err, size_t errlen)
{
	struct report_config *cfg = p;

	if (!*arg)
		return errf(err, errlen, "-o: empty file name");
	cfg->output = arg;
	return 0;
}

static const struct opt_choice format_choices[] = {
	{ "html", FMT_HTML }, { "csv", FMT_CSV }, { "bonnie", FMT_BONNIE },
	{ "text", FMT_TEXT }, { NULL, 0 },
};

static int parse_baseline(void *p, const char *arg, char *err, size_t errlen)
{
	struct report_config *cfg = p;

	(void)err;
	(void)errlen;
	cfg->baseline = arg;
	return 0;
}

static int parse_title(void *p, const char *arg, char *err, size_t errlen)
{
	struct report_config *cfg = p;

	(void)err;
	(void)errlen;
	cfg->title = arg;
	return 0;
}

static int parse_template(void *p, const char *arg, char *err, size_t errlen)
{
	struct report_config *cfg = p;
	FILE *f;
	char *probe = xasprintf("%s/.", arg);

	f = fopen(probe, "r");
	free(probe);
	if (!f)
		return errf(err, errlen, "--template: cannot use directory "
			    "'%s': %s", arg, strerror(errno));
	fclose(f);
	cfg->template_dir = arg;
	return 0;
}

enum { KEY_TEMPLATE = 256, KEY_HELP, KEY_VERSION };

static const struct opt_def option_table[] = {
	OPT_CUSTOM_ROW("output", 'o', required_argument, "FILE",
		       "write the report to FILE (default: standard output)",
		       parse_output, NULL),
	{ .name = "format", .key = 'f', .type = OPT_ENUM,
	  OPT_FIELD(struct report_config, format), .choices = format_choices,
	  .def = "html", .metavar = "html|csv|bonnie|text",
	  .help = "html: one self-contained page; csv: one row per run and "
		  "test; bonnie: bonnie++ 1.98 lines for bon_csv2html; text: "
		  "80 columns" },
	OPT_CUSTOM_ROW("baseline", 'b', required_argument, "LABEL",
		       "compare every configuration with the one of this "
		       "label (or #N, the Nth; default the first)",
		       parse_baseline, NULL),
	OPT_CUSTOM_ROW("title", 't', required_argument, "TEXT",
		       "title of the page (default \"clyde report\")",
		       parse_title, NULL),
	OPT_CUSTOM_ROW("template", KEY_TEMPLATE, required_argument, "DIR",
		       "take report.html, report.css and report.js from DIR "
		       "when there (default: the built-in ones)",
		       parse_template, NULL),
	OPTABLE_HELP(KEY_HELP),
	OPTABLE_VERSION(KEY_VERSION),
};

static const struct optable report_options = {
	.rows = option_table,
	.nrows = OPTABLE_SIZE(option_table),
	.head = "usage: clyde report [options] FILE...\n"
		"Compare runs from clyde JSON records, bonnie++ CSV (1.03, "
		"1.9x, 1.98) and fio\nJSON, recognised by content (\"-\" reads "
		"standard input).\n\n",
	.tail = "\nExit status: 0 success, 1 the report could not be written, "
		"2 bad usage, an\n-o that cannot be created or no input with "
		"anything usable.  Malformed lines\nare warned about as "
		"FILE:LINE and skipped (the first 5 of a file).\n",
	.operands = 1,
};

/* 0 parsed, 1 help/version printed, -1 error in err. */
static int parse_options(struct report_config *cfg, int argc, char **argv,
			 char *err, size_t errlen)
{
	int rc = optable_defaults(&report_options, cfg, err, errlen);

	if (!rc)
		rc = optable_parse(&report_options, cfg, argc, argv, err,
				   errlen);

	if (rc)
		return rc;
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
		/* one input already said why in its own line */
		if (argc - optind > 1 || !im.nwarnings)
			fprintf(stderr, "clyde report: nothing usable in the "
				"input\n");
		import_release(&im);
		return 2;
	}
	if (compare_build(&c, im.recs, im.nrecs, cfg.baseline, NULL, err,
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
			return 2;	/* a bad -o, as bad as a bad input */
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
