// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde report`: the options table (in the shape of bench/classic/options.c: one
 * row per option, parsed, documented and applied from that row only), the
 * input files, and the chosen writer.
 */
#include "report/cmd_report.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/analyze/compare.h"
#include "report/analyze/copies.h"
#include "report/analyze/criteria.h"
#include "report/analyze/figures.h"
#include "report/import/import.h"
#include "report/write/outfile.h"
#include "report/analyze/pivot.h"
#include "report/analyze/regress.h"
#include "lib/textesc.h"
#include "report/write/report.h"
#include "lib/optable.h"
#include "lib/xalloc.h"
#include "lib/diag.h"

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
	int list_figures;
	double noise_band;		/* a fraction */
	int allow_inconclusive;
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
	if (cfg->output)
		return errf(err, errlen, "-o: given twice ('%s', then '%s'); "
			    "give one", cfg->output, arg);
	cfg->output = arg;
	return 0;
}

/* --noise-band PCT: a decimal percentage, 0 to 100, "%" optional. */
static int parse_noise_band(void *p, const char *arg, char *err,
			    size_t errlen)
{
	struct report_config *cfg = p;
	char *end;
	double v;

	if (!((*arg >= '0' && *arg <= '9') || *arg == '.'))
		return errf(err, errlen, "--noise-band: '%s' is not a "
			    "percentage from 0 to 100", arg);
	v = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || !(v >= 0 && v <= 100) || (arg[0] == '0' &&
					     (arg[1] == 'x' || arg[1] == 'X')))
		return errf(err, errlen, "--noise-band: '%s' is not a "
			    "percentage from 0 to 100", arg);
	cfg->noise_band = v / 100;
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
	KEY_TEMPLATE = 256, KEY_CRITERIA, KEY_PATTERN,
	KEY_ROWS, KEY_COLUMNS, KEY_FIGURE, KEY_BASEFILE, KEY_WINDOW,
	KEY_LIST_FIGURES,
	KEY_NOISE, KEY_ALLOW_INC,
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
	{ .name = "allow-inconclusive", .key = KEY_ALLOW_INC,
	  .type = OPT_FLAG,
	  OPT_FIELD(struct report_config, allow_inconclusive),
	  .help = "--criteria: a not_worse check the data cannot decide "
		  "(too few runs, an interval across the margin) does not "
		  "fail the qualification (it still says how many runs would "
		  "decide it)" },
	{ .name = "noise-band", .key = KEY_NOISE, .has_arg = required_argument,
	  .metavar = "PCT", .parse = parse_noise_band,
	  .def_help = "10", .type = OPT_CUSTOM,
	  .help = "a configuration with a single run differs from the "
		  "baseline (colour, higher/lower) only beyond +-PCT %; with "
		  "repeats on both sides Welch's t-test decides" },
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
	OPT_CUSTOM_ROW("figure", KEY_FIGURE, required_argument, "NAME",
		       "pivot: only this figure: a test (name or title) or a "
		       "matrix cell's, e.g. \"8K 16 thr qd 1 Random 80/20 "
		       "IO/s\" (default each test and each cell's IO/s)",
		       parse_figure, NULL),
	{ .name = "list-figures", .key = KEY_LIST_FIGURES, .type = OPT_FLAG,
	  OPT_FIELD(struct report_config, list_figures),
	  .help = "print the name of every figure of FILE... (tests, matrix "
		  "cells and curve points), one a line, and nothing else" },
	{ .name = "concurrent-window", .key = KEY_WINDOW,
	  .type = OPT_SECONDS, OPT_FIELD(struct report_config, window),
	  .def = "0", .dmin = 0, .dmax = 86400, .metavar = "SECONDS",
	  .help = "bonnie++ lines of one label whose seeds (start times) "
		  "differ by at most SECONDS ran at the same time: one run "
		  "of N processes, rates summed (0: never; equal seeds are "
		  "-x repeats, clyde -y s copies are summed by their "
		  "records)" },
	OPTABLE_HELP,
	OPTABLE_VERSION,
};

