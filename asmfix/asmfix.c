// SPDX-License-Identifier: GPL-2.0
/*
 * The asmfix driver: the pass table, line classification, output queue.
 * See internal.h for how passes see lines and edit the output.
 */
#include "internal.h"
#include "namelist.h"
#include "fileio.h"
#include "linescan.h"
#include "reader.h"
#include "warn.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The one pass table, in execution order. */
static const struct asmfix_pass *const passes[] = {
	&pass_common,
	&pass_used_accessors,
	&pass_lockfix,
	&pass_altinstr,
};
#define NPASSES (sizeof(passes) / sizeof(passes[0]))
_Static_assert(NPASSES <= ASMFIX_MAX_PASSES, "too many passes");

size_t asmfix_pass_count(void) { return NPASSES; }

const char *asmfix_pass_name(size_t i)
{
	return i < NPASSES ? passes[i]->name : NULL;
}

const char *asmfix_pass_help(size_t i)
{
	return i < NPASSES ? passes[i]->help : NULL;
}

unsigned asmfix_all_passes(void)
{
	return (1u << NPASSES) - 1;
}

int asmfix_parse_passes(const char *list, unsigned *mask)
{
	return namelist_parse(list, asmfix_pass_name, NPASSES, "pass", mask);
}

void asmfix_format_passes(unsigned mask, char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < NPASSES; i++)
		if (mask & (1u << i)) {
			if (sb.len)
				strbuf_addch(&sb, ',');
			strbuf_addstr(&sb, passes[i]->name);
		}
	if (!sb.len)
		strbuf_addstr(&sb, "none");
	if (size) {
		size_t n = sb.len < size - 1 ? sb.len : size - 1;
		memcpy(buf, sb.buf, n);
		buf[n] = 0;
	}
	strbuf_release(&sb);
}

/* ---- output ---- */

/* The first write error sticks: nothing more is written after it. */
static void write_all(struct asmfix_ctx *ctx, const char *p, size_t len)
{
	if (!ctx->io_error && write_in_full(ctx->out_fd, p, len))
		ctx->io_error = errno;
}

static void out_flush(struct asmfix_ctx *ctx)
{
	write_all(ctx, ctx->obuf, ctx->olen);
	ctx->olen = 0;
}

/* Text of OUT_DIRECT bytes or more is written as it is, not copied. */
#define OUT_DIRECT 4096

static void out_add(struct asmfix_ctx *ctx, const char *p, size_t len)
{
	if (len >= OUT_DIRECT) {
		out_flush(ctx);
		write_all(ctx, p, len);
		return;
	}
	if (ctx->olen + len > ctx->oalloc)
		out_flush(ctx);
	memcpy(ctx->obuf + ctx->olen, p, len);
	ctx->olen += len;
}

static size_t min_hold(struct asmfix_ctx *ctx)
{
	size_t m = SIZE_MAX;
	for (size_t i = 0; i < NPASSES; i++)
		if (ctx->hold[i] < m)
			m = ctx->hold[i];
	return m;
}

/* Write out queued entries before the oldest hold. */
static void q_flush(struct asmfix_ctx *ctx)
{
	size_t lim = min_hold(ctx), i;

	for (i = 0; i < ctx->qnr && ctx->qbase + i < lim; i++)
		if (!ctx->q[i].deleted)
			out_add(ctx, ctx->qtext.buf + ctx->q[i].off, ctx->q[i].len);
	if (!i)
		return;
	ctx->qbase += i;
	if (i == ctx->qnr) {
		ctx->qnr = 0;
		strbuf_reset(&ctx->qtext);
		return;
	}
	/* Keep the tail; compact the text only when it is mostly dead. */
	memmove(ctx->q, ctx->q + i, sizeof(*ctx->q) * (ctx->qnr - i));
	ctx->qnr -= i;
	if (ctx->q[0].off > ctx->qtext.len / 2) {
		size_t off = ctx->q[0].off;
		memmove(ctx->qtext.buf, ctx->qtext.buf + off, ctx->qtext.len - off);
		strbuf_setlen(&ctx->qtext, ctx->qtext.len - off);
		for (size_t k = 0; k < ctx->qnr; k++)
			ctx->q[k].off -= off;
	}
}

/* Emit text (newline included) for input line no (0: inserted). */
static void emit(struct asmfix_ctx *ctx, const char *p, size_t len, unsigned long no)
{
	struct qent *e;

	if (!ctx->nholds && !ctx->qnr) {
		out_add(ctx, p, len);
		return;
	}
	if (ctx->qnr == ctx->qalloc) {
		ctx->qalloc = ctx->qalloc ? ctx->qalloc * 2 : 256;
		ctx->q = xrealloc(ctx->q, sizeof(*ctx->q) * ctx->qalloc);
	}
	e = &ctx->q[ctx->qnr++];
	e->off = ctx->qtext.len;
	e->len = len;
	e->no = no;
	e->deleted = 0;
	strbuf_add(&ctx->qtext, p, len);
}

