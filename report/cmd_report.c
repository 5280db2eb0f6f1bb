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
#include "copies.h"
#include "criteria.h"
#include "import.h"
#include "outfile.h"
#include "pivot.h"
#include "regress.h"
#include "textesc.h"
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
	const char *criteria;
	const char *label_pattern;
	const char *rows, *columns, *figure;
	const char *baseline_file;
	double window;
};

/* The exit status when a criterion failed (0 ok, 1 write error, 2 bad). */
#define EXIT_CRITERIA 3

#define SETTER(fn, field)						\
static int fn(void *p, const char *arg, char *err, size_t errlen)	\
{									\
	struct report_config *cfg = p;					\
									\
	if (!*arg)							\
		return errf(err, errlen, "--%s: empty argument",	\
			    #field);					\
	cfg->field = arg;						\
	return 0;							\
}
SETTER(parse_criteria, criteria)
SETTER(parse_label_pattern, label_pattern)
SETTER(parse_rows, rows)
SETTER(parse_columns, columns)
SETTER(parse_figure, figure)
SETTER(parse_baseline_file, baseline_file)

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

enum {
	KEY_TEMPLATE = 256, KEY_HELP, KEY_VERSION, KEY_CRITERIA, KEY_PATTERN,
	KEY_ROWS, KEY_COLUMNS, KEY_FIGURE, KEY_BASEFILE, KEY_WINDOW,
};

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
	OPT_CUSTOM_ROW("criteria", KEY_CRITERIA, required_argument, "FILE",
		       "check the bounds of the INI file FILE on every "
		       "configuration: pass/fail per figure, exit status 3 "
		       "when one fails", parse_criteria, NULL),
	OPT_CUSTOM_ROW("baseline-file", KEY_BASEFILE, required_argument,
		       "FILE", "regression watch: compare each configuration "
		       "with the same one in the stored results FILE, "
		       "significant changes first", parse_baseline_file,
		       NULL),
	OPT_CUSTOM_ROW("label-pattern", KEY_PATTERN, required_argument,
		       "PATTERN", "dimensions from labels by a scheme of "
		       "one's own, e.g. '{controller}-raid{raid}-{fs}' "
		       "(default: the built-in rules)", parse_label_pattern,
		       NULL),
	OPT_CUSTOM_ROW("rows", KEY_ROWS, required_argument, "DIM[,DIM]",
		       "pivot: these dimensions down (with --columns)",
		       parse_rows, NULL),
	OPT_CUSTOM_ROW("columns", KEY_COLUMNS, required_argument,
		       "DIM[,DIM]", "pivot: these dimensions across (with "
		       "--rows)", parse_columns, NULL),
	OPT_CUSTOM_ROW("figure", KEY_FIGURE, required_argument, "TEST",
		       "pivot: only this test (name or title; default each "
		       "test in turn)", parse_figure, NULL),
	{ .name = "concurrent-window", .key = KEY_WINDOW,
	  .type = OPT_SECONDS, OPT_FIELD(struct report_config, window),
	  .def = "5", .dmin = 0, .dmax = 86400, .metavar = "SECONDS",
	  .help = "bonnie++ lines and clyde -y copies of one label started "
		  "within SECONDS are one run of N processes, rates summed "
		  "(0: off)" },
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
		"anything usable, 3 a --criteria check\nfailed (the report is "
		"written).  Malformed lines are warned about as FILE:LINE\nand "
		"skipped (the first 5 of a file).\n",
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

/* Everything the writers get beyond the comparison. */
struct extras {
	const struct crit_verdicts *verdicts;
	const struct pivot *pivot;
	size_t *ptests;
	size_t nptests;
	const struct regress *regress;
};

static int write_text(const struct report_config *cfg,
		      const struct compare *c, const struct extras *x,
		      FILE *out)
{
	int rc = 0;

	if (x->verdicts) {
		rc |= criteria_write_text(x->verdicts, c, cfg->criteria, out);
		fputc('\n', out);
	}
	if (x->regress) {
		rc |= regress_write_text(x->regress, cfg->baseline_file, out);
		fputc('\n', out);
	}
	if (x->pivot)
		rc |= pivot_write_text(x->pivot, c, x->ptests, x->nptests,
				       out);
	else
		rc |= report_write_cmptext(c, out);
	return rc;
}

static int write_report(const struct report_config *cfg,
			const struct compare *c, const struct import *im,
			const struct extras *x, char **inputs,
			size_t ninputs, FILE *out, char *err, size_t errlen)
{
	struct report_opts o = {
		.title = cfg->title ? cfg->title : "clyde report",
		.template_dir = cfg->template_dir,
		.inputs = inputs,
		.ninputs = ninputs,
		.warnings = im->warnings,
		.nwarnings = im->nwarnings,
		.verdicts = x->verdicts,
		.criteria = cfg->criteria,
		.pivot = x->pivot,
		.pivot_tests = x->ptests,
		.npivot_tests = x->nptests,
		.regress = x->regress,
		.baseline_file = cfg->baseline_file,
	};
	int rc;

	switch (cfg->format) {
	case FMT_HTML:
		return report_write_html(c, &o, out, err, errlen);
	case FMT_CSV:
		rc = x->pivot ? pivot_write_csv(x->pivot, c, x->ptests,
						x->nptests, out) :
			report_write_longcsv(c, x->verdicts, out);
		break;
	case FMT_BONNIE:
		rc = report_write_bonnie(c, out);
		break;
	default:
		rc = write_text(cfg, c, x, out);
		break;
	}
	if (rc)
		snprintf(err, errlen, "cannot write the report: %s",
			 strerror(errno));
	return rc;
}

/* A message on stderr, one line: what came from an input (a file name, an
 * INI section, an argument) with its control characters escaped. */
static void say(const char *msg)
{
	fputs("clyde report: ", stderr);
	text_put(stderr, msg);
	fputc('\n', stderr);
}

/* Read files into im, warn, merge concurrent copies: 0, or -1 (none). */
static int load(const struct report_config *cfg, struct import *im,
		const char *const *files, size_t nfiles)
{
	size_t i;

	import_init(im);
	for (i = 0; i < nfiles; i++)
		import_file(im, files[i]);
	for (i = 0; i < im->nwarnings; i++)
		say(im->warnings[i]);
	im->nrecs = copies_merge(im->recs, im->nrecs, cfg->window);
	return im->nrecs ? 0 : -1;
}

struct state {
	struct import im, old_im;
	struct compare c, old;
	int have_c, have_old;
	struct criteria cr;
	struct crit_verdicts verdicts;
	struct dims_pattern *pattern;
	struct pivot pivot;
	int have_pivot;
	struct regress regress;
	struct extras x;
};

static void state_release(struct state *st)
{
	if (st->have_pivot)
		pivot_release(&st->pivot);
	regress_release(&st->regress);
	crit_verdicts_release(&st->verdicts);
	criteria_release(&st->cr);
	if (st->have_c)
		compare_release(&st->c);
	if (st->have_old)
		compare_release(&st->old);
	dims_pattern_free(st->pattern);
	free(st->x.ptests);
	import_release(&st->im);
	import_release(&st->old_im);
}

/* Everything before writing; 0, or -1 with err (bad input: exit 2). */
static int prepare(const struct report_config *cfg, struct state *st,
		   const char *const *files, size_t nfiles, char *err,
		   size_t errlen)
{
	const char *base = cfg->baseline;
	int n;

	if (cfg->criteria && criteria_load(&st->cr, cfg->criteria, err,
					   errlen))
		return -1;
	if (!base)
		base = st->cr.baseline;
	if (cfg->label_pattern &&
	    !(st->pattern = dims_pattern_new(cfg->label_pattern, err,
					     errlen)))
		return -1;
	if (!cfg->rows != !cfg->columns)
		return errf(err, errlen, "--rows and --columns go together");
	if (load(cfg, &st->im, files, nfiles)) {
		/* one input already said why in its own line */
		if (nfiles > 1 || !st->im.nwarnings)
			return errf(err, errlen, "nothing usable in the "
				    "input");
		*err = '\0';
		return -1;
	}
	if (compare_build(&st->c, st->im.recs, st->im.nrecs, base,
			  st->pattern, err, errlen))
		return -1;
	st->have_c = 1;
	if (cfg->baseline_file) {
		if (load(cfg, &st->old_im, &cfg->baseline_file, 1))
			return errf(err, errlen, "--baseline-file '%s': "
				    "nothing usable in it", cfg->baseline_file);
		if (compare_build(&st->old, st->old_im.recs,
				  st->old_im.nrecs, NULL, st->pattern, err,
				  errlen))
			return -1;
		st->have_old = 1;
		regress_build(&st->regress, &st->old, &st->c);
		st->x.regress = &st->regress;
	}
	if (cfg->rows) {
		if (pivot_build(&st->pivot, &st->c, cfg->rows, cfg->columns,
				err, errlen))
			return -1;
		st->have_pivot = 1;
		st->x.pivot = &st->pivot;
		st->x.ptests = xcalloc(st->c.ntests + 1, sizeof(size_t));
		n = pivot_tests(&st->c, cfg->figure, st->x.ptests);
		if (n < 0)
			return errf(err, errlen, "--figure '%s': no such test",
				    cfg->figure);
		st->x.nptests = (size_t)n;
	} else if (cfg->figure) {
		return errf(err, errlen, "--figure needs --rows and "
			    "--columns");
	}
	if (cfg->criteria && criteria_unknown_test(&st->cr, &st->c))
		return errf(err, errlen, "%s: [%s]: no such test (a test's "
			    "name or title, all, or matrix ...)",
			    cfg->criteria,
			    criteria_unknown_test(&st->cr, &st->c));
	if (cfg->criteria) {
		criteria_check(&st->cr, &st->c, &st->verdicts);
		st->x.verdicts = &st->verdicts;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_config cfg = { .format = FMT_HTML };
	struct state st;
	struct outfile of = { 0 };
	const char **inputs;
	char err[512];
	FILE *out = stdout;
	size_t ninputs;
	int rc;

	memset(&st, 0, sizeof(st));
	rc = parse_options(&cfg, argc, argv, err, sizeof(err));
	if (rc > 0)
		return 0;
	if (rc < 0) {
		say(err);
		return 2;
	}
	/* -o is never one of the inputs: checked before anything opens */
	ninputs = (size_t)(argc - optind);
	inputs = xcalloc(ninputs + 2, sizeof(*inputs));
	memcpy(inputs, argv + optind, ninputs * sizeof(*inputs));
	inputs[ninputs] = cfg.baseline_file;
	inputs[ninputs + 1] = cfg.criteria;
	rc = outfile_check_inputs(cfg.output, inputs, ninputs + 2, err,
				  sizeof(err));
	free(inputs);
	if (rc) {
		say(err);
		return 2;
	}
	if (prepare(&cfg, &st, (const char *const *)(argv + optind),
		    (size_t)(argc - optind), err, sizeof(err))) {
		if (*err)
			say(err);
		state_release(&st);
		return 2;
	}
	if (cfg.output && strcmp(cfg.output, "-")) {
		if (outfile_open(&of, cfg.output, err, sizeof(err))) {
			say(err);
			state_release(&st);
			return 2;	/* a bad -o, as bad as a bad input */
		}
		out = of.f;
	}
	rc = write_report(&cfg, &st.c, &st.im, &st.x, argv + optind,
			  (size_t)(argc - optind), out, err, sizeof(err));
	if (out != stdout) {
		/* renamed into place only when the whole report is there */
		if (rc)
			outfile_abort(&of);
		else if (outfile_commit(&of, err, sizeof(err)))
			rc = -1;
	}
	if (rc)
		say(err);
	else if (st.x.verdicts)
		/* the verdict last, where a pipeline's log ends */
		fprintf(stderr, "clyde report: criteria %s: %s, %zu of %zu "
			"checks failed\n", cfg.criteria,
			st.verdicts.nfail ? "FAIL" : "PASS",
			st.verdicts.nfail, st.verdicts.n);
	rc = rc ? 1 : st.x.verdicts && st.verdicts.nfail ? EXIT_CRITERIA : 0;
	state_release(&st);
	return rc;
}