static const struct optable report_options = {
	.rows = option_table,
	.nrows = OPTABLE_SIZE(option_table),
	.head = "usage: clyde report [options] FILE...\n"
		"Compare runs from clyde JSON records, bonnie++ CSV (1.03, "
		"1.9x, 1.98) and fio\nJSON, recognised by content (\"-\" reads "
		"standard input).\n\n",
	.tail = "\nExit status: 0 success, 1 the report could not be written, "
		"2 bad usage, an\n-o that cannot be created or an input that "
		"cannot be read or gives no results,\n3 a --criteria check "
		"failed or was inconclusive (the report is written).\n"
		"Malformed lines are warned about as FILE:LINE and skipped "
		"(the first 5\nof a file).\n",
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
		rc |= pivot_write_text(x->pivot, c, out);
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
		.regress = x->regress,
		.baseline_file = cfg->baseline_file,
	};
	int rc;

	switch (cfg->format) {
	case FMT_HTML:
		return report_write_html(c, &o, out, err, errlen);
	case FMT_CSV:
		rc = x->pivot ? pivot_write_csv(x->pivot, c, out) :
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
 * INI section, an argument) escaped (diag.h); 2, bad input's status. */
static int say(const char *msg)
{
	diag_error("%s", msg);
	return 2;
}

/*
 * Read files into im, warn, merge concurrent copies: 0, or -1 when one
 * of them could not be read or gave no results (its warning says why):
 * a report without a file it was given would pass for one with it.
 */
static int load(const struct report_config *cfg, struct import *im,
		const char *const *files, size_t nfiles, const char *opt)
{
	size_t i, first;
	char hint[512];
	int bad = 0;

	import_init(im);
	for (i = 0; i < nfiles; i++) {
		first = im->nrecs;
		if (import_file(im, files[i]) <= 0)
			bad = 1;
		else if (cfg->window <= 0 &&
			 copies_seed_hint(im->recs + first, im->nrecs - first,
					  hint, sizeof(hint)))
			import_note(im, "%s: %s", files[i], hint);
	}
	for (i = 0; i < im->nwarnings; i++) {
		char *w = opt ? xasprintf("%s: %s", opt, im->warnings[i]) :
			  NULL;

		say(w ? w : im->warnings[i]);
		free(w);
	}
	if (bad)
		return -1;
	im->nrecs = copies_merge(im->recs, im->nrecs, cfg->window);
	return im->nrecs ? 0 : -1;
}

/*
 * Each input read once: standard input ("-") can be read only once, and
 * a file named twice (under any name) would count its runs twice, as
 * repeats.  0, or -1 with err.
 */
static int inputs_once(char *const *files, size_t n, char *err,
		       size_t errlen)
{
	struct stat *st = xcalloc(n + 1, sizeof(*st));
	char *known = xcalloc(n + 1, 1);
	size_t i, j;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		int is_stdin = !strcmp(files[i], "-");

		known[i] = !(is_stdin ? fstat(0, &st[i]) :
			     stat(files[i], &st[i])) &&
			   (S_ISREG(st[i].st_mode) || is_stdin);
		for (j = 0; j < i && !rc; j++) {
			if (is_stdin && !strcmp(files[j], "-"))
				rc = errf(err, errlen, "'-' named twice: "
					  "standard input can be read once");
			else if (known[i] && known[j] &&
				 st[i].st_dev == st[j].st_dev &&
				 st[i].st_ino == st[j].st_ino)
				rc = errf(err, errlen, "'%s' and '%s' are "
					  "the same file: its runs would "
					  "count twice", files[j], files[i]);
		}
	}
	free(st);
	free(known);
	return rc;
}

/*
 * Bytes of the process per byte of input, by what the input starts with.
 * Records are read a line at a time into a compact model (packed
 * histograms, strings kept once, each line's JSON tree reused; no file is
 * held whole but a fio document, a few MB at most) and the HTML is
 * written as it is made.  JSON (clyde's records, fio's): measured 0.33 a
 * byte for 10^5 records of 28 KB in 10^4 configurations (2.8 GB: 900 MiB
 * as text, 889 MiB as HTML; scripts/bench-report), counted 0.5.  Text
 * (bonnie++'s CSV): a line of 240 bytes becomes a record of 4.7 KB
 * (20,000 lines: 99 MB), counted 24.
 */
