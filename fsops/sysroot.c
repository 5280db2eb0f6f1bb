// SPDX-License-Identifier: GPL-2.0-only
#include "sysroot.h"

#include <stdlib.h>

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
