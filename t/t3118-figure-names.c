// SPDX-License-Identifier: GPL-2.0-only
/*
 * Figure names (report/analyze/figures.h): every name the builder makes
 * reads back as the cell and figure it names and as no other, the
 * spellings the tables print read the same, and a name that could mean
 * two things, or nothing, is refused with the word at fault.
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
#include "report/analyze/figures.h"
#include "report/model/histogram.h"

static const uint64_t bss[] = { 512, 4096, 8192, 65536, 1 << 20, 3 << 20 };
static const unsigned pcts[] = { 100, 0, 50, 80, 70, 1 };

/* c reads back from its name, and no cell with one part changed does. */
static void check_cell(const struct fig_cell *c)
{
	struct fig_cell d;
	struct fig_sel sel;
	char name[128], err[160];

	fig_cell_name(name, sizeof(name), c);
	if (fig_parse(name, &sel, err, sizeof(err)))
		fail_msg("'%s': %s", name, err);
	assert_true(fig_sel_cell(&sel, c));
	d = *c;
	d.bs *= 2;
	assert_false(fig_sel_cell(&sel, &d));
	d = *c;
	d.threads++;
	assert_false(fig_sel_cell(&sel, &d));
	d = *c;
	d.qd++;
	assert_false(fig_sel_cell(&sel, &d));
	d = *c;
	d.random = !d.random;
	assert_false(fig_sel_cell(&sel, &d));
	d = *c;
	d.read_pct = d.read_pct == 50 ? 60 : 50;
	assert_false(fig_sel_cell(&sel, &d));
	/* without a hit area the name leaves the hit out (fig_select
	 * takes it whole as that cell: t3117) */
	d = *c;
	d.hit_pct = d.hit_pct ? 0 : 100;
	d.hit_area = 1 << 20;
	assert_int_equal(fig_sel_cell(&sel, &d), !c->hit_area);
	d = *c;
	d.curve_pct = d.curve_pct ? 0 : 10;
	assert_false(fig_sel_cell(&sel, &d));
}

/* Every cell of a small grid, read back from its name: itself only. */
static void test_round_trip(void **state)
{
	struct fig_cell c;
	size_t b, p, i;

	(void)state;
	for (i = 0; i < 2 * 2 * 2 * 3; i++)
		for (b = 0; b < sizeof(bss) / sizeof(bss[0]); b++)
			for (p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
				unsigned h = (unsigned)(i / 8);

				memset(&c, 0, sizeof(c));
				c.bs = bss[b];
				c.threads = i & 1 ? 16 : 1;
				c.qd = i & 2 ? 32 : 1;
				c.random = (i & 4) != 0;
				c.read_pct = pcts[p];
				c.hit_area = h ? 1 << 20 : 0;
				c.hit_pct = h == 2 ? 100 : 0;
				c.curve_pct = h == 2 ? 50 : 0;
				check_cell(&c);
			}
}

/* Every figure of a cell: its name reads back as it, not as another. */
static void test_figures_round_trip(void **state)
{
	struct fig_id f[2 + 1 + 2 * HIST_SUMMARY_N];
	struct fig_sel sel;
	char name[160], err[160];
	size_t n = 0, i, j;
	int k;

	(void)state;
	memset(f, 0, sizeof(f));
	f[n++].kind = FIG_IOPS;
	f[n++].kind = FIG_MBPS;
	f[n++].kind = FIG_CPU;
	for (k = 0; k < HIST_SUMMARY_N; k++) {
		f[n].kind = FIG_READ;
		f[n++].lat = k;
		f[n].kind = FIG_WRITE;
		f[n++].lat = k;
	}
	for (i = 0; i < n; i++) {
		f[i].cell.bs = 8192;
		f[i].cell.threads = 16;
		f[i].cell.qd = 1;
		f[i].cell.random = 1;
		f[i].cell.read_pct = 80;
	}
	for (i = 0; i < n; i++) {
		fig_name(name, sizeof(name), &f[i], NULL);
		assert_int_equal(fig_parse(name, &sel, err, sizeof(err)), 0);
		for (j = 0; j < n; j++)
			assert_int_equal(fig_sel_matches(&sel, &f[j]), i == j);
	}
}

/* The spellings the text and HTML print, and the older criteria form. */
static void test_spellings(void **state)
{
	static const char *const same[] = {
		"8K 16 thr qd 1 Random 80/20 IO/s",
		"8k 16 threads qd 1 random 80/20 iops",
		"8K block size \xe2\x80\x94 16 threads, Random 80/20 IO/s",
		"matrix 8k 16x1 random 80 io/s",
		"Random 80% read 8KiB 16 thr IOPS qd1",
		"8192 bs 16 threads queue depth 1 rand 80/20 IO/s",
	};
	struct fig_id want;
	struct fig_sel sel;
	char err[160];
	size_t i;

	(void)state;
	memset(&want, 0, sizeof(want));
	want.kind = FIG_IOPS;
	want.cell.bs = 8192;
	want.cell.threads = 16;
	want.cell.qd = 1;
	want.cell.random = 1;
	want.cell.read_pct = 80;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		if (fig_parse(same[i], &sel, err, sizeof(err)))
			fail_msg("'%s': %s", same[i], err);
		assert_true(fig_sel_matches(&sel, &want));
	}
	/* "Read (ms)" is the mean; a statistic alone takes the only side */
	assert_int_equal(fig_parse("8K 16 thr Random 80/20 Read (ms)", &sel,
				   err, sizeof(err)), 0);
	assert_int_equal(sel.kind, FIG_READ);
	assert_int_equal(sel.lat, HIST_S_MEAN);
	assert_int_equal(fig_parse("8K Random 100% read p99", &sel, err,
				   sizeof(err)), 0);
	assert_int_equal(sel.kind, FIG_READ);
	assert_int_equal(sel.lat, HIST_S_P99);
	/* a part left out matches any value of it */
	assert_int_equal(fig_parse("Seq 100% write", &sel, err, sizeof(err)),
			 0);
	want.cell.random = 0;
	want.cell.read_pct = 0;
	want.cell.threads = 3;
	assert_true(fig_sel_matches(&sel, &want));
}

static void test_refused(void **state)
{
	static const struct { const char *name, *word; } bad[] = {
		{ "8K 16 thr Random 80/20 nonsense", "nonsense" },
		{ "8K 4K Random", "4k" },
		{ "8K Random Seq", "seq" },
		{ "8K Random 80/30", "80/30" },
		{ "8K Random 80/20 p99", "read or write" },
		{ "8K 16 thr qd Random", "qd" },
		{ "8K Random 80/20 IO/s MB/s", "mb/s" },
		{ "IO/s", "no block size" },
		{ "Block write", "no block size" },
	};
	struct fig_sel sel;
	char err[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!fig_parse(bad[i].name, &sel, err, sizeof(err)))
			fail_msg("'%s' was read", bad[i].name);
		if (!strstr(err, bad[i].word))
			fail_msg("'%s': '%s' does not name '%s'", bad[i].name,
				 err, bad[i].word);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_figures_round_trip),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_refused),
	};

	return tap_run_group_tests(tests);
}
