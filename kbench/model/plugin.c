// SPDX-License-Identifier: GPL-2.0
/*
 * kbench's cost model: a QEMU TCG plugin.  Every executed translation
 * block fetches its instruction lines through L1i, L2 and the LLC and
 * settles the branch that ended the block before it; every load and store
 * goes through L1d, L2 and the LLC.  L1i, L1d, L2 and the predictor are
 * each vCPU's own, the LLC is shared; a store takes its line from every
 * other vCPU's L1d and L2, and their next access to it is a coherence miss
 * (a line from another core's cache).  Between a START and an END marker
 * (marker.h), on whichever vCPUs they run, the counters of every vCPU make
 * one sample (what the icount clock counts in that time); each
 * sample is one line of the output file, ROW markers a line of their own:
 *
 *   model profile=NAME
 *   row
 *   sample cycles=C instructions=N loads=N ... branch_misses=N
 *
 * With the profile's core timing (timing.c), a block's instructions are
 * timed when the next block starts, from what each one's loads found, and
 * a sample's cycles are the core's time; without it they are the additive
 * sum of model_cycles.  With the profile's front end (fetch_block), each
 * instruction also waits for its fetch window's bytes: windows come one a
 * cycle, a taken branch ends the cycle's, the target buffers may add a
 * bubble or a redirect, lines are asked for as the predictor runs ahead,
 * and the TLBs translate first.
 *
 * Arguments: profile=FILE (profile.h), out=FILE (the records), and
 * whole=on: one more sample at exit, of the whole run (every vCPU from its
 * first instruction, markers or none), for a program that has no markers
 * (`kbench validate`).  branches=FILE keeps each vCPU's branch record
 * (lbr.c) between the markers, of the branches into addresses from
 * kernel=ADDR up (with whole=on, of the whole run), and writes a sample of
 * it every period=N of them; with no profile the plugin does only that.
 */
#include <qemu-plugin.h>

#include "lbr.h"
#include "marker.h"
#include "profile.h"
#include "sim.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64
/* The most instructions QEMU puts in a translation block. */
#define MAX_BLOCK_INSNS 512

/* An aligned fetch window: its bytes' host address (the caches'), and its virtual one. */
struct window {
	uint64_t addr, vaddr;
};

/*
 * What a translation block always does; fetch[] are its instruction
 * lines; with the front end, win[] its fetch windows in order and
 * win_of[k] the window of instruction k's last byte.
 */
struct block {
	uint64_t pc, last_pc, fallthrough;
	enum exit_kind kind;
	unsigned insns, nr_fetch, nr_win;
	struct insn_info *info;	/* each instruction's, for the core's timing */
	struct window *win;
	uint16_t *win_of;
	uint64_t fetch[];
};

/* What the running block's instruction k loaded or stored, for its timing. */
struct access {
	uint64_t load_ticks, addr;
	int kind;
};

struct vcpu {
	struct cache l1i, l1d, l2;
	struct predictor bp;
	struct counters now;
	const struct block *prev;
	struct core core;
	struct access *acc;	/* MAX_BLOCK_INSNS of them */
	struct frontend fe;
	struct tlb dtlb;
	uint64_t *arrive;	/* when each window of the running block reached decode */
	struct lbr lbr;
	int ready;
};

/* A block's windows at most: no instruction is longer than the smallest window. */
#define MAX_BLOCK_WINDOWS (2 * MAX_BLOCK_INSNS + 1)

static struct kb_profile profile;
static enum isa isa;
static struct cache llc;
static struct vcpu vcpus[MAX_VCPUS];
static struct vcpu *ready[MAX_VCPUS];	/* the vCPUs so far, for a store's invalidations */
static unsigned nr_ready;
/*
 * The LLC and every vCPU's caches (a store reaches into the others') are
 * shared.  Under icount a system's vCPUs take turns in one thread, but
 * qemu-user runs each guest thread in a host thread of its own: there,
 * and in a system of several vCPUs, every access takes the lock.
 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int locking;
static int out_fd = -1;
/*
 * A sample's window: every vCPU's events between a START and an END, on
 * whichever vCPUs they run (a process may move between them), as the
 * icount clock counts every vCPU's instructions.
 */
