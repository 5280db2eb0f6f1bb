// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report: bonnie++ 2.00a's table, column for column (checked
 * against the header and rows bonnie++ 2.00a prints, and against
 * bon_csv2txt's rendering of clyde's CSV line), correct figures, marks
 * instead of "+++++", then latency percentiles, residency, failures,
 * warnings and the low precision hint.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "t/record-fixture.h"
#include "lib/textcols.h"

/* What bonnie++ 2.00a prints (bonnie++ -d /tmp/x -s 64M -r 32 -n 1). */
static const char bonnie_io_h1[] =
	"Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-";
static const char bonnie_io_h2[] =
	"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--";
static const char bonnie_io_h3[] =
	"Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP";
static const char bonnie_io_row[] =
	"vm              64M 1167k  99 +++++ +++ +++++ +++ 2319k  99 +++++ +++ +++++ +++";
static const char bonnie_latency_row[] =
	"Latency              8779us      75us      59us    3880us      51us    6243us";
static const char bonnie_file_h1[] =
	"Version 2.00a       ------Sequential Create------ --------Random Create--------";
static const char bonnie_file_h2[] =
	"vm                  -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--";
static const char bonnie_file_h3[] =
	"              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP";

#define MAX_LINES 128

struct text {
	char *buf;
	char *line[MAX_LINES];
	int n;
};

static void text_of(const struct record *rec, struct text *t)
{
	int rc;
	char *p;

	t->buf = fixture_capture(record_write_text, rec, &rc);
	assert_int_equal(rc, 0);
	t->n = 0;
	for (p = t->buf; *p && t->n < MAX_LINES; ) {
		char *nl = strchr(p, '\n');

		assert_non_null(nl);	/* every line is terminated */
		*nl = '\0';
		t->line[t->n++] = p;
		p = nl + 1;
	}
}

/* The first line starting with prefix, or fail. */
static const char *find_line(const struct text *t, const char *prefix)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (!strncmp(t->line[i], prefix, strlen(prefix)))
			return t->line[i];
	fail_msg("no line starting with '%s'", prefix);
	return NULL;
}

static int has_line_containing(const struct text *t, const char *s)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (strstr(t->line[i], s))
			return 1;
	return 0;
}

static char at(const char *line, size_t col)
{
	return col < strlen(line) ? line[col] : ' ';
}

/*
 * Columns of the six "/sec" of a header: bonnie++ right-aligns each rate
 * under "/sec" and each CPU under "%CP".
 */
static void check_row_under(const char *header, const char *row,
			    unsigned mask)
{
	const char *p = header;
	int i = 0;

	while ((p = strstr(p, "/sec"))) {
		size_t c = (size_t)(p - header);

		if (mask & (1u << i)) {
			if (at(row, c + 3) == ' ' || at(row, c - 2) != ' ' ||
			    at(row, c + 7) == ' ' || at(row, c + 8) != ' ')
				fail_msg("cell %d of '%s' is not under '%s'",
					 i, row, header);
		}
		p += 4;
		i++;
	}
	assert_int_equal(i, 6);
}

static void test_io_header(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	text_of(rec, &t);
	assert_true(t.n > 10);
	assert_string_equal(t.line[1], bonnie_io_h2);
	assert_string_equal(t.line[2], bonnie_io_h3);
	/* "Version <ver>" in the first twenty columns, the rest as bonnie++ */
	assert_int_equal(strncmp(t.line[0], "Version 0.1.0 ", 14), 0);
	assert_string_equal(t.line[0] + 20, bonnie_io_h1 + 20);
	free(t.buf);
	record_free(rec);
}

static void test_file_header(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	text_of(rec, &t);
	assert_string_equal(t.line[5] + 20, bonnie_file_h1 + 20);
	assert_int_equal(strncmp(t.line[6], FIXTURE_LABEL " ",
				 strlen(FIXTURE_LABEL) + 1), 0);
	assert_string_equal(t.line[6] + 20, bonnie_file_h2 + 20);
	assert_string_equal(t.line[7], bonnie_file_h3);
	free(t.buf);
	record_free(rec);
}

