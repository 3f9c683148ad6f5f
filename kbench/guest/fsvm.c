// SPDX-License-Identifier: GPL-2.0
/*
 * File and VM latencies on tmpfs: creating and deleting empty and 10 KB
 * files, mapping a file, a protection fault taken as a signal, page
 * faults on file pages already in memory and on fresh anonymous memory,
 * and select() on 100 descriptors.
 */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#define FS_DIR KB_TMP "/kbench-fs"
#define MAPPED_FILE KB_TMP "/kbench-map"
#define PAGE 4096L

static void file_name(char *buf, size_t size, long i)
{
	snprintf(buf, size, FS_DIR "/%ld", i);
}

static int create_files(long n, long size, const char *data)
{
	char name[64];

	for (long i = 0; i < n; i++) {
		int fd;

		file_name(name, sizeof(name), i);
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return kb_fail_errno("create");
		if (size && kb_write_full(fd, data, (size_t)size)) {
			close(fd);
			return kb_fail_errno("write");
		}
		close(fd);
	}
	return 0;
}

static int delete_files(long n)
{
	char name[64];

	for (long i = 0; i < n; i++) {
		file_name(name, sizeof(name), i);
		if (unlink(name))
			return kb_fail_errno("unlink");
	}
	return 0;
}

/* arg1: file size in KB; arg2: 0 times the creates, 1 the deletes. */
static int file_rows(const struct bench *b, long n, double *out)
{
	long size = b->arg1 * 1024;
	char *data = calloc(1, (size_t)size + 1);
	double t0, t1, t2;
	int ret;

	if (!data)
		return kb_fail("out of memory");
	memset(data, 'k', (size_t)size);
	if (mkdir(FS_DIR, 0755) && errno != EEXIST) {
		free(data);
		return kb_fail_errno("mkdir " FS_DIR);
	}
	/* One sample is one phase: the model's counters too. */
	t0 = b->arg2 ? 0 : kb_sample_begin();
	ret = create_files(n, size, data);
	t1 = b->arg2 ? kb_sample_begin() : kb_sample_end(n);
	if (!ret)
		ret = delete_files(n);
	t2 = b->arg2 ? kb_sample_end(n) : 0;
	*out = (b->arg2 ? t2 - t1 : t1 - t0) / n;
	free(data);
	return ret;
}

/* A file of len bytes whose pages are all in memory. */
static int map_file(long len)
{
	int fd = open(MAPPED_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	char *buf;

	if (fd < 0)
		return kb_fail_errno("create " MAPPED_FILE);
	buf = calloc(1, (size_t)len);
	if (!buf || ftruncate(fd, len) || kb_write_full(fd, buf, (size_t)len)) {
		free(buf);
		close(fd);
		return kb_fail_errno("filling " MAPPED_FILE);
	}
	free(buf);
	return fd;
}

/* mmap a 1 MB file, touch one byte in every 16 KB, munmap. */
static int mmap_lat(const struct bench *b, long n, double *out)
{
	long len = b->arg1 << 10;
	int fd = map_file(len);
	double t0;

	if (fd < 0)
		return -1;
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++) {
		volatile char *p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE,
					MAP_SHARED, fd, 0);

		if (p == MAP_FAILED) {
			close(fd);
			return kb_fail_errno("mmap");
		}
		for (long off = 0; off < len; off += 16 << 10)
			(void)p[off];
		munmap((void *)p, (size_t)len);
	}
	*out = (kb_sample_end(n) - t0) / n;
	close(fd);
	return 0;
}

/*
 * Write faults on a shared file mapping: the page is in memory, so this
 * is the fault path alone (read faults would map 16 pages at a time).
 */
int kb_fault_pages(int fd, long len, long n)
{
	int flags = fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED;
	long faults = 0;

	while (faults < n) {
		volatile char *p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, flags, fd, 0);

		if (p == MAP_FAILED)
			return kb_fail_errno("mmap");
		for (long off = 0; off < len && faults < n; off += PAGE, faults++)
			p[off] = 1;
		munmap((void *)p, (size_t)len);
	}
	return 0;
}

static int page_fault(const struct bench *b, long n, double *out)
{
	long len = b->arg1 << 10;
	int fd = map_file(len);
	double t0;

	if (fd < 0)
		return -1;
	t0 = kb_sample_begin();
	if (kb_fault_pages(fd, len, n)) {
		close(fd);
		return -1;
	}
	*out = (kb_sample_end(n) - t0) / n;
	close(fd);
	return 0;
}

/* Fresh anonymous pages: fault, allocate, clear, and free at munmap. */
static int page_fault_anon(const struct bench *b, long n, double *out)
{
	long len = b->arg1 << 10;
	double t0 = kb_sample_begin();

	if (kb_fault_pages(-1, len, n))
		return -1;
	*out = (kb_sample_end(n) - t0) / n;
	return 0;
}

static sigjmp_buf fault_env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault_env, 1);
}

/* A write to a read-only page, delivered as SIGSEGV; the handler jumps back. */
static int prot_fault(const struct bench *b, long n, double *out)
{
	struct sigaction sa, old;
	volatile char *p;
	volatile long i;
	double t0;

	(void)b;
	p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return kb_fail_errno("mmap");
	(void)p[0];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	/* Not blocked in the handler: no sigprocmask call per fault. */
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, &old);
	t0 = kb_sample_begin();
	for (i = 0; i < n; i++)
		if (!sigsetjmp(fault_env, 0))
			p[0] = 1;
	*out = (kb_sample_end(n) - t0) / n;
	sigaction(SIGSEGV, &old, NULL);
	munmap((void *)p, PAGE);
	return 0;
}

/* select() for reading on 100 descriptors of one tmpfs file (all ready). */
static int select_fds(const struct bench *b, long n, double *out)
{
	int nfds = (int)b->arg1, fds[FD_SETSIZE], maxfd = 0, ret = 0;
	double t0;
	fd_set set;

	fds[0] = map_file(PAGE);
	if (fds[0] < 0)
		return -1;
	for (int i = 1; i < nfds; i++) {
		fds[i] = dup(fds[0]);
		if (fds[i] < 0) {
			nfds = i;
			ret = kb_fail_errno("dup");
			goto out;
		}
		if (fds[i] > maxfd)
			maxfd = fds[i];
	}
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i++) {
		struct timeval tv = { 0, 0 };

		FD_ZERO(&set);
		for (int j = 0; j < nfds; j++)
			FD_SET(fds[j], &set);
		if (select(maxfd + 1, &set, NULL, NULL, &tv) != nfds) {
			ret = kb_fail_errno("select");
			goto out;
		}
	}
	*out = (kb_sample_end(n) - t0) / n;
out:
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	return ret;
}

/* The rows: rows.h. */
const struct bench kb_fsvm[] = {
	KB_ROWS_FSVM(KB_BENCH)
	KB_BENCH_END
};
