// SPDX-License-Identifier: GPL-2.0-only
/* Option and size parsing of `clyde run`, against bonnie++'s meanings. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "bench/classic/options.h"
#include "lib/units.h"

static void test_parse_size(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_size("300", MiB, &v), 0);
	assert_int_equal(v, 300 * MiB);
	assert_int_equal(parse_size("4k", MiB, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("2G", MiB, &v), 0);
	assert_int_equal(v, 2048 * MiB);
	assert_int_equal(parse_size("1t", MiB, &v), 0);
	assert_int_equal(v, 1024 * 1024 * MiB);
	assert_int_equal(parse_size("1000", 1, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(parse_size("0", MiB, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_size("", MiB, &v), -1);
	assert_int_equal(parse_size("12x", MiB, &v), -1);
	assert_int_equal(parse_size("1kk", MiB, &v), -1);
	assert_int_equal(parse_size("-1", MiB, &v), -1);
	assert_int_equal(parse_size(" 1", MiB, &v), -1);
	assert_int_equal(parse_size("99999999999999999999", 1, &v), -ERANGE);
	assert_int_equal(parse_size("17179869184t", 1, &v), -ERANGE);
}

static void test_format_size(void **state)
{
	char buf[32];

	(void)state;
	format_size(buf, sizeof(buf), 512 * MiB);
	assert_string_equal(buf, "512M");
	format_size(buf, sizeof(buf), 2048 * MiB);
	assert_string_equal(buf, "2G");
	format_size(buf, sizeof(buf), 1536 * MiB);
	assert_string_equal(buf, "1536M");
}

static int parse(struct bench_config *cfg, const char *line)
{
	char *copy = strdup(line), *argv[32], err[256];
	int argc = 0, rc;
	char *tok;

	argv[argc++] = (char *)"clyde";
	for (tok = strtok(copy, " "); tok; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	config_init(cfg);
	rc = options_parse(cfg, argc, argv, err, sizeof(err));
	free(copy);
	return rc;
}

static void test_defaults_are_bonnies(void **state)
{
	struct bench_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, "-d /tmp"), OPTIONS_OK);
	assert_int_equal(cfg.chunk_size, 8192);
	assert_int_equal(cfg.seeks, 8192);
	assert_int_equal(cfg.seekers, 5);
	assert_int_equal(cfg.char_size, 3 * MiB);
	assert_int_equal(cfg.num_files, 16 * 1024);
	assert_int_equal(cfg.file_chunk_size, 8192);
	assert_int_equal(cfg.repeats, 1);
	assert_int_equal(cfg.char_io, CHAR_IO_SYSCALL);
	assert_int_equal(cfg.ndirs, 1);
	assert_string_equal(cfg.dirs[0], "/tmp");
	config_release(&cfg);
}

static void test_bonnie_command_line(void **state)
{
	struct bench_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, "-d /mnt -s 1G:4k:100:3 -n 16:1000:100:10:4096 "
			       "-m fc-raid5 -x 3 -q -f5 -b -D -z 42 -r 512"),
			 OPTIONS_OK);
	assert_int_equal(cfg.file_size, 1024 * MiB);
	assert_int_equal(cfg.chunk_size, 4096);
	assert_int_equal(cfg.seeks, 100);
	assert_int_equal(cfg.seekers, 3);
	assert_int_equal(cfg.num_files, 16 * 1024);
	assert_int_equal(cfg.max_size, 1000);
	assert_int_equal(cfg.min_size, 100);
	assert_int_equal(cfg.num_dirs, 10);
	assert_int_equal(cfg.file_chunk_size, 4096);
	assert_string_equal(cfg.label, "fc-raid5");
	assert_int_equal(cfg.repeats, 3);
	assert_true(cfg.quiet);
	assert_int_equal(cfg.char_size, 5 * MiB);
	assert_true(cfg.sync_writes);
	assert_true(cfg.direct);
	assert_int_equal(cfg.seed, 42);
	assert_true(cfg.seed_given);
	assert_int_equal(cfg.ram, 512 * MiB);
	config_release(&cfg);
}

static void test_special_file_sizes(void **state)
{
	struct bench_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, "-n 4:-1"), OPTIONS_OK);
	assert_int_equal(cfg.max_size, FILES_HARDLINKS);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "-n 4:-2"), OPTIONS_OK);
	assert_int_equal(cfg.max_size, FILES_SYMLINKS);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "-n 0"), OPTIONS_OK);
	assert_int_equal(cfg.num_files, 0);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "-n 2:64k:1k"), OPTIONS_OK);
	assert_int_equal(cfg.max_size, 65536);
	assert_int_equal(cfg.min_size, 1024);
	config_release(&cfg);
}

static void test_bare_f_skips_per_char(void **state)
{
	struct bench_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, "-f -d /tmp"), OPTIONS_OK);
	assert_int_equal(cfg.char_size, 0);
	assert_string_equal(cfg.dirs[0], "/tmp");
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "--per-char=7"), OPTIONS_OK);
	assert_int_equal(cfg.char_size, 7 * MiB);
	config_release(&cfg);
}

static void test_long_options(void **state)
{
	struct bench_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, "--json r.jsonl --csv r.csv --direct "
			       "--tag controller=fc --tag raid=5 --char-io=stdio "
			       "--device-cache 4G --bonnie-size --drop-caches"),
			 OPTIONS_OK);
	assert_string_equal(cfg.json_path, "r.jsonl");
	assert_string_equal(cfg.csv_path, "r.csv");
	assert_true(cfg.direct);
	assert_int_equal(cfg.ntags, 2);
	assert_string_equal(cfg.tags[0].key, "controller");
	assert_string_equal(cfg.tags[0].value, "fc");
	assert_string_equal(cfg.tags[1].key, "raid");
	assert_int_equal(cfg.char_io, CHAR_IO_STDIO);
	assert_int_equal(cfg.device_cache, 4096 * MiB);
	assert_true(cfg.bonnie_size);
	assert_true(cfg.drop_caches);
	config_release(&cfg);
}

static void test_params_hold_every_setting(void **state)
{
	struct bench_config cfg;
	struct record *rec = record_new();

	(void)state;
	assert_int_equal(parse(&cfg, "-s 1G:4k -n 2:1000:10:5 -z 7 --tag a=b"),
			 OPTIONS_OK);
	options_record(&cfg, rec);
	assert_string_equal(record_param(rec, PARAM_FILE_SIZE), "1073741824");
	assert_string_equal(record_param(rec, PARAM_CHUNK_SIZE), "4096");
	assert_string_equal(record_param(rec, PARAM_SEEKS), "8192");
	assert_string_equal(record_param(rec, PARAM_SEEKERS), "5");
	assert_string_equal(record_param(rec, PARAM_NUM_FILES), "2048");
	assert_string_equal(record_param(rec, PARAM_MAX_SIZE), "1000");
	assert_string_equal(record_param(rec, PARAM_MIN_SIZE), "10");
	assert_string_equal(record_param(rec, PARAM_NUM_DIRS), "5");
	assert_string_equal(record_param(rec, PARAM_SEED), "7");
	assert_string_equal(record_param(rec, "char_io"), "syscall");
	assert_string_equal(record_param(rec, "char_size"), "3145728");
	assert_string_equal(record_param(rec, "direct"), "0");
	assert_string_equal(record_param(rec, "repeats"), "1");
	assert_non_null(record_param(rec, "device_cache"));
	assert_non_null(record_param(rec, "drop_caches"));
	assert_non_null(record_param(rec, "sync_writes"));
	assert_int_equal(rec->ntags, 1);
	record_free(rec);
	config_release(&cfg);
}

static void test_errors(void **state)
{
	struct bench_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, "-s 1G:1000"), OPTIONS_ERROR);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "-n 1:10:20"), OPTIONS_ERROR);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "-x 0"), OPTIONS_ERROR);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "--tag =x"), OPTIONS_ERROR);
	config_release(&cfg);
	assert_int_equal(parse(&cfg, "-u root:no-such-group-clyde"),
			 OPTIONS_ERROR);
	config_release(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_defaults_are_bonnies),
		cmocka_unit_test(test_bonnie_command_line),
		cmocka_unit_test(test_special_file_sizes),
		cmocka_unit_test(test_bare_f_skips_per_char),
		cmocka_unit_test(test_long_options),
		cmocka_unit_test(test_params_hold_every_setting),
		cmocka_unit_test(test_errors),
	};

	return tap_run_group_tests(tests);
}
