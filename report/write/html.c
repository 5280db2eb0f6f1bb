// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML report: one self-contained page, polyglot HTML5 that a strict
 * XML parser accepts (every element closed, every attribute quoted, every
 * string from an input escaped, nothing that XML forbids).  The page
 * comes from templates (templates/ compiled in, or --template DIR) with
 * @TITLE@, @CSS@, @SCRIPT@, @GENERATOR@ and @BODY@ filled in; the body's
 * sections are in html_*.c, and everything in them and here goes through
 * the emitter (html_emit.h).
 */
#include "report/write/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/analyze/compare_matrix.h"
#include "report/write/html_emit.h"
#include "report/write/html_internal.h"
#include "report/write/templates.h"
#include "lib/xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

/* Which of the optional sections the page has (for them and the nav). */
static void sections(struct page *p)
{
	const struct compare *c = p->c;
	struct cmpm m;
	size_t g, t;

	for (g = 0; g < c->ngroups; g++)
		p->has_bonnie |= html_group_has(c, g, 0, OTHER_TESTS);
	for (t = 0; t < c->ntests; t++) {
		p->has_charts |= html_chart_has(c, t);
		p->has_latency |= html_latency_has(c, t);
	}
	cmpm_build(&m, c);
	p->has_matrix = m.ntables > 0;
	p->has_zones = html_zones_has(c);
	cmpm_release(&m);
}

static void nav(struct page *p)
{
	FILE *f = p->f;

	h_lit(f, "<p class=\"meta\">");
	if (p->o->verdicts)
		h_lit(f, "<a href=\"#verdict\">Verdict</a> &#183; ");
	if (p->o->regress)
		h_lit(f, "<a href=\"#regression\">Regression watch</a> "
		      "&#183; ");
	if (p->o->pivot)
		h_lit(f, "<a href=\"#pivot\">Pivot</a> &#183; ");
	h_lit(f, "<a href=\"#configurations\">Configurations</a> &#183; ");
	if (p->has_bonnie)
		h_lit(f, "<a href=\"#bonnie\">bonnie++ tests</a> &#183; ");
	if (p->c->ntests > OTHER_TESTS)
		h_lit(f, "<a href=\"#other\">Other tests</a> &#183; ");
	if (p->has_matrix)
		h_lit(f, "<a href=\"#matrix\">Matrix</a> &#183; ");
	if (p->has_zones)
		h_lit(f, "<a href=\"#zones\">Zones</a> &#183; ");
	if (p->has_charts)
		h_lit(f, "<a href=\"#charts\">Charts</a> &#183; ");
	if (p->has_latency)
		h_lit(f, "<a href=\"#latency\">Latency</a> &#183; ");
	h_lit(f, "<a href=\"#runs\">Runs</a> &#183; "
	      "<a href=\"#environment\">Environment</a></p>\n");
}

static void header(struct page *p)
{
	const struct compare *c = p->c;
	const struct report_opts *o = p->o;
	char *base = compare_group_name(c, c->baseline);
	FILE *f = p->f;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	h_open(f, "p", "class", "meta", NULL);
	h_textf(f, "%zu run%s in %zu configuration%s; generated %s by "
		"clyde %s.  Baseline: ", c->nrecs, c->nrecs == 1 ? "" : "s",
		c->ngroups, c->ngroups == 1 ? "" : "s", when, CLYDE_VERSION);
	h_elem(f, "b", base);
	h_lit(f, ".</p>\n");
	free(base);
	if (o->ninputs) {
		h_open(f, "p", "class", "meta", NULL);
		h_lit(f, "Inputs: ");
		for (i = 0; i < o->ninputs; i++) {
			h_elem(f, "code", o->inputs[i]);
			h_lit(f, " ");
		}
		h_lit(f, "</p>\n");
	}
	h_lit(f, "<p class=\"meta\">Marks: <b>*</b> low precision (under "
	      "0.5 s), <b>c</b> read from the page cache, <b>d</b> O_DIRECT "
	      "ignored, <b>+++++</b> bonnie++ could not time it, "
	      "<b>stdio</b>/<b>syscall</b> per-char mode where modes "
	      "differ.");
	if (p->has_bonnie || p->c->ntests > OTHER_TESTS)
		h_lit(f, "  Test throughput in KiB/s.");
	if (p->has_matrix)
		h_lit(f, "  Matrix: IO/s, MB/s (MiB/s), latency in ms.");
	h_lit(f, "</p>\n");
	nav(p);
	if (!o->nwarnings)
		return;
	h_lit(f, "<h2 id=\"warnings\">Input warnings</h2>\n"
	      "<ul class=\"warnings\">\n");
	for (i = 0; i < o->nwarnings; i++) {
		h_elem(f, "li", o->warnings[i]);
		h_lit(f, "\n");
	}
	h_lit(f, "</ul>\n");
}

/* --- templates --- */

static char *load_template(const struct report_opts *o, const char *name,
			   char *err, size_t errlen)
{
	const char *text;
	size_t len;

	if (o->template_dir) {
		char *path = xasprintf("%s/%s", o->template_dir, name);
		FILE *f = fopen(path, "r");

		if (f) {
			char *buf = NULL;
			size_t alloc = 0, n = 0, got;

			do {
				xgrow((void **)&buf, &alloc, n + 4097, 1);
				got = fread(buf + n, 1, alloc - n - 1, f);
				n += got;
			} while (got);
			buf[n] = '\0';
			if (ferror(f)) {
				snprintf(err, errlen, "cannot read '%s': %s",
					 path, strerror(errno));
				fclose(f);
				free(path);
				free(buf);
				return NULL;
			}
			fclose(f);
			free(path);
			return buf;
		}
		if (errno != ENOENT) {
			snprintf(err, errlen, "cannot open '%s': %s", path,
				 strerror(errno));
			free(path);
			return NULL;
		}
		free(path);
	}
	text = template_builtin(name, &len);
	if (!text) {
		snprintf(err, errlen, "no built-in template '%s'", name);
		return NULL;
	}
	return xstrdup(text);
}

