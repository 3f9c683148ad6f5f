// SPDX-License-Identifier: GPL-2.0
#include "sim.h"

#include <stdlib.h>
#include <string.h>

int cache_init(struct cache *c, const struct kb_cache_geom *g)
{
	unsigned long sets = g->size / (g->ways * g->line);

	c->ways = g->ways;
	c->set_mask = sets - 1;
	c->line_shift = 0;
	while ((1ul << c->line_shift) < g->line)
		c->line_shift++;
	c->clock = 0;
	memset(c->memo_tag, 0, sizeof(c->memo_tag));
	c->memo_next = 0;
	c->last = 0;
	c->tags = calloc(sets * g->ways, sizeof(*c->tags));
	c->stamps = calloc(sets * g->ways, sizeof(*c->stamps));
	if (!c->tags || !c->stamps) {
		cache_release(c);
		return -1;
	}
	return 0;
}

void cache_release(struct cache *c)
{
	free(c->tags);
	free(c->stamps);
	c->tags = c->stamps = NULL;
}

/*
 * Fully associative levels have dozens of ways: a hit on a tag the memo
 * saw recently is found without the search, with the same result.
 */
#define MEMO_WAYS 16

static int memo_hit(struct cache *c, uint64_t tag)
{
	for (unsigned k = 0; k < CACHE_MEMO; k++)
		if (c->memo_tag[k] == tag && c->tags[c->memo_at[k]] == tag) {
			c->stamps[c->memo_at[k]] = c->clock;
			return 1;
		}
	return 0;
}

static void memo_note(struct cache *c, uint64_t tag, size_t at)
{
	c->memo_tag[c->memo_next] = tag;
	c->memo_at[c->memo_next] = at;
	c->memo_next = (c->memo_next + 1) % CACHE_MEMO;
}

/* The set's least recently used way: the first of the oldest. */
static size_t lru_way(const struct cache *c, size_t base)
{
	size_t victim = base;

	for (size_t i = base + 1; i < base + c->ways; i++)
		if (c->stamps[i] < c->stamps[victim])
			victim = i;
	return victim;
}

int cache_access(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift, tag = line + 1;
	size_t base = (size_t)(line & c->set_mask) * c->ways, victim;
	int memo = c->ways >= MEMO_WAYS;

	c->clock++;
	/* The line of the last access again (a window's next, a load's neighbour). */
	if (c->tags[c->last] == tag) {
		c->stamps[c->last] = c->clock;
		return CACHE_HIT;
	}
	if (memo && memo_hit(c, tag))
		return CACHE_HIT;
	/* The tags alone first: a hit, most accesses, reads no stamp. */
	for (size_t i = base; i < base + c->ways; i++) {
		if (c->tags[i] == tag) {
			c->stamps[i] = c->clock;
			c->last = i;
			if (memo)
				memo_note(c, tag, i);
			return CACHE_HIT;
		}
		if (c->tags[i] == (tag | CACHE_TAKEN)) {
			c->tags[i] = tag;
			c->stamps[i] = c->clock;
			c->last = i;
			return CACHE_TAKEN_MISS;
		}
	}
	victim = lru_way(c, base);
	c->tags[victim] = tag;
	c->stamps[victim] = c->clock;
	c->last = victim;
	if (memo)
		memo_note(c, tag, victim);
	return CACHE_MISS;
}

/*
 * The way keeps the line's tag, marked, so that the next access there
 * knows why it missed; its stamp goes to 0, as an invalid way is the
 * first a fill takes.
 */
int cache_invalidate(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift, tag = line + 1;
	size_t base = (size_t)(line & c->set_mask) * c->ways;

	for (size_t i = base; i < base + c->ways; i++)
		if (c->tags[i] == tag) {
			c->tags[i] = tag | CACHE_TAKEN;
			c->stamps[i] = 0;
			return 1;
		}
	return 0;
}

/*
 * Each event costs what it adds over the level before it: an L1 miss
 * the L2's latency, an L2 miss the rest up to the LLC's, an LLC miss the
 * rest up to memory's, a coherence miss (an L2 miss too) the rest up to
 * another core's cache instead of the LLC's.  No overlap of misses: a dependent chain's cost,
 * the upper end of what an out-of-order core pays.
 */
double model_cycles(const struct kb_profile *p, const struct counters *c)
{
	return (double)c->instructions * p->cpi +
	       (double)(c->l1i_misses + c->l1d_misses) * p->l2_latency +
	       (double)c->l2_misses * (p->llc_latency - p->l2_latency) +
	       (double)c->llc_misses * (p->memory_latency - p->llc_latency) +
	       (double)c->coherence_misses * (p->coherence_latency - p->llc_latency) +
	       (double)c->branch_misses * p->branch_penalty;
}
