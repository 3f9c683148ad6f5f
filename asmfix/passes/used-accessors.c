// SPDX-License-Identifier: GPL-2.0
/*
 * used-accessors: remove the dummy functions that keep
 * __attribute__((used)) objects alive through icc's IPO.
 *
 * Convention: such a function is named <prefix>* (default "__ccd_keep_",
 * asmfix_options.keep_prefix).  The whole function goes: its own
 * -ffunction-sections section, alignment, .globl/.type/.size (mips'
 * .ent/.end), icc's
 * "# -- Begin/End" markers, the body with its CFI and local labels, and
 * whatever the body pushed into other sections.  Plain section switches
 * inside the function are kept (they emit nothing) so GAS's section state
 * after the function is unchanged.  The function's other labels stay
 * defined where it was (an empty range for -g's DWARF), so only a
 * reference to a removed function's name (or to a numeric label of it,
 * "1b") is an error naming both lines.
 *
 * The preamble (section, alignment, .globl ...) comes before we know the
 * function's name, so it is held until the next line that is not preamble.
 */
#include "../internal.h"
#include "../symset.h"
#include "../section.h"

#include <stdlib.h>
#include <string.h>

#define UA_MAX_PRE 32

enum ua_mode { UA_SCAN, UA_REMOVE, UA_TRAIL };

struct pre_line {
	unsigned long no;
	int sec_op;		/* a section switch */
	struct strbuf name;	/* symbol or section it names */
};

struct ua {
	enum ua_mode mode;
	struct pre_line pre[UA_MAX_PRE];
	int npre;
	struct strbuf target;
	unsigned long target_line;
	int push_depth;		/* .pushsection nesting inside the function */
	int cfi_depth;		/* .cfi_startproc opened inside the function */
	unsigned char *push_deleted;	/* per depth: was the push deleted */
	int push_alloc;
	struct symset removed;	/* removed functions and labels -> line */
	struct symset refs;	/* prefix names referenced elsewhere -> first line */
	struct symset numdefs;	/* numeric label -> tag 1 if last def was removed */
	size_t num_removed;	/* numdefs entries with tag 1 */
	struct strbuf kept;	/* the removed line's labels, re-emitted */
	const char *prefix;
	size_t prefix_len;
};

/* The prefix of the accessors' names: the fast path stops at lines with it. */
static const char *ua_needle(const struct asmfix_options *opt)
{
	return opt->keep_prefix && *opt->keep_prefix ? opt->keep_prefix : "__ccd_keep_";
}

static void *ua_init(struct asmfix_ctx *ctx)
{
	struct ua *u = xcalloc(1, sizeof(*u));

	for (int i = 0; i < UA_MAX_PRE; i++)
		strbuf_init(&u->pre[i].name);
	strbuf_init(&u->target);
	strbuf_init(&u->kept);
	u->prefix = ua_needle(ctx->opt);
	u->prefix_len = strlen(u->prefix);
	return u;
}

static void ua_release(void *data)
{
	struct ua *u = data;
	for (int i = 0; i < UA_MAX_PRE; i++)
		strbuf_release(&u->pre[i].name);
	strbuf_release(&u->target);
	strbuf_release(&u->kept);
	asmfix_symset_release(&u->removed);
	asmfix_symset_release(&u->refs);
	asmfix_symset_release(&u->numdefs);
	free(u->push_deleted);
	free(u);
}

static int has_prefix(struct ua *u, struct asm_str s)
{
	return s.len > u->prefix_len && !memcmp(s.p, u->prefix, u->prefix_len);
}

static int is_target(struct ua *u, struct asm_str s)
{
	return u->target.len && s.len == u->target.len && !memcmp(s.p, u->target.buf, s.len);
}

/* Is section name the function's own (-ffunction-sections) section? */
static int own_section(struct asm_str sec, struct asm_str fn)
{
	return sec.len > fn.len + 1 && sec.p[sec.len - fn.len - 1] == '.' &&
	       !memcmp(sec.p + sec.len - fn.len, fn.p, fn.len);
}

static struct asm_str sb_str(const struct strbuf *sb)
{
	return (struct asm_str){ sb->buf, sb->len };
}

/* "# -- Begin  name" / "# -- End  name" (icc): the name, or empty. */
static struct asm_str icc_marker(const struct asm_line *ln, const char *marker)
{
	struct asm_str s = { NULL, 0 };
	const char *p = ln->p, *end = ln->p + ln->len;
	size_t n = strlen(marker);

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) <= n || memcmp(p, marker, n))
		return s;
	p += n;
	while (p < end && *p == ' ')
		p++;
	s.p = p;
	while (p < end && *p != ' ' && *p != '\t' && *p != ',')
		p++;
	s.len = (size_t)(p - s.p);
	return s;
}

