// SPDX-License-Identifier: GPL-2.0
/*
 * common: turn every .comm into a real .bss definition.
 *
 * The kernel's module loader rejects SHN_COMMON symbols, and icc emits
 * .comm even under -fno-common.  "gcc -fno-common" defines the same
 * object as: global (unless .local), aligned, @object, sized, .zero in
 * .bss (.bss.<name> with -fdata-sections; .sbss for mips' small data).
 * ".local x" + ".comm x" is already a local .bss object and stays, except
 * under -fdata-sections where gcc gives it .bss.<name>.  We emit the definition inside
 * .pushsection/.popsection, so the section that was current is untouched.
 * .lcomm is already a local .bss definition and is left alone.
 * A symbol may have several .comm lines (an asm's and the compiler's):
 * GAS keeps one symbol, so a repeat with the same size and alignment is
 * dropped; any other repeat is left as it is (GAS then rejects the
 * definition, and ccd falls back to the backend's own assembly).
 */
#include "../internal.h"
#include "../symset.h"

#include <stdlib.h>
#include <string.h>

struct common {
	struct symset local;	/* names declared .local so far */
	struct symset defined;	/* names rewritten: line, tag = comm_key() */
	struct strbuf sb;
};

/* Size and alignment in one tag; -1 where they do not fit. */
static long comm_key(long long size, long long align)
{
	int log2 = 0;

	while ((1LL << log2) < align)
		log2++;
	return size < (1LL << 40) ? (long)(size << 6 | log2) : -1;
}

static void *common_init(struct asmfix_ctx *ctx)
{
	(void)ctx;
	return xcalloc(1, sizeof(struct common));
}

static void common_release(void *data)
{
	struct common *c = data;
	asmfix_symset_release(&c->local);
	asmfix_symset_release(&c->defined);
	strbuf_release(&c->sb);
	free(c);
}

/* ELF .comm alignment is in bytes; none given: natural, at most 16. */
static long long default_align(long long size)
{
	long long a = 1;
	while (a * 2 <= size && a < 16)
		a *= 2;
	return a;
}

static int is_power_of_two(long long v)
{
	return v > 0 && !(v & (v - 1));
}

/* A .comm of a name already defined here: dropped if it is the same. */
static int repeated(struct asmfix_ctx *ctx, struct common *c, struct asm_line *ln,
		    struct asm_str name, long key)
{
	struct sym_entry *e = asmfix_symset_get(&c->defined, name.p, name.len);

	if (!e) {
		e = asmfix_symset_add(&c->defined, name.p, name.len);
		e->line = ln->no;
		e->tag = key;
		return 0;
	}
	if (key < 0 || e->tag != key) {
		asmfix_pass_unproven(ctx, ln->no, ".comm %.*s again with another size or alignment than "
				     "at line %lu (GAS keeps one: not ours to choose)",
				     (int)name.len, name.p, e->line);
		return 1;
	}
	asmfix_line_delete(ctx);
	asmfix_pass_change(ctx, ln->no, ".comm %.*s again, same size and alignment: defined at line %lu",
			   (int)name.len, name.p, e->line);
	return 1;
}

static void rewrite_comm(struct asmfix_ctx *ctx, struct common *c,
			 struct asm_line *ln, const struct asm_stmt *st, int nstmts)
{
	struct asm_str name;
	long long size, align;
	const char *sec;
	int local;

