/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_JTREE_H
#define CLYDE_JTREE_H

/*
 * One JSON line read into a read-only tree that lives in one arena
 * (report/json/jtree.c; yajl tokenizes).  The record's reader walks it
 * and lets it go: a run record is some 9,000 JSON values, most of them
 * the [index, count] pairs of its histograms, and a tree of one
 * allocation per value made and freed for every line cost more than all
 * the rest of a report (issue 23: json-c's tokener and glibc's malloc
 * were 60 % of the CPU of 1,000 records as text).
 *
 * Stricter than JSON where a run record has to be: an object that names
 * a member twice, nesting deeper than JTREE_MAX_DEPTH and an integer
 * outside int64 and uint64 are refused; strings are taken as bytes (a
 * record may carry what a filesystem or a tool printed, invalid UTF-8
 * included, and every writer escapes it).
 */

#include <stddef.h>
#include <stdint.h>

#define JTREE_MAX_DEPTH 32

enum jtype {
	JT_NULL,
	JT_BOOL,
	JT_INT,		/* an integer: int64, or uint64 above INT64_MAX */
	JT_DOUBLE,	/* a number with a fraction or an exponent */
	JT_STRING,
	JT_ARRAY,
	JT_OBJECT,
};

struct jmember;

struct jval {
	enum jtype type;
	unsigned big;		/* JT_INT: above INT64_MAX, in .u */
	size_t n;		/* bytes of a string or number's text, items,
				 * members */
	const char *text;	/* a string, NUL-terminated (it may hold
				 * NULs: n says); a number as written */
	union {
		int b;
		int64_t i;
		uint64_t u;
		double d;
		const struct jval *items;
		const struct jmember *members;
	};
};

struct jmember {
	const char *key;	/* NUL-terminated */
	size_t keylen;
	struct jval val;
};

/* A parser and the arena of the tree it made last. */
struct jtree;

struct jtree *jtree_new(void);
void jtree_free(struct jtree *t);

/*
 * Parse the one JSON value of buf[0..len) into t, replacing the tree
 * before (every pointer into it goes stale).  Blanks around it are
 * allowed.  The value, or NULL with the reason in err ("not valid JSON:
 * ..." and what yajl or the rules above say).
 */
const struct jval *jtree_parse(struct jtree *t, const char *buf, size_t len,
			       char *err, size_t errlen);

/* v is a t: NULL is JSON null, as a member or item that is absent. */
static inline int jv_is(const struct jval *v, enum jtype t)
{
	return v ? v->type == t : t == JT_NULL;
}

/* A number (an integer or a double). */
static inline int jv_is_number(const struct jval *v)
{
	return jv_is(v, JT_INT) || jv_is(v, JT_DOUBLE);
}

/* The member key of obj; NULL when obj is no object, or the member is
 * absent or null. */
const struct jval *jv_member(const struct jval *obj, const char *key);

/* Items of an array, members of an object: 0 for anything else. */
static inline size_t jv_len(const struct jval *v)
{
	return v && (v->type == JT_ARRAY || v->type == JT_OBJECT) ? v->n : 0;
}

/* Item i of an array (i below jv_len). */
static inline const struct jval *jv_item(const struct jval *arr, size_t i)
{
	return &arr->items[i];
}

/* A string's bytes, or the text of a number as written; NULL for the
 * rest. */
static inline const char *jv_text(const struct jval *v)
{
	return v && (v->type == JT_STRING || v->type == JT_INT ||
		     v->type == JT_DOUBLE) ? v->text : NULL;
}

/* true, and nothing else. */
static inline int jv_true(const struct jval *v)
{
	return jv_is(v, JT_BOOL) && v->b;
}

/* An integer as an int64_t (one above INT64_MAX: INT64_MAX), as a
 * uint64_t (a negative one: 0); 0 for the rest. */
static inline int64_t jv_int64(const struct jval *v)
{
	if (!jv_is(v, JT_INT))
		return 0;
	return v->big ? INT64_MAX : v->i;
}

static inline uint64_t jv_uint64(const struct jval *v)
{
	if (!jv_is(v, JT_INT))
		return 0;
	return v->big ? v->u : v->i < 0 ? 0 : (uint64_t)v->i;
}

/* A number as a double (an integer converted); NaN for the rest. */
double jv_double(const struct jval *v);

#endif
