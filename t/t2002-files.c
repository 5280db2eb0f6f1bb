// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/classic/files.c: the six small-file tests, run on a scratch directory under
 * /var/tmp with what a user would check afterwards: every file there with
 * bonnie++'s names and the asked sizes, stat finding them all, delete
 * leaving nothing behind, and a stop or an error ending the test cleanly.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "bench/classic/tests.h"
#include "lib/xalloc.h"
#include "report/model/record.h"

extern const struct bench_test bench_seq_create, bench_seq_stat,
	bench_seq_del, bench_ran_create, bench_ran_stat, bench_ran_del;

#define NFILES 2048

struct fx {
	char dir[64];
	int mounted;
	struct bench_config cfg;
	struct bench_ctx ctx;
	volatile sig_atomic_t stop;
	struct record *rec;
};

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/var/tmp/clyde-t2002.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	f->cfg.num_files = NFILES;
	f->cfg.file_chunk_size = 8192;
	f->rec = record_new();
	f->ctx.cfg = &f->cfg;
	f->ctx.dir = f->dir;
	f->ctx.dirfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	f->ctx.path = NULL;
	f->ctx.seed = 2002;
	f->ctx.stop = &f->stop;
	f->ctx.rec = f->rec;
	*state = f;
	return f->ctx.dirfd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	files_state_free(f->ctx.files);
	if (f->ctx.dirfd >= 0)
		close(f->ctx.dirfd);
	if (f->mounted)
		umount2(f->dir, MNT_DETACH);
	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	record_free(f->rec);
	free(f);
	return 0;
}

/* What a test run left in its result. */
struct outcome {
	int rc;
	enum result_status status;
	char reason[256];
	uint64_t ops;
	uint64_t bytes;
	uint64_t lat_count;
	double value;
};

static struct outcome run(struct fx *f, const struct bench_test *t)
{
	struct result res;
	struct outcome o;

	memset(&res, 0, sizeof(res));
	res.name = (char *)t->def->name;	/* read only */
	res.status = RESULT_NOT_RUN;
	hist_init(&res.lat);
	memset(&o, 0, sizeof(o));
	o.rc = t->run(&f->ctx, &res);
	o.status = res.status;
	snprintf(o.reason, sizeof(o.reason), "%s",
		 res.reason ? res.reason : "");
	o.ops = res.ops;
	o.bytes = res.bytes;
	o.lat_count = res.lat.count;
	o.value = res.value;
	free(res.reason);
	return o;
}

static void assert_ok(const struct outcome *o, uint64_t n)
{
	if (o->rc)
		print_message("# reason: %s\n", o->reason);
	assert_int_equal(o->rc, 0);
	assert_int_equal(o->status, RESULT_OK);
	assert_int_equal(o->ops, n);
	assert_int_equal(o->lat_count, n);
	assert_true(o->value > 0);
}

/* Entries of path other than . and .., or -1. */
static long count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	long n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* What is in dir/files after a create. */
struct inventory {
	uint64_t files;		/* entries that are not directories */
	uint64_t bytes;		/* sizes of regular files, lstat */
	uint64_t min, max;
	uint64_t with_rand;	/* names with a random part */
	uint64_t symlinks;
	uint64_t links_ok;	/* symlinks that resolve */
	nlink_t max_nlink;
	uint64_t subdirs;
	uint64_t per_dir_min, per_dir_max;
	unsigned char *seen;	/* index bitmap */
	uint64_t dup_or_range;	/* bad indexes */
	uint64_t bad_names;
	char first_bad[NAME_MAX + 1];
	unsigned char head[2][16];	/* first bytes of two files */
	int nhead;
};

static void inspect_dir(const char *path, int random, uint64_t n,
			struct inventory *inv)
{
	regex_t re;
	DIR *d = opendir(path);
	struct dirent *de;
	uint64_t here = 0;

