// SPDX-License-Identifier: GPL-2.0-only
/* fsops/target: mount and host detection, checked against findmnt & co. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "fsops/target.h"
#include "lib/xalloc.h"

/* First line of a command's output, NULL when it failed or said nothing. */
static char *run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *run(const char *fmt, ...)
{
	char line[4096] = "", *cmd;
	va_list ap;
	FILE *f;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&cmd, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return NULL;
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	ret = pclose(f);
	line[strcspn(line, "\n")] = '\0';
	return !ret && line[0] ? xstrdup(line) : NULL;
}

static void check_mount_unknown(const char *path, struct fs_target *t);

/* fs_target_detect(path) agrees with `findmnt -T path` (which finds no
 * mount in a chroot whose root is not a mount point: then the mount is
 * unknown). */
static void check_against_findmnt(const char *path)
{
	static const char *const col[] = {
		"TARGET", "FSTYPE", "SOURCE", "VFS-OPTIONS", "FS-OPTIONS",
	};
	struct fs_target t;
	char err[256] = "";
	const char *got[5];
	char *target = run("findmnt -n -o TARGET -T '%s'", path);
	size_t i;

	assert_int_equal(fs_target_detect(path, &t, err, sizeof(err)), 0);
	if (!target) {
		check_mount_unknown(path, &t);
		fs_target_release(&t);
		return;
	}
	free(target);
	got[0] = t.mountpoint;
	got[1] = t.fstype;
	got[2] = t.source;
	got[3] = t.vfs_options;
	got[4] = t.fs_options;
	for (i = 0; i < 5; i++) {
		char *want = run("findmnt -n -o '%s' -T '%s' | tail -n 1",
				 col[i], path);

		if (want && (!got[i] || strcmp(got[i], want)))
			print_error("%s of '%s': '%s', findmnt says '%s'\n",
				    col[i], path, got[i] ? got[i] : "(null)",
				    want);
		if (want)
			assert_non_null(got[i]);
		if (want && got[i])
			assert_string_equal(got[i], want);
		free(want);
	}
	assert_non_null(t.mountpoint);
	assert_non_null(t.fstype);
	assert_true(t.block_size > 0);
	assert_true(t.avail_bytes <= t.total_bytes);
	fs_target_release(&t);
	assert_null(t.mountpoint);
}

/*
 * What statfs says path is on, in fs_target's names, from coreutils' stat
 * (which names ext2, ext3 and ext4 "ext2/ext3" and overlay "overlayfs").
 */
static char *statfs_name(const char *path)
{
	char *t = run("stat -f -c %%T '%s'", path);
	const char *n;

	if (!t || (strcmp(t, "ext2/ext3") && strcmp(t, "overlayfs")))
		return t;
	n = t[0] == 'e' ? "ext2/ext3/ext4" : "overlay";
	free(t);
	return xstrdup(n);
}

/* Without a mount table entry for path: mount unknown, type from statfs. */
static void check_mount_unknown(const char *path, struct fs_target *t)
{
	char *want = statfs_name(path);
	size_t i;
	int said = 0;

	assert_null(t->mountpoint);
	assert_null(t->source);
	assert_null(t->vfs_options);
	assert_null(t->fs_options);
	assert_non_null(want);
	assert_non_null(t->fstype);
	assert_string_equal(t->fstype, want);
	assert_true(t->block_size > 0);
	assert_true(t->total_bytes > 0);
	for (i = 0; i < t->stack.nwarnings; i++)
		said |= strstr(t->stack.warnings[i], path) &&
			strstr(t->stack.warnings[i], "mount point, source and "
			       "options unknown") != NULL;
	assert_true(said);
	free(want);
}

static void root_fs(void **state)
{
	struct fs_target t;
	char err[256] = "";
	char *fstype = run("findmnt -n -o FSTYPE /");

	(void)state;
	if (!fstype) {
		/* a chroot whose root is not a mount point */
		print_message("# no mount table entry for '/'\n");
		assert_int_equal(fs_target_detect("/", &t, err, sizeof(err)),
				 0);
		check_mount_unknown("/", &t);
		fs_target_release(&t);
		return;
	}
	assert_int_equal(fs_target_detect("/", &t, err, sizeof(err)), 0);
	assert_string_equal(t.mountpoint, "/");
	assert_string_equal(t.fstype, fstype);
	/* the root filesystem of a running system has room and blocks */
	assert_true(t.total_bytes > 0);
	fs_target_release(&t);
	free(fstype);
	check_against_findmnt("/");
}

