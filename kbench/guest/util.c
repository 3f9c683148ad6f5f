// SPDX-License-Identifier: GPL-2.0
/* Timing, failure messages and console lines shared by the benchmarks. */
#include "bench.h"
#include "model/marker.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char fail_msg[256];

double kb_ns_per_insn = 1;

double kb_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e6 + ts.tv_nsec / 1e3) / kb_ns_per_insn;
}

int kb_sample_marking;
double kb_sample_ops;

double kb_sample_begin(void)
{
	if (kb_sample_marking)
		kb_mark_start();
	return kb_now_us();
}

void kb_sample_mark_end(void)
{
	if (kb_sample_marking)
		kb_mark_end();
}

double kb_sample_end(double ops)
{
	double t = kb_now_us();

	kb_sample_mark_end();
	kb_sample_ops = ops;
	return t;
}

int kb_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
	va_end(ap);
	return -1;
}

int kb_fail_errno(const char *what)
{
	return kb_fail("%s: %s", what, strerror(errno));
}

const char *kb_fail_message(void)
{
	return fail_msg[0] ? fail_msg : "failed";
}

void kb_line(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	kb_write_full(1, buf, (size_t)n);
}

int kb_pipe_pair(int a[2], int b[2])
{
	if (pipe(a))
		return kb_fail_errno("pipe");
	if (pipe(b)) {
		close(a[0]);
		close(a[1]);
		return kb_fail_errno("pipe");
	}
	return 0;
}

int kb_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EPIPE;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int kb_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int kb_wait_ok(int pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return kb_fail_errno("waitpid");
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status))
		return kb_fail("%s: killed by signal %d", what, WTERMSIG(status));
	return kb_fail("%s: exit status %d", what, WEXITSTATUS(status));
}

void kb_kill(int pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
