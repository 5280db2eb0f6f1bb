// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a comparison names its configurations (compare.h): label and what
 * tells it apart, the VM mark, numbers for twins, clipping that keeps the
 * differing end, worker and copy counts.
 */
#include "report/analyze/compare.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hashidx.h"
#include "lib/textcols.h"
#include "lib/xalloc.h"
#include "lib/textesc.h"

static int streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

char *compare_virt_mark(const struct record *rec)
{
	const struct record_virt *v = rec->host.virt;
	char emu[32];
	size_t i;

	if (!v || (v->vm <= 0 && !(v->emulation && *v->emulation)))
		return NULL;
	if (!v->emulation || !*v->emulation)
		return xasprintf("VM: %s", v->hypervisor && *v->hypervisor ?
				 v->hypervisor : "guest");
	for (i = 0; v->emulation[i] && i + 1 < sizeof(emu); i++)
		emu[i] = (char)toupper((unsigned char)v->emulation[i]);
	emu[i] = '\0';
	/* "QEMU TCG" already names the emulation: not "QEMU TCG TCG" */
	if (v->hypervisor && strcasestr(v->hypervisor, emu))
		return xasprintf("%s%s, emulated", v->vm > 0 ? "VM: " : "",
				 v->hypervisor);
	return xasprintf("%s%s %s, emulated", v->vm > 0 ? "VM: " : "",
			 v->hypervisor && *v->hypervisor ? v->hypervisor :
			 v->vm > 0 ? "guest" : "CPU", emu);
}

const char *compare_group_virt(const struct compare *c, size_t g)
{
	const char *v = compare_attr(&c->groups[g], "virt");

	return v && strcmp(v, "none") ? v : NULL;
}

/* The label and the name-worthy attributes that tell it apart (shared:
 * how many configurations have its label). */
static char *basic_label(const struct compare *c, size_t g, size_t shared)
{
	const struct cmp_group *grp = &c->groups[g];
	char *name = xstrdup(grp->label ? grp->label : "(no label)");
	size_t i;
	char *n;

	for (i = 0; shared > 1 && i < c->ndiffer; i++) {
		const char *v = compare_attr(grp, c->differ[i]);

		/* the label tells it apart, else what differs does */
		if (!v || !compare_name_worthy(c->differ[i]) ||
		    !strcmp(c->differ[i], "virt"))
			continue;
		n = xasprintf("%s %s=%s", name, !strncmp(c->differ[i], "tag:", 4)
			      ? c->differ[i] + 4 : c->differ[i], v);
		free(name);
		name = n;
	}
	return name;
}

/* How many configurations share each one's label: count[g]. */
static size_t *label_counts(const struct compare *c)
{
	struct hashidx idx = HASHIDX_INIT;
	size_t g, h, pos, *first = xcalloc(c->ngroups + 1, sizeof(*first));
	size_t *count = xcalloc(c->ngroups + 1, sizeof(*count));

	for (g = 0; g < c->ngroups; g++) {
		uint64_t hash = hash_str(HASH_SEED, c->groups[g].label);

		first[g] = g;
		for (pos = 0; hashidx_next(&idx, hash, &pos, &h);)
			if (streq(c->groups[h].label, c->groups[g].label)) {
				first[g] = h;
				break;
			}
		if (first[g] == g)
			hashidx_add(&idx, hash, g);
		count[first[g]]++;
	}
	for (g = 0; g < c->ngroups; g++)
		count[g] = count[first[g]];
	hashidx_release(&idx);
	free(first);
	return count;
}

static const char *common_virt(const struct compare *c);

