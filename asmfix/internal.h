/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the driver (asmfix.c) shares with the passes (passes/, one file each).
 *
 * The driver reads lines, classifies each one cheaply (most lines are
 * instructions or .loc/debug data no pass cares about), and hands it to
 * every active pass in table order.  A pass may replace, delete or insert
 * around the current line, or "hold" the output from some line on so it
 * can still change lines it has already seen (used-accessors removing a
 * function's preamble, lockfix waiting for the function's end).  Output
 * is buffered only while some pass holds it.
 */
#ifndef ASMFIX_INTERNAL_H
#define ASMFIX_INTERNAL_H

#include "asmfix.h"
#include "parse.h"
#include "strbuf.h"
#include "target.h"

/* Lines at a chunk's end from which a needle may still follow (> UA_MAX_PRE). */
#define ASMFIX_TAIL_LINES 40

/* Line flags. */
#define LF_LABEL	0x01	/* defines at least one label */
#define LF_INSN		0x02	/* has an instruction */
#define LF_DIRECTIVE	0x04	/* has a directive */
#define LF_HASH		0x08	/* starts with a '#' comment */
#define LF_LOCK		0x10	/* lock prefix or xchg: lockfix looks closer */
#define LF_NUL		0x20	/* contains NUL bytes: never touched */
#define LF_BADSTR	0x40	/* unterminated string */

/* Directive classes (line->dirs). */
#define D_SEC		0x001	/* .section .pushsection .popsection .previous .text .data .bss .subsection */
#define D_COMM		0x002
#define D_LOCAL		0x004
#define D_DATA		0x008	/* .long .quad .int .4byte .8byte */
#define D_GLOBL		0x010
#define D_TYPE		0x020
#define D_SIZE		0x040
#define D_ALIGN		0x080
#define D_VIS		0x100	/* .hidden .weak .internal .protected */
#define D_CFI		0x200
#define D_OTHER		0x400

struct asm_line {
	const char *p;		/* text, without the newline */
	size_t len;
	int nl;			/* a newline followed it in the input */
	unsigned long no;
	unsigned flags, dirs;
	struct asm_str first;	/* first directive/mnemonic of a simple line */
	int parsed, nstmts;
	const char *scratch;	/* statement spans point into this copy */
	struct asm_stmt stmts[ASM_MAX_STMTS];
};

struct qent {
	size_t off, len;	/* in qtext, newline included */
	unsigned long no;	/* input line, 0 for inserted text */
	int deleted;
};

struct asmfix_ctx;

struct asmfix_pass {
	const char *name;
	const char *help;
	/* Bit (1u << enum target_arch) per architecture it applies to; 0: all. */
	unsigned arches;
	void *(*init)(struct asmfix_ctx *ctx);
	void (*line)(struct asmfix_ctx *ctx, void *data, struct asm_line *ln);
	void (*finish)(struct asmfix_ctx *ctx, void *data);	/* at end of input */
	void (*release)(void *data);
	/*
	 * Optional: a plain instruction line (no label, no lock/xchg, no
	 * comment or ';') taken by the driver's fast path.  Passes without
	 * it never see such lines unless they set their bit in need_all.
	 * These hooks must not edit, hold, or change need_all/want_data.
	 */
	void (*plain_insn)(struct asmfix_ctx *ctx, void *data, const struct asm_line *ln);
	/*
	 * Optional: a line that is only a ".Lname:" label (local, not
	 * numeric), taken by the fast path under the same conditions.
	 * Passes without it never see such lines unless they set need_all.
	 */
	void (*local_label)(struct asmfix_ctx *ctx, void *data);
	/*
	 * Optional: the input text lines point into is about to be reused
	 * (end of a chunk): copy what is kept of it.  Until then a pass may
	 * keep pointers to the lines it was shown instead of copies.
	 */
	void (*chunk_done)(struct asmfix_ctx *ctx, void *data);

	/*
	 * What the fast path must stop for on this pass's behalf; the driver
	 * knows no pass's markers or names.  markers: comment lines starting
	 * with one of these ("#APP"), NULL-terminated; the driver stops on
	 * their first two bytes after '#' (a blank and the next byte count as
	 * two), the pass checks the rest.
	 */
	const char *const *markers;
	/*
	 * needle: a string whose lines go to the pass (at most one pass has
	 * one: used-accessors' keep prefix).  While it occurs in the chunk or
	 * the chunk's last ASMFIX_TAIL_LINES lines are read (it may follow in
	 * the next chunk), directive lines of the classes near_dirs, and
	 * comment lines if near_comments, go to the passes too.
	 */
	const char *(*needle)(const struct asmfix_options *opt);
	unsigned near_dirs;
	int near_comments;
};

struct asmfix_ctx {
	const struct asmfix_options *opt;	/* passes: only those the target takes */
	const struct target *target;
	const char *file;
	struct asmfix_stats *stats;
	int failed;		/* a pass reported an error */
	int io_error;
	const char *needle;	/* the one pass's needle, "" if none */
	size_t needle_len;
	size_t needle_anchor;	/* index of a byte of it that is rare in asm */
	/* From the active passes' declarations: what the fast path stops for. */
	unsigned char marker1[256];	/* '#' then this byte */
	unsigned char marker2[256];	/* "# " then this byte */
	unsigned near_dirs;
	int near_comments;