/* Rows line up with bonnie++'s: same columns for every figure. */
static void test_rows_line_up(void **state)
{
	struct record *rec = fixture_record();
	struct text t;
	size_t c;

	(void)state;
	text_of(rec, &t);
	/* bonnie++'s own row fits its own header: the check is sound */
	check_row_under(bonnie_io_h3, bonnie_io_row, 0x3f);
	check_row_under(bonnie_io_h3, t.line[3], 0x3f);
	check_row_under(bonnie_file_h3, t.line[8], 0x3f);
	/* the name and size take the same nineteen columns */
	assert_int_equal(strlen(bonnie_io_row), strlen(t.line[3]));
	assert_int_equal(strncmp(t.line[3], "fc-raid5-xfs     1G ", 20), 0);
	assert_string_equal(t.line[8],
		"                 16 15000  80  200k~ 99 30000  70 14000  81  180k  99 29000  71");
	/* latency figures end where bonnie++'s end */
	for (c = 0; c < strlen(bonnie_latency_row); c++) {
		int real_end = bonnie_latency_row[c] != ' ' &&
			       at(bonnie_latency_row, c + 1) == ' ';
		int our_end = at(t.line[4], c) != ' ' &&
			      at(t.line[4], c + 1) == ' ';

		if (c > 7 && real_end != our_end)
			fail_msg("latency column %zu: '%s' vs bonnie++ '%s'",
				 c, t.line[4], bonnie_latency_row);
	}
	assert_int_equal(strlen(t.line[4]), strlen(bonnie_latency_row));
	assert_int_equal(strlen(t.line[9]), strlen(bonnie_latency_row));
	free(t.buf);
	record_free(rec);
}

/* Correct figures, abbreviated as bonnie++ does, and no "+++++". */
static void test_values(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	text_of(rec, &t);
	assert_string_equal(t.line[3],
		"fc-raid5-xfs     1G  533k  97  316m  29  700m  56  619k  98  1.2g~ 45  4567  12");
	assert_string_equal(t.line[4],
		"Latency             33679us    1502us    1616us   27232us      89us     150ms");
	assert_string_equal(t.line[9],
		"Latency               154us     319us      120s   99999us     100ms   99999ms");
	assert_null(strstr(t.buf, "+++"));
	free(t.buf);
	record_free(rec);
}

/* Rate abbreviations of bonnie++ for I/O, and for large counts. */
static void test_rate_formats(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	record_find(rec, "putc")->value = 9999.9;		/* 9999k */
	record_find(rec, "put_block")->value = 10240;		/* 10.0m */
	record_find(rec, "rewrite")->value = 1022976;		/* 999m */
	record_find(rec, "getc")->value = 5 * 1048576.0;	/* 5.0g */
	record_find(rec, "seeks")->value = 123.45;		/* 123.5 */
	record_find(rec, "seq_create")->value = 99999;
	record_find(rec, "seq_del")->value = 1234567;		/* 1235k */
	record_find(rec, "ran_create")->value = 12345678.0;	/* 12m */
	text_of(rec, &t);
	assert_string_equal(t.line[3],
		"fc-raid5-xfs     1G 9999k  97 10.0m  29  999m  56  5.0g  98  1.2g~ 45 123.5  12");
	assert_string_equal(t.line[8],
		"                 16 99999  80  200k~ 99 1235k  70   12m  81  180k  99 29000  71");
	free(t.buf);
	record_free(rec);
}

/* -f 0: the per-char cells are blank and the rest stay in place. */
static void test_not_run_blank(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	record_find(rec, "putc")->status = RESULT_NOT_RUN;
	result_set_status(record_find(rec, "getc"), RESULT_SKIPPED,
			  "-f 0 skips the per-char tests");
	text_of(rec, &t);
	assert_string_equal(t.line[3],
		"fc-raid5-xfs     1G            316m  29  700m  56            1.2g~ 45  4567  12");
	check_row_under(bonnie_io_h3, t.line[3], 0x36);
	assert_string_equal(t.line[4],
		"Latency          " "          " "    1502us" "    1616us"
		"          " "      89us" "     150ms");
	assert_true(has_line_containing(&t,
		"Per Chr read skipped: -f 0 skips the per-char tests"));
	free(t.buf);
	record_free(rec);
}