/*
 * mips' function preamble has ".set nomips16" and ".ent NAME", which
 * opens the function (".end NAME" in its body closes it): .ent names it.
 */
static int mips_preamble(struct asmfix_ctx *ctx, const struct asm_line *ln,
			 const struct asm_stmt *st, struct pre_line *pre)
{
	if (ctx->target->arch != TARGET_MIPS || ln->dirs != D_OTHER)
		return -1;
	if (asmfix_str_eq(st->name, ".ent") && st->nops >= 1)
		strbuf_add(&pre->name, st->ops[0].p, st->ops[0].len);
	return asmfix_str_eq(st->name, ".ent") || asmfix_str_eq(st->name, ".set");
}

/*
 * Classify a preamble line: 1 if it is one (filling pre), 0 if not.
 * Preamble: section switches, alignment, .globl/.type/visibility (and
 * mips' .ent, .set), comments and blank lines.
 */
static int preamble(struct asmfix_ctx *ctx, struct asm_line *ln, struct pre_line *pre)
{
	struct asm_stmt *st;
	int n, m;

	strbuf_reset(&pre->name);
	pre->no = ln->no;
	pre->sec_op = 0;
	if (ln->flags & (LF_INSN | LF_LABEL | LF_NUL))
		return 0;
	if (!(ln->flags & LF_DIRECTIVE)) {
		struct asm_str m = icc_marker(ln, "# -- Begin");
		if (m.len)
			strbuf_add(&pre->name, m.p, m.len);
		return 1;
	}
	if ((ln->dirs & ~(D_SEC | D_ALIGN | D_GLOBL | D_TYPE | D_VIS)) &&
	    (ctx->target->arch != TARGET_MIPS || ln->dirs != D_OTHER))
		return 0;
	n = asmfix_line_stmts(ctx, ln, &st);
	if (n != 1)
		return 0;
	if ((m = mips_preamble(ctx, ln, st, pre)) >= 0)
		return m;
	switch (asmfix_sec_op_of(st->name)) {
	case SEC_SECTION: {
		struct asm_str s = asmfix_sec_arg_name(st);
		pre->sec_op = 1;
		strbuf_add(&pre->name, s.p, s.len);
		return 1;
	}
	case SEC_TEXT:
	case SEC_DATA:
	case SEC_BSS:
		pre->sec_op = 1;
		return 1;
	case SEC_NONE:
		break;
	default:
		return 0;
	}
	if ((ln->dirs & (D_GLOBL | D_TYPE | D_VIS)) && st->nops >= 1)
		strbuf_add(&pre->name, st->ops[0].p, st->ops[0].len);
	return 1;
}

static void note_ref(struct asmfix_ctx *ctx, struct ua *u, struct asm_str name, unsigned long no)
{
	struct sym_entry *e = asmfix_symset_get(&u->removed, name.p, name.len);
	if (e) {
		asmfix_pass_error(ctx, no, "'%.*s' refers to removed %s at line %lu",
				  (int)name.len, name.p,
				  has_prefix(u, name) ? "function" : "label of a removed function", e->line);
		return;
	}
	if (has_prefix(u, name) && !asmfix_symset_get(&u->refs, name.p, name.len))
		asmfix_symset_add(&u->refs, name.p, name.len)->line = no;
}

struct ref_walk {
	struct asmfix_ctx *ctx;
	struct ua *u;
	unsigned long no;
};

static void ref_cb(void *data, struct asm_str name, long num, int dir)
{
	struct ref_walk *w = data;
	if (num >= 0) {
		struct sym_entry *e;
		if (dir != 'b')
			return;
		e = asmfix_symset_get(&w->u->numdefs, name.p, name.len);
		if (e && e->tag)
			asmfix_pass_error(w->ctx, w->no,
					  "'%.*sb' refers to a label of a removed function at line %lu",
					  (int)name.len, name.p, e->line);
		return;
	}
	if (has_prefix(w->u, name))
		note_ref(w->ctx, w->u, name, w->no);
}

