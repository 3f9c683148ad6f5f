/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The section stack, exactly as GAS (obj-elf.c) keeps it: the current
 * section and subsection, the "previous" one that .previous swaps with,
 * and the .pushsection stack.  Sections are interned to small ids.
 */
#ifndef ASMFIX_SECTION_H
#define ASMFIX_SECTION_H

#include "parse.h"

struct sec_pos {
	int sec;	/* interned id; -1 = none (no previous yet) */
	long sub;	/* subsection */
};

struct sec_names {
	char **name;
	unsigned char *exec;	/* 1 executable, 0 not, 2 unknown */
	int nr, alloc;
	int *hash;		/* open addressing, -1 empty */
	int hash_size;
};

struct sec_state {
	struct sec_pos cur, prev;
	struct sec_frame { struct sec_pos cur, prev; } *stack;
	int depth, alloc;
	int bad_pop;		/* .popsection with an empty stack was seen */
};

void asmfix_sec_names_init(struct sec_names *sn);
void asmfix_sec_names_release(struct sec_names *sn);
int asmfix_sec_intern(struct sec_names *sn, const char *name, size_t len);
const char *asmfix_sec_name(const struct sec_names *sn, int id);
int asmfix_sec_is_exec(const struct sec_names *sn, int id);

void asmfix_sec_state_init(struct sec_state *ss, struct sec_names *sn);
void asmfix_sec_state_release(struct sec_state *ss);
void asmfix_sec_state_copy(struct sec_state *dst, const struct sec_state *src);

enum sec_op {
	SEC_NONE, SEC_SECTION, SEC_PUSH, SEC_POP, SEC_PREVIOUS, SEC_TEXT,
	SEC_DATA, SEC_BSS, SEC_SUBSECTION,
};
/* Which section directive (if any) a directive name is. */
enum sec_op asmfix_sec_op_of(struct asm_str name);
/*
 * Apply one section directive statement.  Returns 0, or -1 for a
 * .popsection/.previous GAS would ignore with a warning (state unchanged).
 */
int asmfix_sec_apply(struct sec_state *ss, struct sec_names *sn, const struct asm_stmt *st);
/* The section name argument of .section/.pushsection (quotes stripped). */
struct asm_str asmfix_sec_arg_name(const struct asm_stmt *st);

#endif