/* bonnie++'s size field: size:chunk:concurrency:seeks:seekers. */
static void test_size_field(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	record_set_param(rec, PARAM_CHUNK_SIZE, "4096", 1);
	record_set_param(rec, PARAM_SEEKS, "100", 1);
	record_set_str(&rec->label, "a-label-longer-than-nineteen");
	text_of(rec, &t);
	/* the name gives way to the size within nineteen columns */
	assert_int_equal(strncmp(t.line[3], "a-label- 1G:4k::100  533k", 25), 0);
	check_row_under(bonnie_io_h3, t.line[3], 0x3f);
	free(t.buf);

	record_set_param(rec, PARAM_SEEKS, "8192", 1);
	record_set_param(rec, PARAM_CHUNK_SIZE, "8192", 1);
	record_set_param(rec, PARAM_CONCURRENCY, "4", 1);
	record_set_param(rec, PARAM_FILE_SIZE, "1610612736", 1);
	record_set_param(rec, PARAM_MAX_SIZE, "1000", 1);
	record_set_param(rec, PARAM_MIN_SIZE, "100", 1);
	record_set_param(rec, PARAM_NUM_DIRS, "10", 1);
	text_of(rec, &t);
	/* default chunk left out, concurrency 4 */
	assert_int_equal(strncmp(t.line[3], "a-label-lo 1536M::4 ", 20), 0);
	check_row_under(bonnie_io_h3, t.line[3], 0x3f);
	assert_string_equal(t.line[6] + 20, bonnie_file_h2 + 20);
	assert_int_equal(strncmp(t.line[6], "a-label-longer-than ", 20), 0);
	assert_int_equal(strncmp(t.line[7], "files:max:min        /sec", 25), 0);
	assert_int_equal(strncmp(t.line[8], "     16:1000:100/10 15000", 25),
			 0);
	check_row_under(bonnie_file_h3, t.line[8], 0x3f);
	free(t.buf);

	/* a size field too long for the column pushes the row, as bonnie++ */
	record_set_param(rec, PARAM_CHUNK_SIZE, "4096", 1);
	record_set_param(rec, PARAM_CONCURRENCY, "100", 1);
	record_set_param(rec, PARAM_SEEKS, "123456", 1);
	record_set_param(rec, PARAM_SEEKERS, "16", 1);
	text_of(rec, &t);
	assert_int_equal(strncmp(t.line[3], "1536M:4k:100:123456:16  533k", 28),
			 0);
	free(t.buf);
	record_free(rec);
}

/* Marks in the column between rate and %CP, and a legend for them. */
static void test_marks(void **state)
{
	struct record *rec = fixture_record();
	struct result *getc = record_find(rec, "getc");
	struct text t;

	(void)state;
	text_of(rec, &t);
	assert_true(has_line_containing(&t, "~    low precision"));
	assert_false(has_line_containing(&t, "*    cached"));
	assert_false(has_line_containing(&t, "!    O_DIRECT"));
	free(t.buf);

	getc->residency = 0.35;			/* > 10 %: cached */
	record_find(rec, "put_block")->flags |= RESULT_DIRECT_IGNORED;
	text_of(rec, &t);
	assert_string_equal(t.line[3],
		"fc-raid5-xfs     1G  533k  97  316m! 29  700m  56  619k* 98  1.2g~ 45  4567  12");
	check_row_under(bonnie_io_h3, t.line[3], 0x3f);
	assert_true(has_line_containing(&t, "*    cached"));
	assert_true(has_line_containing(&t, "!    O_DIRECT"));
	assert_true(has_line_containing(&t, "Per Chr read           35.0 %  cached"));
	assert_true(has_line_containing(&t, "Block read              0.4 %"));
	assert_false(has_line_containing(&t, "Block read              0.4 %  cached"));
	assert_true(has_line_containing(&t,
		"Block write: O_DIRECT was not honoured"));
	free(t.buf);

	/* the flag alone marks it too */
	getc->residency = 0.05;
	getc->flags |= RESULT_CACHED;
	text_of(rec, &t);
	assert_non_null(strstr(t.line[3], "619k* 98"));
	free(t.buf);
	record_free(rec);
}

