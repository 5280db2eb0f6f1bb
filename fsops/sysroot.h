/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_SYSROOT_H
#define CLYDE_SYSROOT_H

/*
 * Roots of the kernel's pseudo filesystems.  Detection code builds its paths
 * from these, so tests can point it at a fake tree:
 *
 *   CLYDE_SYSFS=/tmp/fake/sys CLYDE_PROCFS=/tmp/fake/proc clyde info /x
 *
 * Defaults are "/sys" and "/proc"; an empty variable counts as unset.  The
 * environment is read on every call (cheap), so a test may change it.
 */

const char *sysfs_root(void);
const char *procfs_root(void);

/*
 * The first line of a small pseudo file (a sysfs attribute, a DMI id)
 * without its newline and trailing blanks: an allocated string, or NULL
 * when the file cannot be read or the line is empty.
 */
char *sysfs_read_str(const char *path);

/*
 * The value of key ("model name", "flags") on its first line of
 * <procfs>/cpuinfo, without the blanks around it: an allocated string, or
 * NULL when the file cannot be read, has no such line or the value is empty.
 */
char *procfs_cpuinfo(const char *key);

#endif