/*
 * From this many configurations on, each per-configuration section is
 * folded (<details>), so that the summary and the verdict above them
 * are what a page of thousands of configurations opens on.
 */
#define FOLD_CONFIGS 50

/* The head of a folded section: "<details ...><summary>what (N
 * configurations)</summary>", through the emitter; NULL out of memory. */
static char *fold_head(const char *what, size_t ngroups, size_t *len)
{
	char *head = NULL;
	FILE *m = open_memstream(&head, len);

	if (!m)
		return NULL;
	h_lit(m, "<details class=\"fold\"><summary>");
	h_textf(m, "%s (%zu configurations)", what, ngroups);
	h_lit(m, "</summary>\n");
	if (fclose(m) == EOF) {
		free(head);
		return NULL;
	}
	return head;
}

/* Section fn, folded under its name when the configurations are many
 * (the fold's head written before the section's first byte: a section
 * with nothing to say leaves no fold). */
static void section(struct page *p, void (*fn)(struct page *),
		    const char *what)
{
	FILE *outer = p->f;
	struct h_fold fold;
	size_t len;
	char *head = p->c->ngroups < FOLD_CONFIGS ? NULL :
		     fold_head(what, p->c->ngroups, &len);

	if (!head || !h_fold_open(&fold, outer, head, len)) {
		free(head);
		fn(p);
		return;
	}
	p->f = fold.f;
	fn(p);
	p->f = outer;
	if (h_fold_close(&fold))
		h_lit(outer, "</details>\n");
	free(head);
}

/* The sections after the summary, each of every configuration. */
static void body_sections(struct page *p)
{
	static const struct {
		void (*fn)(struct page *);
		const char *what;
	} v[] = {
		{ html_configurations, "Configurations" },
		{ html_dims, "Dimensions" },
		{ html_bonnie_table, "bonnie++ tests" },
		{ html_other_table, "Other tests" },
		{ html_stats, "Statistics" },
		{ html_matrix_tables, "Matrix" },
		{ html_curves, "Rate curves" },
		{ html_zones, "Zones" },
		{ html_charts, "Charts" },
		{ html_latency, "Latency" },
		{ html_runs, "Runs" },
		{ html_matrix_appendix, "Matrix runs" },
		{ html_environment, "Environment" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		section(p, v[i].fn, v[i].what);
}

/* The page's body, as @BODY@ stands for it, onto p->f. */
static void body(struct page *p)
{
	header(p);
	html_verdicts(p);
	html_regress(p);
	html_pivot(p);
	body_sections(p);
}

/* The template's keys, filled in by report_write_html. */
enum tpl_key { KEY_TITLE, KEY_CSS, KEY_SCRIPT, KEY_GENERATOR, KEY_BODY,
	       NKEYS };

static const char *const tpl_keys[NKEYS] = {
	[KEY_TITLE] = "@TITLE@", [KEY_CSS] = "@CSS@",
	[KEY_SCRIPT] = "@SCRIPT@", [KEY_GENERATOR] = "@GENERATOR@",
	[KEY_BODY] = "@BODY@",
};

/* The key that starts at s, or NKEYS. */
static enum tpl_key key_at(const char *s)
{
	int k;

	for (k = 0; *s == '@' && k < NKEYS; k++)
		if (!strncmp(s, tpl_keys[k], strlen(tpl_keys[k])))
			return (enum tpl_key)k;
	return NKEYS;
}

/*
 * The template with its keys filled in, the body written straight onto
 * out as it is made (a page of 100,000 runs is hundreds of MB: it is not
 * held in memory first).
 */
int report_write_html(const struct compare *c, const struct report_opts *o,
		      FILE *out, char *err, size_t errlen)
{
	struct page p = { .c = c, .o = o, .f = out };
	char *tpl, *css, *js, *s;
	int rc = 0;

	tpl = load_template(o, "report.html", err, errlen);
	css = tpl ? load_template(o, "report.css", err, errlen) : NULL;
	js = css ? load_template(o, "report.js", err, errlen) : NULL;
	if (!js) {
		free(tpl);
		free(css);
		return -1;
	}
	sections(&p);
	for (s = tpl; *s; s++) {
		enum tpl_key k = key_at(s);

		switch (k) {
		case KEY_TITLE:
			h_text(out, o->title);
			break;
		case KEY_CSS:
			fputs(css, out); /* template */
			break;
		case KEY_SCRIPT:
			fputs(js, out); /* template */
			break;
		case KEY_GENERATOR:
			h_textf(out, "clyde %s", CLYDE_VERSION);
			break;
		case KEY_BODY:
			body(&p);
			break;
		case NKEYS:
			putc(*s, out); /* template */
			continue;
		}
		s += strlen(tpl_keys[k]) - 1;
	}
	if (fflush(out) == EOF || ferror(out)) {
		snprintf(err, errlen, "cannot write the page: %s",
			 strerror(errno));
		rc = -1;
	}
	free(tpl);
	free(css);
	free(js);
	return rc;
}