/* Display columns of a line (UTF-8 characters, as wc -L counts them). */
static size_t cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* A figure as text_fmt_ns prints it, read back in ns ("5.47us"). */
static double ns_of(const char *fig)
{
	char *unit;
	double v = strtod(fig, &unit);

	if (!strcmp(unit, "ns"))
		return v;
	if (!strcmp(unit, "us"))
		return v * 1e3;
	if (!strcmp(unit, "ms"))
		return v * 1e6;
	if (!strcmp(unit, "s"))
		return v * 1e9;
	if (!strcmp(unit, "d"))
		return v * 86400e9;
	fail_msg("'%s' is not a latency", fig);
	return 0;
}

/*
 * A latency row split into its seven figures (mean, min, p50 .. max)
 * after the 20-column title; each must end where its column head does.
 */
static void latency_figures(const char *head, const char *row,
			    char fig[7][16])
{
	const char *p = head + 20;
	int k;

	assert_int_equal(cols(row), cols(head));
	for (k = 0; k < 7; k++) {
		const char *end = p + 8;	/* " %7s" */
		const char *r = row + (strlen(row) - cols(row)) + (end - head);
		const char *start = r - 7;

		/* the figure is right-aligned under its head */
		if (end[-1] == ' ' || r[-1] == ' ' ||
		    (*r && *r != ' ') || start[-1] != ' ')
			fail_msg("figure %d of '%s' is not under '%s'", k, row,
				 head);
		while (*start == ' ')
			start++;
		snprintf(fig[k], 16, "%.*s", (int)(r - start), start);
		p = end;
	}
}

static void test_latency_table(void **state)
{
	struct record *rec = fixture_record();
	struct text t;
	const char *head, *row;
	char fig[7][16], want[16];
	int i;

	(void)state;
	text_of(rec, &t);
	head = find_line(&t, "Latency                 mean");
	/* the seven figures of every writer, in hist_summary_label's order */
	assert_string_equal(head,
		"Latency                 mean     min     p50     p90     p99   p99.9     max");
	assert_true(cols(head) <= 80);
	/* 1000 samples of 1..10 us and one of 1.502 ms */
	assert_string_equal(find_line(&t, "Block write   "),
		"Block write           6.99us  1.00us  5.47us  9.15us  9.92us  10.0us  1.50ms");
	assert_string_equal(find_line(&t, "Seq delete   "),
		"Seq delete             120ms  1.00us  5.47us  9.15us  9.92us  10.0us    120s");
	/* every test's min is its histogram's, and no more than its p50 */
	for (i = 0; i < 12; i++) {
		const struct result *res = &rec->results[i];

		row = find_line(&t, res->title);
		if (row == head)
			continue;
		latency_figures(head, row, fig);
		text_fmt_ns(want, sizeof(want), (double)res->lat.min);
		assert_string_equal(fig[1], want);
		assert_true(ns_of(fig[1]) <= ns_of(fig[2]));
		assert_true(ns_of(fig[0]) <= ns_of(fig[6]));
	}
	free(t.buf);
	record_free(rec);
}

/*
 * The widest latencies still fit the 80 columns, in their columns: a
 * sub-ns minimum, 999.5 s, the largest a histogram holds (2^64 - 1 ns,
 * 584 years), and a long title in UTF-8 clipped by characters, not bytes.
 */