static struct counters window_start;
static int in_window;
static unsigned line_shift;
static int whole;
/* The core's timing is on (the profile has it, and the ISA's instructions can be read). */
static int timed;
/* The front end is (timed, and the profile has a part of it); which parts. */
static int front_end, prefetching, btb_on;
static int system_mode;
/* Each level's load to use, in ticks. */
static uint64_t t_l1, t_l2, t_llc, t_memory, t_coherence, t_penalty;
/*
 * A fetch window's cycle (decoded, or from the op cache), the target
 * buffers' bubbles, a decode redirect, an L2 TLB hit.
 */
static uint64_t t_window, t_window_op, t_bubble[2], t_redirect, t_tlb;
static unsigned window_shift;
/* The model runs (a profile); the branch record is kept (branches=FILE). */
static int modelled, recording;
static int branches_fd = -1;
static uint64_t kernel_base, record_period = 1;

static struct vcpu *vcpu_of(unsigned int index)
{
	return index < MAX_VCPUS && vcpus[index].ready ? &vcpus[index] : NULL;
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int index)
{
	struct vcpu *v = index < MAX_VCPUS ? &vcpus[index] : NULL;

	(void)id;
	if (!v || v->ready)
		return;
	if (recording)
		lbr_init(&v->lbr, record_period);
	if (modelled && (cache_init(&v->l1i, &profile.l1i) || cache_init(&v->l1d, &profile.l1d) ||
	    cache_init(&v->l2, &profile.l2) || predictor_init(&v->bp, &profile) ||
	    (timed && (core_init(&v->core, &profile) ||
		       !(v->acc = calloc(MAX_BLOCK_INSNS, sizeof(*v->acc))))) ||
	    (front_end && (frontend_init(&v->fe, &profile) || tlb_init(&v->dtlb, profile.dtlb) ||
			   !(v->arrive = calloc(MAX_BLOCK_WINDOWS, sizeof(*v->arrive))))))) {
		fprintf(stderr, "kbench-model: out of memory for vCPU %u's caches\n", index);
		exit(1);
	}
	pthread_mutex_lock(&lock);
	v->ready = 1;
	ready[nr_ready++] = v;
	/* A system's vCPUs all start before any runs: no access sees this change midway. */
	if (nr_ready > 1)
		locking = 1;
	pthread_mutex_unlock(&lock);
}

/* Whether it locked, for drop_lock: locking may change in between, once. */
static int take_lock(void)
{
	int locked = locking;

	if (locked)
		pthread_mutex_lock(&lock);
	return locked;
}

static void drop_lock(int locked)
{
	if (locked)
		pthread_mutex_unlock(&lock);
}

/*
 * Through L2 and the LLC after an L1 miss; taken: the L1 had the line
 * until another vCPU's store took it.  The ticks the line took to come.
 */
static uint64_t beyond_l1(struct vcpu *v, uint64_t addr, int taken)
{
	int r = cache_access(&v->l2, addr);

	if (r == CACHE_HIT)
		return t_l2;
	v->now.l2_misses++;
	if (taken || r == CACHE_TAKEN_MISS) {
		/* The line comes from the other core; the LLC sees the fill, not a miss. */
		v->now.coherence_misses++;
		cache_access(&llc, addr);
		return t_coherence;
	}
	if (cache_access(&llc, addr) == CACHE_HIT)
		return t_llc;
	v->now.llc_misses++;
	return t_memory;
}

/* The block that ran last, timed instruction by instruction; its last one's result. */
static uint64_t time_block(struct vcpu *v, const struct block *b)
{
	uint64_t done = 0;

	for (unsigned k = 0; k < b->insns; k++) {
		struct access *a = &v->acc[k];

		done = core_insn(&v->core, &b->info[k], a->load_ticks, a->kind, a->addr,
				 front_end ? v->arrive[b->win_of[k]] : 0);
		if (a->kind)
			memset(a, 0, sizeof(*a));
		if (front_end && !k)
			frontend_dispatched(&v->fe, v->core.dispatched);
	}
	v->now.core_ticks = v->core.retired;
	return done;
}