	assert_non_null(d);
	assert_int_equal(regcomp(&re, random ?
				 "^[a-zA-Z0-9]{0,12}[0-9a-f]{10}$" :
				 "^[0-9a-f]{10}[a-zA-Z0-9]{0,12}$",
				 REG_EXTENDED | REG_NOSUB), 0);
	while ((de = readdir(d))) {
		char *p;
		struct stat sb;
		size_t len = strlen(de->d_name);
		unsigned long idx;
		char hex[11];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", path, de->d_name);
		assert_int_equal(lstat(p, &sb), 0);
		here++;
		inv->files++;
		if (regexec(&re, de->d_name, 0, NULL, 0) || len < 10) {
			if (!inv->bad_names++)
				snprintf(inv->first_bad,
					 sizeof(inv->first_bad), "%s",
					 de->d_name);
			free(p);
			continue;
		}
		memcpy(hex, random ? de->d_name + len - 10 : de->d_name, 10);
		hex[10] = '\0';
		idx = strtoul(hex, NULL, 16);
		if (idx >= n || inv->seen[idx / 8] & (1u << (idx % 8)))
			inv->dup_or_range++;
		else
			inv->seen[idx / 8] |= (unsigned char)(1u << (idx % 8));
		if (len > 10)
			inv->with_rand++;
		if (S_ISLNK(sb.st_mode)) {
			struct stat tb;

			inv->symlinks++;
			if (!stat(p, &tb) && S_ISREG(tb.st_mode))
				inv->links_ok++;
		} else if (S_ISREG(sb.st_mode)) {
			uint64_t size = (uint64_t)sb.st_size;

			inv->bytes += size;
			if (size < inv->min)
				inv->min = size;
			if (size > inv->max)
				inv->max = size;
			if (sb.st_nlink > inv->max_nlink)
				inv->max_nlink = sb.st_nlink;
			if (size >= 16 && inv->nhead < 2) {
				int fd = open(p, O_RDONLY);

				assert_true(fd >= 0);
				assert_int_equal(read(fd,
						      inv->head[inv->nhead],
						      16), 16);
				close(fd);
				inv->nhead++;
			}
		}
		free(p);
	}
	closedir(d);
	regfree(&re);
	if (here < inv->per_dir_min)
		inv->per_dir_min = here;
	if (here > inv->per_dir_max)
		inv->per_dir_max = here;
}

static void inspect(struct fx *f, int random, struct inventory *inv)
{
	char *top = xasprintf("%s/files", f->dir);
	uint64_t n = f->cfg.num_files, d;

	memset(inv, 0, sizeof(*inv));
	inv->min = UINT64_MAX;
	inv->per_dir_min = UINT64_MAX;
	inv->seen = xcalloc(n / 8 + 1, 1);
	if (!f->cfg.num_dirs) {
		inspect_dir(top, random, n, inv);
	} else {
		assert_int_equal(count_entries(top), (long)f->cfg.num_dirs);
		for (d = 0; d < f->cfg.num_dirs; d++) {
			char *sub = xasprintf("%s/%05u", top, (unsigned)d);
			struct stat sb;

			assert_int_equal(stat(sub, &sb), 0);
			assert_true(S_ISDIR(sb.st_mode));
			inv->subdirs++;
			inspect_dir(sub, random, n, inv);
			free(sub);
		}
	}
	free(inv->seen);
	free(top);
	if (inv->bad_names)
		print_message("# bad name: '%s'\n", inv->first_bad);
	assert_int_equal(inv->bad_names, 0);
	assert_int_equal(inv->dup_or_range, 0);
	assert_int_equal(inv->files, n);
	/* 0..12 random characters: some names carry them, some do not */
	assert_true(inv->with_rand > 0 && inv->with_rand < n);
}

/*
 * One family: create, check what is on disk, stat, delete, check the run's
 * directory is empty.
 */