	/* output */
	int out_fd;
	char *obuf;
	size_t olen, oalloc;

	/* held output */
	struct strbuf qtext;
	struct qent *q;
	size_t qnr, qalloc, qbase;	/* qbase: absolute index of q[0] */
	size_t hold[ASMFIX_MAX_PASSES];
	int nholds;

	/* edits of the current line */
	struct strbuf before, after, repl;
	int cur_deleted, cur_replaced;

	struct asm_lexer lx, lazy_lx;
	int cur_pass;
	void *pass_data[ASMFIX_MAX_PASSES];

	/* prefilters over the chunk being processed */
	int chunk_has_needle, chunk_has_nul;
	const char *chunk_end, *chunk_tail;	/* tail: its last few lines */
	const char *next_special;	/* next ';' or slash-star in the chunk */
	const char *next_semi, *next_cmt, *next_needle;
	const char *next_stop;		/* the nearer of next_special and next_needle */
	/*
	 * Fast path: a pass sets its bit (1u << cur_pass) in need_all while
	 * it must see every line; want_data while .long/.quad matter to it.
	 */
	unsigned need_all, want_data;
	/* The active passes with a plain_insn, local_label hook, in table order. */
	unsigned char plain_insn_pass[ASMFIX_MAX_PASSES], local_label_pass[ASMFIX_MAX_PASSES];
	unsigned nplain_insn, nlocal_label;
	struct asm_line line;
};

/* The parsed statements of a line (parsed on first use). */
int asmfix_line_stmts(struct asmfix_ctx *ctx, struct asm_line *ln, struct asm_stmt **st);
/* Offset of a span (from asmfix_line_stmts) in the line's text. */
static inline size_t asmfix_line_off(const struct asm_line *ln, const char *p)
{
	return (size_t)(p - ln->scratch);
}
/* Directive class of a directive name. */
unsigned asmfix_dir_class(struct asm_str name);

/* Edits of the current line (no-ops in check mode). */
void asmfix_line_replace(struct asmfix_ctx *ctx, const char *text, size_t len);
void asmfix_line_delete(struct asmfix_ctx *ctx);
void asmfix_line_insert_before(struct asmfix_ctx *ctx, const char *text, size_t len);

/* Holding: from the current line on, output stays in the queue. */
void asmfix_q_hold(struct asmfix_ctx *ctx);
void asmfix_q_release(struct asmfix_ctx *ctx);
int asmfix_q_holding(struct asmfix_ctx *ctx);
/* Edit a held input line by number; 0 on success, -1 if not held. */
int asmfix_q_replace_line(struct asmfix_ctx *ctx, unsigned long no, const char *text, size_t len);
int asmfix_q_delete_line(struct asmfix_ctx *ctx, unsigned long no);
/* The held text of a line (without newline), NULL if not held. */
const char *asmfix_q_line_text(struct asmfix_ctx *ctx, unsigned long no, size_t *len);

/*
 * Text a pass would rewrite if its precondition held exactly: it goes out
 * unchanged, and check mode says why.
 */
__attribute__((format(printf, 3, 4)))
void asmfix_pass_unproven(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...);
/* A change made by the current pass: counted, and reported in check mode. */
__attribute__((format(printf, 3, 4)))
void asmfix_pass_change(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...);
/* An error: the output must not be used. */
__attribute__((format(printf, 3, 4)))
void asmfix_pass_error(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
void asmfix_pass_warning(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...);

/* Ask for every line (on) or only the interesting ones (off). */
static inline void asmfix_pass_need_all(struct asmfix_ctx *ctx, int on)
{
	if (on)
		ctx->need_all |= 1u << ctx->cur_pass;
	else
		ctx->need_all &= ~(1u << ctx->cur_pass);
}
static inline void asmfix_pass_want_data(struct asmfix_ctx *ctx, int on)
{
	if (on)
		ctx->want_data |= 1u << ctx->cur_pass;
	else
		ctx->want_data &= ~(1u << ctx->cur_pass);
}
/*
 * Is the needle near line p?  If it occurs in the chunk, or p is in the
 * chunk's tail (it may follow in the next chunk).
 */
static inline int asmfix_needle_near(const struct asmfix_ctx *ctx, const char *p)
{
	return ctx->chunk_has_needle || p >= ctx->chunk_tail;
}

/* icc and gcc comment markers. */
int asmfix_line_is_comment(const struct asm_line *ln, const char *text);

extern const struct asmfix_pass asmfix_pass_common;
extern const struct asmfix_pass asmfix_pass_used_accessors;
extern const struct asmfix_pass asmfix_pass_lockfix;
extern const struct asmfix_pass asmfix_pass_altinstr;

/* The pass table (registry.c), in execution order. */
#define NPASSES 4
extern const struct asmfix_pass *const asmfix_passes[NPASSES];

#endif