void compare_names_build(struct compare *c)
{
	struct hashidx idx = HASHIDX_INIT;
	size_t g, h, pos, *count = label_counts(c);
	char *twin = xcalloc(c->ngroups + 1, 1), *n;

	c->common_virt = common_virt(c);
	c->names = xcalloc(c->ngroups + 1, sizeof(*c->names));
	for (g = 0; g < c->ngroups; g++) {
		const char *mark = compare_group_virt(c, g);
		uint64_t hash = hash_str(HASH_SEED, mark);

		c->names[g] = basic_label(c, g, count[g]);
		hash = hash_str(hash, c->names[g]);
		/*
		 * Two configurations that still read alike (two VM runs that
		 * differ only in what names nothing) get their number.
		 */
		for (pos = 0; hashidx_next(&idx, hash, &pos, &h);)
			if (!strcmp(c->names[h], c->names[g]) &&
			    streq(compare_group_virt(c, h), mark))
				twin[g] = twin[h] = 1;
		hashidx_add(&idx, hash, g);
	}
	for (g = 0; g < c->ngroups; g++)
		if (twin[g]) {
			n = xasprintf("%s #%zu", c->names[g], g + 1);
			free(c->names[g]);
			c->names[g] = n;
		}
	hashidx_release(&idx);
	free(twin);
	free(count);
}

char *compare_group_label(const struct compare *c, size_t g, int with_mark)
{
	const char *mark = compare_group_virt(c, g);

	if (with_mark && mark)
		return xasprintf("%s [%s]", c->names[g], mark);
	return xstrdup(c->names[g]);
}

char *compare_group_name(const struct compare *c, size_t g)
{
	return compare_group_label(c, g, 1);
}

char *compare_group_chart_name(const struct compare *c, size_t g,
			      size_t cols)
{
	/* shown as every text output shows an input (textesc.h) */
	char *label = text_escaped(c->groups[g].label ? c->groups[g].label :
				   "(no label)");
	const char *virt = compare_group_virt(c, g);
	const char *mark = !virt || compare_common_virt(c) ? "" :
			   !strncmp(virt, "VM", 2) ? " [VM]" : " [emulated]";
	char head[24], *name;
	size_t room;

	snprintf(head, sizeof(head), "[%zu] ", g + 1);
	room = cols > strlen(head) + strlen(mark) + 8 ?
	       cols - strlen(head) - strlen(mark) : 8;
	if (text_cols(label) > room)	/* cut at the end, and only there */
		name = xasprintf("%s%.*s...%s", head,
				 (int)text_bytes_of_cols(label, room - 3),
				 label, mark);
	else
		name = xasprintf("%s%s%s", head, label, mark);
	free(label);
	return name;
}

size_t compare_group_workers(const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	size_t r, i, most = 0;

	for (r = 0; r < grp->nruns; r++) {
		const struct record *rec = c->recs[grp->runs[r]];
		const char *p;

		for (i = 0; i < rec->nresults; i++)
			if (rec->results[i].nworkers > most)
				most = rec->results[i].nworkers;
		p = record_param(rec, "concurrency");
		if (!most && p && atol(p) > 1)
			most = (size_t)atol(p);
	}
	return most ? most : 1;
}

const char *compare_group_copies(const struct compare *c, size_t g)
{
	const struct record *rec = c->recs[c->groups[g].runs[0]];

	if (record_param(rec, "copies"))
		return "separately timed copies";
	if (record_param(rec, "fio_clients"))
		return "fio clients";
	return "workers";
}

/* The VM mark every configuration has (borrowed), or NULL. */
static const char *common_virt(const struct compare *c)
{
	const char *mark = c->ngroups ? compare_group_virt(c, 0) : NULL;
	size_t g;

	for (g = 1; mark && g < c->ngroups; g++)
		if (!streq(compare_group_virt(c, g), mark))
			return NULL;
	return mark;
}

const char *compare_common_virt(const struct compare *c)
{
	return c->names ? c->common_virt : common_virt(c);
}

/*
 * Whom a label is weighed against when it must be cut (elide): every
 * other label when they are few; among more, the NEAR_SIDE labels on each
 * side of it in the labels' order from their start and in their order
 * from their end: the ones that share most of its start or of its end,
 * which are those a cut could make it read as.  Naming n configurations
 * so takes n log n steps, not n * n (issue 23: 10,000 configurations).
 */
