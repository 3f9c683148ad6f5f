// SPDX-License-Identifier: GPL-2.0
/*
 * The branch predictor: gshare (2-bit counters indexed by the global
 * history xor the branch's address) for directions; for indirect jumps
 * and calls a direct-mapped target buffer and, before it, a target table
 * indexed by the path (the last few indirect targets) xor the address,
 * which follows an interpreter's dispatch from one opcode to the next as
 * current cores do; a return stack for returns.  Direct jumps and calls
 * are always right: their targets are in the instruction.
 */
#include "sim.h"

#include <stdlib.h>

static unsigned long pow2_floor(unsigned long n)
{
	unsigned long p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

int predictor_init(struct predictor *bp, const struct kb_profile *p)
{
	unsigned long btb = pow2_floor(p->btb_entries);

	bp->hist_mask = (1ul << p->bp_history) - 1;
	bp->history = 0;
	bp->btb_mask = btb - 1;
	bp->ras_depth = p->ras_depth;
	bp->ras_top = 0;
	bp->counters = malloc(bp->hist_mask + 1);
	bp->btb_pc = calloc(btb, sizeof(*bp->btb_pc));
	bp->btb_target = calloc(btb, sizeof(*bp->btb_target));
	bp->path_pc = calloc(btb, sizeof(*bp->path_pc));
	bp->path_target = calloc(btb, sizeof(*bp->path_target));
	bp->path = 0;
	bp->ras = calloc(p->ras_depth, sizeof(*bp->ras));
	if (!bp->counters || !bp->btb_pc || !bp->btb_target || !bp->path_pc ||
	    !bp->path_target || !bp->ras) {
		predictor_release(bp);
		return -1;
	}
	/* Weakly taken: a loop's branch is right from its second pass. */
	for (unsigned long i = 0; i <= bp->hist_mask; i++)
		bp->counters[i] = 2;
	return 0;
}

void predictor_release(struct predictor *bp)
{
	free(bp->counters);
	free(bp->btb_pc);
	free(bp->btb_target);
	free(bp->path_pc);
	free(bp->path_target);
	free(bp->ras);
	bp->counters = NULL;
	bp->btb_pc = bp->btb_target = bp->path_pc = bp->path_target = bp->ras = NULL;
}

static int direction(struct predictor *bp, uint64_t pc, int taken)
{
	uint8_t *ctr = &bp->counters[(bp->history ^ (pc >> 1) ^ (pc >> 13)) & bp->hist_mask];
	int miss = (*ctr >= 2) != taken;

	if (taken && *ctr < 3)
		++*ctr;
	else if (!taken && *ctr > 0)
		--*ctr;
	bp->history = ((bp->history << 1) | (unsigned long)taken) & bp->hist_mask;
	return miss;
}

/* The path table's entry if it is this branch's, else the buffer's. */
static int target(struct predictor *bp, uint64_t pc, uint64_t next)
{
	size_t i = (size_t)((pc >> 1) & bp->btb_mask);
	size_t j = (size_t)(((pc >> 1) ^ bp->path) & bp->btb_mask);
	uint64_t guess = bp->path_pc[j] == pc ? bp->path_target[j] :
			 bp->btb_pc[i] == pc ? bp->btb_target[i] : 0;

	bp->btb_pc[i] = bp->path_pc[j] = pc;
	bp->btb_target[i] = bp->path_target[j] = next;
	/* About three targets deep in a 4096-entry table. */
	bp->path = ((bp->path << 4) ^ (next >> 1) ^ (next >> 11)) & bp->btb_mask;
	return guess != next;
}

static void push(struct predictor *bp, uint64_t ret)
{
	bp->ras[bp->ras_top % bp->ras_depth] = ret;
	bp->ras_top++;
}

static int pop(struct predictor *bp, uint64_t next)
{
	/* An empty stack (or one that wrapped) predicts from the buffer's entry. */
	if (!bp->ras_top)
		return 1;
	bp->ras_top--;
	return bp->ras[bp->ras_top % bp->ras_depth] != next;
}

int predictor_resolve(struct predictor *bp, enum exit_kind k, uint64_t pc,
		      uint64_t fallthrough, uint64_t next)
{
	switch (k) {
	case EXIT_COND:
		return direction(bp, pc, next != fallthrough);
	case EXIT_CALL:
		push(bp, fallthrough);
		return 0;
	case EXIT_ICALL:
		push(bp, fallthrough);
		return target(bp, pc, next);
	case EXIT_IJUMP:
		return target(bp, pc, next);
	case EXIT_RET:
		return pop(bp, next);
	case EXIT_JUMP:
	case EXIT_OTHER:
		break;
	}
	return 0;
}
