// SPDX-License-Identifier: GPL-2.0-only
#include "sysroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"

static const char *root_from_env(const char *var, const char *dflt)
{
	const char *s = getenv(var);

	return s && *s ? s : dflt;
}

const char *sysfs_root(void)
{
	return root_from_env("CLYDE_SYSFS", "/sys");
}

const char *procfs_root(void)
{
	return root_from_env("CLYDE_PROCFS", "/proc");
}

char *sysfs_read_str(const char *path)
{
	FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	return n ? xstrdup(buf) : NULL;
}