/* Check the references of a line that stays. */
static void check_refs(struct asmfix_ctx *ctx, struct ua *u, struct asm_line *ln)
{
	struct ref_walk w = { ctx, u, ln->no };
	struct asm_stmt *st;
	int n;

	if (ln->flags & LF_NUL)
		return;
	/* Only removed functions (prefix names) and numeric labels can dangle. */
	if (!u->num_removed && !(ctx->chunk_has_needle &&
				 memmem(ln->p, ln->len, u->prefix, u->prefix_len)))
		return;
	if (!(ln->flags & (LF_INSN | LF_DIRECTIVE)))
		return;
	n = asmfix_line_stmts(ctx, ln, &st);
	for (int i = 0; i < n; i++)
		if (st[i].kind != STMT_NONE)
			asmfix_for_each_ref(st[i].args, ref_cb, &w);
}

/*
 * Labels defined on a line: record numeric ones (tag: defined in a
 * removed function).  In a removed function the other labels, except
 * the function's own name, are collected in u->kept: they stay defined
 * where the function was, so .debug_info/.debug_line ranges (.LFB0,
 * .LFE0, .LVL*, .LBB*) see an empty range instead of a dangling label.
 */
static void note_labels(struct asmfix_ctx *ctx, struct ua *u, struct asm_line *ln, int removed)
{
	struct asm_stmt *st;
	int n;

	if (!(ln->flags & LF_LABEL) || (ln->flags & LF_NUL))
		return;
	n = asmfix_line_stmts(ctx, ln, &st);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < st[i].nlabels; k++) {
			struct asm_str l = st[i].labels[k];
			if (asmfix_numeric_label(l) >= 0) {
				struct sym_entry *e = asmfix_symset_add(&u->numdefs, l.p, l.len);
				if (e->tag && !removed)
					u->num_removed--;
				else if (!e->tag && removed)
					u->num_removed++;
				e->tag = removed;
				e->line = ln->no;
			} else if (removed && !is_target(u, l)) {
				strbuf_add(&u->kept, l.p, l.len);
				strbuf_addstr(&u->kept, ":\n");
			}
		}
}

static void flush_pre(struct asmfix_ctx *ctx, struct ua *u)
{
	for (int i = 0; i < u->npre; i++)
		if (has_prefix(u, sb_str(&u->pre[i].name)) && !u->pre[i].sec_op)
			note_ref(ctx, u, sb_str(&u->pre[i].name), u->pre[i].no);
	u->npre = 0;
	asmfix_q_release(ctx);
}

static void start_removal(struct asmfix_ctx *ctx, struct ua *u, struct asm_str fn, unsigned long no)
{
	strbuf_reset(&u->target);
	strbuf_add(&u->target, fn.p, fn.len);
	u->target_line = no;
	u->mode = UA_REMOVE;
	u->push_depth = 0;
	u->cfi_depth = 0;
	asmfix_symset_add(&u->removed, fn.p, fn.len)->line = no;
	for (int i = 0; i < u->npre; i++) {
		struct pre_line *p = &u->pre[i];
		struct asm_str name = sb_str(&p->name);
		int del;
		if (p->sec_op)
			del = own_section(name, fn);
		else if (name.len)
			del = is_target(u, name);
		else
			del = 0;
		if (!del && !p->sec_op && !name.len) {
			size_t len;
			const char *t = asmfix_q_line_text(ctx, p->no, &len);
			/* alignment directives belong to the function */
			if (t) {
				struct asm_line tmp = { .p = t, .len = len };
				del = !asmfix_line_is_comment(&tmp, "#") && len &&
				      (memmem(t, len, "align", 5) != NULL);
			}
		}
		if (del)
			asmfix_q_delete_line(ctx, p->no);
		else if (has_prefix(u, name) && !p->sec_op)
			note_ref(ctx, u, name, p->no);
	}
	u->npre = 0;
	asmfix_pass_change(ctx, no, "removing accessor function %.*s", (int)fn.len, fn.p);
}

/*
 * Lines of a removed function that stay: a .cfi_endproc whose
 * .cfi_startproc came before the function's first removed line (mips -g
 * puts it before .ent), and mips' "$LFB0 = ." (its -g function start,
 * which the debug info names: an empty range, as for kept labels).
 */
