// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of kbench run --program: programs kbench did not write, carried
 * into the initramfs with their libraries, listed in KB_PROGRAMS_PATH
 * (kbench/program.h).  Each sample is one run of the command, timed from
 * fork to its end, its output in a tmpfs file; a run that does not exit 0
 * fails the row, with the output's last lines on the console.
 */
#include "bench.h"
#include "protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PROGRAMS 32
#define MAX_ARGS 64
#define OUTPUT KB_TMP "/kbench-program.out"
/* The output's last lines on a failure: enough to see why, short on the console. */
#define TAIL_LINES 12
#define TAIL_BYTES 2048
/*
 * Guest seconds one run may take.  Not alarm(): kbench's kernels have no
 * POSIX timers (tinyconfig), so alarm() is ENOSYS there; a poll() on the
 * run's pidfd times out on an hrtimer instead, and a program that hangs
 * waiting (under icount, idle costs no host time) fails its row at once.
 */
#define RUN_LIMIT 60

static char list[16384];
static char *argvs[MAX_PROGRAMS][MAX_ARGS + 1];
static char *paths[MAX_PROGRAMS];
struct bench kb_programs[MAX_PROGRAMS + 1];

/* What the programs may look for: commands in PATH, temporary files in /tmp. */
static char *const env[] = { "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
			     "HOME=" KB_TMP, "TMPDIR=" KB_TMP, NULL };

static void print_tail(const struct bench *b)
{
	char buf[TAIL_BYTES + 1], *p, *line;
	int fd = open(OUTPUT, O_RDONLY | O_CLOEXEC), lines = 0;
	off_t end = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	ssize_t n;

	if (end <= 0 || lseek(fd, end > TAIL_BYTES ? end - TAIL_BYTES : 0, SEEK_SET) < 0 ||
	    (n = read(fd, buf, TAIL_BYTES)) <= 0) {
		kb_line(KB_TAG_OUTPUT " %s (no output)", b->name);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	buf[n] = '\0';
	/* Console lines: no control characters inside. */
	for (p = buf; *p; p++)
		if ((unsigned char)*p < ' ' && *p != '\n')
			*p = ' ';
	for (p = buf + n - (buf[n - 1] == '\n'); p > buf && lines < TAIL_LINES; p--)
		lines += p[-1] == '\n';
	for (line = strtok(p, "\n"); line; line = strtok(NULL, "\n"))
		kb_line(KB_TAG_OUTPUT " %s %.200s", b->name, line);
}

static void child(int i, int out)
{
	int null = open("/dev/null", O_RDONLY);

	/* Not left running if the row's process dies (its sample limit). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
	    chdir(KB_TMP))
		_exit(126);
	execve(paths[i], argvs[i], env);
	dprintf(2, "kbench-guest: cannot run %s: %s\n", paths[i], strerror(errno));
	_exit(127);
}

/* 1 if pid ended within RUN_LIMIT (or there is no pidfd to tell), 0 if not. */
static int ends_in_time(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0), r;
	struct pollfd p = { fd, POLLIN, 0 };

	if (fd < 0)
		return 1;
	while ((r = poll(&p, 1, RUN_LIMIT * 1000)) < 0 && errno == EINTR)
		;
	close(fd);
	return r != 0;
}

static int run_once(const struct bench *b, int out)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return kb_fail_errno("fork");
	if (!pid)
		child((int)b->arg1, out);
	if (!ends_in_time(pid)) {
		kill(-pid, SIGKILL);
		kb_kill(pid);
		print_tail(b);
		return kb_fail("%s: no end after %d s, killed", argvs[b->arg1][0], RUN_LIMIT);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return kb_fail_errno("waitpid");
	/* Whatever it left behind would run into the next sample. */
	kill(-pid, SIGKILL);
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	print_tail(b);
	if (WIFSIGNALED(status))
		return kb_fail("%s: killed by signal %d (%s)", argvs[b->arg1][0],
			       WTERMSIG(status), strsignal(WTERMSIG(status)));
	return kb_fail("%s: exit status %d", argvs[b->arg1][0], WEXITSTATUS(status));
}

/* A sample: n runs of the command, microseconds per run. */
static int program_run(const struct bench *b, long n, double *out)
{
	int fd = open(OUTPUT, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	double t0;
	int ret = 0;

	if (fd < 0)
		return kb_fail_errno("create " OUTPUT);
	t0 = kb_sample_begin();
	for (long i = 0; i < n && !ret; i++)
		ret = run_once(b, fd);
	if (!ret)
		*out = (kb_sample_end(n) - t0) / n;
	close(fd);
	return ret;
}

/* One line of the list: NAME PATH ARG0 ARG1...; 0 if it is not one. */
static int add_program(int i, char *line)
{
	char *save, *name = strtok_r(line, " ", &save), *w;
	int a = 0;

	paths[i] = strtok_r(NULL, " ", &save);
	if (!name || !paths[i])
		return 0;
	while ((w = strtok_r(NULL, " ", &save)) && a < MAX_ARGS)
		argvs[i][a++] = w;
	if (!a)
		return 0;
	argvs[i][a] = NULL;
	kb_programs[i] = (struct bench){ name, "us", KB_PROGRAM_GROUP, 1, 1, program_run, i, 0 };
	return 1;
}

int kb_programs_load(void)
{
	int fd = open(KB_PROGRAMS_PATH, O_RDONLY | O_CLOEXEC), nr = 0;
	ssize_t n = fd < 0 ? -1 : read(fd, list, sizeof(list) - 1);
	char *save, *line;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	list[n] = '\0';
	for (line = strtok_r(list, "\n", &save); line && nr < MAX_PROGRAMS;
	     line = strtok_r(NULL, "\n", &save))
		nr += add_program(nr, line);
	return nr;
}