/* A path below a mount point walks up to it, through symlinks too. */
static void walks_up(void **state)
{
	char dir[] = "/tmp/clyde-t1004-XXXXXX";
	char *a, *sub, *link, *file;
	FILE *f;
	int ok;

	(void)state;
	assert_non_null(mkdtemp(dir));
	a = xasprintf("%s/a", dir);
	sub = xasprintf("%s/a/b", dir);
	link = xasprintf("%s/link", dir);
	file = xasprintf("%s/a/b/file", dir);
	ok = !mkdir(a, 0755) && !mkdir(sub, 0755) && !symlink(sub, link) &&
	     (f = fopen(file, "w")) && !fclose(f);
	if (ok) {
		check_against_findmnt(sub);
		check_against_findmnt(file);
		check_against_findmnt(link);
	}
	unlink(file);
	unlink(link);
	rmdir(sub);
	rmdir(a);
	rmdir(dir);
	free(a);
	free(sub);
	free(link);
	free(file);
	assert_true(ok);
}

static void pseudo_filesystems(void **state)
{
	struct fs_target t;
	char err[256] = "";

	(void)state;
	assert_int_equal(fs_target_detect("/proc", &t, err, sizeof(err)), 0);
	assert_string_equal(t.mountpoint, "/proc");
	assert_string_equal(t.fstype, "proc");
	fs_target_release(&t);
	assert_int_equal(fs_target_detect("/proc/self/status", &t, err,
					  sizeof(err)), 0);
	assert_string_equal(t.fstype, "proc");
	fs_target_release(&t);
	check_against_findmnt("/proc/sys");
	check_against_findmnt("/dev/shm");
	assert_int_equal(fs_target_detect("/dev/shm", &t, err, sizeof(err)),
			 0);
	assert_string_equal(t.fstype, "tmpfs");
	assert_int_equal(t.readonly, 0);
	fs_target_release(&t);
}

/* A read-only tmpfs of our own is reported read-only (needs root). */
static void readonly_mount(void **state)
{
	char dir[] = "/tmp/clyde-t1004-ro-XXXXXX";
	struct fs_target t;
	char err[256] = "";
	int ret = -1, mounted;

	(void)state;
	if (geteuid() != 0)
		SKIP("mounting a read-only tmpfs needs root");
	assert_non_null(mkdtemp(dir));
	mounted = !mount("clyde-t1004", dir, "tmpfs", MS_RDONLY, "size=1m");
	if (!mounted) {
		int e = errno;

		rmdir(dir);
		SKIP("cannot mount tmpfs on '%s': %s", dir, strerror(e));
	}
	ret = fs_target_detect(dir, &t, err, sizeof(err));
	umount(dir);
	rmdir(dir);
	assert_int_equal(ret, 0);
	assert_string_equal(t.mountpoint, dir);
	assert_string_equal(t.fstype, "tmpfs");
	assert_string_equal(t.source, "clyde-t1004");
	assert_int_equal(t.readonly, 1);
	assert_true(!strncmp(t.vfs_options, "ro", 2));
	fs_target_release(&t);
	/* and an ordinary one is not */
	assert_int_equal(fs_target_detect("/tmp", &t, err, sizeof(err)), 0);
	assert_int_equal(t.readonly, 0);
	fs_target_release(&t);
}

static void missing_path(void **state)
{
	struct fs_target t;
	char err[256] = "";
	const char *path = "/nonexistent-clyde-t1004/x";

	(void)state;
	memset(&t, 0x5a, sizeof(t));
	assert_int_equal(fs_target_detect(path, &t, err, sizeof(err)),
			 -ENOENT);
	print_message("# %s\n", err);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(ENOENT)));
	assert_null(t.mountpoint);
	assert_null(t.fstype);
	/* no room for a message is not a crash */
	assert_int_equal(fs_target_detect(path, &t, NULL, 0), -ENOENT);
}

