// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 80-column text comparison of `clyde report`: the configurations,
 * then per test one line per configuration with mean, standard
 * deviation, count, CPU, ratio to the baseline and marks.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"

#define NAME_W 34

/* Copy s into buf, at most w columns, control characters as '?'. */
static void clip(char *buf, size_t w, const char *s)
{
	size_t i;

	for (i = 0; s && s[i] && i < w; i++)
		buf[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	if (s && strlen(s) > w && w > 3)
		memcpy(buf + w - 3, "...", 3);
	buf[i] = '\0';
}

int report_write_cmptext(const struct compare *c, FILE *out)
{
	size_t g, t;
	char name[NAME_W + 1];

	fprintf(out, "%zu runs in %zu configurations\n", c->nrecs,
		c->ngroups);
	for (g = 0; g < c->ngroups; g++) {
		char *n = compare_group_name(c, g);
		char line[80];

		clip(line, 70, n);
		fprintf(out, "%3zu %c %s (%zu run%s)\n", g + 1,
			g == c->baseline ? '*' : ' ', line,
			c->groups[g].nruns, c->groups[g].nruns == 1 ? "" : "s");
		free(n);
	}
	fputs("* baseline; marks: L low precision, C cached, "
	      "S per-char via stdio\n", out);
	for (t = 0; t < c->ntests; t++) {
		int any = 0;

		for (g = 0; g < c->ngroups; g++)
			any |= c->groups[g].stats[t].n ||
			       c->groups[g].stats[t].too_fast;
		if (!any)
			continue;
		fprintf(out, "\n%-*.*s %10s %9s %3s %4s %6s %s\n", NAME_W,
			NAME_W, c->tests[t].title, c->tests[t].unit, "sd",
			"n", "%CP", "ratio", "mk");
		for (g = 0; g < c->ngroups; g++) {
			const struct cmp_stat *s = &c->groups[g].stats[t];
			char val[32], sd[32], ratio[16], mk[8] = "";
			char *n = compare_group_name(c, g);
			double r = compare_ratio(c, g, t);

			clip(name, NAME_W, n);
			free(n);
			if (!s->n && !s->too_fast)
				continue;
			if (!s->n) {
				fprintf(out, "%-*s %10s\n", NAME_W, name,
					"+++++");
				continue;
			}
			report_fmt_value(val, sizeof(val), s->mean,
					 c->tests[t].unit);
			if (s->n > 1)
				report_fmt_value(sd, sizeof(sd), s->sd,
						 c->tests[t].unit);
			else
				strcpy(sd, "-");
			if (g == c->baseline)
				strcpy(ratio, "base");
			else if (isnan(r))
				strcpy(ratio, "-");
			else
				snprintf(ratio, sizeof(ratio), "%.2f", r);
			if (s->marks & CMP_LOW_PRECISION)
				strcat(mk, "L");
			if (s->marks & CMP_CACHED)
				strcat(mk, "C");
			if (c->tests[t].per_char && s->mode &&
			    strcmp(s->mode, "syscall"))
				strcat(mk, "S");
			fprintf(out, "%-*s %10.10s %9.9s %3zu %4.0f %6s %s\n",
				NAME_W, name, val, sd, s->n, s->cpu, ratio,
				mk);
		}
	}
	return fflush(out) == EOF || ferror(out) ? -1 : 0;
}
