// SPDX-License-Identifier: GPL-2.0
/*
 * altinstr: alternative-instruction records must resolve where the kernel
 * expects them: in each .altinstructions record the original-instruction
 * label (first .long/.quad, "661b" or "661b - .") in executable code, and
 * the replacement label (second one) in .altinstr_replacement.  .smp_locks
 * entries must point at code.
 *
 * The repair: an inline asm's ".section X ... .previous" is only right if
 * nothing else switches sections in between.  When the compiler emits its
 * own section directive there (outside the #APP / # Begin ASM region),
 * .previous returns to the compiler's section, not the function's; we
 * rewrite such a pair to .pushsection/.popsection.  Only what is proven
 * is rewritten: X is a record section (.altinstructions and its kin), the
 * .previous is an asm's too, and GAS would take it elsewhere than to the
 * section before X.  gcc writes #NO_APP lazily, so its own string-literal
 * sections can sit inside an #APP region after a top-level asm: being in
 * one is no proof of anything else.  Then we check every record against a
 * GAS-exact simulation of the output's sections and warn about any that
 * still cannot resolve, with its line and the label's: a warning, since
 * the assembly is valid and the check may not know every construct.
 * Only numeric local labels are checked (the kernel's macros use them).
 */
#include "../internal.h"
#include "../section.h"
#include "../symset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 16
#define PAIR_MAX_LINES 100000

enum field { F_ORIG, F_REPL, F_LOCK };

struct pair {
	unsigned long line;	/* the .section line */
	size_t off;		/* of ".section" in it */
	struct sec_pos cur, prev;	/* before it */
	int depth;		/* push depth before it */
	int foreign;		/* a compiler section directive came after it */
};

struct fwd_ref {
	char num[12];
	enum field field;
	unsigned long line;
};

struct altinstr {
	struct sec_names names;
	struct sec_state sec;
	int in_asm;
	struct pair pairs[MAX_PAIRS];
	int npairs;
	int rec_field;		/* next .altinstructions pointer: 0 orig, 1 repl */
	int alt_sec, repl_sec, aux_sec, locks_sec;
	struct symset numdefs;	/* numeric label -> tag: section id, line */
	struct fwd_ref *fwd;
	size_t nfwd, fwd_alloc;
	struct strbuf sb;
};

static void *ai_init(struct asmfix_ctx *ctx)
{
	struct altinstr *a = xcalloc(1, sizeof(*a));
	(void)ctx;
	asmfix_sec_names_init(&a->names);
	asmfix_sec_state_init(&a->sec, &a->names);
	a->alt_sec = asmfix_sec_intern(&a->names, ".altinstructions", 16);
	a->repl_sec = asmfix_sec_intern(&a->names, ".altinstr_replacement", 21);
	a->aux_sec = asmfix_sec_intern(&a->names, ".altinstr_aux", 13);
	a->locks_sec = asmfix_sec_intern(&a->names, ".smp_locks", 10);
	return a;
}

static void ai_release(void *data)
{
	struct altinstr *a = data;
	asmfix_sec_state_release(&a->sec);
	asmfix_sec_names_release(&a->names);
	asmfix_symset_release(&a->numdefs);
	strbuf_release(&a->sb);
	free(a->fwd);
	free(a);
}

static const char *field_name(enum field f)
{
	return f == F_ORIG ? "original-instruction" : f == F_REPL ? "replacement" : "lock-prefix";
}

static void check_target(struct asmfix_ctx *ctx, struct altinstr *a, enum field f,
			 const char *label, unsigned long line, int sec, unsigned long def_line)
{
	int ok;
	const char *want;

	if (f == F_REPL) {
		ok = sec == a->repl_sec;
		want = ".altinstr_replacement";
	} else {
		ok = asmfix_sec_is_exec(&a->names, sec) && sec != a->repl_sec;
		want = "the function's executable section";
	}
	if (!ok)
		asmfix_pass_warning(ctx, line, "%s label %s resolves to %s (line %lu), expected %s",
			   field_name(f), label, asmfix_sec_name(&a->names, sec), def_line, want);
}

struct rec_walk {
	struct asmfix_ctx *ctx;
	struct altinstr *a;
	unsigned long line;
	enum field field;
	int found;
};