/* The mount table and cpuinfo are read under the procfs root. */
static void fake_procfs(void **state)
{
	char root[] = "/tmp/clyde-t1004-proc-XXXXXX";
	char *self, *mi, *cpuinfo;
	struct fs_target t, t2;
	struct host_info h;
	char err[256] = "";
	int ret = -1, ret2 = -1;
	FILE *f, *g = NULL;

	(void)state;
	assert_non_null(mkdtemp(root));
	self = xasprintf("%s/self", root);
	mi = xasprintf("%s/self/mountinfo", root);
	cpuinfo = xasprintf("%s/cpuinfo", root);
	memset(&h, 0, sizeof(h));
	if (!mkdir(self, 0755) && (f = fopen(mi, "w")) &&
	    (g = fopen(cpuinfo, "w"))) {
		fputs("1 0 8:1 / / rw,noatime shared:1 - fakefs /dev/fake1 "
		      "rw,fakeopt=1\n"
		      "2 1 8:2 / /tmp rw,nodev - otherfs /dev/fake2 rw\n", f);
		fclose(f);
		fputs("processor\t: 0\nvendor_id\t: Fake\n"
		      "model name\t: Fake CPU 9000  \n\n"
		      "processor\t: 1\nmodel name\t: Other CPU\n", g);
		fclose(g);
		setenv("CLYDE_PROCFS", root, 1);
		ret = fs_target_detect("/usr", &t, err, sizeof(err));
		ret2 = fs_target_detect("/tmp", &t2, err, sizeof(err));
		host_detect(&h);
		unsetenv("CLYDE_PROCFS");
	}
	unlink(mi);
	unlink(cpuinfo);
	rmdir(self);
	rmdir(root);
	free(mi);
	free(cpuinfo);
	free(self);

	assert_int_equal(ret, 0);
	assert_string_equal(t.mountpoint, "/");
	assert_string_equal(t.fstype, "fakefs");
	assert_string_equal(t.source, "/dev/fake1");
	assert_string_equal(t.vfs_options, "rw,noatime");
	assert_string_equal(t.fs_options, "rw,fakeopt=1");
	fs_target_release(&t);
	assert_int_equal(ret2, 0);
	assert_string_equal(t2.mountpoint, "/tmp");
	assert_string_equal(t2.fstype, "otherfs");
	fs_target_release(&t2);
	assert_non_null(h.cpu_model);
	assert_string_equal(h.cpu_model, "Fake CPU 9000");
	host_release(&h);
}

/*
 * A mount table that holds no entry for the path (a chroot whose root is
 * not a mount point), or none at all (no procfs): not an error; the mount
 * is unknown and the filesystem type what statfs says.
 */
static void no_mount_entry(void **state)
{
	char root[] = "/tmp/clyde-t1004-proc-XXXXXX";
	char *self, *mi;
	struct fs_target t, t2;
	char err[256] = "";
	int ret = -1, ret2 = -1;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	self = xasprintf("%s/self", root);
	mi = xasprintf("%s/self/mountinfo", root);
	if (!mkdir(self, 0755) && (f = fopen(mi, "w"))) {
		fputs("2 1 8:2 / /nowhere/else rw - otherfs /dev/fake2 rw\n",
		      f);
		fclose(f);
		setenv("CLYDE_PROCFS", root, 1);
		ret = fs_target_detect("/usr", &t, err, sizeof(err));
		unlink(mi);
		rmdir(self);
		/* and no mount table at all */
		ret2 = fs_target_detect("/tmp", &t2, err, sizeof(err));
		unsetenv("CLYDE_PROCFS");
	}
	unlink(mi);
	rmdir(self);
	rmdir(root);
	free(mi);
	free(self);

	assert_int_equal(ret, 0);
	check_mount_unknown("/usr", &t);
	fs_target_release(&t);
	assert_int_equal(ret2, 0);
	check_mount_unknown("/tmp", &t2);
	fs_target_release(&t2);
}

static void host(void **state)
{
	struct host_info h;
	struct utsname u;
	char *nproc = run("nproc"), *model;

	(void)state;
	host_detect(&h);
	assert_non_null(nproc);
	assert_int_equal(h.cores, atol(nproc));
	assert_true(h.ram > 0);
	assert_int_equal(uname(&u), 0);
	assert_non_null(h.kernel);
	assert_string_equal(h.kernel, u.release);
	assert_non_null(h.hostname);
	assert_string_equal(h.hostname, u.nodename);
	model = run("sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo"
		    " | head -n 1");
	print_message("# %s, %s, %ld cores, %llu bytes, cpu '%s'\n",
		      h.hostname, h.kernel, h.cores,
		      (unsigned long long)h.ram,
		      h.cpu_model ? h.cpu_model : "(null)");
	if (model) {
		assert_non_null(h.cpu_model);
		assert_string_equal(h.cpu_model, model);
	} else {
		assert_null(h.cpu_model);
	}
	host_release(&h);
	assert_null(h.hostname);
	free(model);
	free(nproc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(root_fs),
		cmocka_unit_test(walks_up),
		cmocka_unit_test(pseudo_filesystems),
		cmocka_unit_test(readonly_mount),
		cmocka_unit_test(missing_path),
		cmocka_unit_test(fake_procfs),
		cmocka_unit_test(no_mount_entry),
		cmocka_unit_test(host),
	};

	return tap_run_group_tests(tests);
}