	if (st->nops < 2 || st->nops > 3) {
		asmfix_pass_error(ctx, ln->no, "cannot parse '.comm %.*s'", (int)st->args.len, st->args.p);
		return;
	}
	name = st->ops[0];
	if (asmfix_parse_int(st->ops[1], &size) || size < 0) {
		asmfix_pass_error(ctx, ln->no, "size of .comm %.*s is not a constant: '%.*s'",
				  (int)name.len, name.p, (int)st->ops[1].len, st->ops[1].p);
		return;
	}
	align = default_align(size);
	if (st->nops == 3 && (asmfix_parse_int(st->ops[2], &align) || !is_power_of_two(align))) {
		asmfix_pass_error(ctx, ln->no, "alignment of .comm %.*s is not a power of two: '%.*s'",
				  (int)name.len, name.p, (int)st->ops[2].len, st->ops[2].p);
		return;
	}
	if (nstmts > 1) {
		asmfix_pass_error(ctx, ln->no, ".comm %.*s shares its line with other statements",
				  (int)name.len, name.p);
		return;
	}
	local = asmfix_symset_get(&c->local, name.p, name.len) != NULL;
	/*
	 * ".local x; .comm x" is no SHN_COMMON symbol: GAS allocates it in
	 * .bss itself, and gcc -fno-common emits exactly that.  Only with
	 * -fdata-sections does gcc give it a .bss.<name> section.
	 */
	if (local && !ctx->opt->data_sections)
		return;
	if (repeated(ctx, c, ln, name, comm_key(size, align)))
		return;

	/* Where gcc -fno-common puts it: .sbss when within the small-data limit. */
	sec = size > 0 && (unsigned long long)size <= ctx->opt->small_data ? ".sbss" : ".bss";
	strbuf_reset(&c->sb);
	/* '@' starts a comment on arm: the target says which prefix its types take. */
	if (ctx->opt->data_sections)
		strbuf_addf(&c->sb, "\t.pushsection\t%s.%.*s,\"aw\",%cnobits\n", sec,
			    (int)name.len, name.p, ctx->target->type_prefix);
	else
		strbuf_addf(&c->sb, "\t.pushsection\t%s,\"aw\",%cnobits\n", sec,
			    ctx->target->type_prefix);
	if (!local)
		strbuf_addf(&c->sb, "\t.globl\t%.*s\n", (int)name.len, name.p);
	strbuf_addf(&c->sb, "\t.balign\t%lld\n", align);
	strbuf_addf(&c->sb, "\t.type\t%.*s, %cobject\n", (int)name.len, name.p,
		    ctx->target->type_prefix);
	strbuf_addf(&c->sb, "\t.size\t%.*s, %lld\n", (int)name.len, name.p, size);
	strbuf_addf(&c->sb, "%.*s:\n", (int)name.len, name.p);
	strbuf_addf(&c->sb, "\t.zero\t%lld\n", size);
	strbuf_addstr(&c->sb, "\t.popsection");
	asmfix_line_replace(ctx, c->sb.buf, c->sb.len);
	asmfix_pass_change(ctx, ln->no, ".comm %.*s -> %s definition in %s%s%.*s",
			   (int)name.len, name.p, local ? "local" : "global", sec,
			   ctx->opt->data_sections ? "." : "",
			   ctx->opt->data_sections ? (int)name.len : 0, name.p);
}

static void common_line(struct asmfix_ctx *ctx, void *data, struct asm_line *ln)
{
	struct common *c = data;
	struct asm_stmt *st;
	int n;

	if (!(ln->dirs & (D_COMM | D_LOCAL)) || (ln->flags & LF_NUL))
		return;
	n = asmfix_line_stmts(ctx, ln, &st);
	for (int i = 0; i < n; i++) {
		if (st[i].kind != STMT_DIRECTIVE)
			continue;
		if (asmfix_str_eq(st[i].name, ".local")) {
			for (int k = 0; k < st[i].nops; k++)
				if (st[i].ops[k].len)
					asmfix_symset_add(&c->local, st[i].ops[k].p,
							  st[i].ops[k].len)->line = ln->no;
		} else if (asmfix_str_eq(st[i].name, ".comm")) {
			rewrite_comm(ctx, c, ln, &st[i], n);
		}
	}
}

/* No local_label hook: labels never matter to it. */
const struct asmfix_pass asmfix_pass_common = {
	.name = "common",
	.help = "turn .comm symbols into real .bss definitions (module loader rejects SHN_COMMON)",
	.init = common_init,
	.line = common_line,
	.release = common_release,
};
