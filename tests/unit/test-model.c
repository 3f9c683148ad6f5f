// SPDX-License-Identifier: GPL-2.0
/* The cost model's core timing (kbench/model/timing.c), what it reads of
 * an instruction (kbench/model/insn.c) and its branch predictor
 * (kbench/model/branch.c), without QEMU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim.h"

#include <string.h>

static int has(const uint8_t *regs, unsigned n, int r)
{
	for (unsigned i = 0; i < n; i++)
		if (regs[i] == r)
			return 1;
	return 0;
}

/* Registers as insn.c numbers them: rax 1, rbx 2, rcx 3, rdx 4, ..., flags 49. */
enum { RAX = 1, RBX, RCX, RDX, RSI, RDI, XMM0 = 17, FLAGS = 49 };

static struct insn_info x86(const char *text)
{
	struct insn_info in;

	insn_read(ISA_X86, text, &in);
	return in;
}

static void test_x86_operands(void **state)
{
	struct insn_info in;

	(void)state;
	/* A load: waits for its address, writes its destination, no latency of its own. */
	in = x86("movq 0x10(%rdx), %rax");
	assert_int_equal(in.nsrc, 1);
	assert_true(has(in.src, in.nsrc, RDX) && has(in.dst, in.ndst, RAX) && in.move);
	/* Two operands: the destination is read too, and the flags written. */
	in = x86("addq %rbx, %rcx");
	assert_true(has(in.src, in.nsrc, RBX) && has(in.src, in.nsrc, RCX));
	assert_true(has(in.dst, in.ndst, RCX) && has(in.dst, in.ndst, FLAGS));
	/* A store writes no register; its address and data are waited for. */
	in = x86("movq %rdx, (%rcx, %rax, 8)");
	assert_int_equal(in.ndst, 0);
	assert_true(has(in.src, in.nsrc, RDX) && has(in.src, in.nsrc, RCX) &&
		    has(in.src, in.nsrc, RAX));
	/* The zero idiom depends on nothing. */
	in = x86("xorl %eax, %eax");
	assert_int_equal(in.nsrc, 0);
	assert_true(has(in.dst, in.ndst, RAX));
	/* A conditional jump waits for the flags; %rsp never holds anything up. */
	in = x86("jne 0x401640");
	assert_true(has(in.src, in.nsrc, FLAGS));
	in = x86("movq (%rsp), %rsi");
	assert_int_equal(in.nsrc, 0);
	/* Implicit operands and latencies. */
	in = x86("divq %rcx");
	assert_true(has(in.src, in.nsrc, RAX) && has(in.src, in.nsrc, RDX) &&
		    has(in.dst, in.ndst, RDX) && in.lat == 19);
	assert_int_equal(x86("imulq %rbx, %rcx").lat, 3);
	/* AVX's three operands: the last is written, not read; an FMA's is read. */
	in = x86("vpaddd %ymm1, %ymm2, %ymm3");
	assert_false(has(in.src, in.nsrc, XMM0 + 3));
	in = x86("vfmadd231ps %ymm1, %ymm2, %ymm0");
	assert_true(has(in.src, in.nsrc, XMM0));
	/* A locked instruction waits for everything before it. */
	assert_true(x86("lock addl $1, (%rax)").serial);
	/* What is not understood waits for nothing and takes a cycle. */
	in = x86("frobnicate %zz9, what");
	assert_int_equal(in.nsrc, 0);
	assert_int_equal(in.lat, 1);
}

static void test_arm64_operands(void **state)
{
	struct insn_info in;

	(void)state;
	insn_read(ISA_ARM64, "ldr x0, [x1, #8]", &in);
	assert_true(has(in.src, in.nsrc, 2) && has(in.dst, in.ndst, 1) && in.move);
	/* Post-index writes the base back; a number is not a register. */
	insn_read(ISA_ARM64, "ldp x1, x2, [x0], #16", &in);
	assert_true(has(in.dst, in.ndst, 1) && has(in.dst, in.ndst, 2) && has(in.dst, in.ndst, 3));
	insn_read(ISA_ARM64, "cbz x3, #0x10", &in);
	assert_int_equal(in.nsrc, 1);
	/* A store's registers are all read. */
	insn_read(ISA_ARM64, "stp x29, x30, [sp, #-16]!", &in);
	assert_int_equal(in.ndst, 0);
	assert_true(has(in.src, in.nsrc, 30) && has(in.src, in.nsrc, 31));
	/* The divider's latency grows with the register's width. */
	insn_read(ISA_ARM64, "sdiv x0, x1, x2", &in);
	assert_int_equal(in.lat, 20);
	insn_read(ISA_ARM64, "udiv w0, w1, w2", &in);
	assert_int_equal(in.lat, 12);
}