static void rec_ref(void *data, struct asm_str name, long num, int dir)
{
	struct rec_walk *w = data;
	struct altinstr *a = w->a;
	char label[16];

	if (w->found)
		return;
	w->found = 1;
	if (num < 0)
		return;	/* named labels are not checked */
	snprintf(label, sizeof(label), "%.*s%c", (int)name.len, name.p, dir);
	if (dir == 'b') {
		struct sym_entry *e = asmfix_symset_get(&a->numdefs, name.p, name.len);
		if (!e)
			asmfix_pass_warning(w->ctx, w->line, "%s label %s has no earlier definition",
				   field_name(w->field), label);
		else
			check_target(w->ctx, a, w->field, label, w->line, (int)e->tag, e->line);
		return;
	}
	if (a->nfwd == a->fwd_alloc) {
		a->fwd_alloc = a->fwd_alloc ? a->fwd_alloc * 2 : 16;
		a->fwd = xrealloc(a->fwd, sizeof(*a->fwd) * a->fwd_alloc);
	}
	snprintf(a->fwd[a->nfwd].num, sizeof(a->fwd[0].num), "%.*s", (int)name.len, name.p);
	a->fwd[a->nfwd].field = w->field;
	a->fwd[a->nfwd].line = w->line;
	a->nfwd++;
}

/* A .long/.quad in .altinstructions or .smp_locks. */
static void check_record(struct asmfix_ctx *ctx, struct altinstr *a, struct asm_line *ln,
			 struct asm_stmt *st)
{
	for (int i = 0; i < st->nops; i++) {
		struct rec_walk w = { ctx, a, ln->no, F_LOCK, 0 };
		if (a->sec.cur.sec == a->alt_sec)
			w.field = a->rec_field ? F_REPL : F_ORIG;
		asmfix_for_each_ref(st->ops[i], rec_ref, &w);
		if (w.found && a->sec.cur.sec == a->alt_sec)
			a->rec_field ^= 1;
	}
}

static void define_labels(struct asmfix_ctx *ctx, struct altinstr *a, struct asm_line *ln,
			  struct asm_stmt *st)
{
	for (int k = 0; k < st->nlabels; k++) {
		struct asm_str l = st->labels[k];
		struct sym_entry *e;
		if (asmfix_numeric_label(l) < 0)
			continue;
		e = asmfix_symset_add(&a->numdefs, l.p, l.len);
		e->tag = a->sec.cur.sec;
		e->line = ln->no;
		/* Resolve "Nf" references waiting for this definition. */
		for (size_t i = 0; i < a->nfwd;) {
			struct fwd_ref *r = &a->fwd[i];
			if (strlen(r->num) == l.len && !memcmp(r->num, l.p, l.len)) {
				char label[16];
				snprintf(label, sizeof(label), "%sf", r->num);
				check_target(ctx, a, r->field, label, r->line, a->sec.cur.sec, ln->no);
				*r = a->fwd[--a->nfwd];
			} else {
				i++;
			}
		}
	}
}

/* A pair worth following opens a record section; nothing else is ours. */
static int alt_candidate(struct altinstr *a, struct asm_str name)
{
	int id = asmfix_sec_intern(&a->names, name.p, name.len);

	return id == a->alt_sec || id == a->repl_sec || id == a->aux_sec || id == a->locks_sec;
}

static void replace_token(struct strbuf *sb, const char *text, size_t len, size_t off,
			  size_t oldlen, const char *repl)
{
	strbuf_reset(sb);
	strbuf_add(sb, text, off);
	strbuf_addstr(sb, repl);
	strbuf_add(sb, text + off + oldlen, len - off - oldlen);
}

static void end_pairs(struct asmfix_ctx *ctx, struct altinstr *a)
{
	a->npairs = 0;
	asmfix_q_release(ctx);
}

/* .previous closing the innermost pending pair. */
static int close_pair(struct asmfix_ctx *ctx, struct altinstr *a, struct asm_line *ln,
		      struct asm_stmt *st)
{
	struct pair *p = &a->pairs[--a->npairs];
	size_t len;
	const char *text;

	/* Proven broken: GAS's .previous would not return where the asm left. */
	if (p->foreign && a->sec.depth == p->depth &&
	    a->sec.prev.sec == p->cur.sec && a->sec.prev.sub == p->cur.sub)
		asmfix_pass_unproven(ctx, ln->no, ".section at line %lu/.previous: compiler directives "
				     "between, but .previous returns where the asm left", p->line);
	if (!p->foreign || a->sec.depth != p->depth ||
	    (a->sec.prev.sec == p->cur.sec && a->sec.prev.sub == p->cur.sub)) {
		if (!a->npairs)
			asmfix_q_release(ctx);
		return 0;
	}
	text = asmfix_q_line_text(ctx, p->line, &len);
	if (text && p->off + 8 <= len && !memcmp(text + p->off, ".section", 8)) {
		replace_token(&a->sb, text, len, p->off, 8, ".pushsection");
		asmfix_q_replace_line(ctx, p->line, a->sb.buf, a->sb.len);
	}
	replace_token(&a->sb, ln->p, ln->len, asmfix_line_off(ln, st->name.p), st->name.len, ".popsection");
	asmfix_line_replace(ctx, a->sb.buf, a->sb.len);
	asmfix_pass_change(ctx, ln->no, ".section at line %lu/.previous -> .pushsection/.popsection "
			   "(a compiler section directive came between them)", p->line);
	/* What .popsection does to the output. */
	a->sec.cur = p->cur;
	a->sec.prev = p->prev;
	if (!a->npairs)
		asmfix_q_release(ctx);
	return 1;
}