void q_hold(struct asmfix_ctx *ctx)
{
	if (ctx->hold[ctx->cur_pass] != SIZE_MAX)
		return;
	ctx->hold[ctx->cur_pass] = ctx->qbase + ctx->qnr;
	ctx->nholds++;
}

void q_release(struct asmfix_ctx *ctx)
{
	if (ctx->hold[ctx->cur_pass] == SIZE_MAX)
		return;
	ctx->hold[ctx->cur_pass] = SIZE_MAX;
	ctx->nholds--;
}

int q_holding(struct asmfix_ctx *ctx)
{
	return ctx->hold[ctx->cur_pass] != SIZE_MAX;
}

static struct qent *q_find(struct asmfix_ctx *ctx, unsigned long no)
{
	for (size_t i = ctx->qnr; i-- > 0;)
		if (ctx->q[i].no == no)
			return &ctx->q[i];
	return NULL;
}

int q_replace_line(struct asmfix_ctx *ctx, unsigned long no, const char *text, size_t len)
{
	struct qent *e = q_find(ctx, no);
	if (!e)
		return -1;
	if (ctx->opt->check_only || e->deleted)
		return 0;
	e->off = ctx->qtext.len;
	strbuf_add(&ctx->qtext, text, len);
	strbuf_addch(&ctx->qtext, '\n');
	e->len = len + 1;
	return 0;
}

int q_delete_line(struct asmfix_ctx *ctx, unsigned long no)
{
	struct qent *e = q_find(ctx, no);
	if (!e)
		return -1;
	if (!ctx->opt->check_only)
		e->deleted = 1;
	return 0;
}

const char *q_line_text(struct asmfix_ctx *ctx, unsigned long no, size_t *len)
{
	struct qent *e = q_find(ctx, no);
	if (!e || e->deleted)
		return NULL;
	*len = e->len;
	if (*len && ctx->qtext.buf[e->off + *len - 1] == '\n')
		(*len)--;
	return ctx->qtext.buf + e->off;
}

/* ---- edits of the current line ---- */

void line_replace(struct asmfix_ctx *ctx, const char *text, size_t len)
{
	if (ctx->opt->check_only)
		return;
	strbuf_reset(&ctx->repl);
	strbuf_add(&ctx->repl, text, len);
	ctx->cur_replaced = 1;
}

void line_delete(struct asmfix_ctx *ctx)
{
	if (!ctx->opt->check_only)
		ctx->cur_deleted = 1;
}

void line_insert_before(struct asmfix_ctx *ctx, const char *text, size_t len)
{
	if (!ctx->opt->check_only)
		strbuf_add(&ctx->before, text, len);
}

static void vreport(struct asmfix_ctx *ctx, unsigned long no, const char *kind,
		    const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, passes[ctx->cur_pass]->name);
	if (kind)
		strbuf_addf(&sb, ": %s", kind);
	vdiag_at(ctx->file, no, sb.buf, fmt, ap);
	strbuf_release(&sb);
}