/*
 * v stored to the line of addr: the other vCPUs lose it.  Not from their
 * L1i: instruction lines are cached by host address, data by guest
 * (physical) address, so the two never meet; code written by another
 * core is not modelled.
 */
static void take_line(const struct vcpu *v, uint64_t addr)
{
	for (unsigned i = 0; i < nr_ready; i++)
		if (ready[i] != v) {
			cache_invalidate(&ready[i]->l1d, addr);
			cache_invalidate(&ready[i]->l2, addr);
		}
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * What finding a page costs, in ticks: nothing, the L2 TLB's latency, or
 * that and a walk, whose entry's line comes through L2, the LLC or memory.
 */
static uint64_t translate(struct vcpu *v, struct tlb *t, uint64_t vaddr, uint64_t paddr,
			  uint64_t *misses)
{
	uint64_t vpage = tlb_vpage(system_mode, vaddr);
	int r = tlb_access(t, tlb_key(vpage, paddr));

	if (r == TLB_HIT)
		return 0;
	++*misses;
	if (r == TLB_L2_HIT)
		return t_tlb;
	v->now.page_walks++;
	return t_tlb + beyond_l1(v, tlb_entry_addr(vpage), 0);
}

/* A window's line asked for at req: when its bytes are there. */
static uint64_t fetch_line(struct vcpu *v, const struct window *w, uint64_t req)
{
	int r;

	if (v->fe.itlb.on)
		req += translate(v, &v->fe.itlb, w->vaddr, system_mode ? w->addr : 0,
				 &v->now.itlb_misses);
	r = cache_access(&v->l1i, w->addr);
	if (r == CACHE_HIT)
		return req;
	v->now.l1i_misses++;
	return frontend_miss(&v->fe, req, beyond_l1(v, w->addr, r == CACHE_TAKEN_MISS));
}

/*
 * The taken branch that ended prev, as the target buffers saw it: a
 * bubble, or (found in neither) fetch went on past it until decode
 * redirected it; a mispredicted one's redirect comes later anyway.
 */
static uint64_t taken_target(struct vcpu *v, const struct block *prev, uint64_t ft, int miss)
{
	int level = frontend_btb(&v->fe, prev->last_pc);

	if (level < 2)
		return ft + t_bubble[level];
	v->now.btb_misses++;
	return miss ? ft : max64(ft, v->core.dispatched + t_redirect);
}

/* The cycle of the window at addr: the op cache's share of one, or a whole one decoded. */
static uint64_t op_window(struct vcpu *v, uint64_t addr)
{
	if (!v->fe.opcache.tags)
		return t_window;
	if (cache_access(&v->fe.opcache, addr) == CACHE_HIT)
		return t_window_op;
	v->now.opcache_misses++;
	return t_window;
}

/*
 * Block b's windows, fetched one a cycle after the branch before it
 * settled (miss: it resolved at done), each when the queue to dispatch
 * has room: with run-ahead (prefetch) every line the block misses is
 * asked for at once, as the predictor reaches it, so that misses overlap
 * each other and the back end's work; without, fetch waits for each.
 * Each window's bytes reach decode in order: v->arrive[].
 */
static void fetch_block(struct vcpu *v, const struct block *b, const struct block *prev,
			int miss, uint64_t done)
{
	struct frontend *f = &v->fe;
	/* A jump to the next instruction is taken all the same. */
	int taken = prev && prev->kind != EXIT_OTHER &&
		    (prev->kind != EXIT_COND || b->pc != prev->fallthrough);
	uint64_t ft = f->ft, line = 0;

	if (taken) {
		v->now.taken_branches++;
		ft += t_window;	/* a taken branch ends the cycle's fetch */
		if (btb_on)
			ft = taken_target(v, prev, ft, miss);
		f->window = 0;
	}
	if (miss)
		ft = max64(ft, done);
	ft = max64(ft, frontend_room(f));
	for (unsigned w = 0; w < b->nr_win; w++) {
		const struct window *win = &b->win[w];
		uint64_t ready;

		if (win->addr + 1 != f->window) {
			if (f->window)
				ft += op_window(v, win->addr);
			f->window = win->addr + 1;
			v->now.fetch_windows++;
		}
		ready = ft;
		if (!w || (win->addr >> line_shift) + 1 != line) {
			line = (win->addr >> line_shift) + 1;
			ready = fetch_line(v, win, prefetching ? ft : max64(ft, f->arrived));
			if (!prefetching)
				ft = max64(ft, ready);
		}
		f->arrived = max64(f->arrived, ready);
		v->arrive[w] = f->arrived;
	}
	f->ft = ft;
}

/*
 * prev's end to b as a branch record sees it: a taken branch, a jump to
 * the next instruction included, or an interrupt or exception (the block
 * did not go on to its next instruction; its last is the nearest address
 * of the interruption the plugin knows).  Into the kernel only; a branch
 * from below kernel=ADDR keeps no user address (from is 0).
 */
static void record_branch(struct vcpu *v, const struct block *prev, const struct block *b)
{
	char line[LBR_LINE_MAX];
	int jumped = prev->kind != EXIT_OTHER && prev->kind != EXIT_COND;
	uint64_t from = prev->last_pc >= kernel_base ? prev->last_pc : 0;
	size_t n;

	if ((!in_window && !whole) || b->pc < kernel_base ||
	    (!jumped && b->pc == prev->fallthrough))
		return;
	/*
	 * A block starting at the last instruction of the one before is no
	 * branch: a rep-prefixed instruction's next iteration, or the rest of
	 * a block QEMU stopped early (the icount budget ran out) run again.
	 */
	if (b->pc == prev->last_pc && (prev->kind == EXIT_OTHER || prev->insns > 1))
		return;
	if (!lbr_branch(&v->lbr, from, b->pc))
		return;
	n = lbr_format(&v->lbr, b->pc, line, sizeof(line));
	if (!n || write(branches_fd, line, n) != (ssize_t)n)
		fprintf(stderr, "kbench-model: cannot write a branch sample\n");
}

static void block_exec(unsigned int index, void *udata)
{
	const struct block *b = udata, *prev;
	struct vcpu *v = vcpu_of(index);
	uint64_t done = 0;
	int locked, miss = 0;

	if (!v)
		return;
	locked = take_lock();
	if (recording && v->prev)
		record_branch(v, v->prev, b);
	if (!modelled) {
		v->prev = b;
		drop_lock(locked);
		return;
	}
	if (v->prev && timed)
		done = time_block(v, v->prev);
	if (v->prev && v->prev->kind != EXIT_OTHER) {
		miss = predictor_resolve(&v->bp, v->prev->kind, v->prev->last_pc,
					 v->prev->fallthrough, b->pc);
		v->now.branches++;
		v->now.branch_misses += (uint64_t)miss;
		if (miss && timed)
			core_redirect(&v->core, done, t_penalty);
	}
	prev = v->prev;
	v->prev = b;
	v->now.instructions += b->insns;
	if (front_end) {
		fetch_block(v, b, prev, miss, done);
		drop_lock(locked);
		return;
	}
	for (unsigned i = 0; i < b->nr_fetch; i++) {
		int r = cache_access(&v->l1i, b->fetch[i]);

		if (r != CACHE_HIT) {
			uint64_t t;

			v->now.l1i_misses++;
			t = beyond_l1(v, b->fetch[i], r == CACHE_TAKEN_MISS);
			if (timed)
				core_fetch_stall(&v->core, t);
		}
	}
	drop_lock(locked);
}

/* The ticks the line took to come. */
static uint64_t data_access(struct vcpu *v, uint64_t addr, int store)
{
	int r = cache_access(&v->l1d, addr);
	uint64_t t = t_l1;

	if (r != CACHE_HIT) {
		v->now.l1d_misses++;
		t = beyond_l1(v, addr, r == CACHE_TAKEN_MISS);
	}
	if (store && nr_ready > 1)
		take_line(v, addr);
	return t;
}

/* What instruction k of the running block loaded or stored: the slowest of its loads. */
static void note_access(struct vcpu *v, uintptr_t k, uint64_t addr, int store, uint64_t t)
{
	struct access *a;

	if (!timed || k >= MAX_BLOCK_INSNS)
		return;
	a = &v->acc[k];
	if (store) {
		if (a->kind != CORE_LOAD) {
			a->kind = CORE_STORE;
			a->addr = addr;
		}
		return;
	}
	if (a->kind != CORE_LOAD)
		a->addr = addr;
	a->kind = CORE_LOAD;
	if (t > a->load_ticks)
		a->load_ticks = t;
}

static void mem_exec(unsigned int index, qemu_plugin_meminfo_t info, uint64_t vaddr,
		     void *udata)
{
	struct vcpu *v = vcpu_of(index);
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uint64_t addr = vaddr, size = 1ull << qemu_plugin_mem_size_shift(info);
	int store, locked;
	uint64_t t;

	if (!v)
		return;
	/* Device registers are not memory; system mode caches physical lines. */
	if (hw) {
		if (qemu_plugin_hwaddr_is_io(hw))
			return;
		addr = qemu_plugin_hwaddr_phys_addr(hw);
	}
	store = qemu_plugin_mem_is_store(info);
	locked = take_lock();
	if (store)
		v->now.stores++;
	else
		v->now.loads++;
	t = v->dtlb.on ? translate(v, &v->dtlb, vaddr, hw ? addr : 0, &v->now.dtlb_misses) : 0;
	t += data_access(v, addr, store);
	if ((addr >> line_shift) != ((addr + size - 1) >> line_shift)) {
		uint64_t t2 = data_access(v, addr + size - 1, store);

		t = t2 > t ? t2 : t;
	}
	note_access(v, (uintptr_t)udata, addr, store, t);
	drop_lock(locked);
}

static void write_sample(const struct counters *d)
{
	char buf[512];
	double cycles = timed ? (double)d->core_ticks / (double)profile.width :
		model_cycles(&profile, d);
	int n = snprintf(buf, sizeof(buf), "sample cycles=%.0f", cycles);

#define X(e) n += snprintf(buf + n, sizeof(buf) - (size_t)n, " " #e "=%" PRIu64, d->e);
	KB_EVENTS(X)
#undef X
	buf[n++] = '\n';
	/* Unbuffered: QEMU may end by exit() from a device, past any atexit hook. */
	if (write(out_fd, buf, (size_t)n) != n)
		fprintf(stderr, "kbench-model: cannot write a sample record\n");
}

/* Every vCPU's events so far; the caller holds the lock when there is one. */
static void sum_counters(struct counters *d)
{
	memset(d, 0, sizeof(*d));
	for (unsigned i = 0; i < nr_ready; i++) {
#define X(e) d->e += ready[i]->now.e;
		KB_EVENTS(X)
#undef X
		d->core_ticks += ready[i]->now.core_ticks;
	}
}

static void marker_exec(unsigned int index, void *udata)
{
	struct counters d;
	int locked;

	if (!vcpu_of(index))
		return;
	switch ((int)(uintptr_t)udata) {
	case KB_MARK_START:
		locked = take_lock();
		sum_counters(&window_start);
		in_window = 1;
		drop_lock(locked);
		break;
	case KB_MARK_END:
		locked = take_lock();
		if (!in_window || !modelled) {
			in_window = 0;
			drop_lock(locked);
			break;
		}
		in_window = 0;
		sum_counters(&d);
#define X(e) d.e -= window_start.e;
		KB_EVENTS(X)
#undef X
		d.core_ticks -= window_start.core_ticks;
		drop_lock(locked);
		write_sample(&d);
		break;
	case KB_MARK_ROW:
		if (modelled && write(out_fd, "row\n", 4) != 4)
			fprintf(stderr, "kbench-model: cannot write a row record\n");
		break;
	}
}

static void whole_exit(qemu_plugin_id_t id, void *p)
{
	struct counters d;
	int locked;

	(void)id;
	(void)p;
	/* qemu-user's other threads may still run. */
	locked = take_lock();
	sum_counters(&d);
	drop_lock(locked);
	write_sample(&d);
}

/* Where an instruction's bytes are cached: its host address, stable across address spaces. */
static uint64_t fetch_addr(const struct qemu_plugin_insn *insn)
{
	void *h = qemu_plugin_insn_haddr(insn);

	return h ? (uint64_t)(uintptr_t)h : qemu_plugin_insn_vaddr(insn);
}

/* Instruction i's bytes at addr (vaddr), size long: the windows they open. */
static void add_windows(struct block *b, size_t i, uint64_t addr, uint64_t vaddr, size_t size)
{
	uint64_t first = addr >> window_shift, last = (addr + size - 1) >> window_shift;

	for (uint64_t w = first; w <= last; w++)
		if (!b->nr_win || b->win[b->nr_win - 1].addr != w << window_shift) {
			b->win[b->nr_win].addr = w << window_shift;
			b->win[b->nr_win].vaddr = vaddr + ((w << window_shift) - addr);
			b->nr_win++;
		}
	b->win_of[i] = (uint16_t)(b->nr_win - 1);
}

static void block_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), max_fetch = 2 * n, nr = 0;
	struct block *b;

	(void)id;
	if (!n)
		return;
	b = calloc(1, sizeof(*b) + max_fetch * sizeof(uint64_t));
	if (b && timed)
		b->info = calloc(n, sizeof(*b->info));
	if (b && front_end) {
		b->win = calloc(2 * n + 1, sizeof(*b->win));
		b->win_of = calloc(n, sizeof(*b->win_of));
	}
	if (!b || (timed && !b->info) || (front_end && (!b->win || !b->win_of))) {
		/* Unmeasured, not wrong: the block still runs. */
		fprintf(stderr, "kbench-model: out of memory for a block\n");
		if (b) {
			free(b->info);
			free(b->win);
			free(b->win_of);
		}
		free(b);
		return;
	}
	b->pc = qemu_plugin_tb_vaddr(tb);
	b->insns = (unsigned)n;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		uint64_t first = fetch_addr(insn) >> line_shift;
		uint64_t last = (fetch_addr(insn) + size - 1) >> line_shift;
		int m = decode_marker(isa, bytes, size);

		for (uint64_t l = first; l <= last && nr < max_fetch; l++)
			if (!nr || b->fetch[nr - 1] != l << line_shift)
				b->fetch[nr++] = l << line_shift;
		if (front_end)
			add_windows(b, i, fetch_addr(insn), qemu_plugin_insn_vaddr(insn), size);
		if (m != KB_MARK_NONE)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)m);
		/* One callback for both: QEMU 7.2 stops at the first that is not the access's kind. */
		if (modelled)
			qemu_plugin_register_vcpu_mem_cb(insn, mem_exec, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)i);
		if (timed) {
			char *text = qemu_plugin_insn_disas(insn);

			insn_read(isa, text, &b->info[i]);
			free(text);
		}
		if (i == n - 1) {
			b->last_pc = qemu_plugin_insn_vaddr(insn);
			b->fallthrough = b->last_pc + size;
			b->kind = decode_exit(isa, bytes, size);
		}
	}
	b->nr_fetch = (unsigned)nr;
	/* Blocks live as long as QEMU: the 7.2 API says nothing of their flush. */
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

