/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model's parts: set-associative LRU caches (cache.c), the
 * branch predictor (branch.c) and what the plugin needs to know of an
 * instruction's bytes (decode.c).
 */
#ifndef KBENCH_MODEL_SIM_H
#define KBENCH_MODEL_SIM_H

#include "profile.h"

#include <stddef.h>
#include <stdint.h>

#define CACHE_MEMO 8

struct cache {
	uint64_t *tags;		/* line number + 1; 0 is an empty way */
	uint64_t *stamps;	/* last use, for LRU */
	uint64_t clock;
	unsigned long set_mask, ways;
	unsigned line_shift;
	/* Where recent tags were, for levels of many ways (a TLB's first). */
	uint64_t memo_tag[CACHE_MEMO];
	size_t memo_at[CACHE_MEMO];
	unsigned memo_next;
	size_t last;		/* the way the last access found or filled */
};

/* A tag's mark: another core's store took the line (cache_invalidate). */
#define CACHE_TAKEN (1ull << 63)

enum cache_result { CACHE_MISS, CACHE_HIT, CACHE_TAKEN_MISS };

int cache_init(struct cache *c, const struct kb_cache_geom *g);
void cache_release(struct cache *c);
/*
 * Look the line of addr up, fill it on a miss: CACHE_HIT, CACHE_MISS, or
 * CACHE_TAKEN_MISS when the line was there until cache_invalidate took it.
 */
int cache_access(struct cache *c, uint64_t addr);
/* Another core stored to the line of addr: 1 if this cache held it. */
int cache_invalidate(struct cache *c, uint64_t addr);

/* Everything the model counts; cycles are derived (model_cycles). */
struct counters {
	uint64_t instructions, loads, stores;
	uint64_t l1i_misses, l1d_misses, l2_misses, llc_misses;
	uint64_t coherence_misses;	/* L2 misses on a line another vCPU's store took */
	uint64_t branches, branch_misses;
	/* The front end's (0 where its part is off). */
	uint64_t fetch_windows, taken_branches, btb_misses;
	uint64_t itlb_misses, dtlb_misses, page_walks;
	uint64_t opcache_misses;	/* fetch windows the op cache had not */
	uint64_t core_ticks;	/* the core's time (timing.c), not an event */
};

/* The event names, in struct counters' order, for the plugin's records. */
#define KB_EVENTS(X) X(instructions) X(loads) X(stores) X(l1i_misses) X(l1d_misses) \
	X(l2_misses) X(llc_misses) X(coherence_misses) X(branches) X(branch_misses) \
	X(fetch_windows) X(taken_branches) X(btb_misses) X(itlb_misses) X(dtlb_misses) \
	X(page_walks) X(opcache_misses)

double model_cycles(const struct kb_profile *p, const struct counters *c);

/* How a translation block's last instruction leaves it. */
enum exit_kind {
	EXIT_OTHER,	/* not a branch (the block was cut elsewhere) */
	EXIT_COND,	/* a conditional direct branch */
	EXIT_JUMP,	/* an unconditional direct jump */
	EXIT_CALL,	/* a direct call */
	EXIT_ICALL,	/* an indirect call */
	EXIT_IJUMP,	/* an indirect jump */
	EXIT_RET,	/* a return */
};

enum isa { ISA_X86, ISA_ARM64, ISA_OTHER };

enum exit_kind decode_exit(enum isa isa, const uint8_t *b, size_t len);
/* The marker (marker.h) these bytes are, or KB_MARK_NONE. */
int decode_marker(enum isa isa, const uint8_t *b, size_t len);

/* A TAGE direction predictor (branch.c): tagged tables of geometric histories. */
#define TAGE_MAX_TABLES 16
struct tage_entry {
	uint16_t tag;
	int8_t ctr;		/* -4..3: taken when >= 0 */
	uint8_t u;		/* 0..3: useful */
};

/* One tagged table and what its hash needs, together: a branch reads them all. */
struct tage_table {
	struct tage_entry *t;
	uint32_t imask, tmask, pmask;	/* index, tag, and the path bits it takes */
	unsigned len, ishift;	/* its history's length; the address's second shift */
};

/*
 * The histories folded to each table's index width, tag width and tag
 * width less one (TAGE_FOLDS of them a table), kind by kind, so that
 * one loop without shifts by variables updates them all.
 */
#define TAGE_FOLDS 3

struct tage {
	unsigned n, ibits;
	struct tage_table tb[TAGE_MAX_TABLES];
	uint16_t fold[TAGE_FOLDS * TAGE_MAX_TABLES];
	uint16_t fold_out[TAGE_FOLDS * TAGE_MAX_TABLES];	/* where the oldest outcome leaves */
	uint16_t fold_top[TAGE_FOLDS * TAGE_MAX_TABLES];	/* the bit past the width */
	uint8_t *hist;		/* the outcomes, newest at pos */
	unsigned hmask, pos;
	uint32_t path, lfsr;
	int use_alt;		/* -8..7: a new entry's guess is the alternative's */
	uint64_t updates;
};

