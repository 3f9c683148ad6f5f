/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running one operation on several CPUs at once: the CPUs the guest has,
 * pinning, and N copies (processes, or threads of one address space)
 * that start together.  The rows of group "smp" (smp.c, ftq.c) use it.
 */
#ifndef KBENCH_GUEST_COPIES_H
#define KBENCH_GUEST_COPIES_H

/* At most this many copies (and CPUs used). */
#define KB_MAX_COPIES 64

/*
 * The CPUs this process may run on, in order: init's affinity is every
 * CPU online, so in the guest this is sysconf(_SC_NPROCESSORS_ONLN) of
 * them.  Their number (at least 1).
 */
int kb_cpus(int *cpu, int max);
/* Pin the calling thread to cpu. */
int kb_pin(int cpu);

struct kb_copy {
	int index;	/* 0 .. count-1 */
	int count;
	int cpu;	/* where it is pinned */
	void *arg;	/* kb_copies()'s */
	int ready_fd, go_fd;
	int went;
	int marks;	/* its start and end are the sample's (copy 0, unless KB_COPY_WHOLE) */
};

/*
 * A copy's body: set up, call kb_copy_go() (the start, for all copies at
 * once: its time), do n operations, call kb_copy_end() (its time) and
 * leave the time per operation in *out (or leave *out alone: the copy does
 * not count in the mean).
 */
typedef int kb_copy_fn(struct kb_copy *c, long n, double *out);
double kb_copy_go(struct kb_copy *c);
double kb_copy_end(struct kb_copy *c);

/* kb_copies()'s flags. */
#define KB_COPY_THREADS 1	/* threads of this process, not processes */
/*
 * The figure is the whole run's time, from the common start to the last
 * copy's end, per operation of one copy (each does n), not the mean of
 * the copies' own: under icount the clock counts every CPU's
 * instructions, and QEMU's round-robin may run one copy's sample before
 * another's starts, so a copy's own window holds some of the others' work
 * or none; the whole run holds all of it.
 */
#define KB_COPY_WHOLE 2

/*
 * Run fn in count copies, copy i pinned to the i-th CPU (modulo their
 * number), as processes or threads (flags).  *out is the mean of the
 * copies' figures, and the sample's markers enclose copy 0's own time;
 * or (KB_COPY_WHOLE) the whole run's figure, the markers around the whole
 * run: the cost model counts the time the figure is.  ops: what the model
 * divides a sample by (the operations the figure is per), 0 when the
 * figure is not a time per operation (the model has no figure for the
 * row).  The first failure is the row's.
 */
int kb_copies(int count, int flags, kb_copy_fn *fn, void *arg, long n, double ops,
	      double *out);

#endif