/* Which parts of the front end the profile has; without fetch_bytes a window is a line. */
static void front_end_setup(void)
{
	double w = (double)profile.width;

	front_end = kb_profile_front_end(&profile);
	prefetching = profile.prefetch > 0;
	btb_on = profile.btb1[0] > 0;
	window_shift = line_shift;
	if (profile.fetch_bytes) {
		t_window = profile.width / (profile.fetch_windows ? profile.fetch_windows : 1);
		window_shift = 0;
		while ((1ul << window_shift) < profile.fetch_bytes)
			window_shift++;
	}
	t_window_op = profile.opcache[2] ? profile.width / profile.opcache[2] : t_window;
	t_bubble[0] = (uint64_t)profile.btb1[2] * profile.width;
	t_bubble[1] = (uint64_t)profile.btb2[2] * profile.width;
	t_redirect = (uint64_t)(profile.btb_redirect * w + 0.5);
	t_tlb = (uint64_t)(profile.tlb_latency * w + 0.5);
}

static int parse_args(int argc, char **argv, const char **profile_path, const char **out,
		      const char **branches)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "profile=", 8))
			*profile_path = argv[i] + 8;
		else if (!strncmp(argv[i], "out=", 4))
			*out = argv[i] + 4;
		else if (!strcmp(argv[i], "whole=on") || !strcmp(argv[i], "whole=off"))
			whole = !strcmp(argv[i], "whole=on");
		else if (!strncmp(argv[i], "branches=", 9))
			*branches = argv[i] + 9;
		else if (!strncmp(argv[i], "kernel=", 7))
			kernel_base = strtoull(argv[i] + 7, NULL, 0);
		else if (!strncmp(argv[i], "period=", 7) &&
			 (record_period = strtoull(argv[i] + 7, NULL, 0)) > 0)
			continue;
		else {
			fprintf(stderr, "kbench-model: bad argument '%s' (profile=FILE, out=FILE, "
				"whole=on, branches=FILE, kernel=ADDR, period=N)\n", argv[i]);
			return -1;
		}
	}
	if (!*branches && (!*profile_path || !*out)) {
		fprintf(stderr, "kbench-model: needs profile=FILE and out=FILE, or branches=FILE\n");
		return -1;
	}
	if (!*profile_path != !*out) {
		fprintf(stderr, "kbench-model: profile=FILE and out=FILE go together\n");
		return -1;
	}
	return 0;
}

