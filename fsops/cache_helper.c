// SPDX-License-Identifier: GPL-2.0-only
/*
 * The privileged evictor (cache.h): a process forked while clyde is still
 * root, before -u drops the privileges, that evicts the layers under a
 * filesystem on request.  Flushing a loop device (BLKFLSBUF) and opening
 * its root-owned backing file need root, so without it a -u run would
 * measure a warm backing file where a root run does not.
 *
 * A request is one SEQPACKET message: the vm flag, with two descriptors
 * (SCM_RIGHTS): an O_PATH descriptor of the path (the caller's
 * /proc/self/fd/N means nothing in another process) and the socket the
 * answer goes back on, so concurrent workers each get their own answer.
 */
#include "fsops/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define HELPER_MAX 16

static int helper_fd = -1;
static pid_t helper_pid;

static int send_fds(int sock, const void *buf, size_t len, const int *fds,
		    int nfds)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	memset(&u, 0, sizeof(u));
	if (nfds) {
		msg.msg_control = u.buf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* One request: the vm flag and two descriptors.  1, 0 at EOF, -1. */
static int recv_request(int sock, int *vm, int fds[2])
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = vm, .iov_len = sizeof(*vm) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	ssize_t r;

	do
		r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	c = CMSG_FIRSTHDR(&msg);
	if (r != sizeof(*vm) || !c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(2 * sizeof(int)))
		return -1;
	memcpy(fds, CMSG_DATA(c), 2 * sizeof(int));
	return 1;
}

static void serve(int sock)
{
	struct cache_layer l[HELPER_MAX];
	char path[64];
	int vm, fds[2], r;
	size_t n;

	while ((r = recv_request(sock, &vm, fds)) != 0) {
		if (r < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
		n = cache_evict_below(path, vm, l, HELPER_MAX);
		send_fds(fds[1], &n, sizeof(n), NULL, 0);
		if (n)
			send_fds(fds[1], l, n * sizeof(*l), NULL, 0);
		close(fds[0]);
		close(fds[1]);
	}
}

int cache_helper_start(void)
{
	int sv[2];
	pid_t pid;

	if (helper_fd >= 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(sv[0]);
		close(sv[1]);
		return -e;
	}
	if (!pid) {
		/* the run's signals are for the run: this ends at EOF */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(sv[0]);
		serve(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	helper_fd = sv[0];
	helper_pid = pid;
	return 0;
}

void cache_helper_stop(void)
{
	if (helper_fd < 0)
		return;
	close(helper_fd);
	helper_fd = -1;
	while (waitpid(helper_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

size_t cache_helper_evict_below(const char *path, int vm,
				struct cache_layer *out, size_t max,
				int *done)
{
	struct cache_layer l[HELPER_MAX];
	int sv[2], fds[2];
	size_t n = 0;
	ssize_t r;

	*done = 0;
	if (helper_fd < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET |
					SOCK_CLOEXEC, 0, sv))
		return 0;
	fds[0] = open(path, O_PATH | O_CLOEXEC);
	fds[1] = sv[1];
	if (fds[0] >= 0 && !send_fds(helper_fd, &vm, sizeof(vm), fds, 2)) {
		close(sv[1]);
		sv[1] = -1;
		do
			r = recv(sv[0], &n, sizeof(n), 0);
		while (r < 0 && errno == EINTR);
		if (r == sizeof(n) && n <= HELPER_MAX) {
			do
				r = n ? recv(sv[0], l, sizeof(l), 0) : 0;
			while (r < 0 && errno == EINTR);
			if (r == (ssize_t)(n * sizeof(*l))) {
				if (n > max)
					n = max;
				memcpy(out, l, n * sizeof(*l));
				*done = 1;
			}
		}
	}
	if (fds[0] >= 0)
		close(fds[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	close(sv[0]);
	return *done ? n : 0;
}
