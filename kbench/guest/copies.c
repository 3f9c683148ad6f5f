// SPDX-License-Identifier: GPL-2.0
/*
 * N copies of one operation, one per CPU, started together: the copies
 * wait on one pipe whose write end the parent closes, so all wake at
 * once and none runs its loop alone while the others are still being
 * created.  Their results come back through shared memory.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity(), cpu_set_t */
#endif
#include "bench.h"
#include "copies.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int kb_cpus(int *cpu, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		cpu[0] = 0;
		return 1;
	}
	for (int i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	if (!n)
		cpu[n++] = 0;
	return n;
}

int kb_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* 0: the calling thread, also in a thread of a multi-threaded copy. */
	if (sched_setaffinity(0, sizeof(set), &set))
		return kb_fail("pinning to CPU %d: %s", cpu, strerror(errno));
	return 0;
}

/* What a copy leaves for the parent. */
struct slot {
	double out;
	int counted;
	int ret;
	char msg[200];
};

struct job {
	struct kb_copy copy;
	kb_copy_fn *fn;
	long n;
	struct slot *slot;
};

double kb_copy_go(struct kb_copy *c)
{
	char byte = 'k';

	c->went = 1;
	if (kb_write_full(c->ready_fd, &byte, 1) == 0)
		while (read(c->go_fd, &byte, 1) < 0 && errno == EINTR)
			;
	return c->marks ? kb_sample_begin() : kb_now_us();
}

double kb_copy_end(struct kb_copy *c)
{
	double t = kb_now_us();

	if (c->marks)
		kb_sample_mark_end();
	return t;
}

static void run_job(struct job *j)
{
	double out = -1;

	j->slot->ret = kb_pin(j->copy.cpu);
	if (!j->slot->ret)
		j->slot->ret = j->fn(&j->copy, j->n, &out);
	/* One that failed before the start still says it is ready. */
	if (!j->copy.went)
		kb_copy_go(&j->copy);
	j->slot->out = out;
	j->slot->counted = out >= 0;
	if (j->slot->ret)
		snprintf(j->slot->msg, sizeof(j->slot->msg), "copy %d: %s", j->copy.index,
			 kb_fail_message());
}

static void *thread_main(void *arg)
{
	run_job(arg);
	return NULL;
}

static int start_copy(struct job *j, int threads, pthread_t *tid, pid_t *pid, int go_wr)
{
	if (threads) {
		if (pthread_create(tid, NULL, thread_main, j))
			return kb_fail("pthread_create failed");
		return 0;
	}
	*pid = fork();
	if (*pid < 0)
		return kb_fail_errno("fork");
	if (!*pid) {
		/* The go pipe ends only when every writer closed it. */
		close(go_wr);
		run_job(j);
		_exit(j->slot->ret ? 1 : 0);
	}
	return 0;
}

/* Wait for the copies started; the first failure's message, or 0. */
static int finish(struct job *jobs, int started, int threads, pthread_t *tid, pid_t *pid)
{
	int ret = 0;

	for (int i = 0; i < started; i++) {
		if (threads)
			pthread_join(tid[i], NULL);
		else if (kb_wait_ok(pid[i], "copy") && !ret)
			ret = -1;
	}
	/* A copy's own message says more than its exit status. */
	for (int i = 0; i < started; i++)
		if (jobs[i].slot->ret)
			return kb_fail("%s", jobs[i].slot->msg);
	return ret;
}

static double mean_out(const struct slot *slot, int count)
{
	double sum = 0;
	int k = 0;

	for (int i = 0; i < count; i++)
		if (slot[i].counted)
			sum += slot[i].out, k++;
	return k ? sum / k : 0;
}

static int run_copies(struct job *jobs, int count, int flags, const int *ready,
		      const int *go, double *out, long n)
{
	int whole = flags & KB_COPY_WHOLE;
	pthread_t tid[KB_MAX_COPIES];
	pid_t pid[KB_MAX_COPIES];
	int started = 0, ret = 0, threads = flags & KB_COPY_THREADS;
	double t0, t1;
	char byte;

	for (; started < count && !ret; started++)
		ret = start_copy(&jobs[started], threads, &tid[started], &pid[started], go[1]);
	if (ret)
		started--;
	/* Every copy started says it is ready, even one that failed. */
	for (int i = 0; i < started; i++)
		if (kb_read_full(ready[0], &byte, 1) && !ret)
			ret = kb_fail_errno("waiting for the copies");
	t0 = whole ? kb_sample_begin() : kb_now_us();
	close(go[1]);
	if (finish(jobs, started, threads, tid, pid) && !ret)
		ret = -1;
	t1 = whole ? kb_sample_end(n) : kb_now_us();
	*out = whole ? (t1 - t0) / n : mean_out(jobs[0].slot, count);
	return ret;
}

int kb_copies(int count, int flags, kb_copy_fn *fn, void *arg, long n, double ops,
	      double *out)
{
	int marks = kb_sample_marking && !(flags & KB_COPY_WHOLE);
	struct job jobs[KB_MAX_COPIES];
	int cpu[KB_MAX_COPIES], ncpu = kb_cpus(cpu, KB_MAX_COPIES);
	int ready[2], go[2], ret;
	struct slot *slot;

	if (count < 1 || count > KB_MAX_COPIES)
		return kb_fail("%d copies", count);
	slot = mmap(NULL, sizeof(*slot) * (size_t)count, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slot == MAP_FAILED)
		return kb_fail_errno("mmap");
	if (pipe(ready) || pipe(go)) {
		munmap(slot, sizeof(*slot) * (size_t)count);
		return kb_fail_errno("pipe");
	}
	memset(slot, 0, sizeof(*slot) * (size_t)count);
	for (int i = 0; i < count; i++)
		jobs[i] = (struct job){ { i, count, cpu[i % ncpu], arg, ready[1], go[0], 0,
					  marks && !i }, fn, n, &slot[i] };
	ret = run_copies(jobs, count, flags, ready, go, out, n);
	kb_sample_ops = ops;
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	munmap(slot, sizeof(*slot) * (size_t)count);
	return ret;
}
