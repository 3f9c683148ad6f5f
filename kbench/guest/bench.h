/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's benchmarks.  Each one times `iters` repetitions of one
 * operation and returns one sample in its unit; the runner calls it once
 * per run.  A benchmark that cannot run says why with kb_fail() and
 * returns -1.
 */
#ifndef KBENCH_GUEST_BENCH_H
#define KBENCH_GUEST_BENCH_H

#include "rows.h"

#include <stddef.h>

struct bench {
	const char *name;
	const char *unit;	/* "us", "ns" or "MB/s" (protocol.h) */
	const char *group;
	long iters;		/* per sample */
	long quick;		/* per sample under kbench_quick=1 (0: a tenth) */
	int (*run)(const struct bench *b, long iters, double *sample);
	long arg1, arg2;	/* per-benchmark parameters (sizes, counts) */
};

/* A table entry out of a rows.h row (train is the host's). */
#define KB_BENCH(name, unit, group, train, iters, quick, run, arg1, arg2) \
	{ name, unit, group, iters, quick, run, arg1, arg2 },
#define KB_BENCH_END { NULL, NULL, NULL, 0, 0, NULL, 0, 0 }

extern const struct bench kb_proc[], kb_ipc[], kb_ctx[], kb_fsvm[], kb_smp[], kb_ftq[],
	kb_build[], kb_mem[];
/* The build row's compiler is in the initramfs (build.c). */
int kb_build_ready(void);
/* The rows of KB_PROGRAMS_PATH (program.c), once kb_programs_load() read it. */
extern struct bench kb_programs[];
/* Read the programs' list; how many there are. */
int kb_programs_load(void);

/* Under icount, the ns QEMU counts per instruction (kbench_ns_per_insn=). */
extern double kb_ns_per_insn;
/* Microseconds on CLOCK_MONOTONIC divided by it: under icount a microsecond
 * is 1000 instructions on every machine. */
double kb_now_us(void);
/*
 * The edges of a sample's timed region: the time, and while
 * kb_sample_marking is set (the samples, not the warm-up) the cost
 * model's markers (model/marker.h).  ops: what the sample divides by (its
 * operations, or its MB for a bandwidth), kept in kb_sample_ops for the
 * model's per-operation figures.
 */
double kb_sample_begin(void);
double kb_sample_end(double ops);
/* Only the end marker, in a copy whose start was the sample's (copies.h). */
void kb_sample_mark_end(void);
extern int kb_sample_marking;
extern double kb_sample_ops;

/* Record why the running benchmark failed; always returns -1. */
int kb_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* kb_fail() with ": strerror(errno)" appended. */
int kb_fail_errno(const char *what);
const char *kb_fail_message(void);

/* One console line in one write(), so children never interleave. */
void kb_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* read()/write() exactly len bytes; 0, or -1 with errno (0 on EOF: EPIPE). */
int kb_read_full(int fd, void *buf, size_t len);
int kb_write_full(int fd, const void *buf, size_t len);
/* Two pipes (a and b), or neither: -1 after a kb_fail(). */
int kb_pipe_pair(int a[2], int b[2]);
/*
 * n write faults on a mapping of len bytes, mapped again and again: of
 * fd shared (page_fault), or fresh anonymous memory when fd < 0
 * (page_fault_anon); for one copy or many; -1 after a kb_fail().
 */
int kb_fault_pages(int fd, long len, long n);
/* Wait for pid; 0 if it exited with 0, else a kb_fail() naming what. */
int kb_wait_ok(int pid, const char *what);
/* Kill and reap a helper child. */
void kb_kill(int pid);

/* Send every gcov counter file on the console; their number, or -1. */
int kb_gcov_dump(void);

/* The directory on tmpfs the file rows work in. */
#define KB_TMP "/tmp"
/* Where the smp rows make their files: KB_TMP, or "." run natively (--kbench-rows). */
extern const char *kb_tmp;

#endif
