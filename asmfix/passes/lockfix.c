// SPDX-License-Identifier: GPL-2.0
/*
 * lockfix: the icc atomic_dec_and_lock miscompile (Kubbilun 2004,
 * Listing 2).  icc hands an inline asm "m" operand over as a stack copy
 * of the shared object, so the locked instruction works on the copy:
 *
 *	movl	(%ebx), %ecx		# load of atomic->counter
 *	movl	%ecx, 12(%esp)		# stack copy
 *	lock; cmpxchgl %esi,12(%esp)	# should have been (%ebx)
 *
 * A lock-prefixed instruction (or xchg with memory, implicitly locked)
 * whose memory operand is a %esp/%ebp/%rsp/%rbp slot that, in the same
 * basic block, was stored from a register loaded from (reg) or off(reg),
 * gets the real address when that is provable: the address register is
 * unchanged between the load and the locked instruction, and the slot is
 * not read afterwards in the function.  Otherwise: an error naming the
 * function and the line.  Barriers that lock a stack location on purpose
 * ("lock orl $0,(%esp)", "lock; addl $0,0(%rsp)") are never touched, and
 * neither is a locked slot that was not filled from such a load.
 */
#include "../internal.h"
#include "../section.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PENDING 16
#define MAX_SLOTS 32

struct regval {
	int valid;		/* holds a value loaded from memory */
	int addr_reg;
	unsigned long load_line, clobber_line;	/* clobber: addr_reg changed */
	char addr[64];		/* the load's source operand, e.g. "8(%ebx)" */
};

struct slot {
	int base;
	long long canon;	/* disp, adjusted for %esp moves */
	unsigned long store_line;
	struct regval src;	/* what was stored (valid=0: not a load) */
};

struct pending {
	unsigned long line;
	int base;
	long long canon;
	struct strbuf newline;
	char slot_text[64];
};

/* A line of the block: in the input chunk (p) until chunk_done copies it to text (off). */
struct blk_line {
	const char *p;
	size_t off, len;
	unsigned long no;
};

struct lockfix {
	/*
	 * The current basic block: its instruction lines.  Most blocks end
	 * within their chunk, so a line is copied only when its chunk ends.
	 */
	struct strbuf text;
	size_t ncopied;		/* lines[0..ncopied) are in text */
	struct blk_line *lines;
	size_t nr, alloc;
	int other_depth;	/* inside a .pushsection/.section away from the code */
	char func[128];		/* current function, for messages */
	/* rewrites waiting for the end of the function */
	struct pending pend[MAX_PENDING];
	int npend;
	long long fwd_delta, lock_delta;	/* %esp moves after the locked insn */
	int fwd_unknown;
	struct asm_lexer lx;
	/* block analysis state */
	struct regval reg[REG_NR];
	struct slot slots[MAX_SLOTS];
	int nslots;
	long long delta;
	int esp_unknown;
};

static void *lf_init(struct asmfix_ctx *ctx)
{
	(void)ctx;
	return xcalloc(1, sizeof(struct lockfix));
}

static void lf_release(void *data)
{
	struct lockfix *l = data;
	strbuf_release(&l->text);
	free(l->lines);
	for (int i = 0; i < MAX_PENDING; i++)
		strbuf_release(&l->pend[i].newline);
	asmfix_lexer_release(&l->lx);
	free(l);
}

/* Every label and jump resets the block: cheap when it is empty already. */
static void block_reset(struct lockfix *l)
{
	l->nr = l->ncopied = 0;
	if (l->text.len)
		strbuf_reset(&l->text);
}

static void block_add(struct lockfix *l, const struct asm_line *ln)
{
	struct blk_line *b;

	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 64;
		l->lines = xrealloc(l->lines, sizeof(*l->lines) * l->alloc);
	}
	b = &l->lines[l->nr++];
	b->p = ln->p;
	b->len = ln->len;
	b->no = ln->no;
}

static const char *block_text(const struct lockfix *l, size_t i)
{
	return i < l->ncopied ? l->text.buf + l->lines[i].off : l->lines[i].p;
}

/* The chunk is about to be reused: copy the block's lines still in it. */
static void lf_chunk_done(struct asmfix_ctx *ctx, void *data)
{
	struct lockfix *l = data;
	(void)ctx;
	if (!l->ncopied && l->text.len)	/* emptied by a jump since (lf_plain_insn) */
		strbuf_reset(&l->text);
	for (; l->ncopied < l->nr; l->ncopied++) {
		struct blk_line *b = &l->lines[l->ncopied];
		b->off = l->text.len;
		strbuf_add(&l->text, b->p, b->len);
	}
}