/* Latencies read from the disassembly: a divide takes longer the wider its operand. */
static void test_x86_latencies(void **state)
{
	struct insn_info in;

	(void)state;
	assert_int_equal(x86("divb %dil").lat, 10);
	assert_int_equal(x86("divw %r9w").lat, 12);
	assert_int_equal(x86("divl %r10d").lat, 14);
	assert_int_equal(x86("idivq %rsi").lat, 19);
	assert_int_equal(x86("divl 0xa2b66(%rip)").lat, 14);
	assert_int_equal(x86("div %rcx").lat, 19);
	assert_int_equal(x86("idiv %ecx").lat, 14);
	assert_int_equal(x86("div %cl").lat, 10);
	/* divss is a vector divide: no rax and rdx, single precision's latency. */
	in = x86("divss %xmm1, %xmm2");
	assert_int_equal(in.lat, 11);
	assert_false(has(in.src, in.nsrc, RAX) || has(in.dst, in.ndst, RDX));
	assert_int_equal(x86("divsd %xmm1, %xmm2").lat, 13);
	/* Three address parts cost a cycle more than two. */
	assert_int_equal(x86("leaq 8(%rdx, %rax, 8), %rdi").lat, 2);
	assert_int_equal(x86("leaq (%rdx, %rax, 8), %rdi").lat, 1);
	assert_int_equal(x86("leaq 0x10(%rip), %rdi").lat, 1);
	/* One-operand multiply: the high half in rdx is a cycle later. */
	assert_int_equal(x86("mulq %rbx").lat, 4);
}

static const struct kb_profile core6 = { .width = 6, .rob = 8 };

/* n instructions, each load's latency t (cycles; 0: no load), in cycles. */
static double run(struct core *c, const char *const *text, size_t n, unsigned t)
{
	for (size_t i = 0; i < n; i++) {
		struct insn_info in = x86(text[i]);

		core_insn(c, &in, (uint64_t)t * 6, t ? CORE_LOAD : CORE_NONE, 0x1000 + 64 * i, 0);
	}
	return (double)c->retired / 6;
}

static void test_dependences(void **state)
{
	static const char *const chain[] = { "movq (%rax), %rax", "movq (%rax), %rax",
					     "movq (%rax), %rax", "movq (%rax), %rax" };
	static const char *const apart[] = { "movq (%rax), %rbx", "movq 8(%rax), %rcx",
					     "movq 16(%rax), %rdx", "movq 24(%rax), %rsi" };
	static const char *const adds[] = { "addq %rax, %rbx", "addq %rax, %rcx",
					    "addq %rax, %rdx", "addq %rax, %rsi",
					    "addq %rax, %rdi", "addq %rax, %r8" };
	struct core c;

	(void)state;
	/* A dependent chain of memory loads: each waits for the one before. */
	assert_int_equal(core_init(&c, &core6), 0);
	assert_true(run(&c, chain, 4, 350) >= 4 * 350);
	core_release(&c);
	/* The same loads from addresses known at once: they overlap. */
	assert_int_equal(core_init(&c, &core6), 0);
	assert_true(run(&c, apart, 4, 350) < 352);
	core_release(&c);
	/* Six independent adds: one cycle, the width's. */
	assert_int_equal(core_init(&c, &core6), 0);
	assert_true(run(&c, adds, 6, 0) <= 2);
	core_release(&c);
}

/* A full window waits: 16 independent misses through an 8-entry window take two latencies. */
static void test_window(void **state)
{
	static const char *const load[] = { "movq (%rax), %rbx" };
	struct core c;
	double t;

	(void)state;
	assert_int_equal(core_init(&c, &core6), 0);
	for (int i = 0; i < 16; i++)
		t = run(&c, load, 1, 100);
	assert_true(t >= 200 && t < 205);
	core_release(&c);
}

