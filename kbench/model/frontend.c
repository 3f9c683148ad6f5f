// SPDX-License-Identifier: GPL-2.0
/*
 * The front end's state: taken-branch targets in two levels (a target
 * the first level holds costs the predictor nothing, the second a
 * bubble, neither a redirect once decode finds the branch), the queue
 * between the predictor and dispatch (the predictor, fetching lines as
 * it goes, runs at most that many blocks ahead), the op cache (fetch
 * windows decoded before), and two-level TLBs.
 * The plugin steps them; cycles are its concern, not theirs.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* A level of entries ways-associative: a cache of one-byte lines. */
static int table_init(struct cache *c, unsigned long entries, unsigned long ways)
{
	struct kb_cache_geom g = { entries, ways, 1 };

	return cache_init(c, &g);
}

int tlb_init(struct tlb *t, const unsigned long geom[4])
{
	memset(t, 0, sizeof(*t));
	if (!geom[0])
		return 0;
	t->on = 1;
	if (table_init(&t->l1, geom[0], geom[1]) || table_init(&t->l2, geom[2], geom[3])) {
		tlb_release(t);
		return -1;
	}
	return 0;
}

void tlb_release(struct tlb *t)
{
	cache_release(&t->l1);
	cache_release(&t->l2);
}

/*
 * The page of the last access again (most are) is the first level's most
 * recent entry: a hit that changes no entry's order, found without the
 * search of a fully associative level.
 */
int tlb_access(struct tlb *t, uint64_t key)
{
	if (key + 1 == t->last)
		return TLB_HIT;
	t->last = key + 1;
	if (cache_access(&t->l1, key) == CACHE_HIT)
		return TLB_HIT;
	return cache_access(&t->l2, key) == CACHE_HIT ? TLB_L2_HIT : TLB_WALK;
}

#define HUGE_PAGE (1ull << 62)

uint64_t tlb_vpage(int system, uint64_t vaddr)
{
	return system && (vaddr >> 63) ? (vaddr >> 21) | HUGE_PAGE : vaddr >> 12;
}

/* The mapping's page in the high bits: the same address in two address spaces is two entries. */
uint64_t tlb_key(uint64_t vpage, uint64_t paddr)
{
	return vpage ^ ((paddr >> (vpage & HUGE_PAGE ? 21 : 12)) << 36);
}

/* Eight bytes an entry, eight entries a line, in a region no data uses. */
uint64_t tlb_entry_addr(uint64_t vpage)
{
	return (1ull << 61) | ((vpage & ((1ull << 45) - 1)) << 3);
}

int frontend_init(struct frontend *f, const struct kb_profile *p)
{
	memset(f, 0, sizeof(*f));
	/* Without run-ahead the next block's fetch waits for this one's dispatch. */
	f->depth = p->prefetch ? p->prefetch : 1;
	f->queue = calloc(f->depth, sizeof(*f->queue));
	if (!f->queue || tlb_init(&f->itlb, p->itlb))
		goto fail;
	f->nr_flight = p->fetch_misses;
	if (f->nr_flight && !(f->flight = calloc(f->nr_flight, sizeof(*f->flight))))
		goto fail;
	if (p->btb1[0]) {
		if (table_init(&f->btb1, p->btb1[0], p->btb1[1]))
			goto fail;
		f->btb_bubble[0] = (unsigned)p->btb1[2];
	}
	if (p->btb2[0]) {
		if (table_init(&f->btb2, p->btb2[0], p->btb2[1]))
			goto fail;
		f->btb_bubble[1] = (unsigned)p->btb2[2];
	}
	if (p->opcache[0]) {
		struct kb_cache_geom g = { p->opcache[0] * p->fetch_bytes, p->opcache[1],
					   p->fetch_bytes };

		if (cache_init(&f->opcache, &g))
			goto fail;
	}
	return 0;
fail:
	frontend_release(f);
	return -1;
}

void frontend_release(struct frontend *f)
{
	free(f->queue);
	free(f->flight);
	f->queue = f->flight = NULL;
	tlb_release(&f->itlb);
	cache_release(&f->btb1);
	cache_release(&f->btb2);
	cache_release(&f->opcache);
}

/* Both levels learn the target; the second keeps what the first drops. */
int frontend_btb(struct frontend *f, uint64_t pc)
{
	if (cache_access(&f->btb1, pc) == CACHE_HIT)
		return 0;
	if (f->btb2.tags)
		return cache_access(&f->btb2, pc) == CACHE_HIT ? 1 : 2;
	return 2;
}

void frontend_dispatched(struct frontend *f, uint64_t t)
{
	f->queue[f->head] = t;
	if (++f->head == f->depth)
		f->head = 0;
}

uint64_t frontend_room(const struct frontend *f)
{
	return f->queue[f->head];
}

uint64_t frontend_miss(struct frontend *f, uint64_t req, uint64_t t)
{
	uint64_t *oldest;

	if (!f->nr_flight)
		return req + t;
	oldest = &f->flight[f->flight_head];
	if (++f->flight_head == f->nr_flight)
		f->flight_head = 0;
	*oldest = (req > *oldest ? req : *oldest) + t;
	return *oldest;
}