/* ---- instruction semantics (just enough) ---- */

static int name_is(struct asm_str n, const char *base)
{
	size_t b = strlen(base);
	if (n.len < b || memcmp(n.p, base, b))
		return 0;
	/* base, or base + one size suffix */
	return n.len == b || (n.len == b + 1 && strchr("bwlq", n.p[b]));
}

static int op_width(struct asm_str name, struct asm_str op)
{
	int w = 0;
	if (asmfix_reg(op, &w) >= 0 && w)
		return w;
	switch (name.p[name.len - 1]) {
	case 'w': return 2;
	case 'q': return 8;
	default: return 4;
	}
}

/* A %esp/%ebp-based slot with a constant displacement. */
static int stack_slot(struct asm_str op, int *base, long long *disp)
{
	struct asm_mem m;
	long long d = 0;
	if (!asmfix_parse_mem(op, &m) || m.has_seg || m.index != REG_NONE)
		return 0;
	if (m.base != REG_SP && m.base != REG_BP)
		return 0;
	if (m.disp.len && asmfix_parse_int(m.disp, &d))
		return 0;
	*base = m.base;
	*disp = d;
	return 1;
}

static long long canon(struct lockfix *l, int base, long long disp)
{
	return base == REG_SP ? disp + l->delta : disp;
}

static struct slot *find_slot(struct lockfix *l, int base, long long c)
{
	for (int i = 0; i < l->nslots; i++)
		if (l->slots[i].base == base && l->slots[i].canon == c)
			return &l->slots[i];
	return NULL;
}

static void clobber(struct lockfix *l, int r, unsigned long no)
{
	if (r < 0 || r >= REG_OTHER)
		return;
	l->reg[r].valid = 0;
	for (int i = 0; i < REG_OTHER; i++)
		if (l->reg[i].valid && l->reg[i].addr_reg == r && !l->reg[i].clobber_line)
			l->reg[i].clobber_line = no;
	for (int i = 0; i < l->nslots; i++)
		if (l->slots[i].src.valid && l->slots[i].src.addr_reg == r &&
		    !l->slots[i].src.clobber_line)
			l->slots[i].src.clobber_line = no;
	if (r == REG_SP)
		l->esp_unknown = 1;
}

static void store_slot(struct lockfix *l, int base, long long disp,
		       const struct regval *src, unsigned long no)
{
	long long c = canon(l, base, disp);
	struct slot *s = find_slot(l, base, c);
	if (!s) {
		if (l->nslots == MAX_SLOTS)
			memmove(l->slots, l->slots + 1, sizeof(l->slots[0]) * (MAX_SLOTS - 1)), l->nslots--;
		s = &l->slots[l->nslots++];
	}
	s->base = base;
	s->canon = c;
	s->store_line = no;
	if (src)
		s->src = *src;
	else
		memset(&s->src, 0, sizeof(s->src));
}

static const char *const no_write[] = {
	"cmp", "test", "bt", "push", "jmp", "ret", "nop", "prefetch", "lfence",
	"mfence", "sfence", "clflush", "ud2", "int3", "pause", "hlt", NULL,
};

static int writes_nothing(struct asm_str n)
{
	if (n.len >= 2 && n.p[0] == 'j')
		return 1;
	for (int i = 0; no_write[i]; i++) {
		size_t b = strlen(no_write[i]);
		if (n.len >= b && !memcmp(n.p, no_write[i], b)) {
			/* bts/btr/btc write; prefetchw does not */
			if (!strcmp(no_write[i], "bt") && n.len > 2 && strchr("src", n.p[2]))
				return 0;
			return 1;
		}
	}
	return 0;
}

/* %esp moves of push/pop/add/sub with an immediate; 0 = not such an insn. */
static int esp_move(struct asm_stmt *st, long long *d)
{
	long long v;
	if (asmfix_str_has_prefix(st->name, "push") && st->nops == 1) {
		*d = -op_width(st->name, st->ops[0]);
		return 1;
	}
	if (asmfix_str_has_prefix(st->name, "pop") && st->nops == 1) {
		*d = op_width(st->name, st->ops[0]);
		return 1;
	}
	if (st->nops == 2 && (name_is(st->name, "add") || name_is(st->name, "sub")) &&
	    asmfix_reg(st->ops[1], NULL) == REG_SP && st->ops[0].p[0] == '$') {
		struct asm_str imm = { st->ops[0].p + 1, st->ops[0].len - 1 };
		if (asmfix_parse_int(imm, &v))
			return 0;
		*d = st->name.p[0] == 'a' ? v : -v;
		return 1;
	}
	return 0;
}

