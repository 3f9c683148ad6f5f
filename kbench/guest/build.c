// SPDX-License-Identifier: GPL-2.0
/*
 * The build row: make -j N in small, N the CPUs online.  The host put a C
 * compiler (with its loader and libraries, at their own paths) and
 * KB_BUILD_SOURCES C files into the initramfs (boot/build-row.h); N jobs,
 * one pinned to each CPU, compile file i in job i mod N, each compile a
 * fork and exec of the compiler as make runs it, its object in tmpfs.
 * The figure is a whole build's time, from the common start to the last
 * job's end: what the kernel's exec, page faults, file system and
 * scheduler cost a build.
 */
#include "bench.h"
#include "copies.h"
#include "protocol.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char cc[PATH_MAX];
static const char *dir;

/* Where the sources are: KB_BUILD_DIR, or $KBENCH_BUILD_DIR run natively (--kbench-rows). */
static const char *build_dir(void)
{
	const char *env = getenv("KBENCH_BUILD_DIR");

	return env && *env ? env : KB_BUILD_DIR;
}

int kb_build_ready(void)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (cc[0])
		return 1;
	dir = build_dir();
	snprintf(path, sizeof(path), "%s/%s", dir, KB_BUILD_CC);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, cc, sizeof(cc) - 1);
	close(fd);
	if (n <= 0 || cc[0] != '/' || cc[n - 1] != '\n') {
		cc[0] = '\0';
		return 0;
	}
	cc[n - 1] = '\0';
	return 1;
}

static char *const env[] = { "PATH=/usr/bin:/bin", "TMPDIR=" KB_TMP, NULL };

static int compile(int f)
{
	char src[PATH_MAX], obj[PATH_MAX];
	pid_t pid;

	snprintf(src, sizeof(src), "%s/%d.c", dir, f);
	snprintf(obj, sizeof(obj), "%s/kbench-build-%d.o", kb_tmp, f);
	pid = fork();
	if (pid < 0)
		return kb_fail_errno("fork");
	if (!pid) {
		char *const argv[] = { cc, "-c", "-o", obj, src, NULL };
		int null = open("/dev/null", O_WRONLY);

		/* Its diagnostics would break the console's lines: the exit status says it. */
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execve(cc, argv, env);
		_exit(127);
	}
	return kb_wait_ok(pid, cc);
}

static int copy_build(struct kb_copy *c, long n, double *out)
{
	double t0 = kb_copy_go(c);

	for (long r = 0; r < n; r++)
		for (int f = c->index; f < KB_BUILD_SOURCES; f += c->count)
			if (compile(f))
				return -1;
	*out = (kb_copy_end(c) - t0) / n;
	return 0;
}

/* us per whole build of the sources. */
static int build(const struct bench *b, long n, double *out)
{
	int cpu[KB_MAX_COPIES], ret;
	char obj[PATH_MAX];

	(void)b;
	if (!kb_build_ready())
		return kb_fail("no compiler in the initramfs (%s/%s)", build_dir(), KB_BUILD_CC);
	ret = kb_copies(kb_cpus(cpu, KB_MAX_COPIES), KB_COPY_WHOLE, copy_build, NULL, n, n, out);
	for (int f = 0; f < KB_BUILD_SOURCES; f++) {
		snprintf(obj, sizeof(obj), "%s/kbench-build-%d.o", kb_tmp, f);
		unlink(obj);
	}
	return ret;
}

/* The rows: rows.h. */
const struct bench kb_build[] = {
	KB_ROWS_BUILD(KB_BENCH)
	KB_BENCH_END
};