static int keep_in_removed(struct asmfix_ctx *ctx, struct ua *u, struct asm_line *ln)
{
	struct asm_stmt *st;
	const char *eq;

	if (ln->dirs & D_CFI) {
		if (asmfix_line_stmts(ctx, ln, &st) != 1)
			return 0;
		if (asmfix_str_eq(st->name, ".cfi_startproc"))
			u->cfi_depth++;
		else if (asmfix_str_eq(st->name, ".cfi_endproc") && !u->cfi_depth)
			return 1;
		else if (asmfix_str_eq(st->name, ".cfi_endproc"))
			u->cfi_depth--;
		return 0;
	}
	/* "$LFB0 = ." (o32) or ".LFB0 = ." (n64): a name, '=', '.', nothing else. */
	if (ctx->target->arch != TARGET_MIPS || (ln->flags & LF_LABEL) ||
	    !(eq = memchr(ln->p, '=', ln->len)) || memmem(ln->p, ln->len, u->prefix, u->prefix_len))
		return 0;
	for (eq++; eq < ln->p + ln->len && (*eq == ' ' || *eq == '\t'); eq++)
		;
	return eq + 1 == ln->p + ln->len && *eq == '.';
}

/* A line inside the function being removed. */
static void remove_line(struct asmfix_ctx *ctx, struct ua *u, struct asm_line *ln)
{
	struct asm_stmt *st;
	int n, keep = 0;

	strbuf_reset(&u->kept);
	note_labels(ctx, u, ln, 1);
	if (keep_in_removed(ctx, u, ln))
		return;
	if ((ln->dirs & D_SEC) && !(ln->flags & (LF_INSN | LF_LABEL))) {
		n = asmfix_line_stmts(ctx, ln, &st);
		if (n == 1) {
			enum sec_op op = asmfix_sec_op_of(st->name);
			if (op == SEC_PUSH) {
				if (u->push_depth == u->push_alloc) {
					u->push_alloc = u->push_alloc ? 2 * u->push_alloc : 8;
					u->push_deleted = xrealloc(u->push_deleted, (size_t)u->push_alloc);
				}
				u->push_deleted[u->push_depth++] = 1;
			} else if (op == SEC_POP) {
				if (u->push_depth)
					u->push_depth--;
				else
					keep = 1;
			} else if (op == SEC_SECTION) {
				keep = !own_section(asmfix_sec_arg_name(st), sb_str(&u->target)) ||
				       u->push_depth;
				keep = keep && !u->push_depth;
			} else {
				keep = !u->push_depth;
			}
		}
	}
	if (!keep && u->kept.len)
		asmfix_line_replace(ctx, u->kept.buf, u->kept.len - 1);
	else if (!keep)
		asmfix_line_delete(ctx);
	if (ln->dirs & D_SIZE) {
		n = asmfix_line_stmts(ctx, ln, &st);
		for (int i = 0; i < n; i++)
			if (asmfix_str_eq(st[i].name, ".size") && st[i].nops && is_target(u, st[i].ops[0]))
				u->mode = UA_TRAIL;
	}
	if (ln->flags & LF_HASH) {
		struct asm_str m = icc_marker(ln, "# -- End");
		if (m.len && is_target(u, m))
			u->mode = UA_SCAN;
	}
}

static int is_cfi_endproc(struct asmfix_ctx *ctx, struct asm_line *ln)
{
	struct asm_stmt *st;

	return (ln->flags & (LF_DIRECTIVE | LF_INSN | LF_LABEL)) == LF_DIRECTIVE &&
	       asmfix_line_stmts(ctx, ln, &st) == 1 && asmfix_str_eq(st->name, ".cfi_endproc");
}

/* clang's ".addrsig_sym name" (its address-significance table) of a removed function goes with it. */
static int addrsig_of_removed(struct asmfix_ctx *ctx, struct ua *u, struct asm_line *ln)
{
	struct asm_stmt *st;

	return (ln->flags & (LF_DIRECTIVE | LF_INSN | LF_LABEL | LF_NUL)) == LF_DIRECTIVE &&
	       ctx->chunk_has_needle && memmem(ln->p, ln->len, u->prefix, u->prefix_len) &&
	       asmfix_line_stmts(ctx, ln, &st) == 1 && asmfix_str_eq(st->name, ".addrsig_sym") &&
	       st->nops == 1 && asmfix_symset_get(&u->removed, st->ops[0].p, st->ops[0].len);
}

/* A label line in scan mode: does it start an accessor? */
static int label_starts(struct asmfix_ctx *ctx, struct ua *u, struct asm_line *ln)
{
	struct asm_stmt *st;
	int n = asmfix_line_stmts(ctx, ln, &st);
	if (n >= 1 && st[0].nlabels && has_prefix(u, st[0].labels[0])) {
		start_removal(ctx, u, st[0].labels[0], ln->no);
		return 1;
	}
	return 0;
}

