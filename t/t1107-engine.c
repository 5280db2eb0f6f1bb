// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsops/engine: the engine table and its capabilities, the null engine
 * (completes without the kernel: an fd of -1 still succeeds), io_uring on a
 * real file with registered file and buffers (what is written is read back),
 * the default engine falling back to libaio with a note when a seccomp
 * policy refuses io_uring_setup (in the library and in clyde matrix's
 * record), and --hipri's device check against a fake sysfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "t/cmocka-tap.h"
#include "fsops/engine.h"
#include "fsops/uring.h"

static char dir[] = "/tmp/clyde-t1107.XXXXXX";

static void table(void **state)
{
	size_t n, i;
	const struct io_engine_ops *const *all = io_engine_list(&n);
	struct io_engine e;
	struct io_engine_setup s;

	(void)state;
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_ptr_equal(io_engine_find(all[i]->name), all[i]);
		assert_non_null(all[i]->help);
	}
	assert_null(io_engine_find("io-uring"));
	assert_int_equal(io_engine_psync.max_depth, 1);
	assert_int_equal(io_engine_init(&e, &io_engine_psync, 2, NULL),
			 -EINVAL);
	memset(&s, 0, sizeof(s));
	s.flags = IO_SETUP_SQPOLL;
	assert_int_equal(io_engine_init(&e, &io_engine_libaio, 4, &s),
			 -EINVAL);
	s.flags = IO_SETUP_HIPRI;
	assert_int_equal(io_engine_init(&e, &io_engine_null, 4, &s), -EINVAL);
}

static void null_engine(void **state)
{
	struct io_req reqs[8], *p[8], *done[8];
	struct io_engine e;
	char buf[512];
	int i, got, total = 0;

	(void)state;
	assert_int_equal(io_engine_init(&e, &io_engine_null, 8, NULL), 0);
	for (i = 0; i < 8; i++) {
		memset(&reqs[i], 0, sizeof(reqs[i]));
		reqs[i].fd = -1;	/* never reaches the kernel */
		reqs[i].buf = buf;
		reqs[i].len = sizeof(buf);
		reqs[i].off = (uint64_t)i * 512;
		reqs[i].res = -1;
		p[i] = &reqs[i];
	}
	assert_int_equal(io_engine_submit(&e, p, 5), 0);
	assert_int_equal(io_engine_submit(&e, p + 5, 3), 0);
	/* a ninth would be more than the depth */
	assert_int_equal(io_engine_submit(&e, p, 1), -EINVAL);
	got = io_engine_reap(&e, 1, done, 4, NULL);
	assert_int_equal(got, 4);
	assert_ptr_equal(done[0], &reqs[0]);
	total += got;
	got = io_engine_reap(&e, 1, done, 8, NULL);
	assert_int_equal(got, 4);
	assert_ptr_equal(done[3], &reqs[7]);
	total += got;
	assert_int_equal(total, 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(reqs[i].res, 512);
	assert_int_equal(io_engine_reap(&e, 0, done, 8, NULL), 0);
	io_engine_release(&e);
}

static void uring_roundtrip(void **state)
{
	enum { BS = 4096, QD = 4 };
	char path[64];
	unsigned char *mem = NULL;
	struct io_req reqs[QD], *p[QD], *done[QD];
	struct io_engine_setup s;
	struct iovec iov;
	struct io_engine e;
	int fd, i, n, rc;

	(void)state;
	if (io_engine_probe(&io_engine_uring, 0))
		skip();
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign((void **)&mem, 4096, QD * BS), 0);
	for (i = 0; i < QD * BS; i++)
		mem[i] = (unsigned char)(i * 7 + i / BS);
	memset(&s, 0, sizeof(s));
	s.fds = &fd;
	s.nfds = 1;
	iov.iov_base = mem;
	iov.iov_len = QD * BS;
	s.mem = &iov;
	s.nmem = 1;
	rc = io_engine_init(&e, &io_engine_uring, QD, &s);
	assert_int_equal(rc, 0);
	for (i = 0; i < QD; i++) {
		memset(&reqs[i], 0, sizeof(reqs[i]));
		reqs[i].fd = fd;
		reqs[i].buf = mem + i * BS;
		reqs[i].len = BS;
		reqs[i].off = (uint64_t)(QD - 1 - i) * BS;
		reqs[i].slot = (unsigned)i;
		reqs[i].write = 1;
		reqs[i].file_index = 0;
		reqs[i].buf_index = 0;
		p[i] = &reqs[i];
	}
	assert_int_equal(io_engine_submit(&e, p, QD), 0);
	for (n = 0; n < QD;) {
		rc = io_engine_reap(&e, 1, done, QD, NULL);
		assert_true(rc > 0);
		for (i = 0; i < rc; i++)
			assert_int_equal(done[i]->res, BS);
		n += rc;
	}
	/* read back into zeroed buffers, through the same fixed ones */
	memset(mem, 0, QD * BS);
	for (i = 0; i < QD; i++)
		reqs[i].write = 0;
	assert_int_equal(io_engine_submit(&e, p, QD), 0);
	for (n = 0; n < QD;) {
		rc = io_engine_reap(&e, 1, done, QD, NULL);
		assert_true(rc > 0);
		n += rc;
	}
	for (i = 0; i < QD * BS; i++)
		if (mem[i] != (unsigned char)(i * 7 + i / BS))
			fail_msg("byte %d read back wrong", i);
	io_engine_release(&e);
	close(fd);
	unlink(path);
	free(mem);
}

