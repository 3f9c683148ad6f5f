// SPDX-License-Identifier: GPL-2.0
/*
 * What a line is: labels, instructions, directive classes, lock prefixes,
 * from a cheap look at most lines and a full parse of the rest; and where
 * the chunk's next ';', C comment and needle (a pass's string, see internal.h) are, so that a line is
 * checked for them with two compares.
 */
#include "lineclass.h"

#include <stdint.h>
#include <string.h>

/* ---- classification ---- */


unsigned asmfix_dir_class(struct asm_str n)
{
	return dir_class_inline(n);
}

static void summarize(struct asm_line *ln)
{
	for (int i = 0; i < ln->nstmts && i < ASM_MAX_STMTS; i++) {
		struct asm_stmt *st = &ln->stmts[i];
		if (st->nlabels)
			ln->flags |= LF_LABEL;
		if (st->kind == STMT_DIRECTIVE) {
			ln->flags |= LF_DIRECTIVE;
			ln->dirs |= asmfix_dir_class(st->name);
		} else if (st->kind == STMT_INSN) {
			ln->flags |= LF_INSN;
			if (is_lockish(st->name))
				ln->flags |= LF_LOCK;
			for (int k = 0; k < st->nprefixes; k++)
				if (asmfix_str_eq(st->prefixes[k], "lock"))
					ln->flags |= LF_LOCK;
		}
		if (!ln->first.len && st->name.len)
			ln->first = st->name;
	}
}

static void parse_full(struct asmfix_ctx *ctx, struct asm_line *ln, struct asm_lexer *lx)
{
	ln->nstmts = asmfix_parse_line(lx, ln->p, ln->len, ln->stmts, ASM_MAX_STMTS);
	ln->scratch = lx->scratch;
	ln->parsed = 1;
	if (lx->bad_string)
		ln->flags |= LF_BADSTR;
	(void)ctx;
}

int asmfix_line_stmts(struct asmfix_ctx *ctx, struct asm_line *ln, struct asm_stmt **st)
{
	if (!ln->parsed) {
		/* Simple lines start outside comments and open none. */
		ctx->lazy_lx.in_comment = 0;
		parse_full(ctx, ln, &ctx->lazy_lx);
	}
	*st = ln->stmts;
	return ln->nstmts < ASM_MAX_STMTS ? ln->nstmts : ASM_MAX_STMTS;
}

/*
 * Where the next ';' and slash-star (statement separator, C comment) and
 * the next needle are in the chunk: found with memchr/memmem once
 * per occurrence, so a line is checked with two compares.
 */
static const char *find_cmt(const char *p, const char *end)
{
	while ((p = memchr(p, '/', (size_t)(end - p))) && p + 1 < end) {
		if (p[1] == '*')
			return p;
		p++;
	}
	return end;
}

/*
 * The needle in [p, end): memchr for one of its bytes that is rare
 * in assembly ('k' of "__ccd_keep_"), then a compare.  glibc's memmem
 * costs ~1 instruction per byte here, this ~0.1.
 */
const char *asmfix_find_needle(const struct asmfix_ctx *ctx, const char *p, const char *end)
{
	size_t k = ctx->needle_anchor, n = ctx->needle_len;
	const char *c;

	while ((size_t)(end - p) >= n) {
		c = memchr(p + k, ctx->needle[k], (size_t)(end - p) - k);
		if (!c)
			return NULL;
		p = c - k;
		if ((size_t)(end - p) < n)
			return NULL;
		if (!memcmp(p, ctx->needle, n))
			return p;
		p++;
	}
	return NULL;
}

/* The first byte of the needle not common in asm text; else its last. */
size_t asmfix_pick_anchor(const char *needle, size_t n)
{
	static const char common[] = " \t.,_%$()0123456789abcdefilmnorstuxLBEVS";
	for (size_t i = 0; i < n; i++)
		if (!strchr(common, needle[i]))
			return i;
	return n ? n - 1 : 0;
}

void asmfix_advance_specials(struct asmfix_ctx *ctx, const char *p)
{
	const char *end = ctx->chunk_end;

	if (ctx->next_semi < p) {
		ctx->next_semi = memchr(p, ';', (size_t)(end - p));
		if (!ctx->next_semi)
			ctx->next_semi = end;
	}
	if (ctx->next_cmt < p)
		ctx->next_cmt = find_cmt(p, end);
	if (ctx->next_needle < p) {
		ctx->next_needle = ctx->chunk_has_needle ? asmfix_find_needle(ctx, p, end) : NULL;
		if (!ctx->next_needle)
			ctx->next_needle = end;
	}
	ctx->next_special = ctx->next_semi < ctx->next_cmt ? ctx->next_semi : ctx->next_cmt;
	ctx->next_stop = ctx->next_special < ctx->next_needle ? ctx->next_special : ctx->next_needle;
}

/* Does [p, p+len) contain ';' or a comment start? */
static int line_has_syntax(struct asmfix_ctx *ctx, const char *p, size_t len)
{
	if (!ctx->chunk_end)	/* not inside process_chunk: no index */
		return memchr(p, '/', len) || memchr(p, ';', len);
	asmfix_advance_specials(ctx, p);
	return ctx->next_special < p + len;
}

/*
 * "name:" alone on a line (most labels): the one statement the parser
 * would produce, without parsing.  Spans point into the line itself.
 */
static void simple_label(struct asm_line *ln, const char *p, size_t n)
{
	struct asm_stmt *st = &ln->stmts[0];

	/* Only what a reader can look at without overrunning the counts. */
	st->labels[0].p = p;
	st->labels[0].len = n;
	st->nlabels = 1;
	st->kind = STMT_NONE;
	st->nprefixes = st->nops = st->overflow = 0;
	st->name.p = st->args.p = NULL;
	st->name.len = st->args.len = 0;
	ln->nstmts = 1;
	ln->scratch = ln->p;
	ln->parsed = 1;
}

void asmfix_line_classify(struct asmfix_ctx *ctx, struct asm_line *ln)
{
	const char *p = ln->p, *end = ln->p + ln->len, *t;

	ln->flags = ln->dirs = 0;
	ln->first.p = NULL;
	ln->first.len = 0;
	ln->parsed = 0;
	ln->nstmts = 0;
	if (ctx->chunk_has_nul && memchr(p, 0, ln->len)) {
		ln->flags = LF_NUL;
		asmfix_skip_line(&ctx->lx, p, ln->len);
		return;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '#')
		ln->flags |= LF_HASH;
	if (ctx->lx.in_comment || line_has_syntax(ctx, ln->p, ln->len))
		goto complex;
	if (p == end || *p == '#')
		return;
	for (t = p; t < end && asmfix_is_ident((unsigned char)*t); t++)
		;
	if (t == p)
		goto complex;
	if (t < end && *t == ':') {
		const char *r = t + 1;
		while (r < end && (*r == ' ' || *r == '\t'))
			r++;
		if (r < end && *r != '#')
			goto complex;
		ln->flags |= LF_LABEL;
		simple_label(ln, p, (size_t)(t - p));
		return;
	}
	ln->first.p = p;
	ln->first.len = (size_t)(t - p);
	if (*p == '.') {
		ln->flags |= LF_DIRECTIVE;
		ln->dirs = asmfix_dir_class(ln->first);
	} else {
		ln->flags |= LF_INSN;
		if (is_lockish(ln->first))
			ln->flags |= LF_LOCK;
	}
	return;
complex:
	parse_full(ctx, ln, &ctx->lx);
	summarize(ln);
}