enum { NEAR_SIDE = 16, NEAR_MAX = 4 * NEAR_SIDE };

struct cmp_fits {
	size_t width;
	char **names;			/* [n], compare_names_fit_all's */
	struct cmp_fits *next;
};

static int by_start(const void *a, const void *b, void *arg)
{
	const struct cmp_names *nm = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int d = strcmp(nm->label[x], nm->label[y]);

	return d ? d : (x > y) - (x < y);
}

static int by_end(const void *a, const void *b, void *arg)
{
	const struct cmp_names *nm = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const unsigned char *s = (const unsigned char *)nm->label[x];
	const unsigned char *o = (const unsigned char *)nm->label[y];
	size_t i = nm->len[x], j = nm->len[y];

	while (i && j) {
		i--;
		j--;
		if (s[i] != o[j])
			return s[i] < o[j] ? -1 : 1;
	}
	if (i || j)
		return i ? 1 : -1;
	return (x > y) - (x < y);
}

static void near_add(struct cmp_names *nm, size_t g, size_t h)
{
	size_t *v = nm->near + g * NEAR_MAX, i;

	for (i = 0; i < nm->nnear[g]; i++)
		if (v[i] == h)
			return;
	v[nm->nnear[g]++] = h;
}

/* Each label's neighbours in the order cmp sorts them. */
static void near_by(struct cmp_names *nm, size_t *ord,
		    int (*cmp)(const void *, const void *, void *))
{
	size_t i, j;

	for (i = 0; i < nm->n; i++)
		ord[i] = i;
	qsort_r(ord, nm->n, sizeof(*ord), cmp, nm);
	for (i = 0; i < nm->n; i++)
		for (j = i > NEAR_SIDE ? i - NEAR_SIDE : 0;
		     j <= i + NEAR_SIDE && j < nm->n; j++)
			if (j != i)
				near_add(nm, ord[i], ord[j]);
}

static void near_build(struct cmp_names *nm)
{
	size_t g, h, n = nm->n ? nm->n : 1, *ord;

	nm->len = xcalloc(n, sizeof(*nm->len));
	nm->near = xcalloc(n * NEAR_MAX, sizeof(*nm->near));
	nm->nnear = xcalloc(n, sizeof(*nm->nnear));
	for (g = 0; g < nm->n; g++)
		nm->len[g] = strlen(nm->label[g]);
	if (nm->n <= NEAR_MAX + 1) {
		for (g = 0; g < nm->n; g++)
			for (h = 0; h < nm->n; h++)
				if (h != g)
					near_add(nm, g, h);
		return;
	}
	ord = xcalloc(nm->n, sizeof(*ord));
	near_by(nm, ord, by_start);
	near_by(nm, ord, by_end);
	free(ord);
}

static void shared_ends(const struct cmp_names *nm, size_t *pre,
			size_t *suf);

/* The labels without what they all share at their start and end. */
static struct cmp_names *rest_of(const struct cmp_names *nm)
{
	struct cmp_names *rest = xcalloc(1, sizeof(*rest));
	size_t h;

	rest->n = nm->n;
	rest->label = xcalloc(nm->n, sizeof(*rest->label));
	for (h = 0; h < nm->n; h++)
		rest->label[h] = xasprintf("%.*s", (int)(nm->len[h] - nm->pre -
					   nm->suf), nm->label[h] + nm->pre);
	rest->virt = xcalloc(nm->n, sizeof(*rest->virt));
	memcpy(rest->virt, nm->virt, nm->n * sizeof(*rest->virt));
	rest->common_virt = nm->common_virt;
	near_build(rest);
	return rest;
}

