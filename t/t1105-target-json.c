// SPDX-License-Identifier: GPL-2.0-only
/*
 * The detected stack and virtualization in the record: written as JSON,
 * read back equal (as clyde report will), unknown left out, and the text
 * shows the tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "report/model/record.h"
#include "report/model/target_rec.h"

static char *to_json(const struct record *rec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(record_write_json(rec, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static struct record *sample(void)
{
	struct record *rec = record_new();
	struct record_stack *s = record_stack_new();
	int md, d;

	rec->host.virt = calloc(1, sizeof(*rec->host.virt));
	assert_non_null(rec->host.virt);
	rec->host.virt->vm = 1;
	rec->host.virt->hypervisor = strdup("KVM");
	rec->host.virt->evidence = strdup("cpu flag 'hypervisor'");
	record_stack_set(s, -1, "sunit", "262144", 1);
	record_stack_set(s, -1, "agcount", "32", 1);
	d = record_stack_add(s, "dm", "dm-0", -1);
	record_stack_set(s, d, "dm_kind", "lvm", 0);
	md = record_stack_add(s, "md", "md0", d);
	record_stack_set(s, md, "level", "raid5", 0);
	record_stack_set(s, md, "chunk_size", "262144", 1);
	d = record_stack_add(s, "disk", "sdb", md);
	record_stack_set(s, d, "model", "ST4000NM0035 1V4", 0);
	record_stack_set(s, d, "rotational", "1", 1);
	rec->target.stack = s;
	return rec;
}

static void round_trip(void **state)
{
	struct record *rec = sample(), *back;
	char err[256] = "";
	char *a, *b;

	(void)state;
	a = to_json(rec);
	assert_non_null(strstr(a, "\"level\":\"raid5\""));
	assert_non_null(strstr(a, "\"chunk_size\":262144"));
	assert_non_null(strstr(a, "\"vm\":true"));
	back = record_read_json(a, err, sizeof(err));
	if (!back)
		fail_msg("read back: %s", err);
	assert_non_null(back->target.stack);
	assert_int_equal(back->target.stack->ndevs, 3);
	assert_int_equal(back->target.stack->devs[2].parent, 1);
	assert_string_equal(record_stack_get(back->target.stack, 1, "level"),
			    "raid5");
	assert_string_equal(record_stack_get(back->target.stack, -1, "sunit"),
			    "262144");
	assert_int_equal(record_stack_depth(back->target.stack, 2), 2);
	assert_string_equal(back->host.virt->hypervisor, "KVM");
	assert_null(back->host.virt->emulation);
	b = to_json(back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	record_free(back);
	record_free(rec);
}

static void absent_stays_absent(void **state)
{
	struct record *rec = record_new(), *back;
	char err[256] = "";
	char *a;

	(void)state;
	a = to_json(rec);
	assert_null(strstr(a, "\"stack\""));
	assert_null(strstr(a, "\"virt\""));
	back = record_read_json(a, err, sizeof(err));
	assert_non_null(back);
	assert_null(back->target.stack);
	assert_null(back->host.virt);
	record_free(back);
	record_free(rec);
	free(a);
}

static void bad_parent_rejected(void **state)
{
	struct record *rec = sample(), *back;
	char err[256] = "";
	char *a, *p;

	(void)state;
	a = to_json(rec);
	/* the disk claims a holder that comes after it */
	p = strstr(a, "\"parent\":1");
	assert_non_null(p);
	p[9] = '7';
	back = record_read_json(a, err, sizeof(err));
	assert_null(back);
	assert_non_null(strstr(err, "parent"));
	free(a);
	record_free(rec);
}

static void text_tree(void **state)
{
	struct record *rec = sample();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(record_write_target_text(rec, f, 0), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\n  dm dm-0 dm_kind=lvm\n"));
	assert_non_null(strstr(buf, "\n    md md0 level=raid5 "
			       "chunk_size=262144\n"));
	assert_non_null(strstr(buf, "\n      disk sdb "
			       "model='ST4000NM0035 1V4' rotational=1\n"));
	assert_non_null(strstr(buf, "virtual:   yes, hypervisor KVM"));
	free(buf);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(absent_stays_absent),
		cmocka_unit_test(bad_parent_rejected),
		cmocka_unit_test(text_tree),
	};

	return tap_run_group_tests(tests);
}