#define MODEL_PER_JSON_BYTE 0.5
#define MODEL_PER_TEXT_BYTE 24.0

/* The factor for the file at path: JSON when its first byte that is not
 * a blank is '{' (or it has none in its first 4 KB), one when it is a
 * NUL (binary: its first line is read whole before the NUL shows), else
 * text. */
static double model_per_byte(const char *path)
{
	char buf[4096];
	size_t n = 0, i;
	FILE *f = fopen(path, "r");

	if (f) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
	}
	for (i = 0; i < n && strchr(" \t\r\n", buf[i]) && buf[i]; i++)
		;
	if (i < n && !buf[i])
		return 1.0;
	return i == n || buf[i] == '{' ? MODEL_PER_JSON_BYTE :
	       MODEL_PER_TEXT_BYTE;
}

/* Bytes this process may still take: MemAvailable, or less under a
 * RLIMIT_AS (ulimit -v) less what is mapped already; 0: not known. */
static double memory_available(void)
{
	double avail = 0, vm = 0;
	unsigned long long kb, pages;
	struct rlimit rl;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			avail = (double)kb * 1024;
	if (f)
		fclose(f);
	f = fopen("/proc/self/statm", "r");
	if (f && fscanf(f, "%llu", &pages) == 1)
		vm = (double)pages * (double)sysconf(_SC_PAGESIZE);
	if (f)
		fclose(f);
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    (!avail || (double)rl.rlim_cur - vm < avail))
		avail = (double)rl.rlim_cur > vm ? (double)rl.rlim_cur - vm :
			1;
	return avail;
}

/*
 * Whether the inputs can fit, before any is read: their sizes (standard
 * input and what is not a regular file count nothing) to the model's
 * bytes, against the memory there is.  0, or -1 with err: a report the
 * kernel kills half-way helps no one, on a machine others share.
 */
static int memory_fits(char *const *files, size_t n, const char *extra,
		       char *err, size_t errlen)
{
	double need = 0, avail = memory_available();
	struct stat st;
	size_t i;

	for (i = 0; i <= n; i++) {
		const char *path = i < n ? files[i] : extra;

		if (path && strcmp(path, "-") && !stat(path, &st) &&
		    S_ISREG(st.st_mode))
			need += (double)st.st_size * model_per_byte(path);
	}
	if (!avail || need <= avail)
		return 0;
	return errf(err, errlen, "these inputs need about %.1f GiB, %.1f GiB "
		    "available", need / (1 << 30), avail / (1 << 30));
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
	import_release(&st->im);
	import_release(&st->old_im);
	record_strings_interned(0);	/* every record is freed */
}

/* Everything before writing; 0, or -1 with err (bad input: exit 2). */
static int prepare(const struct report_config *cfg, struct state *st,
		   const char *const *files, size_t nfiles, char *err,
		   size_t errlen)
{
	const char *base = cfg->baseline;

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
	if (load(cfg, &st->im, files, nfiles, NULL)) {
		/* each input that failed said why in its own line */
		if (!st->im.nwarnings)
			return errf(err, errlen, "nothing usable in the "
				    "input");
		*err = '\0';
		return -1;
	}
	if (compare_build(&st->c, st->im.recs, st->im.nrecs, base,
			  st->pattern, err, errlen))
		return -1;
	st->have_c = 1;
	st->c.noise_band = cfg->noise_band;
	if (cfg->baseline_file) {
		if (load(cfg, &st->old_im, &cfg->baseline_file, 1,
			 "--baseline-file")) {
			if (!st->old_im.nwarnings)
				return errf(err, errlen, "--baseline-file "
					    "'%s': nothing usable in it",
					    cfg->baseline_file);
			*err = '\0';	/* its line said why */
			return -1;
		}
		if (compare_build(&st->old, st->old_im.recs,
				  st->old_im.nrecs, NULL, st->pattern, err,
				  errlen))
			return -1;
		st->have_old = 1;
		st->old.noise_band = cfg->noise_band;
		regress_build(&st->regress, &st->old, &st->c);
		st->x.regress = &st->regress;
	}
	if (cfg->rows) {
		if (pivot_build(&st->pivot, &st->c, cfg->rows, cfg->columns,
				err, errlen))
			return -1;
		st->have_pivot = 1;
		st->x.pivot = &st->pivot;
		if (pivot_figures(&st->pivot, &st->c, cfg->figure, err,
				  errlen))
			return -1;
	} else if (cfg->figure) {
		return errf(err, errlen, "--figure needs --rows and "
			    "--columns");
	}
	if (cfg->criteria && criteria_unknown_test(&st->cr, &st->c))
		return errf(err, errlen, "%s: [%s]: no such test (a test's "
			    "name or title, all, or a matrix cell's name: "
			    "clyde report --list-figures)",
			    cfg->criteria,
			    criteria_unknown_test(&st->cr, &st->c));
	if (cfg->criteria) {
		criteria_check(&st->cr, &st->c, &st->verdicts);
		st->verdicts.allow_inconclusive = cfg->allow_inconclusive;
		st->x.verdicts = &st->verdicts;
	}
	return 0;
}

