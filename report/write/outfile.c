// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's -o file: never one of the inputs, never left truncated.
 */
#include "report/write/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"

/*
 * A signal that ends the process while the temporary file is there (a
 * report of 100,000 runs takes a minute to write) removes it first: the
 * handler unlinks it and lets the signal end the process as it would
 * have (SA_RESETHAND: exit status 128 + the signal, a second one ends it
 * at once).  A signal the process ignored (a background job's SIGINT)
 * stays ignored.
 */
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))
static struct sigaction before[NCAUGHT];
static const char *volatile tmp_to_remove;

static void remove_tmp(int sig)
{
	const char *t = tmp_to_remove;

	if (t)
		unlink(t);
	raise(sig);	/* delivered with the default once this returns */
}

static void catch_signals(const char *tmp)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_tmp;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	tmp_to_remove = tmp;
	for (i = 0; i < NCAUGHT; i++) {
		sigaction(caught[i], NULL, &before[i]);
		if (before[i].sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
}

static void release_signals(void)
{
	size_t i;

	for (i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &before[i], NULL);
	tmp_to_remove = NULL;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int outfile_check_inputs(const char *output, const char *const *inputs,
			 size_t ninputs, char *err, size_t errlen)
{
	struct stat so, si;
	size_t i;
	int r;

	if (!output || !strcmp(output, "-") || stat(output, &so))
		return 0;	/* nothing there yet: no input can be it */
	if (!S_ISREG(so.st_mode))
		return 0;	/* /dev/null, a pipe: never overwritten */
	for (i = 0; i < ninputs; i++) {
		if (!inputs[i])
			continue;
		r = strcmp(inputs[i], "-") ? stat(inputs[i], &si) :
			fstat(STDIN_FILENO, &si);
		if (r || !same_file(&so, &si))
			continue;
		snprintf(err, errlen, "-o '%s' is also an input ('%s'): "
			 "refusing to overwrite it", output, inputs[i]);
		return -1;
	}
	return 0;
}

/* The mode a new file of fopen(.., "w") would get. */
static mode_t default_mode(void)
{
	mode_t um = umask(0);

	umask(um);
	return 0666 & ~um;
}

/*
 * The temporary file beside o->path, of mode mode, open as o->f: 0, or
 * -1 with errno and nothing left.  The signals that would end the process
 * are held from before the file exists until the handler that removes it
 * is in place (a signal between the two left it behind).
 */
static int make_tmp(struct outfile *o, mode_t mode)
{
	char *dcopy = xstrdup(o->path), *bcopy = xstrdup(o->path);
	sigset_t hold, mask;
	size_t i;
	int fd, e = 0;

	o->tmp = xasprintf("%s/.%s.XXXXXX", dirname(dcopy), basename(bcopy));
	free(dcopy);
	free(bcopy);
	sigemptyset(&hold);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&hold, caught[i]);
	sigprocmask(SIG_BLOCK, &hold, &mask);
	fd = mkstemp(o->tmp);
	if (fd < 0 || fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
	} else {
		catch_signals(o->tmp);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	errno = e;
	return o->tmp ? 0 : -1;
}

int outfile_open(struct outfile *o, const char *output, char *err,
		 size_t errlen)
{
	struct stat st;
	char *real;
	mode_t mode = default_mode();

	memset(o, 0, sizeof(*o));
	if (!stat(output, &st) && !S_ISREG(st.st_mode)) {
		/* a device or a pipe: written as it is, nothing to rename */
		o->f = fopen(output, "w");
		if (!o->f)
			goto fail;
		o->path = xstrdup(output);
		return 0;
	}
	if (!stat(output, &st)) {
		if (access(output, W_OK))
			goto fail;	/* as fopen(.., "w") would refuse */
		mode = st.st_mode & 07777;
		real = realpath(output, NULL);	/* the symlink stays */
		o->path = real ? real : xstrdup(output);
	} else {
		o->path = xstrdup(output);
	}
	if (make_tmp(o, mode))
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "cannot create '%s': %s", output,
		 strerror(errno));
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return -1;
}

static void outfile_free(struct outfile *o)
{
	if (o->tmp)
		release_signals();
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int bad = ferror(o->f);

	if (fclose(o->f) == EOF || bad) {
		snprintf(err, errlen, "cannot write '%s': %s", o->path,
			 strerror(bad && !errno ? EIO : errno));
		if (o->tmp)
			unlink(o->tmp);
		outfile_free(o);
		return -1;
	}
	if (o->tmp && rename(o->tmp, o->path)) {
		snprintf(err, errlen, "cannot rename '%s' to '%s': %s",
			 o->tmp, o->path, strerror(errno));
		unlink(o->tmp);
		outfile_free(o);
		return -1;
	}
	outfile_free(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	outfile_free(o);
}
