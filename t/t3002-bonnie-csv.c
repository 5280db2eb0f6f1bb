// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bonnie++ 1.98 CSV line: field for field, empty fields for tests not
 * run, bonnie++'s number formats, and accepted by bonnie++'s own
 * bon_csv2html and bon_csv2txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "t/record-fixture.h"

static char *csv_of(const struct record *rec)
{
	int rc;
	char *s = fixture_capture(record_write_bonnie_csv, rec, &rc);

	assert_int_equal(rc, 0);
	return s;
}

static int count_fields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		if (*line == ',')
			n++;
	return n;
}

/* Field i (0-based) of a CSV line into buf. */
static const char *field_of(const char *line, int i, char *buf, size_t len)
{
	const char *end;
	size_t n;

	while (i-- > 0) {
		line = strchr(line, ',');
		assert_non_null(line);
		line++;
	}
	end = line + strcspn(line, ",\n");
	n = (size_t)(end - line);
	assert_true(n < len);
	memcpy(buf, line, n);
	buf[n] = '\0';
	return buf;
}

static void test_full_line(void **state)
{
	struct record *rec = fixture_record();
	char *s = csv_of(rec);

	(void)state;
	assert_string_equal(s, fixture_csv);
	assert_int_equal(count_fields(s), 50);
	/* one line, newline-terminated */
	assert_ptr_equal(strchr(s, '\n'), s + strlen(s) - 1);
	free(s);
	record_free(rec);
}

/* -f 0 style: per-char tests not run leave their four fields empty. */
static void test_not_run_fields_empty(void **state)
{
	struct record *rec = fixture_record();
	char *s;

	(void)state;
	record_find(rec, "putc")->status = RESULT_NOT_RUN;
	result_set_status(record_find(rec, "getc"), RESULT_SKIPPED,
			  "-f 0 skips the per-char tests");
	result_set_status(record_find(rec, "ran_stat"), RESULT_FAILED,
			  "stat '0000000012abc': Input/output error");
	s = csv_of(rec);
	assert_string_equal(s,
		"1.98,clyde-0.1.0," FIXTURE_LABEL ",1,1795977433,1G,8k,8192,5,"
		",,323677,29,716304,56,,,1234567,45,4567,12,"
		"16,,,,,"
		"15000,80,200000,99,30000,70,14000,81,,,29000,71,"
		",1502us,1616us,,89us,150ms,"
		"154us,319us,120s,99999us,,99999ms\n");
	assert_int_equal(count_fields(s), 50);
	free(s);
	record_free(rec);
}

/* No file tests (-n 0): the seventeen file fields and latencies empty. */
static void test_no_file_tests(void **state)
{
	struct record *rec = record_new();
	struct result *res;
	char *s;

	(void)state;
	record_set_str(&rec->version, "0.1.0");
	record_set_str(&rec->label, "vm");
	record_set_param(rec, PARAM_FILE_SIZE, "536870912", 1);
	record_set_param(rec, PARAM_NUM_FILES, "0", 1);
	record_set_param(rec, PARAM_SEED, "7", 1);
	/* what clyde's own records carry (a converted 1.03 line has none) */
	record_set_param(rec, PARAM_CHUNK_SIZE, "8192", 1);
	record_set_param(rec, PARAM_SEEKS, "8192", 1);
	record_set_param(rec, PARAM_SEEKERS, "5", 1);
	res = record_add_result(rec, "put_block", "Block write", "KiB/s");
	result_set_status(res, RESULT_OK, NULL);
	res->value = 1024;
	res->cpu = 3;
	hist_add(&res->lat, 5000);
	s = csv_of(rec);
	assert_string_equal(s,
		"1.98,clyde-0.1.0,vm,1,7,512M,8k,8192,5,,,1024,3,,,,,,,,,"
		",,,,,,,,,,,,,,,,,"
		",5us,,,,,,,,,,\n");
	assert_int_equal(count_fields(s), 50);
	free(s);
	record_free(rec);
}

/* No I/O tests (-s 0): the sixteen I/O fields empty. */
static void test_no_io_tests(void **state)
{
	struct record *rec = record_new();
	struct result *res;
	char *s;

	(void)state;
	record_set_str(&rec->version, "0.1.0");
	record_set_str(&rec->label, "vm");
	record_set_param(rec, PARAM_FILE_SIZE, "0", 1);
	record_set_param(rec, PARAM_NUM_FILES, "1024", 1);
	record_set_param(rec, PARAM_MAX_SIZE, "-2", 1);
	record_set_param(rec, PARAM_NUM_DIRS, "10", 1);
	record_set_param(rec, PARAM_FILE_CHUNK_SIZE, "4096", 1);
	record_set_param(rec, PARAM_CONCURRENCY, "4", 1);
	record_set_param(rec, PARAM_SEED, "7", 1);
	res = record_add_result(rec, "seq_create", "Seq create", "files/s");
	result_set_status(res, RESULT_OK, NULL);
	res->value = 2500.7;
	res->cpu = 99.9;
	hist_add(&res->lat, 250000000);
	s = csv_of(rec);
	assert_string_equal(s,
		"1.98,clyde-0.1.0,vm,4,7,,,,,,,,,,,,,,,,,"
		"1,symlink,,10,4k,2500,99,,,,,,,,,,,"
		",,,,,,250ms,,,,,\n");
	assert_int_equal(count_fields(s), 50);
	free(s);
	record_free(rec);
}

