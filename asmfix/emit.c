// SPDX-License-Identifier: GPL-2.0
/*
 * asmfix's output: a buffered writer, the queue that holds lines while a
 * pass may still change them, the edits of the current line, and the
 * passes' reports.
 */
#include "emit.h"
#include "fileio.h"
#include "warn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output ---- */

/* The first write error sticks: nothing more is written after it. */
static void write_all(struct asmfix_ctx *ctx, const char *p, size_t len)
{
	if (!ctx->io_error && write_in_full(ctx->out_fd, p, len))
		ctx->io_error = errno;
}

void asmfix_out_flush(struct asmfix_ctx *ctx)
{
	write_all(ctx, ctx->obuf, ctx->olen);
	ctx->olen = 0;
}

/* Text of OUT_DIRECT bytes or more is written as it is, not copied. */
#define OUT_DIRECT 4096

void asmfix_out_add(struct asmfix_ctx *ctx, const char *p, size_t len)
{
	if (len >= OUT_DIRECT) {
		asmfix_out_flush(ctx);
		write_all(ctx, p, len);
		return;
	}
	if (ctx->olen + len > ctx->oalloc)
		asmfix_out_flush(ctx);
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
void asmfix_q_flush(struct asmfix_ctx *ctx)
{
	size_t lim = min_hold(ctx), i;

	for (i = 0; i < ctx->qnr && ctx->qbase + i < lim; i++)
		if (!ctx->q[i].deleted)
			asmfix_out_add(ctx, ctx->qtext.buf + ctx->q[i].off, ctx->q[i].len);
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
void asmfix_emit(struct asmfix_ctx *ctx, const char *p, size_t len, unsigned long no)
{
	struct qent *e;

	if (!ctx->nholds && !ctx->qnr) {
		asmfix_out_add(ctx, p, len);
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

void asmfix_q_hold(struct asmfix_ctx *ctx)
{
	if (ctx->hold[ctx->cur_pass] != SIZE_MAX)
		return;
	ctx->hold[ctx->cur_pass] = ctx->qbase + ctx->qnr;
	ctx->nholds++;
}

void asmfix_q_release(struct asmfix_ctx *ctx)
{
	if (ctx->hold[ctx->cur_pass] == SIZE_MAX)
		return;
	ctx->hold[ctx->cur_pass] = SIZE_MAX;
	ctx->nholds--;
}

int asmfix_q_holding(struct asmfix_ctx *ctx)
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

int asmfix_q_replace_line(struct asmfix_ctx *ctx, unsigned long no, const char *text, size_t len)
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

int asmfix_q_delete_line(struct asmfix_ctx *ctx, unsigned long no)
{
	struct qent *e = q_find(ctx, no);
	if (!e)
		return -1;
	if (!ctx->opt->check_only)
		e->deleted = 1;
	return 0;
}

const char *asmfix_q_line_text(struct asmfix_ctx *ctx, unsigned long no, size_t *len)
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

void asmfix_line_replace(struct asmfix_ctx *ctx, const char *text, size_t len)
{
	if (ctx->opt->check_only)
		return;
	strbuf_reset(&ctx->repl);
	strbuf_add(&ctx->repl, text, len);
	ctx->cur_replaced = 1;
}

void asmfix_line_delete(struct asmfix_ctx *ctx)
{
	if (!ctx->opt->check_only)
		ctx->cur_deleted = 1;
}

void asmfix_line_insert_before(struct asmfix_ctx *ctx, const char *text, size_t len)
{
	if (!ctx->opt->check_only)
		strbuf_add(&ctx->before, text, len);
}

static void vreport(struct asmfix_ctx *ctx, unsigned long no, const char *kind,
		    const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, asmfix_passes[ctx->cur_pass]->name);
	if (kind)
		strbuf_addf(&sb, ": %s", kind);
	vdiag_at(ctx->file, no, sb.buf, fmt, ap);
	strbuf_release(&sb);
}

void asmfix_pass_change(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
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

void asmfix_pass_unproven(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
{
	va_list ap;
	if (!ctx->opt->check_only)
		return;
	va_start(ap, fmt);
	vreport(ctx, no, "left as is", fmt, ap);
	va_end(ap);
}

void asmfix_pass_error(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
{
	va_list ap;
	ctx->failed = 1;
	va_start(ap, fmt);
	vreport(ctx, no, NULL, fmt, ap);
	va_end(ap);
}

void asmfix_pass_warning(struct asmfix_ctx *ctx, unsigned long no, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(ctx, no, "warning", fmt, ap);
	va_end(ap);
}

int asmfix_line_is_comment(const struct asm_line *ln, const char *text)
{
	const char *p = ln->p, *end = ln->p + ln->len;
	size_t n = strlen(text);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return (size_t)(end - p) >= n && !memcmp(p, text, n);
}