static void family(struct fx *f, int random)
{
	const struct bench_test *c = random ? &bench_ran_create
					    : &bench_seq_create;
	const struct bench_test *s = random ? &bench_ran_stat
					    : &bench_seq_stat;
	const struct bench_test *d = random ? &bench_ran_del
					    : &bench_seq_del;
	uint64_t n = f->cfg.num_files;
	struct inventory inv;
	struct outcome o, os;

	o = run(f, c);
	assert_ok(&o, n);
	inspect(f, random, &inv);

	if (f->cfg.max_size > 0) {
		assert_true(inv.min >= (uint64_t)f->cfg.min_size);
		assert_true(inv.max <= (uint64_t)f->cfg.max_size);
		if (f->cfg.max_size > f->cfg.min_size)
			assert_true(inv.min < inv.max);
		assert_int_equal(o.bytes, inv.bytes);
		/* unique data: not zeros, not the same in two files */
		assert_int_equal(inv.nhead, 2);
		assert_memory_not_equal(inv.head[0], inv.head[1], 16);
	} else if (f->cfg.max_size == FILES_HARDLINKS) {
		assert_int_equal(inv.symlinks, 0);
		assert_int_equal(inv.max_nlink, n);
		assert_int_equal(inv.bytes, 0);
	} else if (f->cfg.max_size == FILES_SYMLINKS) {
		assert_int_equal(inv.symlinks, n - 1);
		assert_int_equal(inv.links_ok, n - 1);
	} else {
		assert_int_equal(inv.max, 0);
		assert_int_equal(o.bytes, 0);
	}
	if (f->cfg.num_dirs) {
		assert_int_equal(inv.subdirs, f->cfg.num_dirs);
		assert_true(inv.per_dir_max - inv.per_dir_min <= 1);
	}

	os = run(f, s);
	assert_ok(&os, n);
	assert_int_equal(os.bytes, inv.bytes);

	o = run(f, d);
	assert_ok(&o, n);
	assert_int_equal(count_entries(f->dir), 0);
}

static void seq_flat(void **state)
{
	family(*state, 0);
}

static void ran_flat(void **state)
{
	family(*state, 1);
}

static void seq_dirs(void **state)
{
	struct fx *f = *state;

	f->cfg.num_dirs = 4;
	family(f, 0);
}

static void ran_dirs(void **state)
{
	struct fx *f = *state;

	f->cfg.num_dirs = 4;
	family(f, 1);
}

static void seq_sizes(void **state)
{
	struct fx *f = *state;

	f->cfg.max_size = 4096;
	f->cfg.min_size = 512;
	family(f, 0);
}

static void ran_sizes_dirs(void **state)
{
	struct fx *f = *state;

	/* chunk smaller than the files: several writes and reads each */
	f->cfg.max_size = 4096;
	f->cfg.min_size = 512;
	f->cfg.num_dirs = 4;
	f->cfg.file_chunk_size = 1024;
	family(f, 1);
}

static void seq_hardlinks(void **state)
{
	struct fx *f = *state;

	f->cfg.max_size = FILES_HARDLINKS;
	family(f, 0);
}

static void ran_hardlinks_dirs(void **state)
{
	struct fx *f = *state;

	f->cfg.max_size = FILES_HARDLINKS;
	f->cfg.num_dirs = 4;
	family(f, 1);
}

static void seq_symlinks(void **state)
{
	struct fx *f = *state;

	f->cfg.max_size = FILES_SYMLINKS;
	family(f, 0);
}

static void ran_symlinks_dirs(void **state)
{
	struct fx *f = *state;

	/* links in 00001..00003 must still reach the file in 00000 */
	f->cfg.max_size = FILES_SYMLINKS;
	f->cfg.num_dirs = 4;
	family(f, 1);
}

static void sync_writes(void **state)
{
	struct fx *f = *state;

	/* -b fsyncs every file and directory: keep it small */
	f->cfg.num_files = 128;
	f->cfg.sync_writes = 1;
	f->cfg.max_size = 1000;
	f->cfg.num_dirs = 2;
	family(f, 0);
	family(f, 1);
}

/* The suite's order, one context: the random family after the other. */
static void both_families(void **state)
{
	struct fx *f = *state;

	family(f, 0);
	family(f, 1);
}

static void needs_create(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	o = run(f, &bench_seq_stat);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.status, RESULT_SKIPPED);
	assert_string_equal(o.reason, "needs seq_create");
	o = run(f, &bench_ran_del);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.status, RESULT_SKIPPED);
	assert_string_equal(o.reason, "needs ran_create");

	f->cfg.num_files = 64;
	o = run(f, &bench_seq_create);
	assert_ok(&o, 64);
	/* the other family's files are not there */
	o = run(f, &bench_ran_stat);
	assert_int_equal(o.status, RESULT_SKIPPED);
	assert_string_equal(o.reason, "needs ran_create");
	o = run(f, &bench_seq_del);
	assert_ok(&o, 64);
	/* deleted: nothing left to delete */
	o = run(f, &bench_seq_del);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.status, RESULT_SKIPPED);
	assert_string_equal(o.reason, "needs seq_create");
	assert_int_equal(count_entries(f->dir), 0);
}