static void test_latency_extremes(void **state)
{
	struct record *rec = fixture_record();
	struct result *res = record_find(rec, "put_block");
	struct result *seeks = record_find(rec, "seeks");
	struct text t;
	const char *head, *row;
	char fig[7][16];
	int i;

	(void)state;
	hist_init(&res->lat);
	hist_add(&res->lat, 0);
	hist_add(&res->lat, UINT64_C(999500000000));
	hist_add(&res->lat, UINT64_MAX);
	hist_init(&seeks->lat);
	hist_add(&seeks->lat, UINT64_C(999999499999999));	/* 999999 s */
	hist_add(&seeks->lat, UINT64_C(999999500000000));	/* 11.6 days */
	record_set_str(&seeks->title, "Zufällige Suchvorgänge über äöü");
	text_of(rec, &t);
	for (i = 0; i < t.n; i++)
		if (cols(t.line[i]) > 80)
			fail_msg("line over 80 columns: '%s'", t.line[i]);
	head = find_line(&t, "Latency                 mean");
	latency_figures(head, find_line(&t, "Block write   "), fig);
	assert_string_equal(fig[1], "0ns");
	assert_string_equal(fig[6], "213504d");
	assert_true(ns_of(fig[6]) >= 2.13e5 * 86400e9);
	assert_true(ns_of(fig[1]) <= ns_of(fig[2]));
	/* clipped to 20 columns with a mark, the figures in their columns */
	row = find_line(&t, "Zufällige Suchvor...");
	latency_figures(head, row, fig);
	assert_string_equal(fig[1], "999999s");
	assert_string_equal(fig[6], "12d");
	free(t.buf);
	record_free(rec);
}

static void test_problems(void **state)
{
	struct record *rec = fixture_record();
	struct text t;
	int i;

	(void)state;
	result_set_status(record_find(rec, "rewrite"), RESULT_FAILED,
			  "write 'Bonnie.4711': No space left on device");
	rec->exit_status = 130;
	text_of(rec, &t);
	assert_non_null(strstr(t.line[3], "  fail    "));
	check_row_under(bonnie_io_h3, t.line[3], 0x3b);
	assert_true(has_line_containing(&t,
		"Rewrite failed: write 'Bonnie.4711': No space left on device"));
	assert_true(has_line_containing(&t, "fail the test failed"));
	assert_true(has_line_containing(&t, "Interrupted by signal 2"));
	assert_true(has_line_containing(&t,
		"warning: file size 1G is less than twice the RAM"));
	assert_true(has_line_containing(&t,
		"raise -s (I/O) and -n (files)"));
	for (i = 0; i < t.n; i++)
		if (strlen(t.line[i]) > 80)
			fail_msg("line over 80 columns: '%s'", t.line[i]);
	free(t.buf);
	record_free(rec);
}

/*
 * Warnings and failure reasons are wrapped to 80 columns with a hanging
 * indent, nothing lost (F4): the lines joined again give the message
 * back; a newline in one is escaped; a path longer than a line, in a
 * warning or the target block, is broken where the line ends.
 */
static void test_long_messages(void **state)
{
	static const char warn[] =
		"cache below the file system not evictable: vda (disk): a "
		"virtual disk: the hypervisor may cache its image, which clyde "
		"cannot evict or see; beat it by size with --device-cache SIZE, "
		"or run on the host";
	static const char path[] = "/mnt/a/very/long/path/without/any/space/"
		"in/it/that/is/longer/than/one/line/of/eighty/columns/x.img";
	struct record *rec = fixture_record();
	struct result *res = record_find(rec, "rewrite");
	struct text t;
	char joined[1024] = "";
	int i, from = -1;

	(void)state;
	record_warn(rec, "%s", warn);
	record_warn(rec, "backing file %s: gone", path);
	record_warn(rec, "forged\nwarning: line");
	result_set_status(res, RESULT_FAILED, warn);
	/* the target block too: a path longer than a line is broken */
	record_set_str(&rec->target.path, path);
	text_of(rec, &t);
	for (i = 0; i < t.n; i++) {
		if (cols(t.line[i]) > 80)
			fail_msg("line over 80 columns: '%s'", t.line[i]);
		if (!strncmp(t.line[i], "warning: cache below", 20))
			from = i;
	}
	assert_true(from >= 0);
	/* the warning's continuation lines hang under its text */
	strcat(joined, t.line[from] + 9);
	for (i = from + 1; i < t.n && !strncmp(t.line[i], "         ", 9) &&
	     t.line[i][9] != ' '; i++) {
		strcat(joined, " ");
		strcat(joined, t.line[i] + 9);
	}
	assert_true(i > from + 2);	/* 209 columns: three lines */
	assert_string_equal(joined, warn);
	/* a word longer than a line is broken, not left whole */
	assert_true(has_line_containing(&t, "warning: backing file /mnt/a/"));
	assert_true(has_line_containing(&t, "path:      /mnt/a/very/long/"));
	assert_false(has_line_containing(&t, path));
	assert_true(has_line_containing(&t, "warning: forged\\nwarning: line"));
	assert_true(has_line_containing(&t, "Rewrite failed: cache below the"));
	free(t.buf);
	record_free(rec);
}

