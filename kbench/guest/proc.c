// SPDX-License-Identifier: GPL-2.0
/*
 * The processes table: a system call that does nothing, a byte through
 * /dev/zero and /dev/null, stat, open/close, installing and taking a
 * signal, fork, fork+exec and fork+exec through a shell.
 */
#include "bench.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Exec'ed by the fork rows: /init returns at once with this argument. */
#define HELLO_ARG "--kbench-hello"
#define STAT_FILE KB_TMP "/kbench-stat"

static char *const empty_env[] = { NULL };

static int null_call(const struct bench *b, long n, double *out)
{
	double t0 = kb_sample_begin();

	(void)b;
	/* getppid: glibc never caches it, so every call enters the kernel. */
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	*out = (kb_sample_end(n) - t0) / n;
	return 0;
}

/* One read of /dev/zero and one write to /dev/null: the mean of the two. */
static int null_io(const struct bench *b, long n, double *out)
{
	int z = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
	double t0;
	char c = 0;
	int ret = 0;

	(void)b;
	if (z < 0 || nul < 0) {
		ret = kb_fail_errno("open /dev/zero or /dev/null");
		goto out;
	}
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++) {
		if (read(z, &c, 1) != 1 || write(nul, &c, 1) != 1) {
			ret = kb_fail_errno("read/write");
			goto out;
		}
	}
	*out = (kb_sample_end(2.0 * n) - t0) / (2.0 * n);
out:
	if (z >= 0)
		close(z);
	if (nul >= 0)
		close(nul);
	return ret;
}

static int make_stat_file(void)
{
	int fd = open(STAT_FILE, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return kb_fail_errno("create " STAT_FILE);
	close(fd);
	return 0;
}

static int stat_file(const struct bench *b, long n, double *out)
{
	struct stat st;
	double t0;

	(void)b;
	if (make_stat_file())
		return -1;
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++)
		if (stat(STAT_FILE, &st))
			return kb_fail_errno("stat");
	*out = (kb_sample_end(n) - t0) / n;
	return 0;
}

static int open_close(const struct bench *b, long n, double *out)
{
	double t0;

	(void)b;
	if (make_stat_file())
		return -1;
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++) {
		int fd = open(STAT_FILE, O_RDONLY);

		if (fd < 0)
			return kb_fail_errno("open");
		close(fd);
	}
	*out = (kb_sample_end(n) - t0) / n;
	return 0;
}

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	(void)sig;
	caught++;
}

static int sig_install(const struct bench *b, long n, double *out)
{
	struct sigaction sa;
	double t0;

	(void)b;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++)
		if (sigaction(SIGUSR1, &sa, NULL))
			return kb_fail_errno("sigaction");
	*out = (kb_sample_end(n) - t0) / n;
	return 0;
}

/* kill() to ourselves: delivery, the handler and sigreturn. */
static int sig_handle(const struct bench *b, long n, double *out)
{
	struct sigaction sa;
	pid_t self = getpid();
	double t0;

	(void)b;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	if (sigaction(SIGUSR1, &sa, NULL))
		return kb_fail_errno("sigaction");
	caught = 0;
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++)
		kill(self, SIGUSR1);
	*out = (kb_sample_end(n) - t0) / n;
	if (caught != n)
		return kb_fail("%ld signals sent, %ld handled", n, (long)caught);
	return 0;
}

/* fork; the child runs argv (or exits at once when argv is NULL); wait. */
static int fork_run(char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		return kb_fail_errno("fork");
	if (!pid) {
		if (argv)
			execve(argv[0], argv, empty_env);
		_exit(argv ? 127 : 0);
	}
	return kb_wait_ok(pid, argv ? argv[0] : "child");
}

static int fork_loop(long n, char *const argv[], double *out)
{
	double t0 = kb_sample_begin();

	for (long i = 0; i < n; i++)
		if (fork_run(argv))
			return -1;
	*out = (kb_sample_end(n) - t0) / n;
	return 0;
}

static int fork_exit(const struct bench *b, long n, double *out)
{
	(void)b;
	return fork_loop(n, NULL, out);
}

static int fork_exec(const struct bench *b, long n, double *out)
{
	static char *const argv[] = { "/init", HELLO_ARG, NULL };

	(void)b;
	return fork_loop(n, argv, out);
}

static int fork_sh(const struct bench *b, long n, double *out)
{
	static char *const argv[] = { "/bin/sh", "-c", "/init " HELLO_ARG, NULL };

	(void)b;
	if (access(argv[0], X_OK))
		return kb_fail("no shell /bin/sh in the initramfs");
	return fork_loop(n, argv, out);
}

/* The rows: rows.h. */
const struct bench kb_proc[] = {
	KB_ROWS_PROC(KB_BENCH)
	KB_BENCH_END
};
