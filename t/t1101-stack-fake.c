// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsops/stack: the sysfs walk on fake trees laid out as the kernel does:
 * an md raid5 of four SATA disks under LVM, a multipath FC LUN, an NVMe
 * partition, LVM volumes cached by dm-cache and dm-writecache; and host
 * virtualization from a fake cpuinfo and DMI.
 */
#include <errno.h>
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
#include "fsops/stack.h"
#include "fsops/target.h"
#include "lib/xalloc.h"

static char root[] = "/tmp/clyde-t1101.XXXXXX";

static void mkparents(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

/* Write root/rel with content and a newline, as sysfs shows it. */
static void put(const char *rel, const char *content)
{
	char *path = xasprintf("%s/%s", root, rel);
	FILE *f;

	mkparents(path);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", content);
	assert_int_equal(fclose(f), 0);
	free(path);
}

static void lnk(const char *rel, const char *target)
{
	char *path = xasprintf("%s/%s", root, rel);

	mkparents(path);
	assert_int_equal(symlink(target, path), 0);
	free(path);
}

#define SATA "sys/devices/pci0000:00/0000:00:1f.2"

/* A SATA disk sdX as libata lays it out, on port n. */
static void sata_disk(const char *name, int n, const char *devnum)
{
	char *dir = xasprintf(SATA "/ata%d/host%d/target%d:0:0/%d:0:0:0", n,
			      n, n, n);
	char *blk = xasprintf("%s/block/%s", dir, name), *p, *t;

	p = xasprintf("%s/vendor", dir); put(p, "ATA     "); free(p);
	p = xasprintf("%s/model", dir); put(p, "ST4000NM0035-1V4"); free(p);
	p = xasprintf("%s/queue_depth", dir); put(p, "32"); free(p);
	p = xasprintf("%s/device", blk); lnk(p, "../.."); free(p);
	p = xasprintf("%s/dev", blk); put(p, devnum); free(p);
	p = xasprintf("%s/size", blk); put(p, "7814037168"); free(p);
	p = xasprintf("%s/queue/rotational", blk); put(p, "1"); free(p);
	p = xasprintf("%s/queue/scheduler", blk);
	put(p, "none [mq-deadline] kyber bfq"); free(p);
	p = xasprintf("%s/queue/logical_block_size", blk); put(p, "512");
	free(p);
	p = xasprintf("%s/queue/physical_block_size", blk); put(p, "4096");
	free(p);
	p = xasprintf("%s/queue/nr_requests", blk); put(p, "64"); free(p);
	p = xasprintf("%s/queue/read_ahead_kb", blk); put(p, "128"); free(p);
	p = xasprintf("%s/queue/max_sectors_kb", blk); put(p, "1280");
	free(p);
	p = xasprintf("%s/queue/write_cache", blk); put(p, "write back");
	free(p);
	p = xasprintf("sys/dev/block/%s", devnum);
	t = xasprintf("../../%s", blk + 4);
	lnk(p, t);
	free(p);
	free(t);
	p = xasprintf("sys/devices/virtual/block/md0/slaves/%s", name);
	t = xasprintf("../../../../pci0000:00/0000:00:1f.2/ata%d/host%d/"
		      "target%d:0:0/%d:0:0:0/block/%s", n, n, n, n, name);
	lnk(p, t);
	free(p);
	free(t);
	free(blk);
	free(dir);
}

static void build_md_lvm(void)
{
	static const char *const disks[] = { "sdb", "sdc", "sdd", "sde" };
	char devnum[16];
	int i;

	put("sys/devices/virtual/block/dm-0/dev", "253:0");
	put("sys/devices/virtual/block/dm-0/size", "23441768448");
	put("sys/devices/virtual/block/dm-0/dm/name", "vg0-data");
	put("sys/devices/virtual/block/dm-0/dm/uuid",
	    "LVM-Xk2lq1Yd0mB3yqQ5x0Zk6tQ1n7oH9eS2dV8cW4rT3pL0aJ6uN5sG2fE1bC7hM9kA");
	lnk("sys/devices/virtual/block/dm-0/slaves/md0", "../../md0");
	lnk("sys/dev/block/253:0", "../../devices/virtual/block/dm-0");
	put("sys/devices/virtual/block/md0/dev", "9:0");
	put("sys/devices/virtual/block/md0/size", "23441768448");
	put("sys/devices/virtual/block/md0/md/level", "raid5");
	put("sys/devices/virtual/block/md0/md/chunk_size", "262144");
	put("sys/devices/virtual/block/md0/md/raid_disks", "4");
	put("sys/devices/virtual/block/md0/md/layout", "2");
	put("sys/devices/virtual/block/md0/md/stripe_cache_size", "256");
	put("sys/devices/virtual/block/md0/md/array_state", "clean");
	put("sys/devices/virtual/block/md0/queue/optimal_io_size", "786432");
	lnk("sys/devices/virtual/block/md0/holders/dm-0", "../../dm-0");
	lnk("sys/dev/block/9:0", "../../devices/virtual/block/md0");
	for (i = 0; i < 4; i++) {
		snprintf(devnum, sizeof(devnum), "8:%d", 16 * (i + 1));
		sata_disk(disks[i], i + 2, devnum);
	}
}

#define FC "sys/devices/pci0000:00/0000:00:03.0/host3"

static void fc_path(const char *name, const char *rport, int target,
		    const char *devnum)
{
	char *dir = xasprintf(FC "/%s/target3:0:%d/3:0:%d:1", rport, target,
			      target);
	char *blk = xasprintf("%s/block/%s", dir, name), *p, *t;

	p = xasprintf("%s/vendor", dir); put(p, "NETAPP  "); free(p);
	p = xasprintf("%s/model", dir); put(p, "LUN C-Mode      "); free(p);
	p = xasprintf("%s/device", blk); lnk(p, "../.."); free(p);
	p = xasprintf("%s/dev", blk); put(p, devnum); free(p);
	p = xasprintf("%s/size", blk); put(p, "2147483648"); free(p);
	p = xasprintf("%s/queue/rotational", blk); put(p, "0"); free(p);
	p = xasprintf("%s/queue/scheduler", blk); put(p, "[none] mq-deadline");
	free(p);
	p = xasprintf("sys/dev/block/%s", devnum);
	t = xasprintf("../../%s", blk + 4);
	lnk(p, t);
	free(p);
	free(t);
	p = xasprintf("sys/devices/virtual/block/dm-1/slaves/%s", name);
	t = xasprintf("../../../../pci0000:00/0000:00:03.0/host3/%s/"
		      "target3:0:%d/3:0:%d:1/block/%s", rport, target, target,
		      name);
	lnk(p, t);
	free(p);
	free(t);
	free(blk);
	free(dir);
}

static void build_multipath(void)
{
	put("sys/devices/virtual/block/dm-1/dev", "253:1");
	put("sys/devices/virtual/block/dm-1/size", "2147483648");
	put("sys/devices/virtual/block/dm-1/dm/name", "mpatha");
	put("sys/devices/virtual/block/dm-1/dm/uuid",
	    "mpath-3600a098038303053453f463045727a41");
	lnk("sys/dev/block/253:1", "../../devices/virtual/block/dm-1");
	fc_path("sdf", "rport-3:0-0", 0, "8:80");
	fc_path("sdg", "rport-3:0-1", 1, "8:96");
	put(FC "/fc_host/host3/port_name", "0x21000024ff4a5b6c");
	put(FC "/fc_host/host3/speed", "16 Gbit");
	put(FC "/fc_host/host3/port_state", "Online");
	lnk("sys/class/fc_host/host3",
	    "../../devices/pci0000:00/0000:00:03.0/host3/fc_host/host3");
}

#define NVME "sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0"

static void build_nvme(void)
{
	put(NVME "/model", "Samsung SSD 980 PRO 1TB");
	put(NVME "/firmware_rev", "5B2QGXA7");
	lnk(NVME "/nvme0n1/device", "../../nvme0");
	put(NVME "/nvme0n1/dev", "259:0");
	put(NVME "/nvme0n1/size", "1953525168");
	put(NVME "/nvme0n1/queue/rotational", "0");
	put(NVME "/nvme0n1/queue/scheduler", "[none] mq-deadline");
	put(NVME "/nvme0n1/queue/nr_requests", "1023");
	put(NVME "/nvme0n1/queue/write_cache", "write back");
	put(NVME "/nvme0n1/nvme0n1p2/partition", "2");
	put(NVME "/nvme0n1/nvme0n1p2/start", "1050624");
	put(NVME "/nvme0n1/nvme0n1p2/size", "1952474112");
	put(NVME "/nvme0n1/nvme0n1p2/dev", "259:2");
	lnk("sys/dev/block/259:2", "../../devices/pci0000:00/0000:00:04.0/"
	    "nvme/nvme0/nvme0n1/nvme0n1p2");
	lnk("sys/class/block/nvme0n1", "../../devices/pci0000:00/0000:00:04.0/"
	    "nvme/nvme0/nvme0n1");
}

/*
 * An LVM volume dm-N (253:N) called vg1-LV over two hidden volumes as
 * lvmcache(7) makes them: the origin "vg1-LV_<origin>" and the fast one.
 */
static void build_lvm_cached(int n, const char *lv, const char *origin,
			     const char *fast)
{
	char *p, *q;
	int i;

	for (i = 0; i < 3; i++) {
		const char *name = i == 0 ? lv : i == 1 ? origin : fast;

		p = xasprintf("sys/devices/virtual/block/dm-%d/dev", n + i);
		q = xasprintf("253:%d", n + i);
		put(p, q);
		free(p);
		p = xasprintf("sys/dev/block/253:%d", n + i);
		free(q);
		q = xasprintf("../../devices/virtual/block/dm-%d", n + i);
		lnk(p, q);
		free(p);
		free(q);
		p = xasprintf("sys/devices/virtual/block/dm-%d/dm/name", n + i);
		q = xasprintf("vg1-%s", name);
		put(p, q);
		free(p);
		free(q);
		p = xasprintf("sys/devices/virtual/block/dm-%d/dm/uuid", n + i);
		q = xasprintf("LVM-b3Nf0qZk%dW2mX", n + i);
		put(p, q);
		free(p);
		free(q);
		if (!i)
			continue;
		p = xasprintf("sys/devices/virtual/block/dm-%d/slaves/dm-%d",
			      n, n + i);
		q = xasprintf("../../dm-%d", n + i);
		lnk(p, q);
		free(p);
		free(q);
	}
}

static int setup(void **state)
{
	char *sys;

	(void)state;
	if (!mkdtemp(root))
		return -1;
	build_md_lvm();
	build_multipath();
	build_nvme();
	build_lvm_cached(10, "main", "main_corig", "fast_cvol");
	build_lvm_cached(20, "wc", "wc_wcorig", "fastwc_cvol");
	sys = xasprintf("%s/sys", root);
	setenv("CLYDE_SYSFS", sys, 1);
	free(sys);
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", root);
	int ret;

	(void)state;
	ret = system(cmd);
	free(cmd);
	unsetenv("CLYDE_SYSFS");
	unsetenv("CLYDE_PROCFS");
	return ret ? -1 : 0;
}

#define FIELD(s, i, key) stack_field(&(s)->devs[i], key)

static void md_raid5_under_lvm(void **state)
{
	struct dev_stack s;
	int dm, md, i, n = 0;

	(void)state;
	stack_init(&s);
	dm = stack_walk_devnum(&s, 253, 0, -1);
	assert_int_equal(dm, 0);
	assert_string_equal(s.devs[dm].kind, "dm");
	assert_string_equal(FIELD(&s, dm, "dm_kind"), "lvm");
	assert_string_equal(FIELD(&s, dm, "dm_name"), "vg0-data");
	md = stack_find(&s, "md", 0);
	assert_int_equal(md, 1);
	assert_int_equal(s.devs[md].parent, dm);
	assert_string_equal(s.devs[md].name, "md0");
	assert_string_equal(FIELD(&s, md, "level"), "raid5");
	assert_string_equal(FIELD(&s, md, "chunk_size"), "262144");
	assert_string_equal(FIELD(&s, md, "raid_disks"), "4");
	assert_string_equal(FIELD(&s, md, "stripe_cache_size"), "256");
	for (i = 0; i < (int)s.ndevs; i++) {
		if (strcmp(s.devs[i].kind, "disk"))
			continue;
		n++;
		assert_int_equal(s.devs[i].parent, md);
		assert_string_equal(FIELD(&s, i, "transport"), "sata");
		assert_string_equal(FIELD(&s, i, "vendor"), "ATA");
		assert_string_equal(FIELD(&s, i, "model"),
				    "ST4000NM0035-1V4");
		assert_string_equal(FIELD(&s, i, "rotational"), "1");
		assert_string_equal(FIELD(&s, i, "scheduler"), "mq-deadline");
		assert_string_equal(FIELD(&s, i, "physical_block_size"),
				    "4096");
		assert_string_equal(FIELD(&s, i, "write_cache"), "write back");
		assert_string_equal(FIELD(&s, i, "size"), "4000787030016");
		assert_string_equal(FIELD(&s, i, "device_queue_depth"), "32");
	}
	assert_int_equal(n, 4);
	assert_string_equal(s.devs[2].name, "sdb");
	assert_string_equal(s.devs[5].name, "sde");
	assert_int_equal(s.nwarnings, 0);
	stack_release(&s);
}

static void multipath_fc_lun(void **state)
{
	struct dev_stack s;
	int i, n = 0;

	(void)state;
	stack_init(&s);
	assert_int_equal(stack_walk_devnum(&s, 253, 1, -1), 0);
	assert_string_equal(FIELD(&s, 0, "dm_kind"), "multipath");
	assert_string_equal(FIELD(&s, 0, "dm_name"), "mpatha");
	assert_int_equal(s.ndevs, 3);
	for (i = 1; i < 3; i++) {
		assert_string_equal(s.devs[i].kind, "disk");
		assert_int_equal(s.devs[i].parent, 0);
		assert_string_equal(FIELD(&s, i, "transport"), "fc");
		assert_string_equal(FIELD(&s, i, "fc_host"), "host3");
		assert_string_equal(FIELD(&s, i, "fc_port_name"),
				    "0x21000024ff4a5b6c");
		assert_string_equal(FIELD(&s, i, "fc_speed"), "16 Gbit");
		assert_string_equal(FIELD(&s, i, "vendor"), "NETAPP");
		assert_string_equal(FIELD(&s, i, "model"), "LUN C-Mode");
		assert_string_equal(FIELD(&s, i, "scheduler"), "none");
		n++;
	}
	assert_string_equal(s.devs[1].name, "sdf");
	assert_string_equal(s.devs[2].name, "sdg");
	assert_int_equal(n, 2);
	stack_release(&s);
}

static void nvme_partition(void **state)
{
	struct dev_stack s;

	(void)state;
	stack_init(&s);
	assert_int_equal(stack_walk_devnum(&s, 259, 2, -1), 0);
	assert_int_equal(s.ndevs, 2);
	assert_string_equal(s.devs[0].kind, "partition");
	assert_string_equal(s.devs[0].name, "nvme0n1p2");
	assert_string_equal(FIELD(&s, 0, "number"), "2");
	assert_string_equal(FIELD(&s, 0, "start"), "537919488");
	assert_string_equal(s.devs[1].kind, "disk");
	assert_string_equal(s.devs[1].name, "nvme0n1");
	assert_int_equal(s.devs[1].parent, 0);
	assert_string_equal(FIELD(&s, 1, "transport"), "nvme");
	assert_string_equal(FIELD(&s, 1, "model"), "Samsung SSD 980 PRO 1TB");
	assert_string_equal(FIELD(&s, 1, "firmware"), "5B2QGXA7");
	assert_string_equal(FIELD(&s, 1, "rotational"), "0");
	assert_string_equal(FIELD(&s, 1, "nr_requests"), "1023");
	/* not in the tree: absent, not guessed */
	assert_null(FIELD(&s, 1, "logical_block_size"));
	assert_null(FIELD(&s, 1, "vendor"));
	stack_release(&s);

	stack_init(&s);
	assert_int_equal(stack_walk_name(&s, "nvme0n1", -1), 0);
	assert_string_equal(s.devs[0].kind, "disk");
	stack_release(&s);
}

static void missing_device(void **state)
{
	struct dev_stack s;

	(void)state;
	stack_init(&s);
	assert_int_equal(stack_walk_devnum(&s, 0, 42, -1), -ENOENT);
	assert_int_equal(s.ndevs, 0);
	assert_int_equal(stack_walk_btrfs(&s, "no-such-uuid", -1), -ENOENT);
	stack_release(&s);
}

static void fake_proc(const char *cpuinfo)
{
	char *proc = xasprintf("%s/proc-%d", root, (int)strlen(cpuinfo));
	char *rel = xasprintf("proc-%d/cpuinfo", (int)strlen(cpuinfo));

	put(rel, cpuinfo);
	setenv("CLYDE_PROCFS", proc, 1);
	free(rel);
	free(proc);
}

static void virt_evidence(void **state)
{
	struct host_info h;

	(void)state;
	/* KVM guest: flag and signature */
	memset(&h, 0, sizeof(h));
	fake_proc("model name\t: AMD EPYC\nflags\t\t: fpu sse2 hypervisor "
		  "lahf_lm");
	host_virt_detect(&h, "KVMKVMKVM");
	assert_int_equal(h.vm, 1);
	assert_string_equal(h.hypervisor, "KVM");
	assert_null(h.emulation);
	assert_non_null(strstr(h.virt_evidence, "KVMKVMKVM"));
	host_release(&h);

	/* bare metal: no flag, no DMI: says no, names no hypervisor */
	memset(&h, 0, sizeof(h));
	fake_proc("model name\t: Intel(R) Xeon(R) Gold 6230\nflags\t\t: fpu "
		  "sse2 lahf_lm");
	host_virt_detect(&h, NULL);
	assert_int_equal(h.vm, 0);
	assert_null(h.hypervisor);
	host_release(&h);

	/* QEMU TCG: hypervisor flag, QEMU's CPU model, no KVM signature,
	 * DMI names QEMU */
	memset(&h, 0, sizeof(h));
	fake_proc("model name\t: QEMU Virtual CPU version 2.5+\nflags\t\t: "
		  "fpu sse2 hypervisor");
	put("sys/class/dmi/id/sys_vendor", "QEMU");
	put("sys/class/dmi/id/product_name",
	    "Standard PC (i440FX + PIIX, 1996)");
	host_virt_detect(&h, NULL);
	assert_int_equal(h.vm, 1);
	assert_string_equal(h.hypervisor, "QEMU");
	assert_string_equal(h.emulation, "tcg");
	assert_string_equal(h.dmi_vendor, "QEMU");
	assert_non_null(strstr(h.virt_evidence, "QEMU Virtual CPU"));
	host_release(&h);

	/* no cpuinfo at all: unknown */
	memset(&h, 0, sizeof(h));
	setenv("CLYDE_PROCFS", "/nonexistent", 1);
	host_virt_detect(&h, NULL);
	assert_int_equal(h.vm, 1);	/* DMI still says QEMU */
	host_release(&h);
}

static void lvm_cached(void **state)
{
	struct dev_stack s;
	int dm;

	(void)state;
	stack_init(&s);
	dm = stack_walk_devnum(&s, 253, 10, -1);
	assert_int_equal(dm, 0);
	assert_string_equal(FIELD(&s, dm, "dm_kind"), "lvm-cache");
	assert_string_equal(FIELD(&s, dm, "dm_name"), "vg1-main");
	/* the hidden volumes under it are LVM's own */
	assert_string_equal(FIELD(&s, 1, "dm_kind"), "lvm");
	stack_release(&s);
	stack_init(&s);
	dm = stack_walk_devnum(&s, 253, 20, -1);
	assert_string_equal(FIELD(&s, dm, "dm_kind"), "lvm-writecache");
	stack_release(&s);
	/* the plain LVM volume is not a cache */
	stack_init(&s);
	dm = stack_walk_devnum(&s, 253, 0, -1);
	assert_string_equal(FIELD(&s, dm, "dm_kind"), "lvm");
	stack_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(md_raid5_under_lvm),
		cmocka_unit_test(multipath_fc_lun),
		cmocka_unit_test(nvme_partition),
		cmocka_unit_test(lvm_cached),
		cmocka_unit_test(missing_device),
		cmocka_unit_test(virt_evidence),
	};
	int ret;

	if (setup(NULL))
		return 1;
	ret = tap_run_group_tests(tests);
	if (!getenv("KEEP"))	/* KEEP=1: look at the fake tree */
		teardown(NULL);
	return ret;
}
