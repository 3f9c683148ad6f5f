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

/* Directives that switch sections or align: by the name's second byte. */
static inline unsigned section_or_layout(struct asm_str n)
{
	switch (n.p[1]) {
	case 's':
		if (NAME_IS(n, ".section") || NAME_IS(n, ".subsection"))
			return D_SEC;
		return NAME_IS(n, ".size") ? D_SIZE : D_OTHER;
	case 'p':
		if (NAME_IS(n, ".pushsection") || NAME_IS(n, ".popsection") ||
		    NAME_IS(n, ".previous"))
			return D_SEC;
		if (NAME_IS(n, ".p2align"))
			return D_ALIGN;
		return NAME_IS(n, ".protected") ? D_VIS : D_OTHER;
	case 't':
		if (NAME_IS(n, ".text"))
			return D_SEC;
		return NAME_IS(n, ".type") ? D_TYPE : D_OTHER;
	case 'd':
		return NAME_IS(n, ".data") ? D_SEC : D_OTHER;
	case 'b':
		if (NAME_IS(n, ".bss"))
			return D_SEC;
		return NAME_IS(n, ".balign") ? D_ALIGN : D_OTHER;
	default:	/* 'a' */
		return NAME_IS(n, ".align") ? D_ALIGN : D_OTHER;
	}
}

/* Directives that define symbols or data. */
static inline unsigned symbol_or_data(struct asm_str n)
{
	switch (n.p[1]) {
	case 'c':
		if (NAME_IS(n, ".comm"))
			return D_COMM;
		return n.len > 5 && !memcmp(n.p, ".cfi_", 5) ? D_CFI : D_OTHER;
	case 'l':
		if (NAME_IS(n, ".long"))
			return D_DATA;
		return NAME_IS(n, ".local") ? D_LOCAL : D_OTHER;
	case 'q':
		return NAME_IS(n, ".quad") ? D_DATA : D_OTHER;
	case 'i':
		if (NAME_IS(n, ".int"))
			return D_DATA;
		return NAME_IS(n, ".internal") ? D_VIS : D_OTHER;
	case '4':
		return NAME_IS(n, ".4byte") ? D_DATA : D_OTHER;
	case '8':
		return NAME_IS(n, ".8byte") ? D_DATA : D_OTHER;
	case 'g':
		return NAME_IS(n, ".globl") || NAME_IS(n, ".global") ? D_GLOBL : D_OTHER;
	case 'h':
		return NAME_IS(n, ".hidden") ? D_VIS : D_OTHER;
	case 'w':
		return NAME_IS(n, ".weak") ? D_VIS : D_OTHER;
	default:
		return D_OTHER;
	}
}

/* asmfix_dir_class() inlined: the fast path classifies a directive per line. */
static inline unsigned dir_class_inline(struct asm_str n)
{
	if (n.len < 2)
		return D_OTHER;
	switch (n.p[1]) {
	case 's': case 'p': case 't': case 'd': case 'b': case 'a':
		return section_or_layout(n);
	default:
		return symbol_or_data(n);
	}
}

/* Set ln's flags, directive classes and first name (parsing only when needed). */
void asmfix_line_classify(struct asmfix_ctx *ctx, struct asm_line *ln);
/* Move the chunk's next ';', C comment and needle past p. */
void asmfix_advance_specials(struct asmfix_ctx *ctx, const char *p);
/* The needle in [p, end), or NULL. */
const char *asmfix_find_needle(const struct asmfix_ctx *ctx, const char *p, const char *end);
/* The byte of the needle the search looks for first (rare in assembly). */
size_t asmfix_pick_anchor(const char *needle, size_t n);

#endif
