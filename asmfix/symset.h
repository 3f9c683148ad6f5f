/* SPDX-License-Identifier: GPL-2.0 */
/* A small string-keyed hash map (symbol names -> line number and a tag). */
#ifndef ASMFIX_SYMSET_H
#define ASMFIX_SYMSET_H

#include <stddef.h>

struct sym_entry {
	char *name;
	size_t len;
	unsigned long line;
	long tag;
};

struct symset {
	struct sym_entry *tab;
	size_t size, nr;
};

void asmfix_symset_release(struct symset *s);
/* The entry for name, NULL if absent. */
struct sym_entry *asmfix_symset_get(const struct symset *s, const char *name, size_t len);
/* The entry for name, added (line 0, tag 0) if absent. */
struct sym_entry *asmfix_symset_add(struct symset *s, const char *name, size_t len);

#endif
