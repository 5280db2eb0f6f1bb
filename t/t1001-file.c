// SPDX-License-Identifier: GPL-2.0-only
/* fsops/file: whole-buffer I/O and O_DIRECT alignment. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "fsops/datagen.h"
#include "fsops/file.h"
#include "lib/xalloc.h"

/* An unlinked scratch file in dir: nothing to clean up, even on failure. */
static int scratch_file(const char *dir, int flags)
{
	char *path = xasprintf("%s/clyde-t1001-XXXXXX", dir);
	int fd = mkostemp(path, flags);

	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

static unsigned char *pattern(size_t len, uint64_t stream)
{
	unsigned char *p = xmalloc(len);

	datagen_fill(p, len, 1001, stream, 0);
	return p;
}

static void file_roundtrip(void **state)
{
	size_t len = 1 << 20;
	unsigned char *data = pattern(len, 1), *back = xmalloc(2 * len);
	int fd = scratch_file("/tmp", 0);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write_full(fd, data, len), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	/* asking for more than there is: the rest, short only at EOF */
	assert_int_equal(read_full(fd, back, 2 * len), len);
	assert_memory_equal(back, data, len);
	assert_int_equal(read_full(fd, back, len), 0);

	/* positioned: a short read at EOF, and writes past the end */
	assert_int_equal(pread_full(fd, back, 1000, (off_t)len - 100), 100);
	assert_memory_equal(back, data + len - 100, 100);
	assert_int_equal(pwrite_full(fd, data, 4096, 3 * (off_t)len), 0);
	assert_int_equal(pread_full(fd, back, 8192, 3 * (off_t)len), 4096);
	assert_memory_equal(back, data, 4096);
	/* the hole in between reads as zeros */
	assert_int_equal(pread_full(fd, back, 16, 2 * (off_t)len), 16);
	memset(data, 0, 16);
	assert_memory_equal(back, data, 16);
	close(fd);
	free(data);
	free(back);
}

/* The child writes len bytes of stream 2 into wfd in small, slow pieces. */
static void slow_writer(int wfd, size_t len, size_t piece)
{
	unsigned char *data = pattern(len, 2);
	size_t off;

	for (off = 0; off < len; off += piece) {
		size_t n = len - off < piece ? len - off : piece;

		if (write_full(wfd, data + off, n))
			_exit(1);
		if ((off / piece) % 16 == 0)
			usleep(1000);
	}
	_exit(0);
}

static void reap(pid_t pid, int want)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), want);
}

static void pipe_short_reads(void **state)
{
	size_t len = 256 << 10;
	unsigned char *want = pattern(len, 2), *got = xmalloc(len + 1);
	int p[2];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		slow_writer(p[1], len, 1000);
	}
	close(p[1]);
	/* the pipe delivers at most 1000 bytes per read: read_full loops */
	assert_int_equal(read_full(p[0], got, len), len);
	assert_memory_equal(got, want, len);
	/* writer gone: end of file */
	assert_int_equal(read_full(p[0], got, 1), 0);
	close(p[0]);
	reap(pid, 0);
	free(want);
	free(got);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* SIGALRM every millisecond, without SA_RESTART: syscalls see EINTR. */
static void start_alarms(struct sigaction *old)
{
	struct sigaction sa;
	struct itimerval it = {
		.it_interval = { .tv_usec = 1000 },
		.it_value = { .tv_usec = 1000 },
	};

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, old), 0);
	alarms = 0;
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
}

static void stop_alarms(const struct sigaction *old)
{
	struct itimerval off;

	memset(&off, 0, sizeof(off));
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, old, NULL);
}

static void read_eintr(void **state)
{
	size_t len = 512 << 10;
	unsigned char *want = pattern(len, 2), *got = xmalloc(len);
	struct sigaction old;
	ssize_t n;
	int p[2];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		slow_writer(p[1], len, 512);
	}
	close(p[1]);
	start_alarms(&old);
	n = read_full(p[0], got, len);
	stop_alarms(&old);
	close(p[0]);
	reap(pid, 0);
	assert_int_equal(n, len);
	assert_memory_equal(got, want, len);
	/* the signals did arrive while read_full was blocked */
	assert_true(alarms > 10);
	free(want);
	free(got);
}