static void assert_interrupted(const struct outcome *o)
{
	assert_int_equal(o->rc, -EINTR);
	assert_int_equal(o->status, RESULT_SKIPPED);
	assert_string_equal(o->reason, "interrupted");
}

static void stop_flag(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	f->stop = 1;
	o = run(f, &bench_seq_create);
	assert_interrupted(&o);
	assert_int_equal(o.ops, 0);
	f->stop = 0;
	/* an interrupted create leaves nothing to stat */
	o = run(f, &bench_seq_stat);
	assert_int_equal(o.status, RESULT_SKIPPED);

	o = run(f, &bench_seq_create);
	assert_ok(&o, NFILES);
	f->stop = 1;
	o = run(f, &bench_seq_stat);
	assert_interrupted(&o);
	o = run(f, &bench_seq_del);
	assert_interrupted(&o);
	f->stop = 0;

	/* the next create removes what the interrupted family left */
	o = run(f, &bench_ran_create);
	assert_ok(&o, NFILES);
	f->stop = 1;
	o = run(f, &bench_ran_stat);
	assert_interrupted(&o);
	o = run(f, &bench_ran_del);
	assert_interrupted(&o);
	f->stop = 0;
	o = run(f, &bench_ran_del);
	assert_ok(&o, NFILES);
	assert_int_equal(count_entries(f->dir), 0);
}

/* ENOSPC: a tmpfs with too few inodes for the files. */
static void no_space(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *want;

	if (geteuid() != 0)
		SKIP("ENOSPC needs root to mount a small tmpfs");
	if (mount("clyde-t2002", f->dir, "tmpfs", 0,
		  "nr_inodes=300,size=4m,mode=0700")) {
		SKIP("cannot mount tmpfs on '%s': %s", f->dir,
		     strerror(errno));
	}
	f->mounted = 1;
	close(f->ctx.dirfd);
	f->ctx.dirfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->ctx.dirfd >= 0);

	o = run(f, &bench_seq_create);
	assert_int_equal(o.rc, -ENOSPC);
	assert_int_equal(o.status, RESULT_FAILED);
	want = xasprintf("cannot create '%s/files/", f->dir);
	assert_non_null(strstr(o.reason, want));
	assert_non_null(strstr(o.reason, "No space left on device"));
	free(want);
	assert_true(o.ops > 0 && o.ops < NFILES);

	o = run(f, &bench_seq_stat);
	assert_int_equal(o.status, RESULT_SKIPPED);
	assert_string_equal(o.reason, "needs seq_create");

	/* what the failed create left is removed, and a smaller run fits */
	f->cfg.num_files = 100;
	o = run(f, &bench_ran_create);
	assert_ok(&o, 100);
	o = run(f, &bench_ran_stat);
	assert_ok(&o, 100);
	o = run(f, &bench_ran_del);
	assert_ok(&o, 100);
	assert_int_equal(count_entries(f->dir), 0);
}

/* --drop-caches: stat and delete still see every file; a kernel that
 * refuses (no root, read-only /proc/sys) is one warning, not a failure. */
static void drop_caches(void **state)
{
	struct fx *f = *state;
	size_t i, drops = 0;

	f->cfg.drop_caches = 1;
	f->cfg.num_files = 256;
	family(f, 0);
	family(f, 1);
	for (i = 0; i < f->rec->nwarnings; i++)
		if (strstr(f->rec->warnings[i], "--drop-caches"))
			drops++;
	assert_true(drops <= 1);
	if (drops)
		print_message("# %s\n", f->rec->warnings[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(seq_flat, setup, teardown),
		cmocka_unit_test_setup_teardown(ran_flat, setup, teardown),
		cmocka_unit_test_setup_teardown(seq_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(ran_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(seq_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(ran_sizes_dirs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(seq_hardlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(ran_hardlinks_dirs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(seq_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(ran_symlinks_dirs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sync_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(both_families, setup,
						teardown),
		cmocka_unit_test_setup_teardown(needs_create, setup, teardown),
		cmocka_unit_test_setup_teardown(stop_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(no_space, setup, teardown),
		cmocka_unit_test_setup_teardown(drop_caches, setup, teardown),
	};

	return tap_run_group_tests(tests);
}
