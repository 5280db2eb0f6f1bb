/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run a cmocka group with TAP output that prove understands.
 *
 * cmocka 1.1.5 (Debian 12) prints a skipped test as "not ok N # SKIP",
 * which prove counts as a failure; TAP wants "ok N # SKIP".  The tests run
 * in a child whose output is copied with that one fix.  Not a test itself
 * (the name does not match t/tNNNN-*).
 */
#ifndef T_CMOCKA_TAP_H
#define T_CMOCKA_TAP_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define tap_run_group_tests(tests) \
	tap_run_tests((tests), sizeof(tests) / sizeof((tests)[0]))

static int tap_run_tests(const struct CMUnitTest *tests, size_t n)
{
	char line[4096];
	int fds[2], st, rc;
	pid_t pid;
	FILE *in;

	cmocka_set_message_output(CM_OUTPUT_TAP);
	fflush(stdout);
	if (pipe(fds) || (pid = fork()) < 0)
		return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		rc = _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
		fflush(stdout);
		_exit(rc > 255 ? 255 : rc);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	if (!in)
		return 1;
	while (fgets(line, sizeof(line), in)) {
		unsigned num;
		int end = 0;

		if (sscanf(line, "not ok %u # SKIP%n", &num, &end) == 1 &&
		    end > 0)
			fputs(line + 4, stdout);	/* "ok N # SKIP ..." */
		else
			fputs(line, stdout);
	}
	fclose(in);
	fflush(stdout);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

/*
 * Say why a test is skipped, then skip it.  Every C test that can skip
 * skips through these and runs its group with tap_run_group_tests()
 * (t/t0004-c-tests-tap.sh checks it).
 */
#define SKIP(...) do { \
	printf("# skip: " __VA_ARGS__); \
	printf("\n"); \
	fflush(stdout); \
	skip(); \
} while (0)
#define skip_because(why) SKIP("%s", (why))

#endif
