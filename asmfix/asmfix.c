// SPDX-License-Identifier: GPL-2.0
/*
 * The asmfix driver: reads chunks, takes the lines no pass needs on the
 * fast path (hot directives by a table, the rest by a cheap look), gives
 * the others to the passes in table order, and writes what they made.
 * See internal.h for how passes see lines and edit the output.
 */
#include "internal.h"
#include "emit.h"
#include "fileio.h"
#include "hotdir.h"
#include "lineclass.h"
#include "linescan.h"
#include "reader.h"
#include "warn.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	asmfix_line_classify(ctx, ln);
	ctx->cur_deleted = ctx->cur_replaced = 0;
	for (size_t i = 0; i < NPASSES; i++)
		if (mask & (1u << i)) {
			ctx->cur_pass = (int)i;
			asmfix_passes[i]->line(ctx, ctx->pass_data[i], ln);
		}
	return ctx->before.len || ctx->after.len || ctx->cur_deleted || ctx->cur_replaced;
}

/* Output what the passes made of the current line. */
static void emit_line(struct asmfix_ctx *ctx, const char *p, size_t len,
		      int nl, unsigned long no)
{
	if (ctx->before.len) {
		asmfix_emit(ctx, ctx->before.buf, ctx->before.len, 0);
		strbuf_reset(&ctx->before);
	}
	if (ctx->cur_deleted) {
		/* Keep a placeholder while held so the line can be found. */
		if (ctx->nholds) {
			asmfix_emit(ctx, "", 0, no);
			ctx->q[ctx->qnr - 1].deleted = 1;
		}
	} else if (ctx->cur_replaced) {
		strbuf_addch(&ctx->repl, '\n');
		asmfix_emit(ctx, ctx->repl.buf, ctx->repl.len - (nl ? 0 : 1), no);
	} else {
		asmfix_emit(ctx, p, len + (size_t)nl, no);
	}
	if (ctx->after.len) {
		asmfix_emit(ctx, ctx->after.buf, ctx->after.len, 0);
		strbuf_reset(&ctx->after);
	}
	if (ctx->qnr)
		asmfix_q_flush(ctx);
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
		asmfix_passes[i]->local_label(ctx, ctx->pass_data[i]);
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
		asmfix_advance_specials(ctx, p);
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
	 * and "# %bb.1:"): fast unless they may be a marker an active pass
	 * declared, or a pass wants comments near its needle.
	 */
	if (*q == '#')
		return end - q >= 3 &&
		       !(q[1] == ' ' ? ctx->marker2[(unsigned char)q[2]]
				     : ctx->marker1[(unsigned char)q[1]]) &&
		       !(ctx->near_comments && asmfix_needle_near(ctx, p));
	t = q + asmfix_ident_span(q, ctx->chunk_end);
	/* ".Lname:" alone, or followed by a comment (clang: ".LBB0_2:  # %bb.1") */
	if (*t == ':')
		return (t + 1 == end || only_comment(t + 1, end)) && t - q > 2 &&
		       q[0] == '.' && q[1] == 'L' && fast_local_label(ctx);
	if (t == q)
		return 0;
	name.p = q;
	name.len = (size_t)(t - q);
	if (*q == '.') {
		d = dir_class_inline(name);
		/*
		 * Section, symbol-definition and size directives always go to
		 * the passes, .long/.quad while one wants data; the others
		 * only near the needle, to a pass that declared their class.
		 */
		if (d & (D_OTHER | D_CFI | D_ALIGN | D_GLOBL | D_TYPE | D_VIS))
			return !(d & ctx->near_dirs) || !asmfix_needle_near(ctx, p);
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
			asmfix_passes[i]->plain_insn(ctx, ctx->pass_data[i], ln);
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
		asmfix_emit(ctx, *run, (size_t)(p - *run), 0);
		*run = p;
	}
	if (run_passes(ctx, p, n, nl, no) || ctx->nholds || ctx->qnr) {
		/* Nothing was queued before this line: the run goes straight out. */
		if (*run < p)
			asmfix_out_add(ctx, *run, (size_t)(p - *run));
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
	ctx->chunk_has_needle = ctx->needle_len && asmfix_find_needle(ctx, p, end) != NULL;
	ctx->chunk_end = end;
	ctx->next_semi = ctx->next_cmt = ctx->next_needle = ctx->next_special = NULL;
	/* The last UA_TAIL_LINES lines: an accessor's preamble may start there. */
	ctx->chunk_tail = end;
	for (int i = 0; i <= ASMFIX_TAIL_LINES && ctx->chunk_tail > p; i++) {
		const char *nl = memrchr(p, '\n', (size_t)(ctx->chunk_tail - p));
		ctx->chunk_tail = nl ? nl : p;
	}
	asmfix_advance_specials(ctx, p);
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
					asmfix_advance_specials(ctx, win_start(&w, k));
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
		asmfix_emit(ctx, run, (size_t)(p - run), 0);
	*lineno = no;
	ctx->chunk_end = NULL;
	for (size_t i = 0; i < NPASSES; i++)
		if ((ctx->opt->passes & (1u << i)) && asmfix_passes[i]->chunk_done) {
			ctx->cur_pass = (int)i;
			asmfix_passes[i]->chunk_done(ctx, ctx->pass_data[i]);
		}
}

