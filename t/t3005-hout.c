// SPDX-License-Identifier: GPL-2.0-only
/* The HTML emitter: what reaches the page from a string is escaped. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "report/write/html_emit.h"

static char *buf;
static size_t len;

static FILE *start(void)
{
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	return f;
}

static char *finish(FILE *f)
{
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_attributes(void **state)
{
	FILE *f = start();
	char *s;

	(void)state;
	h_open(f, "td", "class", "num", "data-test",
	       "x\" onmouseover=\"alert(1)", "title", NULL, NULL);
	h_text(f, "\"><script src=p.js></script>");
	h_close(f, "td");
	s = finish(f);
	assert_string_equal(s, "<td class=\"num\" data-test=\"x&quot; "
			    "onmouseover=&quot;alert(1)\">&quot;&gt;&lt;script "
			    "src=p.js&gt;&lt;/script&gt;</td>");
	free(s);
}

static void test_attrf_void(void **state)
{
	FILE *f = start();
	char *s;

	(void)state;
	h_start(f, "rect");
	h_attrf(f, "width", "%.1f", 2.5);
	h_attrf(f, "data-x", "%s-%d", "a'b<", 3);
	h_attr(f, "data-nl", "a\tb\nc");
	h_end(f, 1);
	h_void(f, "br", NULL);
	s = finish(f);
	assert_string_equal(s, "<rect width=\"2.5\" data-x=\"a&#39;b&lt;-3\" "
			    "data-nl=\"a&#9;b&#10;c\"/><br/>");
	free(s);
}

static void test_text_controls(void **state)
{
	FILE *f = start();
	char *s;

	(void)state;
	h_text(f, "a\x1b[31m\x01]]></textarea>&\xff\xc3\xa9");
	h_textf(f, "%d%%", 5);
	h_elem(f, "code", "<b>");
	h_text(f, NULL);
	h_lit(f, "&#215;");
	s = finish(f);
	assert_string_equal(s, "a\xef\xbf\xbd[31m\xef\xbf\xbd]]&gt;&lt;/textarea&gt;"
			    "&amp;\xef\xbf\xbd\xc3\xa9" "5%<code>&lt;b&gt;</code>&#215;");
	free(s);
}

/* A forbidden but well-formed sequence is one U+FFFD, a stray byte too. */
static void test_forbidden_utf8(void **state)
{
	FILE *f = start();
	char *s;

	(void)state;
	h_text(f, "a\xef\xbf\xbe" "b\xed\xa0\x80" "c\xc0\xaf" "d\xc3" "e\xe2\x82\xac");
	s = finish(f);
	assert_string_equal(s, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd"
			    "d\xef\xbf\xbd" "e\xe2\x82\xac");
	free(s);
}

static void test_slug(void **state)
{
	char *a = h_slug("chart-", "seq_create");
	char *b = h_slug("chart-", "x\" onmouseover=\"alert(1)");
	char *c = h_slug("lat-", ".2e");
	char *d = h_slug("lat-", ".");

	(void)state;
	assert_string_equal(a, "chart-seq_create");
	assert_string_equal(b, "chart-x.22.20onmouseover.3d.22alert.281.29");
	/* the encoding is injective: "." and ".2e" differ */
	assert_string_equal(c, "lat-.2e2e");
	assert_string_equal(d, "lat-.2e");
	assert_string_not_equal(c, d);
	free(a);
	free(b);
	free(c);
	free(d);
}

/* A name that is not the program's own is a bug: the emitter aborts. */
static void test_bad_name_aborts(void **state)
{
	static const char *const bad[] = { "td onclick", "a\"", "", "B" };
	size_t i;
	int st;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			struct rlimit no_core = { 0, 0 };
			FILE *f = fopen("/dev/null", "w");

			setrlimit(RLIMIT_CORE, &no_core);

			if (i % 2)
				h_attr(f, bad[i], "v");
			else
				h_open(f, bad[i], NULL);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_attrf_void),
		cmocka_unit_test(test_text_controls),
		cmocka_unit_test(test_forbidden_utf8),
		cmocka_unit_test(test_slug),
		cmocka_unit_test(test_bad_name_aborts),
	};

	return tap_run_group_tests(tests);
}