/* Simulate one instruction of the block. */
static void sim_insn(struct lockfix *l, struct asm_stmt *st, unsigned long no)
{
	struct asm_str n = st->name;
	long long d, disp;
	int base, r;

	if (esp_move(st, &d)) {
		l->delta += d;
		if (asmfix_str_has_prefix(n, "pop"))
			clobber(l, asmfix_reg(st->ops[0], NULL), no);
		return;
	}
	if (asmfix_str_has_prefix(n, "call")) {
		static const int caller_saved[] = { REG_AX, REG_CX, REG_DX, REG_SI, REG_DI,
						    REG_R8, REG_R9, REG_R10, REG_R11 };
		for (size_t i = 0; i < sizeof(caller_saved) / sizeof(caller_saved[0]); i++)
			clobber(l, caller_saved[i], no);
		return;
	}
	if (name_is(n, "mov") && st->nops == 2) {
		int dst = asmfix_reg(st->ops[1], NULL), src = asmfix_reg(st->ops[0], NULL);
		struct asm_mem m;
		if (dst >= 0 && dst < REG_OTHER && asmfix_parse_mem(st->ops[0], &m) && !m.has_seg &&
		    m.index == REG_NONE && m.base >= 0 && m.base < REG_OTHER &&
		    m.base != REG_SP && m.base != REG_BP && st->ops[0].len < sizeof(l->reg[0].addr)) {
			clobber(l, dst, no);
			l->reg[dst].valid = dst != m.base;
			l->reg[dst].addr_reg = m.base;
			l->reg[dst].load_line = no;
			l->reg[dst].clobber_line = 0;
			memcpy(l->reg[dst].addr, st->ops[0].p, st->ops[0].len);
			l->reg[dst].addr[st->ops[0].len] = 0;
			return;
		}
		if (stack_slot(st->ops[1], &base, &disp)) {
			store_slot(l, base, disp, src >= 0 && src < REG_OTHER &&
				   l->reg[src].valid ? &l->reg[src] : NULL, no);
			return;
		}
		if (dst >= 0)
			clobber(l, dst, no);
		return;
	}
	if (writes_nothing(n))
		return;
	if (name_is(n, "leave")) {
		clobber(l, REG_BP, no);
		l->esp_unknown = 1;
		return;
	}
	if (!st->nops || asmfix_str_has_prefix(n, "cmpxchg") || name_is(n, "mul") ||
	    name_is(n, "div") || name_is(n, "idiv") || (name_is(n, "imul") && st->nops == 1)) {
		/* implicit register results (cpuid, rdtsc, string ops, cltd...) */
		for (r = 0; r < REG_OTHER; r++)
			if (r != REG_SP && r != REG_BP)
				clobber(l, r, no);
	}
	for (int i = 0; i < st->nops; i++) {
		/* xchg/xadd/cmpxchg write every operand; others the last */
		int all = asmfix_str_has_prefix(n, "xchg") || asmfix_str_has_prefix(n, "xadd") ||
			  asmfix_str_has_prefix(n, "cmpxchg");
		if (!all && i != st->nops - 1)
			continue;
		r = asmfix_reg(st->ops[i], NULL);
		if (r >= 0)
			clobber(l, r, no);
		else if (stack_slot(st->ops[i], &base, &disp))
			store_slot(l, base, disp, NULL, no);
	}
}

/* ---- the locked instruction ---- */

static int is_barrier(const struct asm_stmt *st)
{
	return (name_is(st->name, "or") || name_is(st->name, "add")) && st->nops == 2 &&
	       asmfix_str_eq(st->ops[0], "$0");
}

static int locked(const struct asm_stmt *st)
{
	for (int i = 0; i < st->nprefixes; i++)
		if (asmfix_str_eq(st->prefixes[i], "lock"))
			return 1;
	return st->kind == STMT_INSN && asmfix_str_has_prefix(st->name, "xchg");
}

static void analyse_block(struct asmfix_ctx *ctx, struct lockfix *l)
{
	memset(l->reg, 0, sizeof(l->reg));
	l->nslots = 0;
	l->delta = 0;
	l->esp_unknown = 0;
	for (size_t i = 0; i < l->nr; i++) {
		struct asm_stmt st[ASM_MAX_STMTS];
		int n;
		l->lx.in_comment = 0;
		n = asmfix_parse_line(&l->lx, block_text(l, i), l->lines[i].len,
				      st, ASM_MAX_STMTS);
		for (int k = 0; k < n && k < ASM_MAX_STMTS; k++)
			if (st[k].kind == STMT_INSN)
				sim_insn(l, &st[k], l->lines[i].no);
	}
	(void)ctx;
}