/* In this process from now: io_uring_setup fails with EPERM. */
static int deny_uring(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static void seccomp_fallback(void **state)
{
	const struct io_engine_ops *e;
	const char *why;
	pid_t pid;
	int st;

	(void)state;
	if (io_engine_probe(&io_engine_uring, 0))
		skip();		/* nothing to fall back from */
	e = io_engine_default(&why);
	assert_ptr_equal(e, &io_engine_uring);
	assert_null(why);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (deny_uring())
			_exit(3);
		e = io_engine_default(&why);
		_exit(e == &io_engine_libaio && why &&
		      strstr(why, "io_uring unavailable") &&
		      strstr(why, strerror(EPERM)) ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* clyde matrix under the same policy: libaio, and the record says why */
static void seccomp_record(void **state)
{
	const char *clyde = getenv("CLYDE") ? getenv("CLYDE") : "./clyde";
	char json[64], sub[64];
	struct json_object *rec, *m, *v, *w;
	int st, found = 0;
	size_t i;
	pid_t pid;

	(void)state;
	if (io_engine_probe(&io_engine_uring, 0) || access(clyde, X_OK))
		skip();
	snprintf(json, sizeof(json), "%s/r.json", dir);
	snprintf(sub, sizeof(sub), "%s/d", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		if (deny_uring())
			_exit(3);
		execl(clyde, "clyde", "matrix", "-d", sub, "--buffered",
		      "--bs", "4k", "--threads", "1", "--pattern", "random",
		      "--mix", "100", "--size", "1M", "--time", "0.05",
		      "--ramp", "0", "-q", "--json", json, (char *)NULL);
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	rec = json_object_from_file(json);
	assert_non_null(rec);
	assert_true(json_object_object_get_ex(rec, "matrix", &m));
	assert_true(json_object_object_get_ex(m, "engine", &v));
	assert_string_equal(json_object_get_string(v), "libaio");
	assert_true(json_object_object_get_ex(rec, "params", &m));
	assert_true(json_object_object_get_ex(m, "engine", &v));
	assert_string_equal(json_object_get_string(v), "libaio");
	assert_true(json_object_object_get_ex(rec, "warnings", &w));
	for (i = 0; i < json_object_array_length(w); i++)
		if (strstr(json_object_get_string(
				   json_object_array_get_idx(w, i)),
			   "io_uring unavailable"))
			found = 1;
	assert_true(found);
	json_object_put(rec);
	unlink(json);
	rmdir(sub);
}

static void hipri_check(void **state)
{
	char path[128], sys[64], err[256];
	struct stat st;
	FILE *f;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/p", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	setenv("CLYDE_SYSFS", sys, 1);
	if (!major(st.st_dev)) {
		/* tmpfs and the like: no block device at all */
		assert_int_equal(uring_poll_check(fd, err, sizeof(err)),
				 -EOPNOTSUPP);
		assert_non_null(strstr(err, "not on a block device"));
	} else {
		snprintf(path, sizeof(path), "mkdir -p %s/dev/block/%u:%u/"
			 "queue", sys, major(st.st_dev), minor(st.st_dev));
		assert_int_equal(system(path), 0);
		snprintf(path, sizeof(path), "%s/dev/block/%u:%u/queue/io_poll",
			 sys, major(st.st_dev), minor(st.st_dev));
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("0\n", f);
		fclose(f);
		assert_int_equal(uring_poll_check(fd, err, sizeof(err)),
				 -EOPNOTSUPP);
		assert_non_null(strstr(err, "does not poll"));
		f = fopen(path, "w");
		fputs("1\n", f);
		fclose(f);
		assert_int_equal(uring_poll_check(fd, err, sizeof(err)), 0);
	}
	unsetenv("CLYDE_SYSFS");
	close(fd);
	snprintf(path, sizeof(path), "rm -rf %s/sys %s/p", dir, dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(null_engine),
		cmocka_unit_test(uring_roundtrip),
		cmocka_unit_test(seccomp_fallback),
		cmocka_unit_test(seccomp_record),
		cmocka_unit_test(hipri_check),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = tap_run_group_tests(tests);
	rmdir(dir);
	return rc;
}