void pass_change(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
{
	va_list ap;
	if (ctx->stats)
		ctx->stats->changes[ctx->cur_pass]++;
	if (!ctx->opt->check_only)
		return;
	va_start(ap, fmt);
	vreport(ctx, no, NULL, fmt, ap);
	va_end(ap);
}

void pass_error(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
{
	va_list ap;
	ctx->failed = 1;
	va_start(ap, fmt);
	vreport(ctx, no, NULL, fmt, ap);
	va_end(ap);
}

void pass_warning(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(ctx, no, "warning", fmt, ap);
	va_end(ap);
}

int line_is_comment(const struct asm_line *ln, const char *text)
{
	const char *p = ln->p, *end = ln->p + ln->len;
	size_t n = strlen(text);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return (size_t)(end - p) >= n && !memcmp(p, text, n);
}

/* ---- classification ---- */

/* n equals the string literal lit: one length test and an inlined memcmp. */
#define NAME_IS(n, lit) ((n).len == sizeof(lit) - 1 && !memcmp((n).p, lit, sizeof(lit) - 1))

unsigned dir_class(struct asm_str n)
{
	if (n.len < 2)
		return D_OTHER;
	switch (n.p[1]) {
	case 's':
		if (NAME_IS(n, ".section") || NAME_IS(n, ".subsection"))
			return D_SEC;
		if (NAME_IS(n, ".size"))
			return D_SIZE;
		break;
	case 'p':
		if (NAME_IS(n, ".pushsection") || NAME_IS(n, ".popsection") ||
		    NAME_IS(n, ".previous"))
			return D_SEC;
		if (NAME_IS(n, ".p2align"))
			return D_ALIGN;
		if (NAME_IS(n, ".protected"))
			return D_VIS;
		break;
	case 't':
		if (NAME_IS(n, ".text"))
			return D_SEC;
		if (NAME_IS(n, ".type"))
			return D_TYPE;
		break;
	case 'd':
		if (NAME_IS(n, ".data"))
			return D_SEC;
		break;
	case 'b':
		if (NAME_IS(n, ".bss"))
			return D_SEC;
		if (NAME_IS(n, ".balign"))
			return D_ALIGN;
		break;
	case 'c':
		if (NAME_IS(n, ".comm"))
			return D_COMM;
		if (n.len > 5 && !memcmp(n.p, ".cfi_", 5))
			return D_CFI;
		break;
	case 'l':
		if (NAME_IS(n, ".long"))
			return D_DATA;
		if (NAME_IS(n, ".local"))
			return D_LOCAL;
		break;
	case 'q':
		if (NAME_IS(n, ".quad"))
			return D_DATA;
		break;
	case 'i':
		if (NAME_IS(n, ".int"))
			return D_DATA;
		if (NAME_IS(n, ".internal"))
			return D_VIS;
		break;
	case '4':
		if (NAME_IS(n, ".4byte"))
			return D_DATA;
		break;
	case '8':
		if (NAME_IS(n, ".8byte"))
			return D_DATA;
		break;
	case 'g':
		if (NAME_IS(n, ".globl") || NAME_IS(n, ".global"))
			return D_GLOBL;
		break;
	case 'a':
		if (NAME_IS(n, ".align"))
			return D_ALIGN;
		break;
	case 'h':
		if (NAME_IS(n, ".hidden"))
			return D_VIS;
		break;
	case 'w':
		if (NAME_IS(n, ".weak"))
			return D_VIS;
		break;
	}
	return D_OTHER;
}

static int is_lockish(struct asm_str name)
{
	return NAME_IS(name, "lock") || (name.len >= 4 && !memcmp(name.p, "xchg", 4));
}

/*
 * is_lockish() for a name at p with 4 readable bytes, without a branch on
 * the name's length (instruction lengths alternate unpredictably).
 */
static inline int lockish4(const char *p, size_t len)
{
	uint32_t w, lock, xchg;

	memcpy(&w, p, 4);
	memcpy(&lock, "lock", 4);
	memcpy(&xchg, "xchg", 4);
	return ((w == lock) & (len == 4)) | ((w == xchg) & (len >= 4));
}

static void summarize(struct asm_line *ln)
{
	for (int i = 0; i < ln->nstmts && i < ASM_MAX_STMTS; i++) {
		struct asm_stmt *st = &ln->stmts[i];
		if (st->nlabels)
			ln->flags |= LF_LABEL;
		if (st->kind == STMT_DIRECTIVE) {
			ln->flags |= LF_DIRECTIVE;
			ln->dirs |= dir_class(st->name);
		} else if (st->kind == STMT_INSN) {
			ln->flags |= LF_INSN;
			if (is_lockish(st->name))
				ln->flags |= LF_LOCK;
			for (int k = 0; k < st->nprefixes; k++)
				if (asm_str_eq(st->prefixes[k], "lock"))
					ln->flags |= LF_LOCK;
		}
		if (!ln->first.len && st->name.len)
			ln->first = st->name;
	}
}

static void parse_full(struct asmfix_ctx *ctx, struct asm_line *ln, struct asm_lexer *lx)
{
	ln->nstmts = asm_parse_line(lx, ln->p, ln->len, ln->stmts, ASM_MAX_STMTS);
	ln->scratch = lx->scratch;
	ln->parsed = 1;
	if (lx->bad_string)
		ln->flags |= LF_BADSTR;
	(void)ctx;
}

int line_stmts(struct asmfix_ctx *ctx, struct asm_line *ln, struct asm_stmt **st)
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
 * the next keep prefix are in the chunk: found with memchr/memmem once
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
 * The keep prefix in [p, end): memchr for one of its bytes that is rare
 * in assembly ('k' of "__ccd_keep_"), then a compare.  glibc's memmem
 * costs ~1 instruction per byte here, this ~0.1.
 */
static const char *find_prefix(const struct asmfix_ctx *ctx, const char *p, const char *end)
{
	size_t k = ctx->prefix_anchor, n = ctx->keep_prefix_len;
	const char *c;

	while ((size_t)(end - p) >= n) {
		c = memchr(p + k, ctx->keep_prefix[k], (size_t)(end - p) - k);
		if (!c)
			return NULL;
		p = c - k;
		if ((size_t)(end - p) < n)
			return NULL;
		if (!memcmp(p, ctx->keep_prefix, n))
			return p;
		p++;
	}
	return NULL;
}

/* The first byte of the prefix not common in asm text; else its last. */
static size_t pick_anchor(const char *prefix, size_t n)
{
	static const char common[] = " \t.,_%$()0123456789abcdefilmnorstuxLBEVS";
	for (size_t i = 0; i < n; i++)
		if (!strchr(common, prefix[i]))
			return i;
	return n ? n - 1 : 0;
}

static void advance_specials(struct asmfix_ctx *ctx, const char *p)
{
	const char *end = ctx->chunk_end;

	if (ctx->next_semi < p) {
		ctx->next_semi = memchr(p, ';', (size_t)(end - p));
		if (!ctx->next_semi)
			ctx->next_semi = end;
	}
	if (ctx->next_cmt < p)
		ctx->next_cmt = find_cmt(p, end);
	if (ctx->next_prefix < p) {
		ctx->next_prefix = ctx->chunk_has_prefix ?
			find_prefix(ctx, p, end) : NULL;
		if (!ctx->next_prefix)
			ctx->next_prefix = end;
	}
	ctx->next_special = ctx->next_semi < ctx->next_cmt ? ctx->next_semi : ctx->next_cmt;
	ctx->next_stop = ctx->next_special < ctx->next_prefix ? ctx->next_special : ctx->next_prefix;
}

/* Does [p, p+len) contain ';' or a comment start? */
static int line_has_syntax(struct asmfix_ctx *ctx, const char *p, size_t len)
{
	if (!ctx->chunk_end)	/* not inside process_chunk: no index */
		return memchr(p, '/', len) || memchr(p, ';', len);
	advance_specials(ctx, p);
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

static void classify(struct asmfix_ctx *ctx, struct asm_line *ln)
{
	const char *p = ln->p, *end = ln->p + ln->len, *t;

	ln->flags = ln->dirs = 0;
	ln->first.p = NULL;
	ln->first.len = 0;
	ln->parsed = 0;
	ln->nstmts = 0;
	if (ctx->chunk_has_nul && memchr(p, 0, ln->len)) {
		ln->flags = LF_NUL;
		asm_skip_line(&ctx->lx, p, ln->len);
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
	for (t = p; t < end && asm_is_ident((unsigned char)*t); t++)
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
		ln->dirs = dir_class(ln->first);
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

/* ---- the filter ---- */

/* Classify the line and run the passes over it.  1 if some pass edited it. */
static int run_passes(struct asmfix_ctx *ctx, const char *p, size_t len,
		      int nl, unsigned long no)
{
	struct asm_line *ln = &ctx->line;
	unsigned mask = ctx->opt->passes;

	ln->p = p;
	ln->len = len;
	ln->nl = nl;
	ln->no = no;
	classify(ctx, ln);
	ctx->cur_deleted = ctx->cur_replaced = 0;
	for (size_t i = 0; i < NPASSES; i++)
		if (mask & (1u << i)) {
			ctx->cur_pass = (int)i;
			passes[i]->line(ctx, ctx->pass_data[i], ln);
		}
	return ctx->before.len || ctx->after.len || ctx->cur_deleted || ctx->cur_replaced;
}

/* Output what the passes made of the current line. */
static void emit_line(struct asmfix_ctx *ctx, const char *p, size_t len,
		      int nl, unsigned long no)
{
	if (ctx->before.len) {
		emit(ctx, ctx->before.buf, ctx->before.len, 0);
		strbuf_reset(&ctx->before);
	}
	if (ctx->cur_deleted) {
		/* Keep a placeholder while held so the line can be found. */
		if (ctx->nholds) {
			emit(ctx, "", 0, no);
			ctx->q[ctx->qnr - 1].deleted = 1;
		}
	} else if (ctx->cur_replaced) {
		strbuf_addch(&ctx->repl, '\n');
		emit(ctx, ctx->repl.buf, ctx->repl.len - (nl ? 0 : 1), no);
	} else {
		emit(ctx, p, len + (size_t)nl, no);
	}
	if (ctx->after.len) {
		emit(ctx, ctx->after.buf, ctx->after.len, 0);
		strbuf_reset(&ctx->after);
	}
	if (ctx->qnr)
		q_flush(ctx);
}

/*
 * The directives of -g output (85 % of the lines: .debug_* data, .loc) as
 * gcc and clang spell them: a tab, the name, a blank.  A hash of the line's first
 * five bytes picks the one table entry the line can be, and one masked
 * compare of its first 16 bytes decides, without a branch per name (line
 * kinds alternate unpredictably in debug data).  Everything here is an
 * optimisation: a line it does not recognise takes the general path.
 */
struct hot_dir {
	uint64_t text[2];	/* "\t.name" and a 0 where the blank goes, little-endian words */
	uint64_t mask[2];	/* the bits of the 16 bytes that must equal text */
};

/*
 * After the name comes a blank: any byte whose bits 7, 6, 4, 2 and 1 are
 * clear.  That is tab and space; also '!', '(' and ')', which end a
 * directive name just as well (".long(x)" is .long); NUL, ^A and ^H,
 * which no fast chunk holds or which gas rejects anyway.  Never ':' (a
 * label), a letter, a digit or a newline.
 */
#define BLANK_BITS 0xd6u
/* Bytes [0, n) of a little-endian word, and the blank test on byte n of it. */
#define LE_HEAD(n) ((n) >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * ((n) & 7))) - 1)
#define LE_BLANK(n) ((n) < 8 ? (uint64_t)BLANK_BITS << (8 * ((n) & 7)) : 0)
/* The five bytes a..e as the low bytes of a little-endian word. */
#define KEY5(a, b, c, d, e) ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | \
			     (uint64_t)(d) << 24 | (uint64_t)(e) << 32)
#define HOT_KEY_MASK 0xffffffffffull
/* A multiplier that gives each name its own slot (found by search; checked below). */
#define HOT_SLOT(key) ((unsigned)(((key) * 0x9e3779b97f4a7c15ull) >> 59))
/* 8 bytes of s from offset o, little-endian; s is padded to 16 bytes with zeros. */
#define LE_BYTES(s, o) ((uint64_t)(unsigned char)(s)[(o)] | (uint64_t)(unsigned char)(s)[(o) + 1] << 8 | \
	(uint64_t)(unsigned char)(s)[(o) + 2] << 16 | (uint64_t)(unsigned char)(s)[(o) + 3] << 24 | \
	(uint64_t)(unsigned char)(s)[(o) + 4] << 32 | (uint64_t)(unsigned char)(s)[(o) + 5] << 40 | \
	(uint64_t)(unsigned char)(s)[(o) + 6] << 48 | (uint64_t)(unsigned char)(s)[(o) + 7] << 56)
#define PAD16(s) s "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"

/*
 * The names, once: "\t.name", its first five bytes spelled out (a
 * literal's bytes are no constant expression for an index), and 1 for
 * .long/.quad (an alternative record may use them).
 */
#define HOT_NAMES(X) \
	X("\t.byte", '\t', '.', 'b', 'y', 't', 0) \
	X("\t.uleb128", '\t', '.', 'u', 'l', 'e', 0) \
	X("\t.sleb128", '\t', '.', 's', 'l', 'e', 0) \
	X("\t.long", '\t', '.', 'l', 'o', 'n', 1) \
	X("\t.loc", '\t', '.', 'l', 'o', 'c', 0) \
	X("\t.string", '\t', '.', 's', 't', 'r', 0) \
	X("\t.value", '\t', '.', 'v', 'a', 'l', 0) \
	X("\t.quad", '\t', '.', 'q', 'u', 'a', 1) \
	X("\t.short", '\t', '.', 's', 'h', 'o', 0)	/* clang's .value */ \
	X("\t.asciz", '\t', '.', 'a', 's', 'c', 0)	/* clang's .string */

#define HOT_ENTRY(s, a, b, c, d, e, dat) [HOT_SLOT(KEY5(a, b, c, d, e))] = { \
	{ LE_BYTES(PAD16(s), 0), LE_BYTES(PAD16(s), 8) }, \
	{ LE_HEAD(sizeof(s) - 1) | LE_BLANK(sizeof(s) - 1), \
	  sizeof(s) - 1 >= 8 ? LE_HEAD(sizeof(s) - 9) | LE_BLANK(sizeof(s) - 9) : 0 } },
#define HOT_DATA(s, a, b, c, d, e, dat) [HOT_SLOT(KEY5(a, b, c, d, e))] = dat,
#define HOT_BIT(s, a, b, c, d, e, dat) | (uint64_t)1 << HOT_SLOT(KEY5(a, b, c, d, e))
#define HOT_ONE(s, a, b, c, d, e, dat) + 1
_Static_assert(__builtin_popcountll(0 HOT_NAMES(HOT_BIT)) == 0 HOT_NAMES(HOT_ONE),
	       "two hot names share a slot");

/* Empty slots compare all 16 bytes with zeros: no line of a chunk without NULs matches. */
#define NO_HOT { { 0, 0 }, { ~(uint64_t)0, ~(uint64_t)0 } }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const struct hot_dir hot_dirs[32] = {
	[0 ... 31] = NO_HOT,	/* the named ones override it */
	HOT_NAMES(HOT_ENTRY)
};
#pragma GCC diagnostic pop
static const unsigned char hot_data[32] = { HOT_NAMES(HOT_DATA) };

/* 8 bytes at p as a little-endian word. */
static inline uint64_t load64le(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/*
 * The entry line p would be and whether it is it (0: it is).  The caller
 * guarantees 16 readable bytes at p: compares may run past the line's
 * newline, never past the chunk.
 */
static inline uint64_t hot_diff(const char *p, unsigned *slot)
{
	uint64_t w0 = load64le(p), w1 = load64le(p + 8);
	const struct hot_dir *h = &hot_dirs[*slot = HOT_SLOT(w0 & HOT_KEY_MASK)];

	return ((w0 ^ h->text[0]) & h->mask[0]) | ((w1 ^ h->text[1]) & h->mask[1]);
}

/* Is line p a hot directive?  -1 if not, else 1 for .long/.quad, 0 for the others. */
static inline int hot_directive(const char *p)
{
	unsigned slot;

	return hot_diff(p, &slot) ? -1 : hot_data[slot];
}

/*
 * 1 if line p is not a hot directive, without a branch: for a whole
 * window of lines at a time, where a mispredicted branch per line would
 * cost more than the compare.
 */
static inline unsigned not_hot(const char *p)
{
	unsigned slot;

	return hot_diff(p, &slot) != 0;
}

/*
 * Only blanks, then a '#' comment or the end, in [p, end) (*end is the
 * newline).  Out of line: the bare label is the common case.
 */
static __attribute__((noinline)) int only_comment(const char *p, const char *end)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p == end || *p == '#';
}

/* ".Lname:" alone (-g output is full of them): only the hooks see it. */
static int fast_local_label(struct asmfix_ctx *ctx)
{
	for (unsigned k = 0; k < ctx->nlocal_label; k++) {
		unsigned i = ctx->local_label_pass[k];
		ctx->cur_pass = (int)i;
		passes[i]->local_label(ctx, ctx->pass_data[i]);
	}
	return 1;
}

/*
 * The fast path: a line no active pass needs to look at.  Plain
 * instructions (no label, lock or xchg) and directives no pass cares
 * about (.loc, .uleb128, .string, .file ... and .long/.quad outside
 * alternative records, .cfi_*), ".Lname:" labels (a comment may follow),
 * blank lines and comment lines that are no marker, with no ';', C
 * comment or keep prefix in them, while no pass wants every line.  p[len]
 * is the line's newline.  tried_hot: hot_directive() already said no.
 * Returns 1 if taken.
 */
static int fast_line(struct asmfix_ctx *ctx, const char *p, size_t len, unsigned long no,
		     int tried_hot)
{
	const char *end = p + len, *q = p, *t;
	struct asm_str name;
	unsigned d;
	int hot;

	if (ctx->next_stop < end) {
		advance_specials(ctx, p);
		if (ctx->next_stop < end)
			return 0;
	}
	if (!tried_hot && ctx->chunk_end - p >= 16 && (hot = hot_directive(p)) >= 0)
		return !hot || !ctx->want_data;
	/* One tab or blank without a branch: lines start with one or with none. */
	q += (*q == '\t') | (*q == ' ');
	while (*q == '\t' || *q == ' ')	/* q <= end: the newline stops it */
		q++;
	if (q == end)
		return 1;	/* blank */
	/*
	 * Comments (gcc's "# file.h:12: asm(...)", clang's "#DEBUG_VALUE:"
	 * and "# %bb.1:"): fast unless they may be a marker a pass looks for
	 * (#APP, #NO_APP, "# Begin/End ASM", icc's "# -- Begin/End") or may
	 * start an accessor's preamble.
	 */
	if (*q == '#')
		return end - q >= 3 &&
		       (q[1] == ' ' ? q[2] != '-' && q[2] != 'B' && q[2] != 'E' :
				      q[1] != 'A' && q[1] != 'N') &&
		       !prefix_near(ctx, &(struct asm_line){ .p = p });
	t = q + asm_ident_span(q, ctx->chunk_end);
	/* ".Lname:" alone, or followed by a comment (clang: ".LBB0_2:  # %bb.1") */
	if (*t == ':')
		return (t + 1 == end || only_comment(t + 1, end)) && t - q > 2 &&
		       q[0] == '.' && q[1] == 'L' && fast_local_label(ctx);
	if (t == q)
		return 0;
	name.p = q;
	name.len = (size_t)(t - q);
	if (*q == '.') {
		d = dir_class(name);
		/* .cfi_*: no pass looks at them; the preamble kinds matter only near the prefix. */
		if (d & (D_OTHER | D_CFI))
			return 1;
		if (d & (D_ALIGN | D_GLOBL | D_TYPE | D_VIS))
			return !prefix_near(ctx, &(struct asm_line){ .p = p });
		return d == D_DATA && !ctx->want_data;
	}
	if (ctx->chunk_end - q >= 4 ? lockish4(q, name.len) : is_lockish(name))
		return 0;
	if (ctx->nplain_insn) {
		struct asm_line *ln = &ctx->line;
		ln->p = p;
		ln->len = len;
		ln->nl = 1;
		ln->no = no;
		ln->flags = LF_INSN;
		ln->dirs = 0;
		ln->first = name;
		ln->parsed = 0;
		ln->nstmts = 0;
		for (unsigned k = 0; k < ctx->nplain_insn; k++) {
			unsigned i = ctx->plain_insn_pass[k];
			ctx->cur_pass = (int)i;
			passes[i]->plain_insn(ctx, ctx->pass_data[i], ln);
		}
	}
	return 1;
}

/*
 * No pass wants every line and no comment is open.  Held output does not
 * matter: fast lines are queued as one run that no pass can address.
 */
static inline int fast_ready(const struct asmfix_ctx *ctx)
{
	return !ctx->need_all && !ctx->lx.in_comment;
}

/*
 * A window of lines of the chunk: where each ends, and which are hot
 * (bit k of nothot clear: line k is a hot directive).  The driver jumps
 * from one line that is not hot to the next with a count of trailing
 * zeros.
 */
#define WIN_LINES 1024
#define WIN_CAP (WIN_LINES + NL_INDEX_SLACK)
struct line_window {
	const char *base;
	size_t n;			/* lines (newlines) in the window */
	uint32_t *nl;			/* offset of line k's newline from base */
	uint32_t nl_[1 + WIN_CAP];	/* nl_[0]: "line -1" ends at -1 */
	uint64_t nothot[WIN_CAP / 64 + 1];	/* and line n's bit */
};
_Static_assert(READER_MAX_LINE * 2ull < UINT32_MAX, "window offsets are 32-bit");

static inline const char *win_start(const struct line_window *w, size_t k)
{
	/* k == 0 reads nl_[0] (-1): the signed index keeps the pointer in bounds. */
	return w->base + (uint32_t)(w->nl[(ptrdiff_t)k - 1] + 1);
}

/* Index the lines from base on and mark the hot ones. */
static void win_fill(struct line_window *w, const char *base, const char *end)
{
	size_t k, n, top;

	w->base = base;
	w->nl = w->nl_ + 1;
	w->nl_[0] = UINT32_MAX;
	w->n = n = nl_index(base, end, w->nl, WIN_LINES);
	/* Lines starting 16 bytes or less before the end: too close for the compare. */
	for (top = n; top > 0 && end - win_start(w, top - 1) < 16; top--)
		;
	for (k = 0; k < top; k += 64) {
		size_t lim = top - k < 64 ? top - k : 64;
		uint64_t bits = 0;
		for (size_t j = 0; j < lim; j++)
			bits |= (uint64_t)not_hot(win_start(w, k + j)) << j;
		w->nothot[k / 64] = bits;
	}
	for (k = top; k < n; k++) {
		if (k % 64 == 0)
			w->nothot[k / 64] = 0;
		w->nothot[k / 64] |= (uint64_t)1 << (k % 64);
	}
	/* Line n (past the window) counts as not hot: it ends every search. */
	if (n % 64 == 0)
		w->nothot[n / 64] = 0;
	w->nothot[n / 64] |= (uint64_t)1 << (n % 64);
}

/*
 * The first line from k on that is not hot; n if none.  While a pass
 * wants .long/.quad (inside alternative records: rare) every line is
 * looked at.
 */
static size_t win_next(const struct line_window *w, size_t k, unsigned want_data)
{
	size_t i = k / 64;
	uint64_t m;

	if (want_data)
		return k;
	m = w->nothot[i] & (~(uint64_t)0 << (k % 64));
	while (!m)	/* line n's bit stops it */
		m = w->nothot[++i];
	return i * 64 + (size_t)__builtin_ctzll(m);
}

/*
 * A line for the passes.  [*run, p) is input to copy out unchanged: fast
 * lines, and slow lines no pass edited while nothing is queued.  With no
 * edits a whole chunk is one write.
 */
static void slow_line(struct asmfix_ctx *ctx, const char **run, const char *p, size_t n,
		      int nl, unsigned long no)
{
	/* A queue in use keeps the order: the run goes in first. */
	if (*run < p && (ctx->nholds || ctx->qnr)) {
		emit(ctx, *run, (size_t)(p - *run), 0);
		*run = p;
	}
	if (run_passes(ctx, p, n, nl, no) || ctx->nholds || ctx->qnr) {
		/* Nothing was queued before this line: the run goes straight out. */
		if (*run < p)
			out_add(ctx, *run, (size_t)(p - *run));
		emit_line(ctx, p, n, nl, no);
		*run = p + n + (size_t)nl;
	}
}

static void process_chunk(struct asmfix_ctx *ctx, const char *p, size_t len,
			  unsigned long *lineno)
{
	const char *end = p + len, *run = p;
	unsigned long no = *lineno;
	struct line_window w;
	int fast_ok, fast;

	ctx->chunk_has_nul = memchr(p, 0, len) != NULL;
	ctx->chunk_has_prefix = ctx->keep_prefix_len &&
		find_prefix(ctx, p, end) != NULL;
	ctx->chunk_end = end;
	ctx->next_semi = ctx->next_cmt = ctx->next_prefix = ctx->next_special = NULL;
	/* The last UA_TAIL_LINES lines: an accessor's preamble may start there. */
	ctx->chunk_tail = end;
	for (int i = 0; i <= ASMFIX_TAIL_LINES && ctx->chunk_tail > p; i++) {
		const char *nl = memrchr(p, '\n', (size_t)(ctx->chunk_tail - p));
		ctx->chunk_tail = nl ? nl : p;
	}
	advance_specials(ctx, p);
	fast_ok = !ctx->chunk_has_nul;
	/* Only run_passes changes these (the fast path hooks must not). */
	fast = fast_ok && fast_ready(ctx);
	while (p < end) {
		size_t k = 0;

		win_fill(&w, p, end);
		if (!w.n) {
			/* The input's last line, without a newline. */
			slow_line(ctx, &run, p, (size_t)(end - p), 0, ++no);
			p = end;
			break;
		}
		while (k < w.n) {
			const char *s, *nl;
			if (fast) {
				/*
				 * Skip the hot lines before the next line that is not,
				 * unless a ';', comment or prefix is in one.  Whether
				 * there are any is not branched on: it alternates.
				 */
				size_t j = win_next(&w, k, ctx->want_data);
				if (ctx->next_stop < win_start(&w, j)) {
					advance_specials(ctx, win_start(&w, k));
					for (size_t i = k; i < j; i++)
						if (w.base + w.nl[i] > ctx->next_stop) {
							j = i;
							break;
						}
				}
				no += j - k;
				k = j;
				if (k == w.n)
					break;
			}
			s = win_start(&w, k);
			nl = w.base + w.nl[k];
			k++;
			/* Not hot, or every line is looked at (want_data). */
			if (fast && fast_line(ctx, s, (size_t)(nl - s), no + 1,
					      !ctx->want_data && end - s >= 16)) {
				no++;
				continue;
			}
			slow_line(ctx, &run, s, (size_t)(nl - s), 1, ++no);
			fast = fast_ok && fast_ready(ctx);
		}
		p = win_start(&w, w.n);
	}
	if (run < p)
		emit(ctx, run, (size_t)(p - run), 0);
	*lineno = no;
	ctx->chunk_end = NULL;
	for (size_t i = 0; i < NPASSES; i++)
		if ((ctx->opt->passes & (1u << i)) && passes[i]->chunk_done) {
			ctx->cur_pass = (int)i;
			passes[i]->chunk_done(ctx, ctx->pass_data[i]);
		}
}

static void ctx_init(struct asmfix_ctx *ctx, const struct asmfix_options *opt,
		     int out_fd, struct asmfix_stats *stats)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->opt = opt;
	ctx->file = opt->filename ? opt->filename : "<stdin>";
	ctx->stats = stats;
	ctx->out_fd = out_fd;
	ctx->oalloc = 256 * 1024;
	ctx->obuf = xmalloc(ctx->oalloc);
	ctx->keep_prefix = opt->keep_prefix && *opt->keep_prefix ? opt->keep_prefix : "__ccd_keep_";
	ctx->keep_prefix_len = strlen(ctx->keep_prefix);
	ctx->prefix_anchor = pick_anchor(ctx->keep_prefix, ctx->keep_prefix_len);
	for (size_t i = 0; i < ASMFIX_MAX_PASSES; i++)
		ctx->hold[i] = SIZE_MAX;
	for (size_t i = 0; i < NPASSES; i++) {
		if (!(opt->passes & (1u << i)))
			continue;
		if (passes[i]->plain_insn)
			ctx->plain_insn_pass[ctx->nplain_insn++] = (unsigned char)i;
		if (passes[i]->local_label)
			ctx->local_label_pass[ctx->nlocal_label++] = (unsigned char)i;
	}
	for (size_t i = 0; i < NPASSES; i++)
		if ((opt->passes & (1u << i)) && passes[i]->init) {
			ctx->cur_pass = (int)i;
			ctx->pass_data[i] = passes[i]->init(ctx);
		}
}

