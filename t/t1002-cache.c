// SPDX-License-Identifier: GPL-2.0-only
/* fsops/cache: eviction and residency, the basis of honest read figures. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "fsops/cache.h"
#include "fsops/datagen.h"
#include "fsops/file.h"
#include "lib/xalloc.h"

#define MiB ((off_t)1 << 20)
#define FILE_SIZE (64 * MiB)

static char *fstype_of(const char *path)
{
	char *cmd = xasprintf("findmnt -n -o FSTYPE -T '%s' 2>/dev/null", path);
	FILE *f = popen(cmd, "r");
	char line[64] = "";

	free(cmd);
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	pclose(f);
	line[strcspn(line, "\n")] = '\0';
	return line[0] ? xstrdup(line) : NULL;
}

static int is_disk_fs(const char *fstype)
{
	static const char *const disk[] = {
		"ext2", "ext3", "ext4", "xfs", "btrfs", "jfs", "reiserfs",
		"f2fs",
	};
	size_t i;

	for (i = 0; fstype && i < sizeof(disk) / sizeof(disk[0]); i++)
		if (!strcmp(fstype, disk[i]))
			return 1;
	return 0;
}

/* An unlinked scratch file in dir holding len bytes written buffered. */
static int written_file(const char *dir, off_t len)
{
	char *path = xasprintf("%s/clyde-t1002-XXXXXX", dir);
	size_t chunk = 1 << 20;
	unsigned char *buf = xmalloc(chunk);
	off_t off;
	int fd = mkstemp(path);

	if (fd >= 0)
		unlink(path);
	free(path);
	for (off = 0; fd >= 0 && off < len; off += (off_t)chunk) {
		datagen_fill(buf, chunk, 1002, 0, (uint64_t)off);
		if (write_full(fd, buf, chunk)) {
			close(fd);
			fd = -1;
		}
	}
	free(buf);
	return fd;
}

static void disk_evict(void **state)
{
	char *fstype = fstype_of("/tmp");
	unsigned char *buf = xmalloc(1 << 20);
	off_t off;
	double r;
	int fd;

	(void)state;
	if (!is_disk_fs(fstype)) {
		free(buf);
		SKIP("/tmp is on '%s', not a disk filesystem",
		     fstype ? fstype : "?");
	}
	free(fstype);
	fd = written_file("/tmp", FILE_SIZE);
	assert_true(fd >= 0);

	/* just written through the page cache: all there */
	r = cache_residency(fd, FILE_SIZE);
	print_message("# after write: %.3f\n", r);
	assert_true(r > 0.9 && r <= 1.0);

	assert_int_equal(cache_evict(fd), 0);
	r = cache_residency(fd, FILE_SIZE);
	print_message("# after evict: %.3f\n", r);
	assert_true(r >= 0.0 && r < 0.05);

	/* read the first half back (no readahead): half resident */
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
	for (off = 0; off < FILE_SIZE / 2; off += MiB)
		assert_int_equal(pread_full(fd, buf, 1 << 20, off), 1 << 20);
	r = cache_residency(fd, FILE_SIZE);
	print_message("# after reading half: %.3f\n", r);
	assert_true(r > 0.45 && r < 0.6);
	/* and the first half alone is all there */
	assert_true(cache_residency(fd, FILE_SIZE / 2) > 0.9);

	close(fd);
	free(buf);
}

/* tmpfs keeps its data in the page cache: eviction cannot evict.  clyde
 * relies on this to tell that direct I/O was not honoured. */
static void tmpfs_cannot_evict(void **state)
{
	char *fstype = fstype_of("/dev/shm");
	double r;
	int fd;

	(void)state;
	if (!fstype || strcmp(fstype, "tmpfs")) {
		free(fstype);
		SKIP("/dev/shm is not tmpfs");
	}
	free(fstype);
	fd = written_file("/dev/shm", FILE_SIZE);
	assert_true(fd >= 0);
	assert_true(cache_residency(fd, FILE_SIZE) > 0.99);
	assert_int_equal(cache_evict(fd), 0);
	r = cache_residency(fd, FILE_SIZE);
	print_message("# tmpfs after evict: %.3f\n", r);
	assert_true(r > 0.99);
	close(fd);
}

/*
 * A sparse 2.5 GiB file with 64 MiB written across the 1 GiB boundary
 * where residency switches to its next mincore piece: exactly that
 * share is resident.
 */
