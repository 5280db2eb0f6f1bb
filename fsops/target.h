/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TARGET_H
#define CLYDE_TARGET_H

/*
 * What a path lives on: its mount (libmount) and filesystem usage (statvfs),
 * the filesystem's own geometry (fsgeom.h), the device stack down to the
 * disks (stack.h), and the host the run is on.  Unknown strings stay NULL,
 * never guessed.  What detection could not read is in stack.warnings, for
 * the record: never a reason to fail.
 */

#include <stddef.h>
#include <stdint.h>

#include "fsops/stack.h"

struct fs_target {
	char *mountpoint;
	char *fstype;
	char *source;
	char *vfs_options;
	char *fs_options;
	uint64_t block_size;	/* f_bsize */
	uint64_t total_bytes;	/* f_blocks * f_frsize */
	uint64_t avail_bytes;	/* f_bavail * f_frsize */
	int readonly;		/* ST_RDONLY */
	uint64_t inodes;	/* f_files (0: the fs does not say) */
	uint64_t inodes_free;	/* f_ffree */
	struct stack_field *geometry;	/* fsgeom.h */
	size_t ngeometry;
	struct dev_stack stack;	/* devices under the fs, and warnings */
};

/*
 * Fill t for path.  0, or -errno with a message in err when path cannot be
 * resolved or statvfs'd.  A path no mount table entry holds (a chroot whose
 * root is not a mount point, no procfs) is not an error: its mount point,
 * source and options stay NULL, fstype is what statfs's magic names (NULL
 * when unknown) and stack.warnings says so.
 */
int fs_target_detect(const char *path, struct fs_target *t, char *err,
		     size_t errlen);
void fs_target_release(struct fs_target *t);

struct host_info {
	char *hostname;
	char *kernel;		/* uname release */
	char *cpu_model;	/* /proc/cpuinfo "model name", NULL if absent */
	long cores;		/* online CPUs */
	uint64_t ram;		/* total physical memory, bytes */
	/* virtualization (host.c): only what evidence shows */
	int vm;			/* 1 a guest, 0 no sign of one, -1 unknown */
	char *hypervisor;	/* "KVM", "Microsoft Hv", "VMware"... or NULL */
	char *emulation;	/* "tcg" when the CPU is emulated, or NULL */
	char *dmi_vendor;	/* /sys/class/dmi/id/sys_vendor */
	char *dmi_product;	/* /sys/class/dmi/id/product_name */
	char *virt_evidence;	/* what the above rests on, "; "-separated */
};

void host_detect(struct host_info *h);

/*
 * Fill the virtualization fields of h from <procfs>/cpuinfo, <sysfs>/class/
 * dmi/id and cpuid_vendor, the 12-byte hypervisor signature of CPUID leaf
 * 0x40000000 (NULL when there is none or the CPU has no CPUID).  host_detect
 * calls it with the real signature; tests call it with their own.
 */
void host_virt_detect(struct host_info *h, const char *cpuid_vendor);

/* The hypervisor signature of this CPU, NULL when none (or not x86). */
char *host_cpuid_vendor(void);
void host_release(struct host_info *h);

#endif