struct predictor {
	uint8_t *counters;	/* 2-bit, indexed by history ^ address (by address under TAGE) */
	struct tage *tage;	/* NULL: gshare */
	uint64_t *btb_pc, *btb_target;
	uint64_t *path_pc, *path_target;	/* indexed by the path xor the address */
	uint64_t *ras;
	unsigned long history, hist_mask, btb_mask, ras_depth, ras_top, path;
};

int predictor_init(struct predictor *bp, const struct kb_profile *p);
void predictor_release(struct predictor *bp);
/*
 * The branch at pc, of kind k, went to next (fallthrough: the address
 * after it); 1 if the predictor got it wrong.
 */
int predictor_resolve(struct predictor *bp, enum exit_kind k, uint64_t pc,
		      uint64_t fallthrough, uint64_t next);

/*
 * What the core's timing needs of an instruction (insn.c reads it from
 * QEMU's disassembly): the registers it waits for and writes, numbered
 * from 1 (0: none), and its latency without a load's.
 */
#define CORE_NREGS 72
struct insn_info {
	uint8_t src[6], dst[3];
	uint8_t nsrc, ndst, lat;
	uint8_t serial;		/* waits until everything before it has retired */
	uint8_t move;		/* a load's result is the loaded value: no latency of its own */
};

void insn_read(enum isa isa, const char *disas, struct insn_info *in);

/* The core's timing (timing.c); every time is in ticks, a cycle's width-th part. */
enum { CORE_NONE, CORE_LOAD, CORE_STORE };

struct forward {
	uint64_t addr;		/* the stored address + 1; 0 is empty */
	uint64_t ready;
};

struct core {
	uint64_t ready[CORE_NREGS];	/* when each register's value is */
	uint64_t *rob;			/* the window: each entry's retirement */
	unsigned long rob_size, width;
	unsigned long slot;		/* the oldest entry's, the next one's */
	uint64_t fetch, retired;
	uint64_t dispatched;		/* when the last instruction dispatched */
	struct forward fwd[256];	/* recent stores, for the loads that read them */
};

int core_init(struct core *c, const struct kb_profile *p);
void core_release(struct core *c);
/* arrive: when the front end delivered its bytes (0: they were there). */
uint64_t core_insn(struct core *c, const struct insn_info *in, uint64_t load_ticks,
		   int access, uint64_t addr, uint64_t arrive);
void core_redirect(struct core *c, uint64_t done, uint64_t penalty_ticks);
void core_fetch_stall(struct core *c, uint64_t ticks);

/*
 * The front end (frontend.c): two levels of taken-branch targets, the
 * queue that bounds how far the predictor runs ahead of dispatch, and
 * two-level TLBs.  The plugin steps it block by block.
 */
struct tlb {
	struct cache l1, l2;
	uint64_t last;		/* the last key + 1 */
	int on;
};

enum tlb_result { TLB_HIT, TLB_L2_HIT, TLB_WALK };

int tlb_init(struct tlb *t, const unsigned long geom[4]);
void tlb_release(struct tlb *t);
/* An entry's key: tlb_key(tlb_vpage(...), paddr). */
int tlb_access(struct tlb *t, uint64_t key);
/*
 * The virtual page of an address: 2 MiB in a system's upper half, where
 * kernels map their text and memory in large pages; 4 KiB elsewhere.
 */
uint64_t tlb_vpage(int system, uint64_t vaddr);
/* The entry's key: the virtual page, and where it maps (paddr; 0 where unknown). */
uint64_t tlb_key(uint64_t vpage, uint64_t paddr);
/* The address of the page-table entry that maps vpage: lines of their own. */
uint64_t tlb_entry_addr(uint64_t vpage);

struct frontend {
	struct cache btb1, btb2;
	struct cache opcache;	/* of fetch windows; no tags: off */
	struct tlb itlb;
	uint64_t *queue;	/* the first dispatch of each of the last depth blocks */
	unsigned long depth, head;
	uint64_t *flight;	/* when each of the last nr_flight line misses came */
	unsigned long nr_flight, flight_head;
	uint64_t ft;		/* when the current fetch window is fetched, in ticks */
	uint64_t window;	/* its address + 1; 0: none */
	uint64_t arrived;	/* when the last window's bytes reached decode */
	unsigned btb_bubble[2];	/* in cycles */
};

int frontend_init(struct frontend *f, const struct kb_profile *p);
void frontend_release(struct frontend *f);
/* Where a taken branch at pc was found: 0, 1 (the levels), or 2 (neither). */
int frontend_btb(struct frontend *f, uint64_t pc);
/* A block dispatched its first instruction at t. */
void frontend_dispatched(struct frontend *f, uint64_t t);
/* The earliest the next block can be fetched: the queue has room for it. */
uint64_t frontend_room(const struct frontend *f);
/* A line miss asked for at req taking t ticks: when it comes, after a miss in flight ends. */
uint64_t frontend_miss(struct frontend *f, uint64_t req, uint64_t t);

#endif
