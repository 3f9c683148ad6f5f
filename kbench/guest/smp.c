// SPDX-License-Identifier: GPL-2.0
/*
 * Rows on every CPU the guest has.  The par_ rows run a row of the
 * single-CPU tables as N copies at once, one process pinned per CPU,
 * each with files and memory of its own: the time per operation of one
 * copy (N=1: the row itself).  The others share something across CPUs:
 * a pipe or socket whose two ends are on two CPUs, a futex handed round
 * threads on every CPU, one directory, one address space.  Every name
 * stays the same whatever N is: the host keys rows by name and CPUs.
 */
#include "bench.h"
#include "copies.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE 4096L

const char *kb_tmp = KB_TMP;

static int ncpus(void)
{
	int cpu[KB_MAX_COPIES];

	return kb_cpus(cpu, KB_MAX_COPIES);
}

/* A path of the copy's own under kb_tmp. */
static void copy_path(char *buf, size_t size, const struct kb_copy *c, const char *what)
{
	snprintf(buf, size, "%s/kbench-smp-%s-%d", kb_tmp, what, c->index);
}

static int copy_null_call(struct kb_copy *c, long n, double *out)
{
	double t0 = kb_copy_go(c);

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	*out = (kb_copy_end(c) - t0) / n;
	return 0;
}

static int copy_fork_exit(struct kb_copy *c, long n, double *out)
{
	double t0 = kb_copy_go(c);

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return kb_fail_errno("fork");
		if (!pid)
			_exit(0);
		if (kb_wait_ok(pid, "child"))
			return -1;
	}
	*out = (kb_copy_end(c) - t0) / n;
	return 0;
}

static int copy_open_close(struct kb_copy *c, long n, double *out)
{
	char path[256];
	int fd, ret = 0;
	double t0;

	copy_path(path, sizeof(path), c, "file");
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return kb_fail_errno("create");
	close(fd);
	t0 = kb_copy_go(c);
	for (long i = 0; i < n && !ret; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			ret = kb_fail_errno("open");
		else
			close(fd);
	}
	*out = (kb_copy_end(c) - t0) / n;
	unlink(path);
	return ret;
}

/* A file of len bytes, all in memory, of the copy's own. */
static int copy_file(const struct kb_copy *c, long len)
{
	static const char zero[PAGE];
	char path[256];
	int fd;

	copy_path(path, sizeof(path), c, "map");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return kb_fail_errno("create");
	unlink(path);
	for (long off = 0; off < len; off += PAGE)
		if (kb_write_full(fd, zero, PAGE)) {
			close(fd);
			return kb_fail_errno("write");
		}
	return fd;
}

/* Write faults on a shared mapping of a tmpfs file in memory (page_fault). */
static int copy_page_fault(struct kb_copy *c, long n, double *out)
{
	long len = ((const struct bench *)c->arg)->arg2 << 10;
	int fd = copy_file(c, len);
	double t0;

	if (fd < 0)
		return -1;
	t0 = kb_copy_go(c);
	if (kb_fault_pages(fd, len, n)) {
		close(fd);
		return -1;
	}
	*out = (kb_copy_end(c) - t0) / n;
	close(fd);
	return 0;
}

/* Create n empty files in dir, then remove them; the creates' time when create_only. */
static int files_in(const char *dir, struct kb_copy *c, long n, int create_only, double *out)
{
	char name[300];
	double t0 = kb_copy_go(c), t1, t2;

	for (long i = 0; i < n; i++) {
		int fd;

		snprintf(name, sizeof(name), "%s/%d-%ld", dir, c->index, i);
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return kb_fail_errno("create");
		close(fd);
	}
	t1 = kb_now_us();
	for (long i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s/%d-%ld", dir, c->index, i);
		if (unlink(name))
			return kb_fail_errno("unlink");
	}
	t2 = kb_copy_end(c);
	*out = ((create_only ? t1 : t2) - t0) / n;
	return 0;
}

/* file_create_0k in a directory of the copy's own. */
static int copy_file_create(struct kb_copy *c, long n, double *out)
{
	char dir[256];
	int ret;

	copy_path(dir, sizeof(dir), c, "dir");
	if (mkdir(dir, 0755) && errno != EEXIST)
		return kb_fail_errno("mkdir");
	ret = files_in(dir, c, n, 1, out);
	rmdir(dir);
	return ret;
}

enum { NULL_CALL, FORK_EXIT, OPEN_CLOSE, PAGE_FAULT, FILE_CREATE };

/* arg1: which operation; arg2: its size (KB). */
static int par(const struct bench *b, long n, double *out)
{
	static kb_copy_fn *const fn[] = { copy_null_call, copy_fork_exit, copy_open_close,
					  copy_page_fault, copy_file_create };

	return kb_copies(ncpus(), KB_COPY_WHOLE, fn[b->arg1], (void *)b, n, n, out);
}

/* The two ends of a ping-pong: copy 0 times round trips, copy 1 echoes. */
struct pingpong {
	int fd[2][2];	/* [copy][read, write] */
};