static void check_locked(struct asmfix_ctx *ctx, struct lockfix *l, struct asm_line *ln,
			 struct asm_stmt *st)
{
	int mem = -1, base = REG_NONE;
	long long disp = 0;
	struct slot *s;
	struct pending *p;
	size_t off;

	if (is_barrier(st))
		return;
	for (int i = 0; i < st->nops; i++)
		if (stack_slot(st->ops[i], &base, &disp))
			mem = i;
	if (mem < 0)
		return;
	analyse_block(ctx, l);
	s = find_slot(l, base, canon(l, base, disp));
	if (!s || !s->src.valid)
		return;	/* not filled from a load: a real stack object */
	if (base == REG_SP && l->esp_unknown) {
		asmfix_pass_error(ctx, ln->no, "in %s: locked stack copy %.*s of a load at line %lu, "
				  "but %%esp moves in between; cannot find the real address",
				  l->func, (int)st->ops[mem].len, st->ops[mem].p, s->src.load_line);
		return;
	}
	if (s->src.clobber_line) {
		asmfix_pass_error(ctx, ln->no, "in %s: locked stack copy %.*s of %s (loaded at line %lu), "
				  "but the address register changes at line %lu; cannot rewrite",
				  l->func, (int)st->ops[mem].len, st->ops[mem].p, s->src.addr,
				  s->src.load_line, s->src.clobber_line);
		return;
	}
	if (l->npend == MAX_PENDING) {
		asmfix_pass_error(ctx, ln->no, "in %s: too many locked stack copies in one function",
				  l->func);
		return;
	}
	p = &l->pend[l->npend++];
	p->line = ln->no;
	p->base = base;
	p->canon = canon(l, base, disp);
	snprintf(p->slot_text, sizeof(p->slot_text), "%.*s", (int)st->ops[mem].len, st->ops[mem].p);
	off = asmfix_line_off(ln, st->ops[mem].p);
	strbuf_reset(&p->newline);
	strbuf_add(&p->newline, ln->p, off);
	strbuf_addstr(&p->newline, s->src.addr);
	strbuf_add(&p->newline, ln->p + off + st->ops[mem].len, ln->len - off - st->ops[mem].len);
	if (l->npend == 1) {
		l->fwd_delta = l->lock_delta = l->delta;
		l->fwd_unknown = 0;
	}
	asmfix_q_hold(ctx);
}

/* After a pending rewrite: the slot must not be read again. */
static void check_after(struct asmfix_ctx *ctx, struct lockfix *l, struct asm_stmt *st,
			unsigned long no)
{
	long long d, disp;
	int base;

	if (esp_move(st, &d)) {
		l->fwd_delta += d;
		return;
	}
	if (asmfix_str_has_prefix(st->name, "ret") || name_is(st->name, "jmp")) {
		l->fwd_delta = l->lock_delta;	/* next block: back at body level */
		return;
	}
	for (int i = 0; i < st->nops; i++) {
		if (!stack_slot(st->ops[i], &base, &disp))
			continue;
		if (name_is(st->name, "mov") && i == st->nops - 1)
			continue;	/* a pure store */
		for (int k = 0; k < l->npend; k++) {
			struct pending *p = &l->pend[k];
			long long c = base == REG_SP ? disp + l->fwd_delta : disp;
			if (p->base == base && p->canon == c && p->line != no)
				asmfix_pass_error(ctx, no, "in %s: the stack copy %s locked at line %lu "
						  "is read here; cannot rewrite it to the real address",
						  l->func, p->slot_text, p->line);
		}
	}
}

static void finish_function(struct asmfix_ctx *ctx, struct lockfix *l)
{
	for (int k = 0; k < l->npend; k++) {
		struct pending *p = &l->pend[k];
		asmfix_q_replace_line(ctx, p->line, p->newline.buf, p->newline.len);
		asmfix_pass_change(ctx, p->line, "in %s: locked stack copy %s -> %s", l->func,
				   p->slot_text, p->newline.buf);
	}
	l->npend = 0;
	asmfix_q_release(ctx);
}

static int local_label(struct asm_str s)
{
	return s.len && ((s.p[0] >= '0' && s.p[0] <= '9') || asmfix_str_has_prefix(s, ".L") ||
			 asmfix_str_has_prefix(s, ".."));
}