/* A load from where a store wrote waits for the store's data. */
static void test_store_forwarding(void **state)
{
	struct core c;
	struct insn_info div = x86("divq %rcx"), st = x86("movq %rax, (%rbx)"),
			 ld = x86("movq (%rbx), %rsi"), use = x86("addq %rsi, %rdi");

	(void)state;
	assert_int_equal(core_init(&c, &core6), 0);
	core_insn(&c, &div, 0, CORE_NONE, 0, 0);
	core_insn(&c, &st, 0, CORE_STORE, 0x2000, 0);
	core_insn(&c, &ld, 4 * 6, CORE_LOAD, 0x2000, 0);
	assert_true(core_insn(&c, &use, 0, CORE_NONE, 0, 0) >= (14 + 4 + 1) * 6);
	core_release(&c);
	/* Another address does not wait. */
	assert_int_equal(core_init(&c, &core6), 0);
	core_insn(&c, &div, 0, CORE_NONE, 0, 0);
	core_insn(&c, &st, 0, CORE_STORE, 0x2000, 0);
	core_insn(&c, &ld, 4 * 6, CORE_LOAD, 0x3000, 0);
	assert_true(core_insn(&c, &use, 0, CORE_NONE, 0, 0) < 14 * 6);
	core_release(&c);
}

/* A mispredicted branch: the front end resumes after it resolves and the penalty. */
static void test_redirect(void **state)
{
	struct core c;
	struct insn_info ld = x86("movq (%rax), %rbx"), cmp = x86("cmpq $0, %rbx"),
			 jne = x86("jne 0x1000"), next = x86("addq $1, %rcx");
	uint64_t done;

	(void)state;
	assert_int_equal(core_init(&c, &core6), 0);
	core_insn(&c, &ld, 50 * 6, CORE_LOAD, 0x1000, 0);
	core_insn(&c, &cmp, 0, CORE_NONE, 0, 0);
	done = core_insn(&c, &jne, 0, CORE_NONE, 0, 0);
	assert_true(done >= 52 * 6);
	core_redirect(&c, done, 13 * 6);
	assert_true(core_insn(&c, &next, 0, CORE_NONE, 0, 0) >= done + 13 * 6);
	core_release(&c);
}

/*
 * An interpreter's dispatch: one indirect jump going round three targets.
 * The target buffer alone (the last target) misses every time; the path
 * table, which knows where the jump went before, learns the round.
 */
static void test_indirect_path(void **state)
{
	struct kb_profile p = { .bp_history = 12, .btb_entries = 4096, .ras_depth = 16 };
	struct predictor bp;
	const uint64_t pc = 0x401000, next[] = { 0x402000, 0x403000, 0x404000 };
	int late = 0;

	(void)state;
	assert_int_equal(predictor_init(&bp, &p), 0);
	for (int i = 0; i < 300; i++) {
		int miss = predictor_resolve(&bp, EXIT_IJUMP, pc, pc + 2, next[i % 3]);

		late += i >= 30 && miss;
	}
	assert_int_equal(late, 0);
	predictor_release(&bp);
}

/*
 * A branch taken every fourth time, between others always taken: TAGE's
 * tables learn the round from the history; a profile without it is
 * gshare, as before.  The tables' histories are geometric, MIN to MAX.
 */
static void test_tage(void **state)
{
	struct kb_profile p = { .bp_history = 12, .btb_entries = 64, .ras_depth = 16,
				.tage = { 6, 10, 4, 200 } };
	struct predictor bp;
	int late = 0;

	(void)state;
	assert_int_equal(predictor_init(&bp, &p), 0);
	assert_non_null(bp.tage);
	assert_int_equal(bp.tage->tb[0].len, 4);
	assert_int_equal(bp.tage->tb[5].len, 200);
	for (int i = 1; i < 6; i++)
		assert_true(bp.tage->tb[i].len > bp.tage->tb[i - 1].len);
	for (int i = 0; i < 4000; i++) {
		int taken = i % 4 == 0, miss;

		for (int j = 0; j < 30; j++)
			predictor_resolve(&bp, EXIT_COND, 0x402000 + 4 * j, 0x402002 + 4 * j, 0x403000);
		miss = predictor_resolve(&bp, EXIT_COND, 0x401000, 0x401002,
					 taken ? 0x401100 : 0x401002);
		late += i >= 1000 && miss;
	}
	assert_int_equal(late, 0);
	predictor_release(&bp);
	p.tage[0] = 0;
	assert_int_equal(predictor_init(&bp, &p), 0);
	assert_null(bp.tage);
	predictor_release(&bp);
}

/*
 * Taken branches in the target buffers: a branch the first level holds
 * is found there; one the first level dropped, in the second; one
 * neither ever saw, in neither.
 */