/* The hint names only what is short. */
static void test_hint(void **state)
{
	struct record *rec = fixture_record();
	struct text t;

	(void)state;
	record_find(rec, "get_block")->flags = 0;
	text_of(rec, &t);
	assert_true(has_line_containing(&t,
		"to lengthen the file tests, raise -n."));
	assert_false(has_line_containing(&t, "raise -s"));
	free(t.buf);

	record_find(rec, "seq_stat")->flags = 0;
	text_of(rec, &t);
	assert_false(has_line_containing(&t, "Low precision"));
	assert_false(has_line_containing(&t, "~"));
	free(t.buf);
	record_free(rec);
}

/* Only the file tests ran: no I/O table. */
static void test_files_only(void **state)
{
	struct record *rec = record_new();
	struct result *res;
	struct text t;

	(void)state;
	record_set_str(&rec->version, "0.1.0");
	record_set_str(&rec->label, "vm");
	record_set_param(rec, PARAM_FILE_SIZE, "0", 1);
	record_set_param(rec, PARAM_NUM_FILES, "1024", 1);
	res = record_add_result(rec, "seq_create", "Seq create", "files/s");
	result_set_status(res, RESULT_OK, NULL);
	res->value = 2500;
	res->cpu = 9;
	hist_add(&res->lat, 300000);
	text_of(rec, &t);
	assert_string_equal(t.line[0] + 20, bonnie_file_h1 + 20);
	assert_string_equal(t.line[1], bonnie_file_h2);
	assert_string_equal(t.line[3], "                  1  2500   9");
	assert_string_equal(t.line[4], "Latency               300us");
	free(t.buf);
	record_free(rec);
}

