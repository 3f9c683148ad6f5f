/* SPDX-License-Identifier: GPL-2.0 */
/* Line classification (lineclass.c), as the driver uses it. */
#ifndef ASMFIX_LINECLASS_H
#define ASMFIX_LINECLASS_H

#include "internal.h"

#include <stdint.h>
#include <string.h>

/* n equals the string literal lit: one length test and an inlined memcmp. */
#define NAME_IS(n, lit) ((n).len == sizeof(lit) - 1 && !memcmp((n).p, lit, sizeof(lit) - 1))

static inline int is_lockish(struct asm_str name)
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

/* Set ln's flags, directive classes and first name (parsing only when needed). */
void line_classify(struct asmfix_ctx *ctx, struct asm_line *ln);
/* Move the chunk's next ';', C comment and needle past p. */
void advance_specials(struct asmfix_ctx *ctx, const char *p);
/* The needle in [p, end), or NULL. */
const char *find_needle(const struct asmfix_ctx *ctx, const char *p, const char *end);
/* The byte of the needle the search looks for first (rare in assembly). */
size_t pick_anchor(const char *needle, size_t n);

#endif
