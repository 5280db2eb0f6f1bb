// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JSON line into a tree in one arena (jtree.h): yajl's callbacks push
 * each value on a stack; the end of an array or an object moves its
 * values from the stack into the arena, as one block.  The arena is kept
 * from line to line, grown to the largest line's tree: reading a record
 * allocates nothing once the first one has been read.
 */
#include "report/json/jtree.h"

#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "lib/xalloc.h"

#define CHUNK_MIN (256 * 1024)

/* A block of the arena; the newest, and largest, first. */
struct chunk {
	struct chunk *next;
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

struct jtree {
	struct chunk *arena;
	struct jmember *stack;		/* values not yet in a container */
	size_t nstack, astack;
	struct frame {			/* each open container */
		size_t start;		/* where its values start on the
					 * stack */
		const char *key;	/* its member's name, in an object */
		size_t keylen;
	} frame[JTREE_MAX_DEPTH];
	int depth;
	const char *key;		/* the member being read */
	size_t keylen;
	struct jval root;
	int have_root;
	yajl_handle yajl;		/* parsing */
	char why[128];			/* a callback's refusal */
	size_t why_at;			/* and the byte after which */
};

static void *arena_alloc(struct jtree *t, size_t size)
{
	struct chunk *c = t->arena;
	size_t at = c ? (c->used + alignof(max_align_t) - 1) &
		    ~(alignof(max_align_t) - 1) : 0;

	if (!c || size > c->size - at || at > c->size) {
		size_t want = c ? 2 * c->size : CHUNK_MIN;

		if (want < size)
			want = size;
		c = xmalloc(sizeof(*c) + want);
		c->size = want;
		c->next = t->arena;
		t->arena = c;
		at = 0;
	}
	c->used = at + size;
	return c->data + at;
}

/* Empty the arena for the next line: one chunk, of the size the last
 * line needed in all. */
static void arena_reset(struct jtree *t)
{
	struct chunk *c = t->arena, *next;
	size_t total = 0;

	if (c && !c->next) {
		c->used = 0;
		return;
	}
	for (; c; c = next) {
		next = c->next;
		total += c->size;
		free(c);
	}
	t->arena = NULL;
	if (total) {
		arena_alloc(t, total);
		t->arena->used = 0;
	}
}

static char *arena_text(struct jtree *t, const void *s, size_t len)
{
	char *p = arena_alloc(t, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Refuse the line: why, after the token yajl has just read. */
__attribute__((format(printf, 2, 3)))
static int refuse(struct jtree *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->why_at = yajl_get_bytes_consumed(t->yajl);
	return 0;	/* yajl: cancel */
}

/* v into the open container (its member t->key in an object), or as
 * the root. */
static int push(struct jtree *t, const struct jval *v)
{
	struct jmember *m;

	if (!t->depth) {
		t->root = *v;
		t->have_root = 1;
		return 1;
	}
	if (t->nstack == t->astack)
		xgrow((void **)&t->stack, &t->astack, t->nstack + 1,
		      sizeof(*t->stack));
	m = &t->stack[t->nstack++];
	m->key = t->key;
	m->keylen = t->keylen;
	m->val = *v;
	t->key = NULL;
	return 1;
}

static int on_null(void *ctx)
{
	const struct jval v = { .type = JT_NULL };

	return push(ctx, &v);
}

static int on_bool(void *ctx, int b)
{
	const struct jval v = { .type = JT_BOOL, .b = !!b };

	return push(ctx, &v);
}

/*
 * An integer's digits (yajl has checked its syntax: -?[0-9]+, or a
 * double's) into v: an int64, a uint64 above INT64_MAX; -ERANGE past
 * either, -EINVAL at a fraction or an exponent (a double).  By hand
 * rather than by strtoll: a record is some 6,000 integers, and the
 * locale-aware strtoll was a tenth of a text report's CPU.
 */
static int parse_integer(const char *s, size_t len, struct jval *v)
{
	int neg = len && *s == '-';
	uint64_t u = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : UINT64_MAX;
	int over = 0;
	size_t i;

	for (i = neg; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return -EINVAL;
		if (u > (limit - d) / 10)
			over = 1;
		else
			u = u * 10 + d;
	}
	if (over)
		return -ERANGE;
	if (neg) {
		v->i = u ? -(int64_t)(u - 1) - 1 : 0;
	} else if (u > INT64_MAX) {
		v->big = 1;
		v->u = u;
	} else {
		v->i = (int64_t)u;
	}
	return 0;
}

static int on_number(void *ctx, const char *s, size_t len)
{
	struct jtree *t = ctx;
	struct jval v = { .type = JT_INT, .n = len };
	int rc = parse_integer(s, len, &v);

	v.text = arena_text(t, s, len);
	if (rc == -EINVAL) {
		v.type = JT_DOUBLE;
		v.d = strtod(v.text, NULL);	/* past a double: inf, refused
						 * where a number is read */
	} else if (rc == -ERANGE) {
		return refuse(t, "the integer %.40s is out of range", v.text);
	}
	return push(t, &v);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct jtree *t = ctx;
	struct jval v = { .type = JT_STRING, .n = len };

	v.text = arena_text(t, s, len);
	return push(t, &v);
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct jtree *t = ctx;

	t->key = arena_text(t, s, len);
	t->keylen = len;
	return 1;
}

static int open_container(void *ctx)
{
	struct jtree *t = ctx;

	if (t->depth == JTREE_MAX_DEPTH)
		return refuse(t, "nested more than %d deep", JTREE_MAX_DEPTH);
	t->frame[t->depth].start = t->nstack;
	t->frame[t->depth].key = t->key;
	t->frame[t->depth].keylen = t->keylen;
	t->depth++;
	return 1;
}

static int by_key(const void *a, const void *b)
{
	const struct jmember *x = *(const struct jmember *const *)a;
	const struct jmember *y = *(const struct jmember *const *)b;
	int c = memcmp(x->key, y->key, x->keylen < y->keylen ? x->keylen :
		       y->keylen);

	return c ? c : (x->keylen > y->keylen) - (x->keylen < y->keylen);
}

/* The key named twice among an object's n members, or NULL. */
static const struct jmember *twice(struct jtree *t, const struct jmember *m,
				   size_t n)
{
	const struct jmember **by;
	size_t i, j;

	if (n <= 16) {
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (m[i].keylen == m[j].keylen &&
				    !memcmp(m[i].key, m[j].key, m[i].keylen))
					return &m[i];
		return NULL;
	}
	by = arena_alloc(t, n * sizeof(*by));
	for (i = 0; i < n; i++)
		by[i] = &m[i];
	qsort(by, n, sizeof(*by), by_key);
	for (i = 1; i < n; i++)
		if (!by_key(&by[i - 1], &by[i]))
			return by[i];
	return NULL;
}

/* A member's name for a message: at most 40 bytes, a NUL as \\u0000. */
static const char *shown_key(const struct jmember *m, char *buf, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < m->keylen && i < 40 && o + 7 < size; i++) {
		if (m->key[i])
			buf[o++] = m->key[i];
		else
			o += (size_t)snprintf(buf + o, size - o, "\\u0000");
	}
	buf[o] = '\0';
	return buf;
}

static int on_end_map(void *ctx)
{
	struct jtree *t = ctx;
	char key[48];
	const struct frame *f = &t->frame[--t->depth];
	size_t start = f->start, n = t->nstack - start;
	struct jmember *m = arena_alloc(t, (n ? n : 1) * sizeof(*m));
	const struct jmember *dup;
	struct jval v = { .type = JT_OBJECT, .n = n, .members = m };

	if (n)
		memcpy(m, t->stack + start, n * sizeof(*m));
	t->nstack = start;
	dup = twice(t, m, n);
	if (dup)
		return refuse(t, "the object that ends here names the member "
			      "'%s' twice", shown_key(dup, key, sizeof(key)));
	t->key = f->key;
	t->keylen = f->keylen;
	return push(t, &v);
}

static int on_end_array(void *ctx)
{
	struct jtree *t = ctx;
	const struct frame *f = &t->frame[--t->depth];
	size_t start = f->start, n = t->nstack - start, i;
	struct jval *items = arena_alloc(t, (n ? n : 1) * sizeof(*items));
	struct jval v = { .type = JT_ARRAY, .n = n, .items = items };

	for (i = 0; i < n; i++)
		items[i] = t->stack[start + i].val;
	t->nstack = start;
	t->key = f->key;
	t->keylen = f->keylen;
	return push(t, &v);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = open_container,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = open_container,
	.yajl_end_array = on_end_array,
};

struct jtree *jtree_new(void)
{
	return xcalloc(1, sizeof(struct jtree));
}

void jtree_free(struct jtree *t)
{
	struct chunk *c, *next;

	if (!t)
		return;
	for (c = t->arena; c; c = next) {
		next = c->next;
		free(c);
	}
	free(t->stack);
	free(t);
}

/* A value the line ends in the middle of. */
static const char cut_short[] = "not valid JSON: unexpected end of line";

/* yajl's complaint, and where: "not valid JSON near byte 1234: invalid
 * char in json text"; at_end: when the line ended. */
static void yajl_says(yajl_handle h, int at_end, char *err, size_t errlen)
{
	unsigned char *s = yajl_get_error(h, 0, NULL, 0);
	const char *what = s ? (const char *)s : "out of memory";
	int len;

	if (!strncmp(what, "lexical error: ", 15))
		what += 15;
	else if (!strncmp(what, "parse error: ", 13))
		what += 13;
	len = (int)strcspn(what, ".\n");
	if (at_end && !strncmp(what, "premature EOF", 13))
		snprintf(err, errlen, "%s", cut_short);
	else if (at_end)
		snprintf(err, errlen, "not valid JSON at the end of the line: "
			 "%.*s", len, what);
	else
		snprintf(err, errlen, "not valid JSON near byte %zu: %.*s",
			 yajl_get_bytes_consumed(h), len, what);
	if (s)
		yajl_free_error(h, s);
}

/* yajl on buf: 0 with t's root, or -1 with the message in err. */
static int run_yajl(struct jtree *t, const char *buf, size_t len, char *err,
		    size_t errlen)
{
	yajl_status st = yajl_parse(t->yajl, (const unsigned char *)buf, len);
	size_t end = yajl_get_bytes_consumed(t->yajl);

	if (st == yajl_status_ok && !t->have_root) {
		/* a value the line ends in the middle of, or a number
		 * only its end tells is whole */
		st = yajl_complete_parse(t->yajl);
		if (st == yajl_status_ok && !t->have_root) {
			snprintf(err, errlen, "%s", cut_short);
			return -1;
		}
		if (st == yajl_status_error) {
			yajl_says(t->yajl, 1, err, errlen);
			return -1;
		}
		end = len;
	}
	if (st == yajl_status_client_canceled) {
		snprintf(err, errlen, "not valid JSON near byte %zu: %s",
			 t->why_at, t->why);
		return -1;
	}
	if (st != yajl_status_ok) {
		yajl_says(t->yajl, 0, err, errlen);
		return -1;
	}
	/* yajl stops at the value's end: only blanks may follow */
	while (end < len && (buf[end] == ' ' || buf[end] == '\t'))
		end++;
	if (end < len) {
		snprintf(err, errlen, "not valid JSON near byte %zu: text "
			 "after the end of the JSON value", end + 1);
		return -1;
	}
	return 0;
}

const struct jval *jtree_parse(struct jtree *t, const char *buf, size_t len,
			       char *err, size_t errlen)
{
	int rc;

	t->yajl = yajl_alloc(&callbacks, NULL, t);
	if (!t->yajl) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	arena_reset(t);
	t->nstack = 0;
	t->depth = 0;
	t->key = NULL;
	t->have_root = 0;
	t->why[0] = '\0';
	yajl_config(t->yajl, yajl_dont_validate_strings, 1);
	yajl_config(t->yajl, yajl_allow_trailing_garbage, 1);
	rc = run_yajl(t, buf, len, err, errlen);
	yajl_free(t->yajl);
	t->yajl = NULL;
	return rc ? NULL : &t->root;
}

const struct jval *jv_member(const struct jval *obj, const char *key)
{
	size_t i, len = strlen(key);

	if (!jv_is(obj, JT_OBJECT))
		return NULL;
	for (i = 0; i < obj->n; i++) {
		const struct jmember *m = &obj->members[i];

		if (m->keylen == len && !memcmp(m->key, key, len))
			return m->val.type == JT_NULL ? NULL : &m->val;
	}
	return NULL;
}

double jv_double(const struct jval *v)
{
	if (jv_is(v, JT_DOUBLE))
		return v->d;
	if (jv_is(v, JT_INT))
		return v->big ? (double)v->u : (double)v->i;
	return NAN;
}
