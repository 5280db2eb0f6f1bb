// SPDX-License-Identifier: GPL-2.0-only
/* clyde's own directories: made, marked, found again, removed (rundir.h). */
#include "bench/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsops/atdir.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "report/model/record.h"

/* The command line and start of this process, for the markers. */
static char *run_command;
static char run_kind[16] = "run";

void rundir_set_command(int argc, char **argv)
{
	size_t len = 1;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	free(run_command);
	run_command = xmalloc(len);
	run_command[0] = '\0';
	for (i = 0; i < argc; i++) {
		char *p;

		if (i)
			strcat(run_command, " ");
		strcat(run_command, argv[i]);
		/* one line in the marker */
		for (p = strchr(run_command, '\n'); p; p = strchr(p, '\n'))
			*p = ' ';
	}
	if (argc > 1 && (!strcmp(argv[1], "matrix") ||
			 !strcmp(argv[1], "zones")))
		snprintf(run_kind, sizeof(run_kind), "%s", argv[1]);
}

/* The first line of file path (its newline cut) into buf; 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Field 22 of /proc/PID/stat: when the process started, in ticks after
 * boot; 0 when unknown.  With the pid it names one process per boot. */
static unsigned long long proc_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_line(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

static void boot_id(char *buf, size_t len)
{
	if (read_line("/proc/sys/kernel/random/boot_id", buf, len))
		snprintf(buf, len, "unknown");
}

static int write_marker(int fd)
{
	char host[256] = "", boot[64];
	char *start = record_now_iso8601();
	FILE *f = fdopen(fd, "w");
	int rc;

	if (!f) {
		close(fd);
		free(start);
		return -1;
	}
	gethostname(host, sizeof(host) - 1);
	boot_id(boot, sizeof(boot));
	fprintf(f, "clyde %s\npid %d\npstart %llu\nhost %s\nboot %s\n"
		"start %s\ncommand %s\n", run_kind, (int)getpid(),
		proc_start(getpid()), host, boot, start ? start : "unknown",
		run_command ? run_command : "clyde");
	free(start);
	rc = ferror(f);
	return fclose(f) || rc ? -1 : 0;
}

/* The -d directories this process opened once (rundir_hold). */
static struct held {
	char *dir;
	int fd;
} *held;
static size_t nheld;

static int held_fd(const char *dir)
{
	size_t i;

	for (i = 0; i < nheld; i++)
		if (!strcmp(held[i].dir, dir))
			return held[i].fd;
	return -1;
}

int rundir_hold(const char *dir)
{
	int fd = held_fd(dir);

	if (fd >= 0)
		return fd;
	fd = atdir_open(dir);
	if (fd < 0)
		return fd;
	held = xrealloc(held, (nheld + 1) * sizeof(*held));
	held[nheld].dir = xstrdup(dir);
	held[nheld++].fd = fd;
	return fd;
}

const char *rundir_held_path(const char *dir, char *buf, size_t len)
{
	struct stat st;
	int fd = held_fd(dir);

	if (fd < 0)
		return dir;
	snprintf(buf, len, "/proc/self/fd/%d", fd);
	return stat(buf, &st) ? dir : buf;	/* no procfs: the path */
}

/* The -d dir opened: its held descriptor duplicated, or opened now. */
static int open_parent(const char *dir)
{
	int fd = held_fd(dir);

	if (fd < 0)
		return atdir_open(dir);
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

static void rundir_clear(struct rundir *rd)
{
	rd->parentfd = rd->fd = -1;
	rd->name = rd->path = NULL;
}

int rundir_make(struct rundir *rd, const char *parent, const char *prefix,
		char *err, size_t errlen)
{
	int rc, mfd;

	rundir_clear(rd);
	rd->parentfd = open_parent(parent);
	if (rd->parentfd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", parent,
			 strerror(-rd->parentfd));
		return -1;
	}
	rd->name = xasprintf("%s.XXXXXX", prefix);
	rc = atdir_mkdtemp(rd->parentfd, rd->name);
	if (rc) {
		snprintf(err, errlen, "cannot create a directory in '%s': %s",
			 parent, strerror(-rc));
		free(rd->name);
		rd->name = NULL;
		rundir_remove(rd);
		return -1;
	}
	rd->path = xasprintf("%s/%s", parent, rd->name);
	rd->fd = openat(rd->parentfd, rd->name, O_RDONLY | O_DIRECTORY |
			O_NOFOLLOW | O_CLOEXEC);
	mfd = rd->fd < 0 ? -1 : openat(rd->fd, RUNDIR_MARKER, O_WRONLY |
				       O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (mfd < 0 || write_marker(mfd)) {
		snprintf(err, errlen, "cannot create '%s/%s': %s", rd->path,
			 RUNDIR_MARKER, strerror(errno));
		rundir_remove(rd);
		return -1;
	}
	return 0;
}

void rundir_remove(struct rundir *rd)
{
	struct atdir_left left;

	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->name && rd->parentfd >= 0 &&
	    atdir_remove_tree(rd->parentfd, rd->name, &left)) {
		int self = !strcmp(left.first, rd->name);

		/* after EIO, say what is left where: the user removes it */
		diag_error("cannot remove '%s%s%s': %s; %lu %s of clyde's "
			   "left in '%s'", rd->path, self ? "" : "/",
			   self ? "" : left.first, strerror(left.err), left.n,
			   left.n == 1 ? "entry" : "entries", rd->path);
	}
	if (rd->parentfd >= 0)
		close(rd->parentfd);
	free(rd->name);
	free(rd->path);
	rundir_clear(rd);
}

/* A marker line "key value": value into buf (cut to len). */
static void marker_field(const char *line, const char *key, char *buf,
			 size_t len)
{
	size_t k = strlen(key);

	if (!strncmp(line, key, k) && line[k] == ' ')
		snprintf(buf, len, "%s", line + k + 1);
}

/* Read the marker of name in dirfd into o; 0, or -1 when it has none. */
static int read_marker(int dirfd, const char *name, struct rundir_owner *o)
{
	char line[512], pid[32] = "", pstart[32] = "", boot[64] = "";
	char myhost[256] = "", myboot[64];
	int fd, sub;
	FILE *f;

	memset(o, 0, sizeof(*o));
	sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	fd = sub < 0 ? -1 : openat(sub, RUNDIR_MARKER, O_RDONLY | O_NOFOLLOW |
				   O_CLOEXEC);
	if (sub >= 0)
		close(sub);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!fgets(line, sizeof(line), f) || strncmp(line, "clyde ", 6)) {
		fclose(f);
		return -1;
	}
	line[strcspn(line, "\n")] = '\0';
	snprintf(o->kind, sizeof(o->kind), "%.15s", line + 6);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		marker_field(line, "pid", pid, sizeof(pid));
		marker_field(line, "pstart", pstart, sizeof(pstart));
		marker_field(line, "host", o->host, sizeof(o->host));
		marker_field(line, "boot", boot, sizeof(boot));
		marker_field(line, "start", o->start, sizeof(o->start));
	}
	fclose(f);
	o->pid = (pid_t)atoi(pid);
	if (o->pid <= 0)
		return -1;
	gethostname(myhost, sizeof(myhost) - 1);
	boot_id(myboot, sizeof(myboot));
	/* another host's process cannot be seen from here: never dead */
	if (strcmp(o->host, myhost))
		return 0;
	o->here = 1;
	o->dead = strcmp(boot, myboot) ||
		  (kill(o->pid, 0) && errno == ESRCH) ||
		  (strtoull(pstart, NULL, 10) != proc_start(o->pid));
	return 0;
}