/* What active pass i declares the fast path must stop for, and its hooks. */
static void fast_path_stops(struct asmfix_ctx *ctx, const struct asmfix_pass *pass,
			    unsigned char i)
{
	for (const char *const *m = pass->markers; m && *m; m++) {
		if ((*m)[1] == ' ')
			ctx->marker2[(unsigned char)(*m)[2]] = 1;
		else
			ctx->marker1[(unsigned char)(*m)[1]] = 1;
	}
	if (pass->needle && !*ctx->needle)
		ctx->needle = pass->needle(ctx->opt);
	ctx->near_dirs |= pass->near_dirs;
	ctx->near_comments |= pass->near_comments;
	if (pass->plain_insn)
		ctx->plain_insn_pass[ctx->nplain_insn++] = i;
	if (pass->local_label)
		ctx->local_label_pass[ctx->nlocal_label++] = i;
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
	ctx->needle = "";
	for (size_t i = 0; i < ASMFIX_MAX_PASSES; i++)
		ctx->hold[i] = SIZE_MAX;
	for (size_t i = 0; i < NPASSES; i++)
		if (opt->passes & (1u << i))
			fast_path_stops(ctx, asmfix_passes[i], (unsigned char)i);
	ctx->needle_len = strlen(ctx->needle);
	ctx->needle_anchor = asmfix_pick_anchor(ctx->needle, ctx->needle_len);
	for (size_t i = 0; i < NPASSES; i++)
		if ((opt->passes & (1u << i)) && asmfix_passes[i]->init) {
			ctx->cur_pass = (int)i;
			ctx->pass_data[i] = asmfix_passes[i]->init(ctx);
		}
}

static void ctx_release(struct asmfix_ctx *ctx)
{
	for (size_t i = 0; i < NPASSES; i++)
		if (ctx->pass_data[i] && asmfix_passes[i]->release)
			asmfix_passes[i]->release(ctx->pass_data[i]);
	free(ctx->obuf);
	free(ctx->q);
	strbuf_release(&ctx->qtext);
	strbuf_release(&ctx->before);
	strbuf_release(&ctx->after);
	strbuf_release(&ctx->repl);
	asmfix_lexer_release(&ctx->lx);
	asmfix_lexer_release(&ctx->lazy_lx);
}

int asmfix_filter(const struct asmfix_options *opt_in, int in_fd, int out_fd,
		  struct asmfix_stats *stats)
{
	struct asmfix_options eff = *opt_in, *opt = &eff;
	struct asmfix_ctx ctx;
	struct line_reader r;
	unsigned long lineno = 0;
	unsigned applies = asmfix_target_passes(opt_in->target);
	int ret = 0;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!applies)
		return -1;	/* an unknown target: said */
	/* A pass for another machine would misread this assembly: not run. */
	eff.passes &= applies;
	ctx_init(&ctx, opt, out_fd, stats);
	ctx.target = target_named(opt->target ? opt->target : "x86_64");
	ctx.lx.comment = ctx.lazy_lx.comment = ctx.target->comment;
	asmfix_reader_init(&r, in_fd);
	for (;;) {
		const char *chunk;
		ssize_t n = asmfix_reader_chunk(&r, &chunk);
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
			if ((opt->passes & (1u << i)) && asmfix_passes[i]->finish) {
				ctx.cur_pass = (int)i;
				asmfix_passes[i]->finish(&ctx, ctx.pass_data[i]);
			}
		if (ctx.lx.in_comment)
			diag_at(ctx.file, lineno, "asmfix",
				"warning: comment not terminated at end of input");
	}
	for (size_t i = 0; i < ASMFIX_MAX_PASSES; i++)
		ctx.hold[i] = SIZE_MAX;
	ctx.nholds = 0;
	asmfix_q_flush(&ctx);
	asmfix_out_flush(&ctx);
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
	asmfix_reader_release(&r);
	return ret;
}
