/* SPDX-License-Identifier: GPL-2.0 */
/* A kernel's functions by address, from its ELF symbol table (symbols.c). */
#ifndef KBENCH_SYMBOLS_H
#define KBENCH_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct kb_func {
	uint64_t addr, size;
	const char *name;	/* in names */
};

struct kb_funcs {
	struct kb_func *v;	/* by address; of sizes above 0 */
	size_t nr, alloc;
	char *names;		/* every name, NUL-separated */
	size_t names_len, names_alloc;
};

/* path's functions: 0, or -1 after an error naming it (one with no symbol table too). */
int funcs_read(struct kb_funcs *f, const char *path);
void funcs_release(struct kb_funcs *f);
/* The index of the function addr falls in, or -1. */
long funcs_find(const struct kb_funcs *f, uint64_t addr);

#endif
