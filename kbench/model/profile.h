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
 *   tage = TABLES BITS MIN MAX   (optional) a TAGE direction predictor instead:
 *                             TABLES tagged tables of 2^BITS entries, their
 *                             histories geometric from MIN to MAX outcomes,
 *                             before a table of 2^bp_history counters by address
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
 * and the front end's parts, each on where its keys are given and the
 * core's timing is (a profile without any has the front end of before:
 * every instruction line fetched in series, a miss stalling dispatch):
 *
 *   fetch_bytes = N           fetch in aligned windows of N bytes (a power of
 *                             two, 16 to the line), one a cycle; a taken
 *                             branch ends the cycle's fetch
 *   fetch_windows = N         (optional) windows a cycle, each ending at a
 *                             taken branch (1 without it)
 *   btb1 = ENTRIES WAYS BUBBLE   the first level of taken-branch targets, and
 *   btb2 = ENTRIES WAYS BUBBLE   (optional) the second: a taken branch found
 *                             there costs BUBBLE cycles of the predictor's
 *   btb_redirect = CYCLES     a taken branch in neither: fetch went on past it
 *                             until decode found it, then this many cycles
 *   prefetch = N              the predictor runs up to N blocks ahead of
 *                             dispatch, fetching their lines as it goes, so
 *                             independent instruction misses overlap
 *   fetch_misses = N          (optional, with prefetch) instruction lines
 *                             in flight at once: what bounds fetching from L2
 *   itlb|dtlb = L1ENTRIES L1WAYS L2ENTRIES L2WAYS   the TLBs, 4 KiB pages
 *                             (2 MiB in a kernel's half of the addresses);
 *                             an L2 miss walks the page table through L2,
 *                             the LLC and memory
 *   tlb_latency = CYCLES      what a first-level miss that the L2 TLB holds costs
 *   opcache = ENTRIES WAYS N  (with fetch_bytes) decoded fetch windows kept: a
 *                             window found there comes N a cycle, past the
 *                             decoders' limit of fetch_windows
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
	unsigned long tage[4];		/* tables, index bits, shortest, longest; 0: gshare */
	unsigned long width, rob;	/* 0: no core timing */
	double l1_latency;
	/* The front end; 0 where a part is off. */
	unsigned long fetch_bytes, fetch_windows, prefetch, fetch_misses;
	unsigned long btb1[3], btb2[3];		/* entries, ways, bubble */
	double btb_redirect, tlb_latency;
	unsigned long itlb[4], dtlb[4];		/* L1 entries, ways; L2 entries, ways */
	unsigned long opcache[3];		/* windows, ways, windows a cycle */
};

/* Whether any part of the front end is on. */
int kb_profile_front_end(const struct kb_profile *p);

/* 0, or -1 with "PATH:LINE: why" (or "PATH: why") in err. */
int kb_profile_load(struct kb_profile *p, const char *path, char *err, size_t errlen);

#endif