/* A pipe write interrupted after a partial transfer returns short. */
static void write_eintr_short(void **state)
{
	size_t len = 4 << 20;
	unsigned char *data = pattern(len, 3);
	struct sigaction old;
	int p[2], ret;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* slow reader: checks every byte, exit 0 when all match */
		unsigned char *buf = xmalloc(4096);
		size_t off = 0;
		ssize_t r;

		close(p[1]);
		while ((r = read(p[0], buf, 4096)) > 0) {
			if (off + (size_t)r > len ||
			    memcmp(buf, data + off, (size_t)r))
				_exit(2);
			off += (size_t)r;
			if ((off / 4096) % 64 == 0)
				usleep(1000);
		}
		_exit(off == len ? 0 : 3);
	}
	close(p[0]);
	start_alarms(&old);
	ret = write_full(p[1], data, len);
	stop_alarms(&old);
	close(p[1]);
	reap(pid, 0);
	assert_int_equal(ret, 0);
	assert_true(alarms > 10);
	free(data);
}

/* RLIMIT_FSIZE makes the first write short and the next one fail. */
static void short_write_then_error(void **state)
{
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct rlimit rl = { 10000, 10000 };
		unsigned char *data = pattern(16384, 4);
		struct stat st;
		int fd = scratch_file("/tmp", 0);

		signal(SIGXFSZ, SIG_IGN);
		if (fd < 0 || setrlimit(RLIMIT_FSIZE, &rl))
			_exit(10);
		if (write_full(fd, data, 16384) != -EFBIG)
			_exit(11);
		if (fstat(fd, &st) || st.st_size != 10000)
			_exit(12);
		if (pwrite_full(fd, data, 16384, 0) != -EFBIG)
			_exit(13);
		_exit(0);
	}
	reap(pid, 0);
}

static void errors_are_negative_errno(void **state)
{
	char buf[16] = "x";
	int fd = open("/dev/full", O_WRONLY);

	(void)state;
	if (fd < 0)
		SKIP("no /dev/full: %s", strerror(errno));
	assert_int_equal(write_full(fd, buf, sizeof(buf)), -ENOSPC);
	assert_int_equal(pwrite_full(fd, buf, sizeof(buf), 0), -ENOSPC);
	close(fd);

	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	/* fd is closed now */
	assert_int_equal(write_full(fd, buf, 1), -EBADF);
	assert_int_equal(pwrite_full(fd, buf, 1, 0), -EBADF);
	assert_int_equal(read_full(fd, buf, 1), -EBADF);
	assert_int_equal(pread_full(fd, buf, 1, 0), -EBADF);
	/* a pipe cannot be positioned */
	{
		int p[2];

		assert_int_equal(pipe(p), 0);
		assert_int_equal(pread_full(p[0], buf, 1, 0), -ESPIPE);
		assert_int_equal(pwrite_full(p[1], buf, 1, 0), -ESPIPE);
		close(p[0]);
		close(p[1]);
	}
}

static int is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

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

static void dio_disk_file(void **state)
{
	struct dio_align a;
	char *fstype = fstype_of("/tmp");
	size_t n, amem;
	unsigned char *buf, *back;
	int fd = scratch_file("/tmp", 0), dfd;
	char path[64];

	(void)state;
	assert_true(fd >= 0);
	if (!fstype || (strcmp(fstype, "ext4") && strcmp(fstype, "xfs") &&
			strcmp(fstype, "btrfs"))) {
		close(fd);
		SKIP("/tmp is on '%s', not a disk filesystem",
		     fstype ? fstype : "?");
	}
	assert_int_equal(dio_alignment(fd, &a), 0);
	/* ext4, xfs and btrfs all answer STATX_DIOALIGN since Linux 6.1 */
	assert_int_equal(a.from_statx, 1);
	assert_true(is_pow2(a.mem) && a.mem <= 4096);
	assert_true(is_pow2(a.offset) && a.offset >= 512 &&
		    a.offset <= 4096);

	/* what it says works: aligned O_DIRECT write and read back */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	dfd = open(path, O_RDWR | O_DIRECT);
	assert_true(dfd >= 0);
	n = 4 * a.offset;
	amem = a.mem < sizeof(void *) ? sizeof(void *) : a.mem;
	buf = xmalloc_aligned(n, amem);
	back = xmalloc_aligned(n, amem);
	datagen_fill(buf, n, 1001, 5, 0);
	assert_int_equal(pwrite_full(dfd, buf, n, (off_t)a.offset), 0);
	assert_int_equal(pread_full(dfd, back, n, (off_t)a.offset), n);
	assert_memory_equal(back, buf, n);
	/* and it is needed: half the offset alignment is refused */
	assert_int_equal(pwrite_full(dfd, buf, a.offset, (off_t)a.offset / 2),
			 -EINVAL);
	close(dfd);
	close(fd);
	free(buf);
	free(back);
	free(fstype);
}

