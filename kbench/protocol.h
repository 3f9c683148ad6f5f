/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kbench's guest (the static init in the benchmark initramfs) and
 * `kbench run` (the host) agree on.  The guest speaks on the serial console,
 * one line per record, each starting with a tag so that kernel messages
 * interleaved on the same console are skipped:
 *
 *   KBENCH-BEGIN v=1 runs=N ns_per_insn=D cpus=C
 *                                         D: what it divided its clock by;
 *                                         C: the CPUs the guest runs on (the smp
 *                                         rows' too; the host refuses fewer than
 *                                         it booted QEMU with: -smp)
 *   KBENCH-KERNEL <the first line of /proc/version>
 *   KBENCH-ROW <name> <unit> <group> <s1>,<s2>,...,<sN>
 *   KBENCH-OPS <name> <o1>,<o2>,...,<oN>   what each sample divided by
 *   KBENCH-OUTPUT <name> <line>           a failed program row's output, its
 *                                         last lines, before its FAIL line
 *   KBENCH-FAIL <name> <message>          a benchmark that could not run
 *   KBENCH-WORKLOAD exit=<status>         /kbench-workload ran (see below)
 *   KBENCH-FILE <size> <path>             a profile file (kbench_gcov=1) ...
 *   KBENCH-DATA <base64>                  ... its bytes, 57 per line ...
 *   KBENCH-FILE-END <fnv1a-32 in hex>     ... and the hash of them all
 *   KBENCH-GCOV files=<count>             all profile files sent (-1: none)
 *   KBENCH-END ok|fail rows=<count>
 *
 * <name> is [a-z0-9_.-]+, <unit> is "us" (microseconds per operation,
 * smaller is better), "ns" (memory latency, smaller is better) or "MB/s"
 * (bigger is better); <group> is one of the tables (proc, ipc-lat, ipc-bw,
 * ctx, fs-vm, smp, mem) or "programs" (the rows of KB_PROGRAMS_PATH, after the
 * tables' rows, whatever kbench_only says); samples are decimal numbers, one per run.  An OPS
 * line comes before its ROW line: the operations (for a bandwidth, the
 * MB) of each sample, which the cost model's counters of the sample
 * (model/marker.h: the guest marks each row and each sample's timed
 * region) are divided by.
 *
 * The host passes its wishes on the kernel command line (read from
 * /proc/cmdline): kbench_runs=N (repetitions of each benchmark, default 9),
 * kbench_only=a,b (run only these), kbench_quick=1 (fewer iterations, for
 * smoke tests), kbench_gcov=1 (send the kernel's gcov counters, one file per
 * object, after the benchmarks and /kbench-post; <path> is the object's
 * absolute path in its build tree without the leading '/').  After the benchmarks the guest runs, if present and
 * executable: /kbench-workload (a user's training program, before the
 * benchmarks) and /kbench-post (for example a profile collector, after
 * them).  Then it writes KBENCH-END and ends QEMU through isa-debug-exit:
 * outb(KB_EXIT_OK or KB_EXIT_FAIL, KB_EXIT_PORT); QEMU exits with (v<<1)|1.
 */
#ifndef KBENCH_PROTOCOL_H
#define KBENCH_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define KB_PROTO_VERSION 1

#define KB_TAG_BEGIN "KBENCH-BEGIN"
#define KB_TAG_KERNEL "KBENCH-KERNEL"
#define KB_TAG_ROW "KBENCH-ROW"
#define KB_TAG_FAIL "KBENCH-FAIL"
#define KB_TAG_OUTPUT "KBENCH-OUTPUT"
#define KB_TAG_OPS "KBENCH-OPS"
#define KB_TAG_WORKLOAD "KBENCH-WORKLOAD"
#define KB_TAG_END "KBENCH-END"
#define KB_TAG_FILE "KBENCH-FILE"
#define KB_TAG_DATA "KBENCH-DATA"
#define KB_TAG_FILE_END "KBENCH-FILE-END"
#define KB_TAG_GCOV "KBENCH-GCOV"

#define KB_WORKLOAD_PATH "/kbench-workload"
#define KB_POST_PATH "/kbench-post"
/* The programs to run as rows (program.h), one a line: NAME PATH ARG0 ARG1... */
#define KB_PROGRAMS_PATH "/kbench-programs"
/*
 * The build row's directory (build-row.h): KB_BUILD_CC holds the
 * compiler's absolute path and a newline, the sources are 0.c, 1.c, ...
 */
#define KB_BUILD_DIR "/kbench-build"
#define KB_BUILD_CC "cc"
#define KB_BUILD_SOURCES 16
#define KB_BUILD_ROW "build"

#define KB_EXIT_PORT 0xf4
#define KB_EXIT_OK 0x10		/* QEMU exit status 33 */
#define KB_EXIT_FAIL 0x11	/* QEMU exit status 35 */

#define KB_DEFAULT_RUNS 9

/* The hash of a KBENCH-FILE's bytes (FNV-1a, 32 bits): both sides compute it. */
static inline uint32_t kb_fnv1a(const unsigned char *p, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

#endif
