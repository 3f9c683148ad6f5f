/* SPDX-License-Identifier: GPL-2.0 */
/* The driver's side of asmfix's output (emit.c); passes use internal.h. */
#ifndef ASMFIX_EMIT_H
#define ASMFIX_EMIT_H

#include "internal.h"

/* Append to the output buffer (text of 4 KiB or more is written as it is). */
void asmfix_out_add(struct asmfix_ctx *ctx, const char *p, size_t len);
void asmfix_out_flush(struct asmfix_ctx *ctx);
/* Text (newline included) for input line no (0: inserted): out, or queued while held. */
void asmfix_emit(struct asmfix_ctx *ctx, const char *p, size_t len, unsigned long no);
/* Write out the queued lines before the oldest hold. */
void asmfix_q_flush(struct asmfix_ctx *ctx);

#endif