static void lf_labels(struct asmfix_ctx *ctx, struct lockfix *l, struct asm_line *ln)
{
	struct asm_stmt *st;
	int n = asmfix_line_stmts(ctx, ln, &st), numeric_only = 1;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < st[i].nlabels; k++) {
			struct asm_str lab = st[i].labels[k];
			if (asmfix_numeric_label(lab) < 0)
				numeric_only = 0;
			if (!local_label(lab) && !l->other_depth)
				snprintf(l->func, sizeof(l->func), "%.*s", (int)lab.len, lab.p);
		}
	/* Numeric labels are inline asm markers (661:, 671:), not block starts. */
	if (!numeric_only)
		block_reset(l);
}

static void lf_sections(struct asmfix_ctx *ctx, struct lockfix *l, struct asm_line *ln)
{
	struct asm_stmt *st;
	int n = asmfix_line_stmts(ctx, ln, &st);
	for (int i = 0; i < n; i++)
		switch (asmfix_sec_op_of(st[i].name)) {
		case SEC_PUSH:
		case SEC_SECTION:
			if (l->func[0] || l->other_depth)
				l->other_depth++;
			break;
		case SEC_POP:
		case SEC_PREVIOUS:
			if (l->other_depth)
				l->other_depth--;
			break;
		case SEC_TEXT:
		case SEC_DATA:
		case SEC_BSS:
			l->other_depth = 0;
			block_reset(l);
			break;
		default:
			break;
		}
}

static void lf_line_body(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct lockfix *l = data;
	struct asm_stmt *st;
	int n;

	if (ln->flags & LF_NUL)
		return;
	if (ln->flags & LF_LABEL)
		lf_labels(ctx, l, ln);
	if (ln->dirs & D_SEC)
		lf_sections(ctx, l, ln);
	if ((ln->dirs & D_SIZE) || (ln->flags & LF_HASH && asmfix_line_is_comment(ln, "# -- End"))) {
		if (l->npend)
			finish_function(ctx, l);
		block_reset(l);
		l->func[0] = 0;
		l->other_depth = 0;
		return;
	}
	if (!(ln->flags & LF_INSN) || l->other_depth)
		return;
	if (l->npend) {
		n = asmfix_line_stmts(ctx, ln, &st);
		for (int i = 0; i < n; i++)
			if (st[i].kind == STMT_INSN)
				check_after(ctx, l, &st[i], ln->no);
	}
	if (ln->flags & LF_LOCK) {
		n = asmfix_line_stmts(ctx, ln, &st);
		for (int i = 0; i < n; i++)
			if (st[i].kind == STMT_INSN && locked(&st[i]))
				check_locked(ctx, l, ln, &st[i]);
	}
	block_add(l, ln);
	/* A jump ends the block. */
	if (ln->first.len && ln->first.p[0] == 'j')
		block_reset(l);
}

/* Pending rewrites must see every later instruction (check_after). */
static void lf_line(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct lockfix *l = data;
	lf_line_body(ctx, data, ln);
	asmfix_pass_need_all(ctx, l->npend > 0);
}

/*
 * The driver's fast path: the tail of lf_line_body for a plain
 * instruction.  A jump empties the block; as jumps and other instructions
 * alternate unpredictably, that is a mask, not a branch (the copied text
 * goes at the next label's reset).
 */
static void lf_plain_insn(struct asmfix_ctx *ctx, void *data, const struct asm_line *ln)
{
	struct lockfix *l = data;
	size_t keep = (size_t)0 - (ln->first.p[0] != 'j');

	(void)ctx;
	if (l->other_depth)
		return;
	block_add(l, ln);
	l->nr &= keep;
	l->ncopied &= keep;
}

/* The driver's fast path: a ".Lname:" line starts a new block (lf_labels). */
static void lf_local_label(struct asmfix_ctx *ctx, void *data)
{
	(void)ctx;
	block_reset(data);
}

static void lf_finish(struct asmfix_ctx *ctx, void *data)
{
	struct lockfix *l = data;
	if (l->npend)
		finish_function(ctx, l);
}

const struct asmfix_pass asmfix_pass_lockfix = {
	.name = "lockfix",
	.help = "point locked instructions on icc's stack copies back at the real object",
	.init = lf_init,
	.line = lf_line,
	.finish = lf_finish,
	.release = lf_release,
	.plain_insn = lf_plain_insn,
	.local_label = lf_local_label,
	.chunk_done = lf_chunk_done,
	.markers = (const char *const[]){ "# -- End", NULL },
	.arches = 1u << TARGET_X86,	/* an x86 lock prefix on a stack copy */
};
