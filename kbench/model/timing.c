// SPDX-License-Identifier: GPL-2.0
/*
 * The core's timing: instructions dispatch in order, WIDTH a cycle, into
 * a reorder window of ROB entries; each starts when the registers it reads
 * are ready and takes its latency (a load's from where its line was: L1,
 * L2, LLC, memory, another core), and they retire in order.  So misses
 * that do not depend on each other overlap, a dependent chain does not, a
 * mispredicted branch stalls the front end until it resolves and its
 * penalty has passed, and code with more parallelism runs at a higher IPC.
 * A load from where a recent store wrote waits for that store's data.
 * Time is kept in ticks, a cycle's WIDTH-th part: whole numbers, the same
 * on every run.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

int core_init(struct core *c, const struct kb_profile *p)
{
	memset(c, 0, sizeof(*c));
	c->width = p->width;
	c->rob_size = p->rob;
	c->rob = calloc(c->rob_size, sizeof(*c->rob));
	return c->rob ? 0 : -1;
}

void core_release(struct core *c)
{
	free(c->rob);
	c->rob = NULL;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static struct forward *forward_of(struct core *c, uint64_t addr)
{
	return &c->fwd[(addr >> 3) % (sizeof(c->fwd) / sizeof(*c->fwd))];
}

/*
 * One instruction: load_ticks is its load's latency (0: it loaded
 * nothing), addr the address it loaded or stored.  Its result's time.
 */
uint64_t core_insn(struct core *c, const struct insn_info *in, uint64_t load_ticks,
		   int access, uint64_t addr, uint64_t arrive)
{
	uint64_t *slot = &c->rob[c->slot];
	uint64_t start, done;

	if (++c->slot == c->rob_size)
		c->slot = 0;

	/* Dispatch: the front end's turn, its bytes, and a free entry in the window. */
	start = max64(max64(c->fetch, arrive), *slot);
	if (in->serial)
		start = max64(start, c->retired);
	c->fetch = start + 1;
	c->dispatched = start;
	for (unsigned i = 0; i < in->nsrc; i++)
		start = max64(start, c->ready[in->src[i]]);
	if (access == CORE_LOAD) {
		struct forward *f = forward_of(c, addr);

		if (f->addr == addr + 1)
			start = max64(start, f->ready);
	}
	done = start + load_ticks;
	if (!(access == CORE_LOAD && in->move))
		done += (uint64_t)in->lat * c->width;
	for (unsigned i = 0; i < in->ndst; i++)
		c->ready[in->dst[i]] = done;
	if (access == CORE_STORE) {
		struct forward *f = forward_of(c, addr);

		f->addr = addr + 1;
		f->ready = start;
	}
	/* A store retires once its address and data are known; the line follows. */
	c->retired = max64(c->retired, done);
	*slot = c->retired;
	return done;
}

/* The front end waits: a mispredicted branch resolved at done, or a fetch miss. */
void core_redirect(struct core *c, uint64_t done, uint64_t penalty_ticks)
{
	c->fetch = max64(c->fetch, done + penalty_ticks);
}

void core_fetch_stall(struct core *c, uint64_t ticks)
{
	c->fetch += ticks;
}