/* Run bon_csv2txt on clyde's CSV line; its stdout (caller frees). */
static char *bon_csv2txt(const struct record *rec)
{
	char *csv, *out = NULL, chunk[4096];
	size_t len = 0;
	ssize_t n;
	int in[2], outp[2], rc, st;
	pid_t pid;

	csv = fixture_capture(record_write_bonnie_csv, rec, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(outp), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(in[0], 0);
		dup2(outp[1], 1);
		close(in[1]);
		close(outp[0]);
		execlp("bon_csv2txt", "bon_csv2txt", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(outp[1]);
	assert_true(write(in[1], csv, strlen(csv)) == (ssize_t)strlen(csv));
	close(in[1]);
	out = malloc(1);
	assert_non_null(out);
	while ((n = read(outp[0], chunk, sizeof(chunk))) > 0) {
		out = realloc(out, len + (size_t)n + 1);
		assert_non_null(out);
		memcpy(out + len, chunk, (size_t)n);
		len += (size_t)n;
	}
	out[len] = '\0';
	close(outp[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(csv);
	return out;
}

/*
 * bonnie++'s bon_csv2txt renders clyde's CSV line with bonnie++'s layout:
 * the I/O figures and both latency rows must come out in the same
 * columns as clyde's own table (clyde's marks aside).
 */
static void test_same_as_bon_csv2txt(void **state)
{
	struct record *rec = fixture_record();
	struct text t;
	char *bon, *io_row, *lat, *p;
	int i;

	(void)state;
	if (system("command -v bon_csv2txt >/dev/null 2>&1"))
		skip_because("bonnie++ is not installed (scripts/install-deps)");
	bon = bon_csv2txt(rec);
	text_of(rec, &t);

	io_row = strstr(bon, "\nfc-rai");
	assert_non_null(io_row);
	io_row++;
	*strchr(io_row, '\n') = '\0';
	/* clyde's marks are where bon_csv2txt has a blank */
	for (p = t.line[3]; *p; p++)
		if (*p == '~')
			*p = ' ';
	assert_string_equal(io_row + 19, t.line[3] + 19);

	lat = io_row + strlen(io_row) + 1;
	assert_int_equal(strncmp(lat, "Latency", 7), 0);
	*strchr(lat, '\n') = '\0';
	assert_string_equal(lat + 7, t.line[4] + 7);
	lat = strstr(lat + strlen(lat) + 1, "\nLatency");
	assert_non_null(lat);
	lat++;
	*strchr(lat, '\n') = '\0';
	assert_string_equal(lat + 7, t.line[9] + 7);

	/* and the header rows are bonnie++'s */
	for (i = 1; i <= 2; i++)
		assert_non_null(strstr(bon, t.line[i]));
	free(bon);
	free(t.buf);
	record_free(rec);
}

/* Every byte sequence of s is whole UTF-8 (no character cut in two). */
static int valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 :
			(*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;

		if (n < 0)
			return 0;
		for (p++; n > 0; n--, p++)
			if ((*p & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

/* The columns of line before the first occurrence of s in it. */
static size_t cols_before(const char *line, const char *s)
{
	const char *p = strstr(line, s);
	char buf[512];

	assert_non_null(p);
	assert_true((size_t)(p - line) < sizeof(buf));
	memcpy(buf, line, (size_t)(p - line));
	buf[p - line] = '\0';
	return text_cols(buf);
}

/*
 * A label of control characters or UTF-8 in the two tables: escaped, cut
 * at a character, padded by columns, so that the columns stay bonnie++'s
 * (F21, F11).
 */
static void test_label_escaped_fitted(void **state)
{
	static const char *const labels[] = {
		"lab\x1b[31mel\x7f",
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x9c\xe3\x83\xaa"
		"\xe3\x83\xa5\xe3\x83\xbc\xe3\x83\xa0-\xe3\x83\x86\xe3\x82\xb9"
		"\xe3\x83\x88-raid5-xfs-with-more",
		"\xc3\x84\xc3\x96\xc3\x9c",
	};
	struct record *rec = fixture_record();
	struct text ref, t;
	size_t i;
	int j;

	(void)state;
	text_of(rec, &ref);
	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		record_set_str(&rec->label, labels[i]);
		text_of(rec, &t);
		for (j = 0; j < t.n; j++) {
			const char *c;

			for (c = t.line[j]; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					fail_msg("raw control character in "
						 "line %d '%s'", j, t.line[j]);
			if (!valid_utf8(t.line[j]))
				fail_msg("invalid UTF-8 in line %d", j);
		}
		/* the row and the file header keep their columns */
		assert_int_equal(text_cols(t.line[3]), text_cols(ref.line[3]));
		assert_int_equal(cols_before(t.line[3], " 1G "), 16);
		assert_string_equal(t.line[6] + strlen(t.line[6]) -
				    strlen(bonnie_file_h2 + 20),
				    bonnie_file_h2 + 20);
		assert_int_equal(cols_before(t.line[6], " -Create--"), 19);
		free(t.buf);
	}
	/* the escaped label is shown, not dropped */
	record_set_str(&rec->label, labels[0]);
	text_of(rec, &t);
	assert_int_equal(strncmp(t.line[6], "lab\\x1b[31mel\\x7f   -Create--",
				 29), 0);
	free(t.buf);
	free(ref.buf);
	record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_io_header),
		cmocka_unit_test(test_file_header),
		cmocka_unit_test(test_rows_line_up),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_rate_formats),
		cmocka_unit_test(test_not_run_blank),
		cmocka_unit_test(test_size_field),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_latency_table),
		cmocka_unit_test(test_latency_extremes),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_long_messages),
		cmocka_unit_test(test_hint),
		cmocka_unit_test(test_files_only),
		cmocka_unit_test(test_same_as_bon_csv2txt),
		cmocka_unit_test(test_label_escaped_fitted),
	};

	return tap_run_group_tests(tests);
}
