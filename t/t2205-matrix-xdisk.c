// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden test of the XDISK layout: every table of seed 000 (the XDISK
 * qualification of a FlashSystem 7200, read from ../shared/seeds or
 * $CLYDE_SEEDS at test time) is printed again by clyde's table functions
 * from the seed's own figures, and each title, header and row must carry
 * the same fields, spelled and formatted the same, within 80 columns.
 * Skips when the seed is not there.
 */
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "report/model/matrix.h"
#include "report/model/record.h"

#define DASH "\xe2\x80\x94"

/* The seed 000 file, or NULL. */
static char *seed_path(void)
{
	const char *dirs[] = { getenv("CLYDE_SEEDS"), "../shared/seeds",
			       "../../shared/seeds" };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char pat[4096];
		glob_t g;
		char *p;

		if (!dirs[i])
			continue;
		snprintf(pat, sizeof(pat), "%s/000_*.txt", dirs[i]);
		if (glob(pat, 0, NULL, &g) || !g.gl_pathc) {
			globfree(&g);
			continue;
		}
		p = strdup(g.gl_pathv[0]);
		globfree(&g);
		return p;
	}
	return NULL;
}

/* noinline: gcc 12 takes open_memstream's buffer for a dangling local */
__attribute__((noinline))
static char *capture(void (*fn)(FILE *, const char *, const char *,
				const struct matrix_figures *),
		     const char *pattern, const char *profile,
		     const struct matrix_figures *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		abort();
	if (fn)
		fn(out, pattern, profile, f);
	else
		matrix_xdisk_header(out);
	if (fclose(out))
		abort();
	return buf;
}

/* Columns of a UTF-8 line without its newline. */
static size_t columns(const char *s)
{
	size_t n = 0;

	for (; *s && *s != '\n'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Split the clyde header at runs of two or more blanks. */
static int header_fields(const char *line, char f[6][32])
{
	int n = 0;

	while (*line && *line != '\n' && n < 6) {
		const char *end = strstr(line, "  ");
		size_t l = end ? (size_t)(end - line) : strcspn(line, "\n");

		snprintf(f[n++], 32, "%.*s", (int)l, line);
		line += l;
		while (*line == ' ')
			line++;
	}
	return n == 6 && (!*line || *line == '\n') ? 0 : -1;
}

/*
 * Split a clyde table row into its six fields: the pattern and profile
 * columns by position (a profile holds a blank), the rest at blanks.
 */
static int row_fields(const char *line, char f[6][32])
{
	char tmp[256], *tok, *save;
	int n;

	if (strlen(line) < 22)
		return -1;
	snprintf(f[0], 32, "%.10s", line);
	snprintf(f[1], 32, "%.10s", line + 11);
	for (n = 0; n < 2; n++) {
		size_t l = strlen(f[n]);

		while (l && f[n][l - 1] == ' ')
			f[n][--l] = '\0';
	}
	snprintf(tmp, sizeof(tmp), "%s", line + 21);
	n = 2;
	for (tok = strtok_r(tmp, " \n", &save); tok && n < 6;
	     tok = strtok_r(NULL, " \n", &save))
		snprintf(f[n++], 32, "%s", tok);
	return n == 6 && !tok ? 0 : -1;
}

/* Split a seed line at tabs; the number of fields. */
static int seed_fields(const char *line, char f[8][32])
{
	int n = 0;

	while (n < 8) {
		size_t l = strcspn(line, "\t\n");

		snprintf(f[n++], 32, "%.*s", (int)l, line);
		if (line[l] != '\t')
			break;
		line += l + 1;
	}
	return n;
}

/* "1,505,683" -> 1505683; DASH -> NAN */
static double number(const char *s)
{
	char buf[32];
	size_t o = 0;

	if (!strcmp(s, DASH))
		return NAN;
	for (; *s && o + 1 < sizeof(buf); s++)
		if (*s != ',')
			buf[o++] = *s;
	buf[o] = '\0';
	return strtod(buf, NULL);
}

static unsigned read_pct(const char *profile)
{
	if (!strcmp(profile, "100% read"))
		return 100;
	if (!strcmp(profile, "100% write"))
		return 0;
	return (unsigned)atoi(profile);
}

static void test_seed_tables(void **state)
{
	char *path = seed_path(), line[512];
	unsigned tables = 0, rows = 0;
	int in_table = 0;
	FILE *in;

	(void)state;
	if (!path) {
		printf("# seed 000 not found in $CLYDE_SEEDS, ../shared/seeds "
		       "or ../../shared/seeds\n");
		skip();
	}
	in = fopen(path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		char sf[8][32], cf[6][32], title[96], prof[16], *out;
		unsigned threads, size;
		char unit[4];
		struct matrix_figures fig;
		uint64_t bs;
		int i, n;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%u%3[KMB] block size " DASH " %u thread",
			   &size, unit, &threads) == 3) {
			bs = (uint64_t)size << (unit[0] == 'K' ? 10 : 20);
			matrix_table_title(title, sizeof(title), bs, threads,
					   1);
			assert_string_equal(title, line);
			tables++;
			in_table = 0;
			continue;
		}
		n = seed_fields(line, sf);
		if (n == 6 && !strcmp(sf[0], "Pattern")) {
			out = capture(NULL, NULL, NULL, NULL);
			assert_true(columns(out) <= 80);
			assert_int_equal(header_fields(out, cf), 0);
			for (i = 0; i < 6; i++)
				assert_string_equal(cf[i], sf[i]);
			free(out);
			in_table = 1;
			continue;
		}
		if (!in_table || n != 6) {
			in_table = 0;
			continue;
		}
		/* a row: the seed's figures through clyde's row */
		memset(&fig, 0, sizeof(fig));
		fig.status = "ok";
		fig.iops = number(sf[2]);
		fig.mbps = number(sf[3]);
		fig.rlat[HIST_S_MEAN] = number(sf[4]);
		fig.wlat[HIST_S_MEAN] = number(sf[5]);
		assert_string_equal(matrix_pattern_name(!strcmp(sf[0],
						"Random")), sf[0]);
		matrix_profile_name(prof, sizeof(prof), read_pct(sf[1]));
		assert_string_equal(prof, sf[1]);
		out = capture(matrix_xdisk_row, sf[0], prof, &fig);
		assert_true(columns(out) <= 80);
		assert_int_equal(row_fields(out, cf), 0);
		for (i = 0; i < 6; i++)
			if (strcmp(cf[i], sf[i]))
				fail_msg("seed line '%s': field %d is '%s' in "
					 "clyde's row '%s'", line, i + 1,
					 cf[i], out);
		free(out);
		rows++;
	}
	fclose(in);
	free(path);
	/* two layouts of five tables, eight rows each */
	assert_int_equal(tables, 10);
	assert_int_equal(rows, 80);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_tables),
	};

	return tap_run_group_tests(tests);
}