/* -n 16:1000:100/10: max, min and dirs each in their field. */
static void test_file_shape(void **state)
{
	struct record *rec = fixture_record();
	char *s, buf[64];

	(void)state;
	record_set_param(rec, PARAM_MAX_SIZE, "1000", 1);
	record_set_param(rec, PARAM_MIN_SIZE, "100", 1);
	record_set_param(rec, PARAM_NUM_DIRS, "10", 1);
	s = csv_of(rec);
	assert_string_equal(field_of(s, 21, buf, sizeof(buf)), "16");
	assert_string_equal(field_of(s, 22, buf, sizeof(buf)), "1000");
	assert_string_equal(field_of(s, 23, buf, sizeof(buf)), "100");
	assert_string_equal(field_of(s, 24, buf, sizeof(buf)), "10");
	assert_string_equal(field_of(s, 25, buf, sizeof(buf)), "");
	free(s);

	record_set_param(rec, PARAM_MAX_SIZE, "-1", 1);
	record_set_param(rec, PARAM_MIN_SIZE, "0", 1);
	record_set_param(rec, PARAM_NUM_DIRS, "1", 1);
	record_set_param(rec, PARAM_NUM_FILES, "131072", 1);
	s = csv_of(rec);
	assert_string_equal(field_of(s, 21, buf, sizeof(buf)), "128");
	assert_string_equal(field_of(s, 22, buf, sizeof(buf)), "link");
	assert_string_equal(field_of(s, 23, buf, sizeof(buf)), "");
	assert_string_equal(field_of(s, 24, buf, sizeof(buf)), "");
	assert_int_equal(count_fields(s), 50);
	free(s);
	record_free(rec);
}

static void check_size(struct record *rec, const char *bytes,
		       const char *want)
{
	char *s, buf[64];

	record_set_param(rec, PARAM_FILE_SIZE, bytes, 1);
	s = csv_of(rec);
	assert_string_equal(field_of(s, 5, buf, sizeof(buf)), want);
	free(s);
}

static void test_file_size_units(void **state)
{
	struct record *rec = fixture_record();

	(void)state;
	check_size(rec, "1073741824", "1G");
	check_size(rec, "2147483648", "2G");
	check_size(rec, "1610612736", "1536M");	/* 1.5 GiB: not whole G */
	check_size(rec, "67108864", "64M");
	check_size(rec, "1099511627776", "1024G");	/* no T in bonnie++ */
	check_size(rec, "1048576", "1M");
	check_size(rec, "1572864", "1536k");	/* not whole MiB */
	check_size(rec, "1000", "1000");
	record_free(rec);
}

static void check_chunk(struct record *rec, const char *bytes,
			const char *want)
{
	char *s, buf[64];

	record_set_param(rec, PARAM_CHUNK_SIZE, bytes, 1);
	s = csv_of(rec);
	assert_string_equal(field_of(s, 6, buf, sizeof(buf)), want);
	free(s);
}

static void test_chunk_size(void **state)
{
	struct record *rec = fixture_record();

	(void)state;
	check_chunk(rec, "8192", "8k");
	check_chunk(rec, "256", "256");
	check_chunk(rec, "1048576", "1m");
	record_free(rec);
}

static void check_seeks(struct record *rec, double v, const char *want)
{
	char *s, buf[64];

	record_find(rec, "seeks")->value = v;
	s = csv_of(rec);
	assert_string_equal(field_of(s, 19, buf, sizeof(buf)), want);
	free(s);
}

static void test_seeks_format(void **state)
{
	struct record *rec = fixture_record();

	(void)state;
	check_seeks(rec, 999.94, "999.9");
	check_seeks(rec, 12.34, "12.3");
	check_seeks(rec, 0.5, "0.5");
	check_seeks(rec, 1000.0, "1000");
	check_seeks(rec, 1000.4, "1000");
	check_seeks(rec, 123456.7, "123457");
	record_free(rec);
}

static void check_latency(struct record *rec, uint64_t ns, const char *want)
{
	struct result *res = record_find(rec, "put_block");
	char *s, buf[64];

	hist_release(&res->lat);
	hist_add(&res->lat, 10);
	hist_add(&res->lat, ns);
	s = csv_of(rec);
	assert_string_equal(field_of(s, 39, buf, sizeof(buf)), want);
	free(s);
}

