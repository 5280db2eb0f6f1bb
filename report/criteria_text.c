// SPDX-License-Identifier: GPL-2.0-only
/* The criteria's verdicts as text, and the verdicts of one figure. */
#include "criteria.h"

#include <stdio.h>

int criteria_write_text(const struct crit_verdicts *v,
			const struct compare *c, const char *path, FILE *out)
{
	size_t i;

	fprintf(out, "Verdict: %s, %zu of %zu check%s failed (criteria "
		"%s)\n", v->nfail ? "FAIL" : "PASS", v->nfail, v->n,
		v->n == 1 ? "" : "s", path);
	fprintf(out, "%-4s %-24s %-16s %-11s %-15s %s\n", "cfg", "figure",
		"check", "bound", "measured", "");
	for (i = 0; i < v->n; i++) {
		const struct crit_verdict *x = &v->v[i];
		char cfg[24];

		if (x->group == CRIT_NO_GROUP)
			snprintf(cfg, sizeof(cfg), "-");
		else
			snprintf(cfg, sizeof(cfg), "%zu%s", x->group + 1,
				 x->group == c->baseline ? "*" : "");
		fprintf(out, "%-4.4s %-24.24s %-16.16s %-11.11s %-15.15s %s\n",
			cfg, x->figure, x->key, x->bound, x->measured,
			x->pass ? "pass" : "FAIL");
	}
	return ferror(out) ? -1 : 0;
}

int criteria_for(const struct crit_verdicts *v, size_t g, size_t t,
		 uint64_t bs, unsigned threads, unsigned qd, int random,
		 unsigned read_pct, char *buf, size_t len)
{
	size_t i, used = 0;
	int rc = -1;

	buf[0] = '\0';
	for (i = 0; v && i < v->n; i++) {
		const struct crit_verdict *x = &v->v[i];

		if (x->group != g)
			continue;
		if (t != (size_t)-1 ? x->test != t :
		    x->test != (size_t)-1 || x->bs != bs ||
		    x->threads != threads || x->qd != qd ||
		    x->random != random || x->read_pct != read_pct)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s %s: %s", used ? "; " :
						 "", x->key, x->bound,
						 x->pass ? "pass" : "fail");
		rc = rc == 0 || !x->pass ? 0 : 1;
	}
	return rc;
}
