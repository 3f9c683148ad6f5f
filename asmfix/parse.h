/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statement parser: one GNU-as (AT&T) source line -> statements.
 *
 * Comments (# to end of line, multi-line C comments) are blanked in a
 * scratch copy of the line, so every span handed out has the same offset
 * in the scratch copy as in the original line: a pass rewrites the
 * original bytes at span.p - asm_lexer.scratch.
 */
#ifndef ASMFIX_PARSE_H
#define ASMFIX_PARSE_H

#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define ASM_MAX_LABELS 8
#define ASM_MAX_PREFIXES 4
#define ASM_MAX_OPS 8
#define ASM_MAX_STMTS 16

struct asm_str {
	const char *p;
	size_t len;
};

enum asm_stmt_kind {
	STMT_NONE,	/* labels only, or empty */
	STMT_DIRECTIVE,	/* name starts with '.' */
	STMT_INSN,	/* mnemonic (prefixes split off) or "sym = expr" */
};

struct asm_stmt {
	struct asm_str labels[ASM_MAX_LABELS];
	int nlabels;
	enum asm_stmt_kind kind;
	struct asm_str prefixes[ASM_MAX_PREFIXES];
	int nprefixes;
	struct asm_str name;	/* ".section", "cmpxchgl" */
	struct asm_str args;	/* everything after name, trimmed */
	struct asm_str ops[ASM_MAX_OPS];	/* args split on top-level commas */
	int nops;
	int overflow;		/* more labels/prefixes/operands than fit */
};

struct asm_lexer {
	int in_comment;		/* inside a C comment at the start of the next line */
	int bad_string;		/* the last line had an unterminated string */
	/* What starts a comment after a statement ("#", "@", "//"); NULL: "#". */
	const char *comment;
	char *scratch;
	size_t scratch_alloc;
};

void asmfix_lexer_release(struct asm_lexer *lx);

/*
 * Parse one line (without its newline).  Fills up to max statements and
 * returns how many were found (statements beyond max are dropped and
 * counted in the return value, so callers can tell).
 */
int asmfix_parse_line(struct asm_lexer *lx, const char *line, size_t len,
		      struct asm_stmt *st, int max);

/* Only advance the comment state over a line (cheap; no statements). */
void asmfix_skip_line(struct asm_lexer *lx, const char *line, size_t len);

static inline int asmfix_str_eq(struct asm_str s, const char *lit)
{
	size_t i;
	for (i = 0; i < s.len; i++)
		if (!lit[i] || lit[i] != s.p[i])
			return 0;
	return !lit[i];
}
int asmfix_str_has_prefix(struct asm_str s, const char *prefix);

/* Identifier characters as GAS sees them for x86 ELF. */
extern const unsigned char asmfix_ident_tab[256];
static inline int asmfix_is_ident(unsigned char c) { return asmfix_ident_tab[c]; }

#ifdef __SSE2__
/* Bit i set: byte i of the 16 at p is an identifier byte (the table's set). */
static inline unsigned asmfix_ident_mask16(const char *p)
{
	__m128i b = _mm_loadu_si128((const __m128i *)p);
	__m128i l = _mm_or_si128(b, _mm_set1_epi8(0x20));	/* A-Z -> a-z, nothing else lands there */
	__m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, _mm_set1_epi8('a' - 1)),
				      _mm_cmplt_epi8(l, _mm_set1_epi8('z' + 1)));
	__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(b, _mm_set1_epi8('0' - 1)),
				      _mm_cmplt_epi8(b, _mm_set1_epi8('9' + 1)));
	__m128i sym = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(b, _mm_set1_epi8('_')),
						_mm_cmpeq_epi8(b, _mm_set1_epi8('.'))),
				   _mm_cmpeq_epi8(b, _mm_set1_epi8('$')));
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(alpha, digit), sym));
}
#else
static inline unsigned asmfix_ident_mask16(const char *p)
{
	unsigned m = 0;
	for (int i = 0; i < 16; i++)
		m |= (unsigned)asmfix_is_ident((unsigned char)p[i]) << i;
	return m;
}
#endif

/*
 * The number of identifier bytes at p, reading no further than limit (a
 * line's newline stops it: it is no identifier byte).  16 bytes a step:
 * names alternate in length unpredictably, a byte loop mispredicts its end.
 */
static inline size_t asmfix_ident_span(const char *p, const char *limit)
{
	const char *q = p;

	while (limit - q >= 16) {
		unsigned m = ~asmfix_ident_mask16(q) & 0xffffu;
		if (m)
			return (size_t)(q - p) + (size_t)__builtin_ctz(m);
		q += 16;
	}
	while (q < limit && asmfix_is_ident((unsigned char)*q))
		q++;
	return (size_t)(q - p);
}

/* "661" -> 661 if s is a numeric local label name; -1 otherwise. */
long asmfix_numeric_label(struct asm_str s);

/*
 * Symbol references in an operand or expression: calls cb for each
 * identifier (registers, numbers and strings skipped).  A numeric local
 * label reference "661b"/"663f" is reported with num >= 0 and dir 'b'/'f'.
 */
typedef void (*asm_ref_fn)(void *data, struct asm_str name, long num, int dir);
void asmfix_for_each_ref(struct asm_str expr, asm_ref_fn cb, void *data);

/* Registers, folded to their 64-bit family (al/ax/eax/rax -> REG_AX). */
enum asm_reg {
	REG_NONE = -1,
	REG_AX, REG_CX, REG_DX, REG_BX, REG_SP, REG_BP, REG_SI, REG_DI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
	REG_OTHER,	/* segment, x87, vector, control ... */
	REG_NR
};
/* "%ebx" -> REG_BX; REG_NONE if s is not a register.  *width = bytes (0 unknown). */
int asmfix_reg(struct asm_str s, int *width);

/* A memory operand: [%seg:][disp](base[,index[,scale]]) or a bare disp. */
struct asm_mem {
	struct asm_str disp;	/* may be empty */
	int base, index;	/* REG_NONE if absent */
	struct asm_str base_text;	/* the whole "(...)" part */
	int has_seg;
};
/* 1 if op is a memory operand with parentheses, filled into m; 0 otherwise. */
int asmfix_parse_mem(struct asm_str op, struct asm_mem *m);
/* Parse a plain integer (decimal, 0x hex, octal, optional sign). */
int asmfix_parse_int(struct asm_str s, long long *val);

#endif