static void dio_tmpfs(void **state)
{
	struct dio_align a;
	struct statvfs sv;
	char *fstype = fstype_of("/dev/shm");
	int fd, ret;

	(void)state;
	if (!fstype || strcmp(fstype, "tmpfs")) {
		free(fstype);
		SKIP("/dev/shm is not tmpfs");
	}
	free(fstype);
	fd = scratch_file("/dev/shm", 0);
	assert_true(fd >= 0);
	assert_int_equal(fstatvfs(fd, &sv), 0);
	ret = dio_alignment(fd, &a);
	close(fd);
	assert_int_equal(ret, 0);
	assert_true(is_pow2(a.mem) && a.mem <= 65536);
	assert_true(is_pow2(a.offset) && a.offset <= 65536);
	if (!a.from_statx) {
		/* no block device under tmpfs: the fs block size decides */
		assert_int_equal(a.mem, sv.f_bsize);
		assert_int_equal(a.offset, sv.f_bsize);
	}
}

/* Run a shell command for the fake trees; 0 on success. */
static int shell(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&cmd, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -1;
	ret = system(cmd);
	free(cmd);
	return ret;
}

/*
 * The fallback reads the device's logical block size under the sysfs root:
 * a /proc file (no STATX_DIOALIGN, an anonymous device) against a fake tree
 * that gives that device a logical block size, as a whole disk and as a
 * partition.
 */
static void dio_fallback_sysfs(void **state)
{
	char root[] = "/tmp/clyde-t1001-sysfs-XXXXXX";
	struct dio_align a, disk, part, small;
	struct statvfs sv;
	struct stat st;
	char *dev;
	int fd = open("/proc/self/status", O_RDONLY);
	int ret0, ret1 = -1, ret2 = -1, ret3 = -1;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(fstatvfs(fd, &sv), 0);
	ret0 = dio_alignment(fd, &a);
	if (!ret0 && a.from_statx) {
		close(fd);
		SKIP("procfs reports STATX_DIOALIGN here");
	}
	assert_non_null(mkdtemp(root));
	setenv("CLYDE_SYSFS", root, 1);
	dev = xasprintf("%s/dev/block/%u:%u", root, major(st.st_dev),
			minor(st.st_dev));

	/* whole disk: dev/block/M:m/queue/logical_block_size */
	if (!shell("mkdir -p '%s/queue' && echo 65536 >"
		   " '%s/queue/logical_block_size'", dev, dev))
		ret1 = dio_alignment(fd, &disk);
	/* partition: M:m links to disk/part, the queue is the disk's */
	if (!shell("rm -rf '%s' && mkdir -p '%s/devices/disk/part'"
		   " '%s/devices/disk/queue' && echo 32768 >"
		   " '%s/devices/disk/queue/logical_block_size' &&"
		   " ln -s ../../devices/disk/part '%s'",
		   dev, root, root, root, dev))
		ret2 = dio_alignment(fd, &part);
	/* smaller than the fs block size: the fs block size wins */
	if (!shell("echo 512 > '%s/devices/disk/queue/logical_block_size'",
		   root))
		ret3 = dio_alignment(fd, &small);

	unsetenv("CLYDE_SYSFS");
	if (shell("rm -rf '%s'", root))
		print_error("cannot remove '%s'\n", root);
	free(dev);
	close(fd);

	/* without a fake tree: no block device, the fs block size */
	assert_int_equal(ret0, 0);
	assert_int_equal(a.offset, sv.f_bsize);
	assert_int_equal(ret1, 0);
	assert_int_equal(disk.mem, 65536);
	assert_int_equal(disk.offset, 65536);
	assert_int_equal(disk.from_statx, 0);
	assert_int_equal(ret2, 0);
	assert_int_equal(part.offset, 32768);
	assert_int_equal(ret3, 0);
	assert_true(sv.f_bsize > 512);
	assert_int_equal(small.offset, sv.f_bsize);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(file_roundtrip),
		cmocka_unit_test(pipe_short_reads),
		cmocka_unit_test(read_eintr),
		cmocka_unit_test(write_eintr_short),
		cmocka_unit_test(short_write_then_error),
		cmocka_unit_test(errors_are_negative_errno),
		cmocka_unit_test(dio_disk_file),
		cmocka_unit_test(dio_tmpfs),
		cmocka_unit_test(dio_fallback_sysfs),
	};

	return tap_run_group_tests(tests);
}