static void test_latency_units(void **state)
{
	struct record *rec = fixture_record();

	(void)state;
	check_latency(rec, 999, "0us");
	check_latency(rec, 1500, "1us");
	check_latency(rec, UINT64_C(99999999), "99999us");	/* < 0.1 s */
	check_latency(rec, UINT64_C(100000000), "100ms");
	check_latency(rec, UINT64_C(1234567890), "1234ms");
	check_latency(rec, UINT64_C(99999999999), "99999ms");	/* < 100 s */
	check_latency(rec, UINT64_C(100000000000), "100s");
	check_latency(rec, UINT64_C(3600000000000), "3600s");
	record_free(rec);
}

/* A low precision result prints its number: no "+++++" anywhere. */
static void test_low_precision_numbers(void **state)
{
	struct record *rec = fixture_record();
	size_t i;
	char *s, buf[64];

	(void)state;
	for (i = 0; i < rec->nresults; i++) {
		rec->results[i].flags |= RESULT_LOW_PRECISION;
		rec->results[i].elapsed = 0.01;
	}
	s = csv_of(rec);
	assert_null(strchr(s, '+'));
	assert_string_equal(field_of(s, 11, buf, sizeof(buf)), "323677");
	assert_string_equal(field_of(s, 12, buf, sizeof(buf)), "29");
	assert_string_equal(field_of(s, 28, buf, sizeof(buf)), "200000");
	free(s);
	record_free(rec);
}

/* A comma in free text would shift every later field. */
static void test_label_sanitised(void **state)
{
	struct record *rec = fixture_record();
	char *s, buf[64];

	(void)state;
	record_set_str(&rec->label, "a,b\nc");
	s = csv_of(rec);
	assert_int_equal(count_fields(s), 50);
	assert_string_equal(field_of(s, 2, buf, sizeof(buf)), "a\\x2cb\\nc");
	free(s);
	record_free(rec);
}

static int have_program(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* Run "prog < csv" and return its stdout; *status gets its exit status. */
static char *run_on(const char *prog, const char *csv_path, int *status)
{
	char chunk[4096], *out = NULL;
	size_t len = 0;
	ssize_t n;
	int fds[2], in, st;
	pid_t pid;
	FILE *m;

	in = open(csv_path, O_RDONLY);
	assert_true(in >= 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in, 0);
		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fds[0]);
		execlp(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(in);
	close(fds[1]);
	m = open_memstream(&out, &len);
	assert_non_null(m);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)n, m);
	close(fds[0]);
	fclose(m);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	return out;
}

static char tmp_csv[4096];

static int write_tmp_csv(void **state)
{
	struct record *rec = fixture_record();
	FILE *f;
	int fd;

	(void)state;
	snprintf(tmp_csv, sizeof(tmp_csv), "%s/t3002-csv.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(tmp_csv);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f || record_write_bonnie_csv(rec, f) || fclose(f)) {
		if (fd >= 0)
			unlink(tmp_csv);
		record_free(rec);
		return -1;
	}
	record_free(rec);
	return 0;
}

static int remove_tmp_csv(void **state)
{
	(void)state;
	unlink(tmp_csv);
	return 0;
}

static void test_bon_csv2html(void **state)
{
	char *out;
	int st;

	(void)state;
	if (!have_program("bon_csv2html"))
		skip_because("bonnie++ is not installed (scripts/install-deps)");
	out = run_on("bon_csv2html", tmp_csv, &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "<html"));
	assert_non_null(strstr(out, FIXTURE_LABEL));
	/* block write 323677 KiB/s shown as 316 MiB/s */
	assert_non_null(strstr(out, ">316</td>"));
	/* the file size and the seeks rate */
	assert_non_null(strstr(out, ">1G</td>"));
	assert_non_null(strstr(out, ">4567</td>"));
	assert_null(strstr(out, "Can't process"));
	free(out);
}

static void test_bon_csv2txt(void **state)
{
	char *out;
	int st;

	(void)state;
	if (!have_program("bon_csv2txt"))
		skip_because("bonnie++ is not installed (scripts/install-deps)");
	out = run_on("bon_csv2txt", tmp_csv, &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, FIXTURE_LABEL));
	assert_non_null(strstr(out, " 316m "));		/* block write */
	assert_non_null(strstr(out, "15000"));		/* seq create */
	assert_non_null(strstr(out, "33679us"));	/* putc latency */
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_line),
		cmocka_unit_test(test_not_run_fields_empty),
		cmocka_unit_test(test_no_file_tests),
		cmocka_unit_test(test_no_io_tests),
		cmocka_unit_test(test_file_shape),
		cmocka_unit_test(test_file_size_units),
		cmocka_unit_test(test_chunk_size),
		cmocka_unit_test(test_seeks_format),
		cmocka_unit_test(test_latency_units),
		cmocka_unit_test(test_low_precision_numbers),
		cmocka_unit_test(test_label_sanitised),
		cmocka_unit_test_setup_teardown(test_bon_csv2html,
						write_tmp_csv, remove_tmp_csv),
		cmocka_unit_test_setup_teardown(test_bon_csv2txt,
						write_tmp_csv, remove_tmp_csv),
	};

	return tap_run_group_tests(tests);
}