static void ctx_release(struct asmfix_ctx *ctx)
{
	for (size_t i = 0; i < NPASSES; i++)
		if (ctx->pass_data[i] && passes[i]->release)
			passes[i]->release(ctx->pass_data[i]);
	free(ctx->obuf);
	free(ctx->q);
	strbuf_release(&ctx->qtext);
	strbuf_release(&ctx->before);
	strbuf_release(&ctx->after);
	strbuf_release(&ctx->repl);
	asm_lexer_release(&ctx->lx);
	asm_lexer_release(&ctx->lazy_lx);
}

int asmfix_filter(const struct asmfix_options *opt, int in_fd, int out_fd,
		  struct asmfix_stats *stats)
{
	struct asmfix_ctx ctx;
	struct line_reader r;
	unsigned long lineno = 0;
	int ret = 0;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	ctx_init(&ctx, opt, out_fd, stats);
	reader_init(&r, in_fd);
	for (;;) {
		const char *chunk;
		ssize_t n = reader_chunk(&r, &chunk);
		if (n == -2) {
			diag_at(ctx.file, lineno + 1, "asmfix", "line longer than %u MiB",
				READER_MAX_LINE >> 20);
			ret = 1;
			break;
		}
		if (n < 0) {
			error_errno("cannot read %s", ctx.file);
			ret = -1;
			break;
		}
		if (!n)
			break;
		process_chunk(&ctx, chunk, (size_t)n, &lineno);
		if (ctx.io_error)
			break;
	}
	if (!ret) {
		for (size_t i = 0; i < NPASSES; i++)
			if ((opt->passes & (1u << i)) && passes[i]->finish) {
				ctx.cur_pass = (int)i;
				passes[i]->finish(&ctx, ctx.pass_data[i]);
			}
		if (ctx.lx.in_comment)
			diag_at(ctx.file, lineno, "asmfix",
				"warning: comment not terminated at end of input");
	}
	for (size_t i = 0; i < ASMFIX_MAX_PASSES; i++)
		ctx.hold[i] = SIZE_MAX;
	ctx.nholds = 0;
	q_flush(&ctx);
	out_flush(&ctx);
	if (stats)
		stats->lines = lineno;
	if (ctx.io_error && !ret) {
		errno = ctx.io_error;
		error_errno("cannot write output");
		ret = -1;
	}
	if (!ret && ctx.failed)
		ret = 1;
	ctx_release(&ctx);
	reader_release(&r);
	return ret;
}