static void ua_line_body(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct ua *u = data;

	if (u->mode == UA_TRAIL) {
		struct asm_str m = icc_marker(ln, "# -- End");
		if (m.len && is_target(u, m)) {
			asmfix_line_delete(ctx);
			u->mode = UA_SCAN;
			return;
		}
		if (!(ln->flags & (LF_INSN | LF_DIRECTIVE | LF_LABEL)))
			return;
		/* clang closes the function's CFI after its .size. */
		if (is_cfi_endproc(ctx, ln)) {
			asmfix_line_delete(ctx);
			return;
		}
		u->mode = UA_SCAN;
	}
	if (u->mode == UA_REMOVE) {
		remove_line(ctx, u, ln);
		return;
	}
	/* Scan mode: a function we remove starts with a preamble or its label. */
	if (!(ln->flags & (LF_INSN | LF_LABEL | LF_NUL)) && (u->npre || asmfix_needle_near(ctx, ln->p))) {
		struct pre_line *p;
		if (u->npre == UA_MAX_PRE)
			flush_pre(ctx, u);
		p = &u->pre[u->npre];
		if (preamble(ctx, ln, p)) {
			struct asm_str name = sb_str(&p->name);
			if (!u->npre)
				asmfix_q_hold(ctx);
			u->npre++;
			if (!p->sec_op && has_prefix(u, name) && !(ln->dirs & D_SIZE)) {
				start_removal(ctx, u, name, ln->no);
				asmfix_line_delete(ctx);
			} else if (p->sec_op && name.len > u->prefix_len + 1 &&
				   memmem(name.p, name.len, u->prefix, u->prefix_len)) {
				/* .section .text.__ccd_keep_x: its own section */
				const char *at = memmem(name.p, name.len, u->prefix, u->prefix_len);
				struct asm_str fn = { at, (size_t)(name.p + name.len - at) };
				if (own_section(name, fn)) {
					u->npre--;
					start_removal(ctx, u, fn, ln->no);
					asmfix_line_delete(ctx);
				}
			}
			return;
		}
	}
	if (u->npre)
		flush_pre(ctx, u);
	if ((ln->flags & LF_LABEL) && ctx->chunk_has_needle && label_starts(ctx, u, ln)) {
		remove_line(ctx, u, ln);
		return;
	}
	if (u->num_removed)
		note_labels(ctx, u, ln, 0);
	if (ln->flags & LF_HASH) {
		struct asm_str m = icc_marker(ln, "# -- End");
		if (m.len && asmfix_symset_get(&u->removed, m.p, m.len)) {
			asmfix_line_delete(ctx);
			return;
		}
	}
	if (addrsig_of_removed(ctx, u, ln)) {
		asmfix_line_delete(ctx);
		return;
	}
	check_refs(ctx, u, ln);
}

static void ua_line(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct ua *u = data;
	ua_line_body(ctx, data, ln);
	asmfix_pass_need_all(ctx, u->mode != UA_SCAN || u->npre || u->num_removed);
}

static void ua_finish(struct asmfix_ctx *ctx, void *data)
{
	struct ua *u = data;

	if (u->npre)
		flush_pre(ctx, u);
	if (u->mode == UA_REMOVE)
		asmfix_pass_error(ctx, u->target_line,
				  "function %s has no '.size %s, ...': cannot tell where it ends",
				  u->target.buf, u->target.buf);
	for (size_t i = 0; i < u->refs.size; i++) {
		struct sym_entry *r = &u->refs.tab[i], *e;
		if (!r->name)
			continue;
		e = asmfix_symset_get(&u->removed, r->name, r->len);
		if (e)
			asmfix_pass_error(ctx, r->line, "'%s' refers to removed function at line %lu",
					  r->name, e->line);
	}
}

/* No local_label hook: a ".L" label matters only while removing or holding (need_all). */
const struct asmfix_pass asmfix_pass_used_accessors = {
	.name = "used-accessors",
	.help = "remove __ccd_keep_* accessor functions (prefix: --keep-prefix)",
	.init = ua_init,
	.line = ua_line,
	.finish = ua_finish,
	.release = ua_release,
	.markers = (const char *const[]){ "# -- Begin", "# -- End", NULL },
	.needle = ua_needle,
	/* A preamble (.globl, .type, .align, visibility, comments) before the name. */
	.near_dirs = D_ALIGN | D_GLOBL | D_TYPE | D_VIS,
	.near_comments = 1,
};
