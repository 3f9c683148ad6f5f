// SPDX-License-Identifier: GPL-2.0
/*
 * OS noise by fixed time quanta: on every CPU a pinned process runs a
 * busy loop and counts the units of work it finished in each quantum of
 * the guest clock, all CPUs on the same quantum boundaries.  What the
 * loops did not do is what the kernel took: the tick, RCU, softirqs,
 * the scheduler.  The quantum with the most work (all CPUs together) is
 * the reference; every other quantum lost the difference, as a share of
 * the quantum's time.
 *
 * Under icount the guest clock counts the instructions of every CPU
 * together, and QEMU runs the CPUs in turn: a CPU's own work per quantum
 * depends on whose turn it was, but all CPUs' work together does not, so
 * the figure is the instructions the kernel took from a quantum, all
 * CPUs together, in us (1000 a us).  On kvm, where the CPUs run at once,
 * it is the time each CPU lost per quantum.
 */
#include "bench.h"
#include "copies.h"

#include <sys/mman.h>

/* Loop iterations in a unit of work: with the clock read, about 150
 * instructions, so that a quantum's loss is seen to a tenth of a us. */
#define UNIT 32
/* Quanta between the start and the first one measured. */
#define LEAD 2

struct ftq {
	double quantum;	/* us */
	long first;	/* the first quantum measured, as a multiple of quantum */
	int started;	/* copies in their loop */
	long work[];	/* [copy][quantum]: units finished */
};

static void unit(void)
{
	for (int i = 0; i < UNIT; i++)
		__asm__ volatile("" ::: "memory");
}

/*
 * Once every copy is in its loop (a slow start, as under qemu-user, must
 * not eat the quanta), the first copy to ask chooses the first quantum.
 */
static long first_quantum(struct ftq *f, int copies)
{
	long want, none = 0;

	__atomic_add_fetch(&f->started, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&f->started, __ATOMIC_SEQ_CST) < copies)
		unit();
	want = (long)(kb_now_us() / f->quantum) + LEAD;

	__atomic_compare_exchange_n(&f->first, &none, want, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return __atomic_load_n(&f->first, __ATOMIC_SEQ_CST);
}

static int copy_ftq(struct kb_copy *c, long n, double *out)
{
	struct ftq *f = c->arg;
	long *work = f->work + c->index * n, k0;

	(void)out;
	kb_copy_go(c);
	k0 = first_quantum(f, c->count);
	while (kb_now_us() < k0 * f->quantum)
		unit();
	for (long k = 0; k < n; k++) {
		double end = (k0 + k + 1) * f->quantum;
		long units = 0;

		while (kb_now_us() < end) {
			unit();
			units++;
		}
		work[k] = units;
	}
	kb_copy_end(c);
	return 0;
}

/* us lost per quantum against the best one: the mean, or (worst) the most. */
static int lost(const struct ftq *f, int copies, long n, int worst, double *out)
{
	long best = 0, sum;
	double total = 0, most = 0;

	for (long k = 0; k < n; k++) {
		sum = 0;
		for (int c = 0; c < copies; c++)
			sum += f->work[c * n + k];
		if (sum > best)
			best = sum;
	}
	/* No work at all (a host that ran something else throughout): all lost. */
	if (!best) {
		*out = f->quantum;
		return 0;
	}
	for (long k = 0; k < n; k++) {
		double l;

		sum = 0;
		for (int c = 0; c < copies; c++)
			sum += f->work[c * n + k];
		l = (double)(best - sum) / best * f->quantum;
		total += l;
		if (l > most)
			most = l;
	}
	*out = worst ? most : total / n;
	return 0;
}

/* arg1: the quantum in us; arg2: 1 for the worst quantum, 0 for the mean. */
static int ftq(const struct bench *b, long n, double *out)
{
	int cpu[KB_MAX_COPIES], copies = kb_cpus(cpu, KB_MAX_COPIES);
	size_t size = sizeof(struct ftq) + sizeof(long) * (size_t)(copies * n);
	struct ftq *f = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			     -1, 0);
	int ret;

	if (f == MAP_FAILED)
		return kb_fail_errno("mmap");
	f->quantum = (double)b->arg1;
	f->first = 0;
	f->started = 0;
	/* Time lost, not a time per operation: the cost model has no figure for it. */
	ret = kb_copies(copies, 0, copy_ftq, f, n, 0, out);
	if (!ret)
		ret = lost(f, copies, n, (int)b->arg2, out);
	munmap(f, size);
	return ret;
}

/* The rows: rows.h. */
const struct bench kb_ftq[] = {
	KB_ROWS_FTQ(KB_BENCH)
	KB_BENCH_END
};