/* The model's part of the install: its profile, timing, records and LLC. */
static int model_install(const char *path, const char *out)
{
	char err[512], head[128];
	int n;

	if (kb_profile_load(&profile, path, err, sizeof(err))) {
		fprintf(stderr, "kbench-model: %s\n", err);
		return -1;
	}
	while ((1ul << line_shift) < profile.l1i.line)
		line_shift++;
	timed = profile.width && isa != ISA_OTHER;
	if (timed) {
		double w = (double)profile.width;

		t_l1 = (uint64_t)(profile.l1_latency * w + 0.5);
		t_l2 = (uint64_t)(profile.l2_latency * w + 0.5);
		t_llc = (uint64_t)(profile.llc_latency * w + 0.5);
		t_memory = (uint64_t)(profile.memory_latency * w + 0.5);
		t_coherence = (uint64_t)(profile.coherence_latency * w + 0.5);
		t_penalty = (uint64_t)(profile.branch_penalty * w + 0.5);
		front_end_setup();
	}
	out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (out_fd < 0) {
		perror(out);
		return -1;
	}
	if (cache_init(&llc, &profile.llc)) {
		fprintf(stderr, "kbench-model: out of memory for the LLC\n");
		return -1;
	}
	n = snprintf(head, sizeof(head), "model profile=%s\n", profile.name);
	if (write(out_fd, head, (size_t)n) != n)
		return -1;
	modelled = 1;
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *out = NULL, *branches = NULL;

	if (parse_args(argc, argv, &path, &out, &branches))
		return -1;
	isa = !strcmp(info->target_name, "x86_64") || !strcmp(info->target_name, "i386") ?
		ISA_X86 : !strcmp(info->target_name, "aarch64") ? ISA_ARM64 : ISA_OTHER;
	system_mode = info->system_emulation;
	if (path && model_install(path, out))
		return -1;
	/* Without the model a block's lines are not looked at: any size will do. */
	if (!modelled)
		line_shift = 6;
	if (branches) {
		branches_fd = open(branches, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
				   0644);
		if (branches_fd < 0) {
			perror(branches);
			return -1;
		}
		recording = 1;
	}
	if (!info->system_emulation) {
		locking = 1;
		vcpu_init(id, 0);
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_trans);
	if (whole && modelled)
		qemu_plugin_register_atexit_cb(id, whole_exit, NULL);
	return 0;
}
