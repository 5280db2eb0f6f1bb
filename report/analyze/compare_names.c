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

void compare_names_build(struct compare *c)
{
	struct hashidx idx = HASHIDX_INIT;
	size_t g, h, pos, *count = label_counts(c);
	char *twin = xcalloc(c->ngroups + 1, 1), *n;

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
const char *compare_common_virt(const struct compare *c)
{
	const char *mark = c->ngroups ? compare_group_virt(c, 0) : NULL;
	size_t g;

	for (g = 1; mark && g < c->ngroups; g++)
		if (!streq(compare_group_virt(c, g), mark))
			return NULL;
	return mark;
}

void compare_names_init(struct cmp_names *nm, const struct compare *c)
{
	size_t g;

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
}

void compare_names_release(struct cmp_names *nm)
{
	size_t g;

	for (g = 0; g < nm->n; g++)
		free(nm->label[g]);
	free(nm->label);
	free(nm->virt);
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

/* Whether head + "..." + tail (hb and tb bytes) could stand for s. */
static int could_be(const char *s, const char *head, size_t hb,
		    const char *tail, size_t tb)
{
	size_t sl = strlen(s);

	return sl >= hb + tb && !strncmp(s, head, hb) &&
	       !memcmp(s + sl - tb, tail, tb);
}

/* The bytes s and o share at their start, and at their end. */
static void common_ends(const char *s, const char *o, size_t *pre,
			size_t *suf)
{
	size_t sl = strlen(s), ol = strlen(o), p = 0, q = 0;

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

/* The bytes of s at [a, b) that differ from the other labels' ends. */
static size_t kept_differing(const struct cmp_names *nm, size_t g, size_t a,
			     size_t b, size_t hb, size_t tb)
{
	const char *s = nm->label[g];
	size_t sl = strlen(s), h, i, pre, suf, n = 0;

	for (h = 0; h < nm->n; h++) {
		if (h == g)
			continue;
		common_ends(s, nm->label[h], &pre, &suf);
		for (i = pre; i < sl - suf; i++)
			n += i < hb || i >= sl - tb || (i >= a && i < b);
	}
	return n;
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
	size_t sl = strlen(s), cols = cols_of(s, sl), keep = room - 3;
	size_t k, h, k0 = keep / 2, best_amb = (size_t)-1, best_win = 0;
	size_t best_k = 0, best_a = 0, w = room > 6 ? room - 6 : 0;
	int two = 0;

	for (k = 0; k <= keep; k++) {	/* head k, "...", tail keep - k */
		size_t hb = byte_at(s, k), tb = sl - tail_at(s, cols,
							     keep - k);
		size_t amb = 0, win = kept_differing(nm, g, 0, 0, hb, tb);

		for (h = 0; h < nm->n; h++)
			amb += could_be(nm->label[h], s, hb, s + sl - tb, tb) ?
			       weight(nm, g, h) : 0;
		if (amb < best_amb || (amb == best_amb &&
		    (k == k0 || (best_k != k0 && win >= best_win)))) {
			best_k = k;
			best_amb = amb;
			best_win = win;
		}
	}
	for (k = 1; w && k + w < cols; k++) {	/* "...", [k, k + w), "..." */
		size_t a = byte_at(s, k), b = byte_at(s, k + w), amb = 0;
		size_t win = kept_differing(nm, g, a, b, 0, 0);
		char *mid = xasprintf("%.*s", (int)(b - a), s + a);

		for (h = 0; h < nm->n; h++)
			amb += strstr(nm->label[h], mid) ? weight(nm, g, h) : 0;
		free(mid);
		/* two elisions only where one cannot tell g apart as well */
		if (amb < best_amb || (two && amb == best_amb &&
				       win > best_win)) {
			two = 1;
			best_a = k;
			best_amb = amb;
			best_win = win;
		}
	}
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
		if (strlen(nm->label[g]) < least)
			least = strlen(nm->label[g]);
	common_ends(nm->label[0], nm->label[1], &p, &q);
	for (g = 2; g < nm->n; g++) {
		size_t p2, q2;

		common_ends(nm->label[0], nm->label[g], &p2, &q2);
		p = p2 < p ? p2 : p;
		q = q2 < q ? q2 : q;
	}
	while (p && !word_end(nm->label[0][p - 1]))
		p--;
	while (q && !word_end(nm->label[0][strlen(nm->label[0]) - q]))
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
	const char *s = nm->label[g];
	size_t sl = strlen(s), pre, suf, h, inner, rc;
	struct cmp_names rest;
	char *mid, *out;

	shared_ends(nm, &pre, &suf);
	inner = room - (pre ? 3 : 0) - (suf ? 3 : 0);
	if ((!pre && !suf) || room < 12)
		return elide(nm, g, room);
	rest = *nm;
	rest.label = xcalloc(nm->n, sizeof(*rest.label));
	for (h = 0; h < nm->n; h++)
		rest.label[h] = xasprintf("%.*s", (int)(strlen(nm->label[h]) -
					  pre - suf), nm->label[h] + pre);
	rc = cols_of(rest.label[g], strlen(rest.label[g]));
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
		mid = elide(&rest, g, inner);
	}
	out = xasprintf("%s%s%s", pre && strncmp(mid, "...", 3) ? "..." : "",
			mid, suf && (strlen(mid) < 3 ||
			strcmp(mid + strlen(mid) - 3, "...")) ? "..." : "");
	free(mid);
	for (h = 0; h < nm->n; h++)
		free(rest.label[h]);
	free(rest.label);
	return out;
}

/* g's name in width columns, whatever the others' (see compare.h). */
static char *fit_one(const struct cmp_names *nm, const struct compare *c,
		     size_t g, size_t width)
{
	const char *mark = nm->common_virt ? NULL : compare_group_virt(c, g);
	size_t room = width, len = cols_of(nm->label[g],
					   strlen(nm->label[g]));
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
 * the tables has it, so no two rows ever read the same.
 */
char *compare_names_fit(const struct cmp_names *nm, const struct compare *c,
			size_t g, size_t width)
{
	char *name = fit_one(nm, c, g, width), *n;
	size_t h;
	int twin = 0;

	for (h = 0; !twin && h < nm->n; h++) {
		if (h == g)
			continue;
		n = fit_one(nm, c, h, width);
		twin = !strcmp(n, name);
		free(n);
	}
	if (!twin)
		return name;
	free(name);
	return numbered(nm, c, g, width);
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