void compare_names_init(struct cmp_names *nm, const struct compare *c)
{
	size_t g;

	memset(nm, 0, sizeof(*nm));
	nm->n = c->ngroups;
	nm->label = xcalloc(nm->n ? nm->n : 1, sizeof(*nm->label));
	nm->virt = xcalloc(nm->n ? nm->n : 1, sizeof(*nm->virt));
	for (g = 0; g < nm->n; g++) {
		char *raw = compare_group_label(c, g, 0);

		/* shown as every text output shows an input (textesc.h) */
		nm->label[g] = text_escaped(raw);
		free(raw);
		nm->virt[g] = compare_group_virt(c, g);
	}
	nm->common_virt = compare_common_virt(c);
	near_build(nm);
	shared_ends(nm, &nm->pre, &nm->suf);
	if (nm->pre || nm->suf)
		nm->rest = rest_of(nm);
	nm->fits = xcalloc(1, sizeof(*nm->fits));
}

void compare_names_release(struct cmp_names *nm)
{
	struct cmp_fits *f, *next;
	size_t g;

	for (f = nm->fits; f; f = next) {
		next = f->next;
		compare_names_free_all(f->names, nm->n);
		free(f);
	}
	if (nm->rest) {
		compare_names_release(nm->rest);
		free(nm->rest);
	}
	for (g = 0; g < nm->n; g++)
		free(nm->label[g]);
	free(nm->label);
	free(nm->virt);
	free(nm->len);
	free(nm->near);
	free(nm->nnear);
	memset(nm, 0, sizeof(*nm));
}

/* Display columns (textcols.h) of the n bytes at s. */
static size_t cols_of(const char *s, size_t n)
{
	return text_cols_n(s, n);
}

/* The bytes of s's longest start in at most k columns. */
static size_t byte_at(const char *s, size_t k)
{
	return text_bytes_of_cols(s, k);
}

/* Where s's longest end in at most t columns starts (s has cols). */
static size_t tail_at(const char *s, size_t cols, size_t t)
{
	size_t i = byte_at(s, cols > t ? cols - t : 0);

	while (s[i] && text_cols(s + i) > t)
		while (s[++i] && ((unsigned char)s[i] & 0xc0) == 0x80)
			;
	return i;
}

/* Whether head + "..." + tail (hb and tb bytes) could stand for s (sl
 * bytes). */
static int could_be(const char *s, size_t sl, const char *head, size_t hb,
		    const char *tail, size_t tb)
{
	return sl >= hb + tb && !strncmp(s, head, hb) &&
	       !memcmp(s + sl - tb, tail, tb);
}

/* The bytes s and o (sl and ol bytes) share at their start, and at their
 * end. */
static void common_ends(const char *s, size_t sl, const char *o, size_t ol,
			size_t *pre, size_t *suf)
{
	size_t p = 0, q = 0;

	while (s[p] && s[p] == o[p])
		p++;
	while (q < sl - p && q < ol - p && s[sl - 1 - q] == o[ol - 1 - q])
		q++;
	*pre = p;
	*suf = q;
}

/*
 * How much mistaking label h for g's counts: most when the rows show the
 * same VM mark (or none) for both, less when the marks differ, which
 * tells them apart on their own; 0 for g itself.
 */
static size_t weight(const struct cmp_names *nm, size_t g, size_t h)
{
	if (h == g)
		return 0;
	if (nm->common_virt || streq(nm->virt[g], nm->virt[h]))
		return nm->n + 1;
	return 1;
}

/* Where label g and each of its near labels stop agreeing at the start
 * and at the end: ends[2 j], ends[2 j + 1] as common_ends gives them. */
static size_t *near_ends(const struct cmp_names *nm, size_t g)
{
	const size_t *near = nm->near + g * NEAR_MAX;
	size_t j, *ends = xcalloc(2 * nm->nnear[g] + 1, sizeof(*ends));

	for (j = 0; j < nm->nnear[g]; j++)
		common_ends(nm->label[g], nm->len[g], nm->label[near[j]],
			    nm->len[near[j]], &ends[2 * j], &ends[2 * j + 1]);
	return ends;
}

/* The bytes of [lo, hi) in [a, b). */
static size_t overlap(size_t lo, size_t hi, size_t a, size_t b)
{
	lo = lo > a ? lo : a;
	hi = hi < b ? hi : b;
	return hi > lo ? hi - lo : 0;
}