/* The names clyde gives its directories. */
static int clyde_name(const char *n)
{
	return !strncmp(n, "clyde.", 6) || !strncmp(n, "clyde-matrix.", 13) ||
	       !strncmp(n, "clyde-zones.", 12);
}

int rundir_scan(const char *dir,
		int (*fn)(int dirfd, const char *name,
			  const struct rundir_owner *o, void *arg),
		void *arg)
{
	int pfd = open_parent(dir), fd;
	struct rundir_owner o;
	struct dirent *de;
	int rc = 0;
	DIR *d;

	if (pfd < 0)
		return pfd;
	/* a listing needs a descriptor opened for reading */
	fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(pfd);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (!rc && (de = readdir(d)))
		if (clyde_name(de->d_name) &&
		    !read_marker(dirfd(d), de->d_name, &o))
			rc = fn(dirfd(d), de->d_name, &o, arg);
	closedir(d);
	return 0;
}

static int warn_one(int dirfd, const char *name,
		    const struct rundir_owner *o, void *arg)
{
	const char *dir = arg;

	(void)dirfd;
	if (o->dead)
		diag_warning("'%s/%s' is left by clyde %s (pid %d, started "
			     "%s), which no longer runs: clyde clean '%s' "
			     "removes it", dir, name, o->kind, (int)o->pid,
			     o->start, dir);
	return 0;
}

void rundir_warn_leftovers(const char *dir)
{
	rundir_scan(dir, warn_one, (void *)dir);
}