/* --list-figures: every figure's name, one a line, escaped. */
static int list_figures(const struct compare *c, FILE *out)
{
	struct fig_list l;
	char name[192];
	size_t i;

	fig_list_build(&l, c);
	for (i = 0; i < l.n; i++) {
		fig_name(name, sizeof(name), &l.v[i], c);
		text_put(out, name);
		fputc('\n', out);
	}
	fig_list_release(&l);
	return fflush(out) == EOF || ferror(out) ? 1 : 0;
}

/*
 * Before anything opens: -o is never one of the inputs, each input is
 * read once, and they can fit in memory.  0, or -1 with err.
 */
static int check_inputs(const struct report_config *cfg, char *const *files,
			size_t n, char *err, size_t errlen)
{
	const char **inputs = xcalloc(n + 2, sizeof(*inputs));
	int rc;

	memcpy(inputs, files, n * sizeof(*inputs));
	inputs[n] = cfg->baseline_file;
	inputs[n + 1] = cfg->criteria;
	rc = outfile_check_inputs(cfg->output, inputs, n + 2, err, errlen);
	free(inputs);
	if (!rc)
		rc = inputs_once(files, n, err, errlen);
	if (!rc)
		rc = memory_fits(files, n, cfg->baseline_file, err, errlen);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_config cfg = { .format = FMT_HTML,
				     .noise_band = STATS_NOISE_BAND };
	struct state st;
	struct outfile of = { 0 };
	char err[512];
	FILE *out = stdout;
	int rc;

	diag_set_command("report");
	memset(&st, 0, sizeof(st));
	rc = parse_options(&cfg, argc, argv, err, sizeof(err));
	if (rc > 0)
		return 0;
	if (rc < 0) {
		say(err);
		return 2;
	}
	rc = check_inputs(&cfg, argv + optind, (size_t)(argc - optind), err,
			  sizeof(err));
	if (rc) {
		say(err);
		return 2;
	}
	/* thousands of records share their strings, each kept once */
	record_strings_interned(1);
	if (prepare(&cfg, &st, (const char *const *)(argv + optind),
		    (size_t)(argc - optind), err, sizeof(err))) {
		if (*err)
			say(err);
		state_release(&st);
		return 2;
	}
	if (cfg.list_figures) {
		rc = list_figures(&st.c, stdout);
		state_release(&st);
		return rc;
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
		diag_note("criteria %s: %s, %zu of %zu checks failed, %zu "
			  "inconclusive%s", cfg.criteria,
			crit_verdicts_failed(&st.verdicts) ? "FAIL" : "PASS",
			st.verdicts.nfail, st.verdicts.n,
			st.verdicts.ninconclusive,
			st.verdicts.ninconclusive && cfg.allow_inconclusive ?
			" (allowed)" : "");
	rc = rc ? 1 : st.x.verdicts && crit_verdicts_failed(&st.verdicts) ?
	     EXIT_CRITERIA : 0;
	state_release(&st);
	return rc;
}