/*
 * The bytes of g that differ from a near label's ends (ends: near_ends)
 * and are kept: the spans [a0, a1) and [b0, b1), apart.
 */
static size_t kept_differing(const struct cmp_names *nm, size_t g,
			     const size_t *ends, size_t a0, size_t a1,
			     size_t b0, size_t b1)
{
	size_t sl = nm->len[g], j, lo, hi, n = 0;

	for (j = 0; j < nm->nnear[g]; j++) {
		lo = ends[2 * j];
		hi = sl - ends[2 * j + 1];
		n += overlap(lo, hi, a0, a1) + overlap(lo, hi, b0, b1);
	}
	return n;
}

/* How many near labels read as g cut to its hb bytes, "...", its tb last
 * (weighed as weight says). */
static size_t cut_ambiguity(const struct cmp_names *nm, size_t g, size_t hb,
			    size_t tb)
{
	const char *s = nm->label[g];
	const size_t *near = nm->near + g * NEAR_MAX;
	size_t sl = nm->len[g], j, h, amb = 0;

	for (j = 0; j < nm->nnear[g]; j++) {
		h = near[j];
		if (could_be(nm->label[h], nm->len[h], s, hb, s + sl - tb, tb))
			amb += weight(nm, g, h);
	}
	return amb;
}

/*
 * Whether hay holds the nl bytes of nd.  Labels are tens of bytes and
 * elide asks thousands of times a label: glibc's memmem sets up a table
 * for each call, which cost more than the search (a tenth of a report's
 * time at 3,000 configurations); the first byte by memchr, then memcmp.
 */
static int holds(const char *hay, size_t hl, const char *nd, size_t nl)
{
	const char *p = hay, *end = hay + hl;

	if (!nl)
		return 1;
	while ((size_t)(end - p) >= nl &&
	       (p = memchr(p, nd[0], (size_t)(end - p) - nl + 1))) {
		if (!memcmp(p + 1, nd + 1, nl - 1))
			return 1;
		p++;
	}
	return 0;
}

/* How many near labels read as g's bytes [a, b) between two "...". */
static size_t mid_ambiguity(const struct cmp_names *nm, size_t g, size_t a,
			    size_t b)
{
	const size_t *near = nm->near + g * NEAR_MAX;
	size_t j, h, amb = 0;

	for (j = 0; j < nm->nnear[g]; j++) {
		h = near[j];
		if (holds(nm->label[h], nm->len[h], nm->label[g] + a, b - a))
			amb += weight(nm, g, h);
	}
	return amb;
}

/*
 * Label g in room columns with what it shares with the others elided:
 * one span ("head...tail") chosen so that as few other labels as possible
 * read the same (the elided text is where labels agree); among those the
 * plain middle cut when it is as good, else the one that keeps most of
 * what tells g from the others, then most of its start.  Both ends
 * ("...middle...") only when that tells g apart from more labels.
 */