static void large_sparse_file(void **state)
{
	char *fstype = fstype_of("/tmp");
	char path[] = "/tmp/clyde-t1002-XXXXXX";
	off_t len = 2560 * MiB, at = 1024 * MiB - 32 * MiB, off;
	unsigned char *buf = xmalloc(1 << 20);
	double r, want = (double)(64 * MiB) / (double)len;
	int fd;

	(void)state;
	if (!is_disk_fs(fstype)) {
		free(buf);
		SKIP("/tmp is on '%s', not a disk filesystem",
		     fstype ? fstype : "?");
	}
	free(fstype);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, len), 0);
	for (off = at; off < at + 64 * MiB; off += MiB) {
		datagen_fill(buf, 1 << 20, 1002, 1, (uint64_t)off);
		assert_int_equal(pwrite_full(fd, buf, 1 << 20, off), 0);
	}
	r = cache_residency(fd, len);
	print_message("# sparse: %.4f want %.4f\n", r, want);
	assert_true(r > want * 0.9 && r <= want * 1.01);
	close(fd);
	free(buf);
}

static void edge_cases(void **state)
{
	int fd = written_file("/tmp", 8192), wfd;
	char path[64];

	(void)state;
	assert_true(fd >= 0);
	assert_true(cache_residency(fd, 0) == 1.0);
	assert_true(cache_residency(fd, -1) < 0);
	/* a write-only descriptor still gets measured */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	wfd = open(path, O_WRONLY);
	assert_true(wfd >= 0);
	assert_true(cache_residency(wfd, 8192) > 0.99);
	close(wfd);
	close(fd);
	/* closed descriptor: negative errno, not a fraction */
	assert_true(cache_residency(fd, 8192) == -EBADF);
	assert_int_equal(cache_evict(fd), -EBADF);
}

/* drop_caches is reached through the procfs root: check it in a fake one. */
static void drop_metadata_fake_proc(void **state)
{
	char root[] = "/tmp/clyde-t1002-proc-XXXXXX";
	char *sys, *vm, *file, got[8] = "";
	int fd, rfd, missing, ret = -1;
	ssize_t n = -1;

	(void)state;
	assert_non_null(mkdtemp(root));
	sys = xasprintf("%s/sys", root);
	vm = xasprintf("%s/sys/vm", root);
	file = xasprintf("%s/sys/vm/drop_caches", root);
	fd = open("/tmp", O_RDONLY | O_DIRECTORY);

	setenv("CLYDE_PROCFS", root, 1);
	missing = cache_drop_metadata(fd);
	if (!mkdir(sys, 0755) && !mkdir(vm, 0755) &&
	    (rfd = open(file, O_CREAT | O_WRONLY, 0644)) >= 0) {
		close(rfd);
		ret = cache_drop_metadata(fd);
	}
	unsetenv("CLYDE_PROCFS");

	rfd = open(file, O_RDONLY);
	if (rfd >= 0) {
		n = read_full(rfd, got, sizeof(got) - 1);
		close(rfd);
	}
	unlink(file);
	rmdir(vm);
	rmdir(sys);
	rmdir(root);
	free(file);
	free(vm);
	free(sys);
	if (fd >= 0)
		close(fd);

	assert_true(fd >= 0);
	assert_int_equal(missing, -ENOENT);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 2);
	assert_string_equal(got, "2\n");
}

static void drop_metadata_real(void **state)
{
	int fd = open("/tmp", O_RDONLY | O_DIRECTORY), ret;

	(void)state;
	assert_true(fd >= 0);
	ret = cache_drop_metadata(fd);
	close(fd);
	if (geteuid() != 0) {
		assert_true(ret == -EACCES || ret == -EPERM);
		return;
	}
	if (ret == -EROFS || ret == -EACCES || ret == -EPERM)
		SKIP("root, but /proc/sys is not writable here: %s",
		     strerror(-ret));
	assert_int_equal(ret, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disk_evict),
		cmocka_unit_test(tmpfs_cannot_evict),
		cmocka_unit_test(large_sparse_file),
		cmocka_unit_test(edge_cases),
		cmocka_unit_test(drop_metadata_fake_proc),
		cmocka_unit_test(drop_metadata_real),
	};

	return tap_run_group_tests(tests);
}