static void test_btb_levels(void **state)
{
	struct kb_profile p = { .btb1 = { 4, 4, 0 }, .btb2 = { 64, 4, 3 } };
	struct frontend f;

	(void)state;
	assert_int_equal(frontend_init(&f, &p), 0);
	assert_int_equal(frontend_btb(&f, 0x1000), 2);
	assert_int_equal(frontend_btb(&f, 0x1000), 0);
	for (uint64_t pc = 0x2000; pc < 0x2000 + 8; pc++)
		frontend_btb(&f, pc);
	assert_int_equal(frontend_btb(&f, 0x1000), 1);
	assert_int_equal(frontend_btb(&f, 0x9000), 2);
	assert_int_equal(f.btb_bubble[1], 3);
	frontend_release(&f);
}

/*
 * Lines in flight: with two, a third miss asked for at once waits for
 * the first to come; without a bound, all three come together.
 */
static void test_misses_in_flight(void **state)
{
	struct kb_profile p = { .prefetch = 8, .fetch_misses = 2 };
	struct frontend f;

	(void)state;
	assert_int_equal(frontend_init(&f, &p), 0);
	assert_int_equal(frontend_miss(&f, 100, 50), 150);
	assert_int_equal(frontend_miss(&f, 100, 50), 150);
	assert_int_equal(frontend_miss(&f, 100, 50), 200);
	frontend_release(&f);
	p.fetch_misses = 0;
	assert_int_equal(frontend_init(&f, &p), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(frontend_miss(&f, 100, 50), 150);
	frontend_release(&f);
}

/* The queue to dispatch: the next block may be fetched once the block prefetch ago dispatched. */
static void test_fetch_queue(void **state)
{
	struct kb_profile p = { .prefetch = 3 };
	struct frontend f;

	(void)state;
	assert_int_equal(frontend_init(&f, &p), 0);
	frontend_dispatched(&f, 10);
	frontend_dispatched(&f, 20);
	assert_int_equal(frontend_room(&f), 0);
	frontend_dispatched(&f, 30);
	assert_int_equal(frontend_room(&f), 10);
	frontend_dispatched(&f, 40);
	assert_int_equal(frontend_room(&f), 20);
	frontend_release(&f);
}

/*
 * Pages: 4 KiB in user space, 2 MiB in a system's upper half; the same
 * virtual page mapped in two places is two entries.
 */
static void test_tlb_pages(void **state)
{
	const unsigned long geom[4] = { 2, 2, 8, 2 };
	uint64_t kernel = 0xffffffff81000000ull;
	struct tlb t;

	(void)state;
	assert_int_equal(tlb_vpage(1, 0x401000), tlb_vpage(1, 0x401fff));
	assert_int_not_equal(tlb_vpage(1, 0x401000), tlb_vpage(1, 0x402000));
	assert_int_equal(tlb_vpage(1, kernel), tlb_vpage(1, kernel + 0x1fffff));
	assert_int_not_equal(tlb_vpage(0, kernel), tlb_vpage(0, kernel + 0x1fffff));
	assert_int_not_equal(tlb_key(tlb_vpage(1, 0x401000), 0x10000),
			     tlb_key(tlb_vpage(1, 0x401000), 0x20000));
	assert_int_equal(tlb_key(tlb_vpage(1, kernel), 0x1000000),
			 tlb_key(tlb_vpage(1, kernel + 0x1000), 0x1001000));
	assert_int_equal(tlb_init(&t, geom), 0);
	assert_int_equal(tlb_access(&t, 1), TLB_WALK);
	assert_int_equal(tlb_access(&t, 1), TLB_HIT);
	tlb_access(&t, 2);
	tlb_access(&t, 3);
	assert_int_equal(tlb_access(&t, 1), TLB_L2_HIT);
	tlb_release(&t);
	/* Eight entries a line: neighbouring pages' entries share one. */
	assert_int_equal(tlb_entry_addr(8) >> 6, tlb_entry_addr(15) >> 6);
	assert_int_not_equal(tlb_entry_addr(8) >> 6, tlb_entry_addr(16) >> 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_operands),
		cmocka_unit_test(test_arm64_operands),
		cmocka_unit_test(test_x86_latencies),
		cmocka_unit_test(test_dependences),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_store_forwarding),
		cmocka_unit_test(test_redirect),
		cmocka_unit_test(test_indirect_path),
		cmocka_unit_test(test_tage),
		cmocka_unit_test(test_btb_levels),
		cmocka_unit_test(test_misses_in_flight),
		cmocka_unit_test(test_fetch_queue),
		cmocka_unit_test(test_tlb_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