static char *elide(const struct cmp_names *nm, size_t g, size_t room)
{
	const char *s = nm->label[g];
	size_t sl = nm->len[g], cols = cols_of(s, sl), keep = room - 3;
	size_t k, k0 = keep / 2, best_amb = (size_t)-1, best_win = 0;
	size_t best_k = 0, best_a = 0, w = room > 6 ? room - 6 : 0;
	size_t *ends = near_ends(nm, g);
	int two = 0;

	for (k = 0; k <= keep; k++) {	/* head k, "...", tail keep - k */
		size_t hb = byte_at(s, k), tb = sl - tail_at(s, cols,
							     keep - k);
		size_t amb = cut_ambiguity(nm, g, hb, tb);
		/* head and tail apart: the tail from where the head ends */
		size_t win = kept_differing(nm, g, ends, 0, hb,
					    sl - tb > hb ? sl - tb : hb, sl);

		if (amb < best_amb || (amb == best_amb &&
		    (k == k0 || (best_k != k0 && win >= best_win)))) {
			best_k = k;
			best_amb = amb;
			best_win = win;
		}
	}
	for (k = 1; w && k + w < cols; k++) {	/* "...", [k, k + w), "..." */
		size_t a = byte_at(s, k), b = byte_at(s, k + w);
		size_t amb = mid_ambiguity(nm, g, a, b);
		size_t win = kept_differing(nm, g, ends, a, b, sl, sl);

		/* two elisions only where one cannot tell g apart as well */
		if (amb < best_amb || (two && amb == best_amb &&
				       win > best_win)) {
			two = 1;
			best_a = k;
			best_amb = amb;
			best_win = win;
		}
	}
	free(ends);
	if (two)
		return xasprintf("...%.*s...", (int)(byte_at(s, best_a + w) -
				 byte_at(s, best_a)), s + byte_at(s, best_a));
	return xasprintf("%.*s...%s", (int)byte_at(s, best_k), s,
			 s + tail_at(s, cols, keep - best_k));
}

/* A byte that may end a word: where a shared prefix is best cut. */
static int word_end(char ch)
{
	return ch == '-' || ch == '_' || ch == ' ' || ch == '/' || ch == '.' ||
	       ch == '=' || ch == ',' || ch == ':';
}

/*
 * The bytes every label shares at its start (cut back to a word's end,
 * so that "fc-raid5" and "fc-raid0" share "fc-") and at its end (cut
 * forward to a word's start), never overlapping in any label.
 */
static void shared_ends(const struct cmp_names *nm, size_t *pre,
			size_t *suf)
{
	size_t g, p, q, least = (size_t)-1;

	*pre = *suf = 0;
	if (nm->n < 2)
		return;
	for (g = 0; g < nm->n; g++)
		if (nm->len[g] < least)
			least = nm->len[g];
	common_ends(nm->label[0], nm->len[0], nm->label[1], nm->len[1], &p,
		    &q);
	for (g = 2; g < nm->n; g++) {
		size_t p2, q2;

		common_ends(nm->label[0], nm->len[0], nm->label[g],
			    nm->len[g], &p2, &q2);
		p = p2 < p ? p2 : p;
		q = q2 < q ? q2 : q;
	}
	while (p && !word_end(nm->label[0][p - 1]))
		p--;
	while (q && !word_end(nm->label[0][nm->len[0] - q]))
		q--;
	if (p > least)
		p = least;
	if (q > least - p)
		q = least - p;
	*pre = p;
	*suf = q;
}

/*
 * Label g in room columns: what every label shares at its start and end
 * is elided first ("...raid5-ext4..."), then, when the rest is still too
 * long, one more span where g agrees with the others (elide).
 */
static char *fit_label(const struct cmp_names *nm, size_t g, size_t room)
{
	const struct cmp_names *rest = nm->rest;
	const char *s = nm->label[g];
	size_t sl = nm->len[g], pre = nm->pre, suf = nm->suf, inner, rc;
	char *mid, *out;

	inner = room - (pre ? 3 : 0) - (suf ? 3 : 0);
	if (!rest || room < 12)
		return elide(nm, g, room);
	rc = cols_of(rest->label[g], rest->len[g]);
	if (rc <= inner) {
		/* room to spare: give back the shared text nearest the rest */
		size_t spare = inner - rc, pc = cols_of(s, pre);
		size_t sc = cols_of(s + sl - suf, suf), from, to;

		if (pre && spare + 3 >= pc) {
			spare += 3 - pc;
			from = 0;
			pre = 0;
		} else {
			char *p = xasprintf("%.*s", (int)pre, s);

			from = pre ? tail_at(p, pc, spare) : 0;
			free(p);
			spare = pre ? 0 : spare;
		}
		if (suf && spare + 3 >= sc) {
			to = sl;
			suf = 0;
		} else {
			to = suf ? sl - suf + byte_at(s + sl - suf, spare) : sl;
		}
		mid = xasprintf("%.*s", (int)(to - from), s + from);
	} else {
		mid = elide(rest, g, inner);
	}
	out = xasprintf("%s%s%s", pre && strncmp(mid, "...", 3) ? "..." : "",
			mid, suf && (strlen(mid) < 3 ||
			strcmp(mid + strlen(mid) - 3, "...")) ? "..." : "");
	free(mid);
	return out;
}

