// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several -d on different kinds of storage (bench/run_kinds.c): the
 * warning names each directory's kind, and directories of one kind (other
 * device names, a partition beside a whole disk) are not warned of.
 * Targets are built by hand, as the detection (t1101) would fill them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "bench/run_kinds.h"
#include "fsops/stack.h"

static const char *const dirs[] = { "/a", "/b", "/c" };

static void target(struct fs_target *t, const char *fstype)
{
	memset(t, 0, sizeof(*t));
	t->fstype = fstype ? strdup(fstype) : NULL;
	stack_init(&t->stack);
}

static int disk(struct fs_target *t, const char *name, int parent,
		const char *transport, const char *rotational)
{
	int d = stack_add(&t->stack, "disk", name, parent);

	stack_set(&t->stack, d, "transport", transport, 0);
	stack_set(&t->stack, d, "rotational", rotational, 1);
	return d;
}

static void release(struct fs_target *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(t[i].fstype);
		stack_release(&t[i].stack);
	}
}

/* The warning for targets t[0..n-1] on dirs, or NULL. */
static char *warning(struct fs_target *t, size_t n)
{
	const struct fs_target *p[3];
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = &t[i];
	return run_mixed_kinds(dirs, p, n);
}

static void expect(struct fs_target *t, size_t n, const char *want)
{
	char *got = warning(t, n);

	if (!want && got)
		fail_msg("warned: %s", got);
	if (want && !got)
		fail_msg("not warned, expected: %s", want);
	if (want)
		assert_string_equal(got, want);
	free(got);
	release(t, n);
}

static void one_kind_is_not_warned(void **state)
{
	struct fs_target t[3];
	int p;

	(void)state;
	/* one directory: nothing to mix */
	target(&t[0], "tmpfs");
	expect(t, 1, NULL);
	/* two tmpfs */
	target(&t[0], "tmpfs");
	target(&t[1], "tmpfs");
	expect(t, 2, NULL);
	/* xfs on sda1 (a partition), on sdb, on sdc: the names differ */
	target(&t[0], "xfs");
	p = stack_add(&t[0].stack, "partition", "sda1", -1);
	disk(&t[0], "sda", p, "sata", "1");
	target(&t[1], "xfs");
	disk(&t[1], "sdb", -1, "sata", "1");
	target(&t[2], "xfs");
	disk(&t[2], "sdc", -1, "sata", "1");
	expect(t, 3, NULL);
}

static void fs_types_differ(void **state)
{
	struct fs_target t[2];

	(void)state;
	target(&t[0], "tmpfs");
	target(&t[1], "xfs");
	disk(&t[1], "sdb", -1, "sata", "1");
	expect(t, 2, "-d: the directories are on different kinds of storage: "
	       "/a tmpfs, /b xfs on sdb: the combined figures mix them");
	target(&t[0], "ext4");
	disk(&t[0], "sda", -1, "sata", "1");
	target(&t[1], "xfs");
	disk(&t[1], "sdb", -1, "sata", "1");
	expect(t, 2, "-d: the directories are on different kinds of storage: "
	       "/a ext4 on sda, /b xfs on sdb: the combined figures mix them");
}

static void loops_and_their_files(void **state)
{
	struct fs_target t[2];
	int l, f;

	(void)state;
	/* xfs on a loop device whose file is on tmpfs, beside one on ext4 */
	target(&t[0], "xfs");
	l = stack_add(&t[0].stack, "loop", "loop0", -1);
	f = stack_add(&t[0].stack, "file", "/dev/shm/img", l);
	stack_set(&t[0].stack, f, "fstype", "tmpfs", 0);
	target(&t[1], "xfs");
	l = stack_add(&t[1].stack, "loop", "loop1", -1);
	f = stack_add(&t[1].stack, "file", "/srv/img", l);
	stack_set(&t[1].stack, f, "fstype", "ext4", 0);
	disk(&t[1], "sda", f, "sata", "1");
	expect(t, 2, "-d: the directories are on different kinds of storage: "
	       "/a xfs on loop0 (a file on tmpfs), /b xfs on loop1 (a file on "
	       "ext4): the combined figures mix them");
	/* xfs on a loop device beside xfs on a disk */
	target(&t[0], "xfs");
	l = stack_add(&t[0].stack, "loop", "loop0", -1);
	f = stack_add(&t[0].stack, "file", "/srv/img", l);
	stack_set(&t[0].stack, f, "fstype", "ext4", 0);
	disk(&t[0], "sda", f, "sata", "1");
	target(&t[1], "xfs");
	disk(&t[1], "sdb", -1, "sata", "1");
	expect(t, 2, "-d: the directories are on different kinds of storage: "
	       "/a xfs on loop0 (a file on ext4), /b xfs on sdb: the combined "
	       "figures mix them");
}

static void disks_and_arrays(void **state)
{
	struct fs_target t[2];
	int md;

	(void)state;
	/* the same fs on a rotational SATA disk and an NVMe SSD */
	target(&t[0], "xfs");
	disk(&t[0], "sda", -1, "sata", "1");
	target(&t[1], "xfs");
	disk(&t[1], "nvme0n1", -1, "nvme", "0");
	expect(t, 2, "-d: the directories are on different kinds of storage: "
	       "/a xfs on sda (disks: sata rotational), /b xfs on nvme0n1 "
	       "(disks: nvme non-rotational): the combined figures mix them");
	/* RAID 5 beside RAID 10 of the same disks */
	target(&t[0], "xfs");
	md = stack_add(&t[0].stack, "md", "md0", -1);
	stack_set(&t[0].stack, md, "level", "raid5", 0);
	disk(&t[0], "sda", md, "sas", "1");
	disk(&t[0], "sdb", md, "sas", "1");
	target(&t[1], "xfs");
	md = stack_add(&t[1].stack, "md", "md1", -1);
	stack_set(&t[1].stack, md, "level", "raid10", 0);
	disk(&t[1], "sdc", md, "sas", "1");
	disk(&t[1], "sdd", md, "sas", "1");
	expect(t, 2, "-d: the directories are on different kinds of storage: "
	       "/a xfs on md0 (raid5), /b xfs on md1 (raid10): the combined "
	       "figures mix them");
	/* the same level of the same disks: one kind */
	target(&t[0], "xfs");
	md = stack_add(&t[0].stack, "md", "md0", -1);
	stack_set(&t[0].stack, md, "level", "raid5", 0);
	disk(&t[0], "sda", md, "sas", "1");
	target(&t[1], "xfs");
	md = stack_add(&t[1].stack, "md", "md1", -1);
	stack_set(&t[1].stack, md, "level", "raid5", 0);
	disk(&t[1], "sdc", md, "sas", "1");
	expect(t, 2, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_kind_is_not_warned),
		cmocka_unit_test(fs_types_differ),
		cmocka_unit_test(loops_and_their_files),
		cmocka_unit_test(disks_and_arrays),
	};

	return tap_run_group_tests(tests);
}
