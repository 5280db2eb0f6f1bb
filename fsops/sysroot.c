// SPDX-License-Identifier: GPL-2.0-only
#include "fsops/sysroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

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

/* The value of a "key<blanks>: value" line, trimmed, or NULL. */
static char *cpuinfo_line_value(char *line, const char *key)
{
	size_t klen = strlen(key);
	char *v, *end;

	if (strncmp(line, key, klen) || !strchr(" \t:", line[klen]) ||
	    !line[klen])
		return NULL;
	v = strchr(line + klen, ':');
	if (!v)
		return NULL;
	v += 1 + strspn(v + 1, " \t");
	end = v + strlen(v);
	while (end > v && strchr(" \t\n", end[-1]))
		*--end = '\0';
	return v;
}

char *procfs_cpuinfo(const char *key)
{
	char *path = xasprintf("%s/cpuinfo", procfs_root());
	FILE *f = fopen(path, "re");
	char *line = NULL, *v = NULL;
	size_t cap = 0;

	free(path);
	if (!f)
		return NULL;
	while (!v && getline(&line, &cap, f) > 0)
		v = cpuinfo_line_value(line, key);
	v = v && *v ? xstrdup(v) : NULL;
	free(line);
	fclose(f);
	return v;
}
