// SPDX-License-Identifier: GPL-2.0
/*
 * The branch predictor: gshare (2-bit counters indexed by the global
 * history xor the branch's address) or TAGE for directions; for indirect jumps
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

/*
 * TAGE (tagged geometric history lengths): tables indexed and tagged by
 * the branch's address hashed with ever longer global histories; the
 * longest that holds the branch predicts.  Current cores' predictors are
 * of this family, and they learn what a short history cannot: a layout
 * that moves branches apart moves a gshare's aliasing with it.
 */
static void tage_release(struct tage *tg)
{
	if (!tg)
		return;
	for (unsigned i = 0; i < tg->n; i++)
		free(tg->tb[i].t);
	free(tg->hist);
	free(tg);
}

/* f with f^k = q, by bisection: the plugin does without libm. */
static double root(double q, unsigned k)
{
	double lo = 1, hi = q;

	for (int it = 0; it < 100; it++) {
		double mid = (lo + hi) / 2, p = 1;

		for (unsigned j = 0; j < k; j++)
			p *= mid;
		if (p < q)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Fold k keeps the history in w bits: the outcome len steps old leaves at
 * bit len mod w, and the bit shifted past w comes back in at bit 0.
 */
static void fold_init(struct tage *tg, unsigned k, unsigned w)
{
	tg->fold_out[k] = (uint16_t)(1u << (tg->tb[k % tg->n].len % w));
	tg->fold_top[k] = (uint16_t)(1u << w);
}

static struct tage *tage_new(const unsigned long *cfg)
{
	struct tage *tg = calloc(1, sizeof(*tg));
	unsigned hlen = 1;

	if (!tg)
		return NULL;
	tg->n = (unsigned)cfg[0];
	tg->ibits = (unsigned)cfg[1];
	double f = tg->n > 1 ? root((double)cfg[3] / cfg[2], tg->n - 1) : 1, len = (double)cfg[2];

	for (unsigned i = 0; i < tg->n; i++, len *= f) {
		struct tage_table *tb = &tg->tb[i];

		/* Longer histories, wider tags: fewer false matches where they cost most. */
		unsigned tbits = 8 + 4 * i / tg->n;

		tb->len = (unsigned)(len + 0.5);
		fold_init(tg, i, tg->ibits);
		fold_init(tg, tg->n + i, tbits);
		fold_init(tg, 2 * tg->n + i, tbits - 1);
		tb->imask = (1u << tg->ibits) - 1;
		tb->tmask = (1u << tbits) - 1;
		tb->pmask = (1u << (tb->len < 16 ? tb->len : 16)) - 1;
		tb->ishift = tg->ibits - i % 4;
		tb->t = calloc((size_t)1 << tg->ibits, sizeof(*tb->t));
		if (!tb->t) {
			tg->n = i;
			tage_release(tg);
			return NULL;
		}
	}
	while (hlen <= cfg[3])
		hlen *= 2;
	tg->hmask = hlen - 1;
	tg->hist = calloc(hlen, 1);
	tg->lfsr = 0xace1u;
	if (!tg->hist) {
		tage_release(tg);
		return NULL;
	}
	return tg;
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
	bp->tage = NULL;
	if (p->tage[0] && !(bp->tage = tage_new(p->tage))) {
		predictor_release(bp);
		return -1;
	}
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
	tage_release(bp->tage);
	bp->tage = NULL;
	bp->counters = NULL;
	bp->btb_pc = bp->btb_target = bp->path_pc = bp->path_target = bp->ras = NULL;
}

/*
 * Every folded history, one outcome in, the oldest (out) out.  Each is
 * below its top bit, so after the shift the bit past its width is that
 * bit alone: it wraps to bit 0, and the mask below the top clears it.
 */
static void fold_all(struct tage *tg, int in, const uint16_t *out)
{
	for (unsigned k = 0; k < TAGE_FOLDS * tg->n; k++) {
		uint16_t f = (uint16_t)((tg->fold[k] << 1) | in);

		f ^= out[k] & tg->fold_out[k];
		f ^= (f & tg->fold_top[k]) != 0;
		tg->fold[k] = f & (uint16_t)(tg->fold_top[k] - 1);
	}
}

static size_t tage_index(const struct tage *tg, unsigned i, uint64_t pc)
{
	const struct tage_table *tb = &tg->tb[i];
	uint64_t a = pc >> 1;

	return (size_t)((a ^ (a >> tb->ishift) ^ tg->fold[i] ^ (tg->path & tb->pmask)) & tb->imask);
}

static uint16_t tage_tag(const struct tage *tg, unsigned i, uint64_t pc)
{
	return (uint16_t)(((pc >> 1) ^ tg->fold[tg->n + i] ^ (tg->fold[2 * tg->n + i] << 1)) &
			  tg->tb[i].tmask);
}

static void ctr_move(int8_t *c, int taken, int lo, int hi)
{
	if (taken && *c < hi)
		++*c;
	else if (!taken && *c > lo)
		--*c;
}

/* A 2-bit counter of gshare's table (TAGE's base). */
static void base_move(uint8_t *c, int taken)
{
	if (taken && *c < 3)
		++*c;
	else if (!taken && *c > 0)
		--*c;
}

/* A longer table's entry for a branch the provider got wrong, if one is free. */
static void tage_allocate(struct tage *tg, int provider, const size_t *idx,
			  const uint16_t *tag, int taken)
{
	unsigned first = (unsigned)(provider + 1);

	/* Now and then skip the next table, so that two branches do not keep taking one. */
	tg->lfsr = (tg->lfsr >> 1) ^ (-(tg->lfsr & 1u) & 0xb400u);
	if (first + 1 < tg->n && (tg->lfsr & 3) == 0)
		first++;
	for (unsigned i = first; i < tg->n; i++) {
		struct tage_entry *e = &tg->tb[i].t[idx[i]];

		if (!e->u) {
			e->tag = tag[i];
			e->ctr = taken ? 0 : -1;
			return;
		}
	}
	for (unsigned i = first; i < tg->n; i++)
		if (tg->tb[i].t[idx[i]].u)
			tg->tb[i].t[idx[i]].u--;
}

static void tage_history(struct tage *tg, uint64_t pc, int taken)
{
	uint16_t out[TAGE_FOLDS * TAGE_MAX_TABLES];

	tg->pos = (tg->pos - 1) & tg->hmask;
	tg->hist[tg->pos] = (uint8_t)taken;
	for (unsigned i = 0; i < tg->n; i++) {
		/* All ones where the outcome leaving this table's history was taken. */
		uint16_t o = (uint16_t)-tg->hist[(tg->pos + tg->tb[i].len) & tg->hmask];

		for (unsigned k = 0; k < TAGE_FOLDS; k++)
			out[k * tg->n + i] = o;
	}
	fold_all(tg, taken, out);
	tg->path = (tg->path << 1) ^ (uint32_t)((pc >> 1) & 1);
}

static int tage_direction(struct predictor *bp, uint64_t pc, int taken)
{
	struct tage *tg = bp->tage;
	uint8_t *base = &bp->counters[(pc >> 1) & bp->hist_mask];
	size_t idx[TAGE_MAX_TABLES];
	uint16_t tag[TAGE_MAX_TABLES];
	int provider = -1, alt = -1, guess, alt_guess, weak = 0;
	struct tage_entry *pe = NULL;

	/* Longest first, hashed as reached: below the alternative nothing is read. */
	for (int i = (int)tg->n - 1; i >= 0; i--) {
		idx[i] = tage_index(tg, (unsigned)i, pc);
		tag[i] = tage_tag(tg, (unsigned)i, pc);
		if (tg->tb[i].t[idx[i]].tag != tag[i])
			continue;
		if (provider < 0) {
			provider = i;
		} else {
			alt = i;
			break;
		}
	}
	alt_guess = alt >= 0 ? tg->tb[alt].t[idx[alt]].ctr >= 0 : *base >= 2;
	guess = alt_guess;
	if (provider >= 0) {
		pe = &tg->tb[provider].t[idx[provider]];
		weak = (pe->ctr == 0 || pe->ctr == -1) && !pe->u;
		guess = weak && tg->use_alt >= 0 ? alt_guess : pe->ctr >= 0;
	}
	if (pe && weak && (pe->ctr >= 0) != alt_guess) {
		tg->use_alt += alt_guess == taken ? 1 : -1;
		tg->use_alt = tg->use_alt > 7 ? 7 : tg->use_alt < -8 ? -8 : tg->use_alt;
	}
	if (guess != taken && provider + 1 < (int)tg->n)
		tage_allocate(tg, provider, idx, tag, taken);
	if (pe) {
		if ((pe->ctr >= 0) != alt_guess) {
			if ((pe->ctr >= 0) == taken)
				pe->u += pe->u < 3;
			else
				pe->u -= pe->u > 0;
		}
		ctr_move(&pe->ctr, taken, -4, 3);
		if (!pe->u) {
			if (alt >= 0)
				ctr_move(&tg->tb[alt].t[idx[alt]].ctr, taken, -4, 3);
			else
				base_move(base, taken);
		}
	} else {
		base_move(base, taken);
	}
	/* Usefulness ages, so that entries of code no longer run are taken again. */
	if (!(++tg->updates & ((1u << 18) - 1)))
		for (unsigned i = 0; i < tg->n; i++)
			for (size_t j = 0; j < (size_t)1 << tg->ibits; j++)
				tg->tb[i].t[j].u >>= 1;
	tage_history(tg, pc, taken);
	return guess != taken;
}

static int direction(struct predictor *bp, uint64_t pc, int taken)
{
	uint8_t *ctr;
	int miss;

	if (bp->tage)
		return tage_direction(bp, pc, taken);
	ctr = &bp->counters[(bp->history ^ (pc >> 1) ^ (pc >> 13)) & bp->hist_mask];
	miss = (*ctr >= 2) != taken;
	base_move(ctr, taken);
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