static void section_stmt(struct asmfix_ctx *ctx, struct altinstr *a, struct asm_line *ln,
			 struct asm_stmt *st)
{
	enum sec_op op = asmfix_sec_op_of(st->name);
	int was = a->sec.cur.sec;

	/* The compiler's own .previous closes none of the asm's pairs. */
	if (op == SEC_PREVIOUS && a->npairs && a->in_asm && close_pair(ctx, a, ln, st))
		goto done;
	if (op == SEC_SECTION && alt_candidate(a, asmfix_sec_arg_name(st))) {
		if (a->npairs == MAX_PAIRS)
			end_pairs(ctx, a);
		if (!a->npairs)
			asmfix_q_hold(ctx);
		a->pairs[a->npairs] = (struct pair){
			.line = ln->no, .off = asmfix_line_off(ln, st->name.p),
			.cur = a->sec.cur, .prev = a->sec.prev, .depth = a->sec.depth,
		};
		a->npairs++;
	} else if (a->npairs && !a->in_asm) {
		for (int i = 0; i < a->npairs; i++)
			a->pairs[i].foreign = 1;
	}
	if (asmfix_sec_apply(&a->sec, &a->names, st) < 0 && op == SEC_POP)
		asmfix_pass_warning(ctx, ln->no, ".popsection without .pushsection (GAS ignores it)");
done:
	if (a->sec.cur.sec == a->alt_sec && was != a->alt_sec)
		a->rec_field = 0;
}

static void ai_line_body(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct altinstr *a = data;
	struct asm_stmt *st;
	int n;

	if (ln->flags & LF_NUL)
		return;
	if (ln->flags & LF_HASH) {
		if (asmfix_line_is_comment(ln, "#APP") || asmfix_line_is_comment(ln, "# Begin ASM"))
			a->in_asm = 1;
		else if (asmfix_line_is_comment(ln, "#NO_APP") || asmfix_line_is_comment(ln, "# End ASM"))
			a->in_asm = 0;
	}
	if (a->npairs && ln->no - a->pairs[0].line > PAIR_MAX_LINES)
		end_pairs(ctx, a);
	if (!(ln->flags & LF_LABEL) && !(ln->dirs & D_SEC) &&
	    !((ln->dirs & D_DATA) && (a->sec.cur.sec == a->alt_sec || a->sec.cur.sec == a->locks_sec)))
		return;
	n = asmfix_line_stmts(ctx, ln, &st);
	for (int i = 0; i < n; i++) {
		define_labels(ctx, a, ln, &st[i]);
		if (st[i].kind != STMT_DIRECTIVE)
			continue;
		if (asmfix_sec_op_of(st[i].name) != SEC_NONE)
			section_stmt(ctx, a, ln, &st[i]);
		else if ((a->sec.cur.sec == a->alt_sec || a->sec.cur.sec == a->locks_sec) &&
			 (asmfix_dir_class(st[i].name) & D_DATA))
			check_record(ctx, a, ln, &st[i]);
	}
}

/*
 * Records matter only in their sections.  Open pairs need no other lines:
 * the driver sends every section directive, label and #APP marker here.
 */
static void ai_line(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct altinstr *a = data;
	ai_line_body(ctx, data, ln);
	asmfix_pass_want_data(ctx, a->sec.cur.sec == a->alt_sec || a->sec.cur.sec == a->locks_sec);
}

static void ai_finish(struct asmfix_ctx *ctx, void *data)
{
	struct altinstr *a = data;
	for (size_t i = 0; i < a->nfwd; i++)
		asmfix_pass_warning(ctx, a->fwd[i].line, "%s label %sf is never defined",
			   field_name(a->fwd[i].field), a->fwd[i].num);
	if (a->npairs)
		end_pairs(ctx, a);
}

/* No local_label hook: only numeric labels (661:) matter. */
const struct asmfix_pass asmfix_pass_altinstr = {
	.name = "altinstr",
	.help = "make .altinstructions records resolve (.section/.previous -> .pushsection/.popsection)",
	.init = ai_init,
	.line = ai_line,
	.finish = ai_finish,
	.release = ai_release,
	.markers = (const char *const[]){ "#APP", "#NO_APP", "# Begin ASM", "# End ASM", NULL },
	.arches = 1u << TARGET_X86,	/* the x86 kernel's record layouts */
};
