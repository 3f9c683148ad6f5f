/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One boot of a kernel in QEMU with the benchmark initramfs (qemu.c): the
 * machine's board and console, the guest's arguments (kbench_runs=,
 * kbench_only=, ...), icount or KVM, the cost model's plugin; the console
 * fed to a struct console as it comes.
 */
#ifndef KBENCH_QEMU_H
#define KBENCH_QEMU_H

#include "console.h"
#include "machine.h"

#include <stdint.h>

struct kb_model;
struct kb_branch_args;

struct qemu_boot {
	const char *qemu;		/* the QEMU binary */
	const struct kb_machine *m;
	const char *kernel, *dtb, *initrd;	/* dtb: NULL for none */
	const char *clock;		/* "icount" or "kvm" */
	int cpus;			/* -smp (1: QEMU's default, no -smp) */
	int runs, quick, gcov;		/* the guest's kbench_runs=, kbench_quick=1, kbench_gcov=1 */
	const char *only, *append;	/* kbench_only=, more kernel arguments; NULL: none */
	uint64_t program_bytes;		/* --program's files: the guest's memory has room for them */
	const struct kb_model *model;	/* the cost model, or NULL */
	const char *records;		/* where its plugin writes */
	const struct kb_branch_args *branches;	/* the branch record, or NULL */
	int timeout;			/* seconds before QEMU is killed */
};

/*
 * Boot, feeding the console to c until QEMU ends, or until the timeout
 * (*timed_out set, QEMU killed).  The raw wait status of QEMU, or -1 after
 * an error if it could not start.
 */
int qemu_boot(const struct qemu_boot *b, struct console *c, int *timed_out);
/*
 * The boot as a lab's QEMU runs it (kbench lava job): QEMU's options
 * (the board, its CPUs, the clock; no binary, kernel, console or memory,
 * which the lab's device type gives) into args, the kernel's command
 * line into cmdline, and the guest's memory in MB.
 */
struct strbuf;
void qemu_lab_args(const struct qemu_boot *b, struct strvec *args, struct strbuf *cmdline,
		   unsigned long *memory);
/* The ns QEMU counts per instruction on m, which the guest divides its clock by. */
unsigned qemu_ns_per_insn(const char *clock, const struct kb_machine *m);
/*
 * Whether a boot of several CPUs under icount runs QEMU SCHED_FIFO (the
 * host allows and bounds it, KBENCH_NO_FIFO unset): its boots then repeat.
 */
int qemu_fifo_possible(void);
/*
 * Whether QEMU sets up b's boot (the board, CPUs, clock and plugin; no
 * kernel): it starts stopped and is told to quit.  0, or -1 and QEMU's
 * words in why.
 */
struct strbuf;
int qemu_probe(const struct qemu_boot *b, struct strbuf *why);
/* The major version `qemu --version` says, or -1 if it says none. */
int qemu_version(const char *qemu);
/* All of it ("10.0.2"), or NULL if it says none. */
char *qemu_version_text(const char *qemu);
/* Seconds of the monotonic clock the timeout is counted on. */
double qemu_clock(void);

#endif