static int copy_pingpong(struct kb_copy *c, long n, double *out)
{
	const struct pingpong *pp = c->arg;
	int rd = pp->fd[c->index][0], wr = pp->fd[c->index][1];
	double t0 = kb_copy_go(c);
	char byte = 'k';

	for (long i = 0; i < n; i++) {
		if (c->index == 0 && kb_write_full(wr, &byte, 1))
			return kb_fail_errno("write");
		if (kb_read_full(rd, &byte, 1))
			return kb_fail_errno("read");
		if (c->index == 1 && kb_write_full(wr, &byte, 1))
			return kb_fail_errno("write");
	}
	if (c->index == 0)
		*out = (kb_copy_end(c) - t0) / n;
	return 0;
}

static int pingpong_open(struct pingpong *pp, long unix_socket)
{
	int a[2], b[2];

	if (unix_socket) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, a))
			return kb_fail_errno("socketpair");
		pp->fd[0][0] = pp->fd[0][1] = a[0];
		pp->fd[1][0] = pp->fd[1][1] = a[1];
		return 0;
	}
	if (kb_pipe_pair(a, b))
		return -1;
	pp->fd[0][1] = a[1], pp->fd[1][0] = a[0];
	pp->fd[1][1] = b[1], pp->fd[0][0] = b[0];
	return 0;
}

/*
 * A one-byte round trip between CPU 0 and the next CPU (at N=1 both ends
 * on CPU 0: pipe_lat/unix_lat pinned).  arg1: 1 for an AF_UNIX socket.
 */
static int xcpu_lat(const struct bench *b, long n, double *out)
{
	struct pingpong pp;
	int ret;

	if (pingpong_open(&pp, b->arg1))
		return -1;
	ret = kb_copies(2, 0, copy_pingpong, &pp, n, n, out);
	close(pp.fd[0][0]);
	close(pp.fd[1][0]);
	/* A socket is both its end's read and write side. */
	if (!b->arg1) {
		close(pp.fd[0][1]);
		close(pp.fd[1][1]);
	}
	return ret;
}

/* The futex ring: thread i may go on while turn[i] is set. */
static int turn[KB_MAX_COPIES];

static int copy_futex(struct kb_copy *c, long n, double *out)
{
	int *mine = &turn[c->index], *next = &turn[(c->index + 1) % c->count];
	double t0 = kb_copy_go(c);

	for (long i = 0; i < n; i++) {
		while (!__atomic_load_n(mine, __ATOMIC_ACQUIRE))
			syscall(SYS_futex, mine, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		__atomic_store_n(mine, 0, __ATOMIC_RELAXED);
		__atomic_store_n(next, 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, next, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
	/* Each pass of this thread is count hand-overs. */
	*out = (kb_copy_end(c) - t0) / ((double)n * c->count);
	return 0;
}

/*
 * A lock handed round a ring of threads, one per CPU (at least two: at
 * N=1 both on CPU 0), each waiting on a futex of its own: us per
 * hand-over, the wake and the waiter's return from FUTEX_WAIT.
 */
static int futex_ring(const struct bench *b, long n, double *out)
{
	int count = ncpus() < 2 ? 2 : ncpus();

	(void)b;
	for (int i = 0; i < KB_MAX_COPIES; i++)
		turn[i] = i == 0;
	return kb_copies(count, KB_COPY_THREADS, copy_futex, NULL, n, (double)n * count, out);
}

static int copy_shared_dir(struct kb_copy *c, long n, double *out)
{
	return files_in(c->arg, c, n, 0, out);
}

/* N processes create and remove empty files in one directory: us per file. */
static int shared_dir(const struct bench *b, long n, double *out)
{
	char dir[256];
	int ret;

	(void)b;
	snprintf(dir, sizeof(dir), "%s/kbench-smp-shared", kb_tmp);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return kb_fail_errno("mkdir");
	ret = kb_copies(ncpus(), KB_COPY_WHOLE, copy_shared_dir, dir, n, n, out);
	rmdir(dir);
	return ret;
}

/* page_fault_anon in a thread: its munmaps shoot down the others' TLBs. */
static int copy_anon_fault(struct kb_copy *c, long n, double *out)
{
	long len = ((const struct bench *)c->arg)->arg2 << 10;
	double t0 = kb_copy_go(c);

	if (kb_fault_pages(-1, len, n))
		return -1;
	*out = (kb_copy_end(c) - t0) / n;
	return 0;
}

/* N threads of one process fault in fresh anonymous pages: one mm, one mmap lock. */
static int shared_mm_fault(const struct bench *b, long n, double *out)
{
	return kb_copies(ncpus(), KB_COPY_THREADS | KB_COPY_WHOLE, copy_anon_fault, (void *)b, n, n,
			 out);
}

/* The rows: rows.h. */
const struct bench kb_smp[] = {
	KB_ROWS_SMP(KB_BENCH)
	KB_BENCH_END
};