/* g's name in width columns, whatever the others' (see compare.h). */
static char *fit_one(const struct cmp_names *nm, const struct compare *c,
		     size_t g, size_t width)
{
	const char *mark = nm->common_virt ? NULL : compare_group_virt(c, g);
	size_t room = width, len = cols_of(nm->label[g], nm->len[g]);
	char *name, *n;

	if (mark)
		room = width > cols_of(mark, strlen(mark)) + 3 + 8 ?
		       width - cols_of(mark, strlen(mark)) - 3 : 8;
	if (len <= room)
		name = xstrdup(nm->label[g]);
	else if (room > 3)
		name = fit_label(nm, g, room);
	else
		name = xstrdup("...");
	if (cols_of(name, strlen(name)) > room) {
		/* wide characters where a cut was judged: cut the end */
		size_t sz = strlen(name) + 4;

		n = xcalloc(sz, 1);
		text_fit(n, sz, name, room);
		free(name);
		name = n;
	}
	if (!mark)
		return name;
	n = xasprintf("%s [%s]", name, mark);
	free(name);
	return n;
}

/* g's name numbered ("#3 ..."), for names that would read alike. */
static char *numbered(const struct cmp_names *nm, const struct compare *c,
		      size_t g, size_t width)
{
	char num[24], *name, *n;
	size_t nl = (size_t)snprintf(num, sizeof(num), "#%zu ", g + 1);

	name = fit_one(nm, c, g, width > nl + 4 ? width - nl : 4);
	n = xasprintf("%s%s", num, name);
	free(name);
	return n;
}

/*
 * Names that still read alike (labels that differ only where no span of
 * the room can show) get the configuration's number, as the list above
 * the tables has it, so no two rows ever read the same.  The names of
 * every configuration in one width are made together, on the first call
 * for that width, and kept until compare_names_release.
 */
char *compare_names_fit(const struct cmp_names *nm, const struct compare *c,
			size_t g, size_t width)
{
	struct cmp_fits *f;

	for (f = nm->fits->next; f && f->width != width; f = f->next)
		;
	if (!f) {
		f = xcalloc(1, sizeof(*f));
		f->width = width;
		f->names = compare_names_fit_all(nm, c, width);
		f->next = nm->fits->next;
		nm->fits->next = f;
	}
	return xstrdup(f->names[g]);
}

char **compare_names_fit_all(const struct cmp_names *nm,
			     const struct compare *c, size_t width)
{
	char **v = xcalloc(nm->n ? nm->n : 1, sizeof(*v));
	char *twin = xcalloc(nm->n ? nm->n : 1, 1);
	struct hashidx idx = HASHIDX_INIT;
	size_t g, h, pos;

	/* names that read alike found by their hash: n steps, not n * n */
	for (g = 0; g < nm->n; g++) {
		uint64_t hash;

		v[g] = fit_one(nm, c, g, width);
		hash = hash_str(HASH_SEED, v[g]);
		for (pos = 0; hashidx_next(&idx, hash, &pos, &h);)
			if (!strcmp(v[g], v[h]))
				twin[g] = twin[h] = 1;
		hashidx_add(&idx, hash, g);
	}
	hashidx_release(&idx);
	for (g = 0; g < nm->n; g++)
		if (twin[g]) {
			free(v[g]);
			v[g] = numbered(nm, c, g, width);
		}
	free(twin);
	return v;
}

void compare_names_free_all(char **v, size_t n)
{
	size_t g;

	for (g = 0; v && g < n; g++)
		free(v[g]);
	free(v);
}
