/* SPDX-License-Identifier: GPL-2.0 */
/* The driver's side of asmfix's output (emit.c); passes use internal.h. */
#ifndef ASMFIX_EMIT_H
#define ASMFIX_EMIT_H

#include "internal.h"

/* Append to the output buffer (text of 4 KiB or more is written as it is). */
void out_add(struct asmfix_ctx *ctx, const char *p, size_t len);
void out_flush(struct asmfix_ctx *ctx);
/* Text (newline included) for input line no (0: inserted): out, or queued while held. */
void emit(struct asmfix_ctx *ctx, const char *p, size_t len, unsigned long no);
/* Write out the queued lines before the oldest hold. */
void q_flush(struct asmfix_ctx *ctx);

#endif
