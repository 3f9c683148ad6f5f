/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A machine profile of the cost model: one "key = value" per line, '#'
 * starts a comment.  Every key is required, once:
 *
 *   name = TEXT
 *   cpi = CYCLES              base cycles per instruction
 *   l1i|l1d|l2|llc = SIZE WAYS LINE   (SIZE may end in K or M)
 *   l2_latency|llc_latency|memory_latency = CYCLES   load to use, a hit there
 *   coherence_latency = CYCLES   load to use of a line another core's store
 *                             took from this one's L1 and L2 (at least l2_latency)
 *   branch_penalty = CYCLES   a mispredicted direction or target
 *   bp_history = BITS         the direction predictor's history (gshare)
 *   btb_entries = N           the target buffer (indirect branches)
 *   ras_depth = N             the return stack
 *
 * and, together or not at all, the core's timing (timing.c); without them
 * cycles are the additive sum of instructions x cpi and each event's cost:
 *
 *   width = N                 instructions dispatched a cycle
 *   rob = N                   the reorder window, in instructions
 *   l1_latency = CYCLES       load to use, an L1 hit
 *
 * Shared by the plugin and by kbench, which checks a profile before QEMU
 * starts: one parser, one set of messages.
 */
#ifndef KBENCH_MODEL_PROFILE_H
#define KBENCH_MODEL_PROFILE_H

#include <stddef.h>

struct kb_cache_geom {
	unsigned long size, ways, line;
};

struct kb_profile {
	char name[64];
	double cpi;
	struct kb_cache_geom l1i, l1d, l2, llc;
	double l2_latency, llc_latency, memory_latency, coherence_latency, branch_penalty;
	unsigned long bp_history, btb_entries, ras_depth;
	unsigned long width, rob;	/* 0: no core timing */
	double l1_latency;
};

/* 0, or -1 with "PATH:LINE: why" (or "PATH: why") in err. */
int kb_profile_load(struct kb_profile *p, const char *path, char *err, size_t errlen);

#endif
