/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libelf access for lkd, after objtool's elf.c but read-only and cheap:
 * files are mmap()ed and handed to elf_memory(), archives (regular and
 * thin) are walked member by member, and nothing is allocated per symbol.
 *
 * Every accessor checks indices against the headers, so a corrupt object
 * yields an error naming the file, never an out-of-bounds read.
 */
#ifndef LKD_ELF_H
#define LKD_ELF_H

/* Not elf.h: that name is <elf.h>, which libelf.h includes. */
#include <gelf.h>
#include <stddef.h>

struct lkd_obj {
	const char *name;	/* "file.o" or "lib.a(member.o)", for messages */
	int ir;			/* LLVM bitcode (an LTO object): no ELF, elf is NULL */
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t shnum;
	size_t shstrndx;
	size_t symtab;		/* section index of SHT_SYMTAB, 0 if none */
	Elf_Data *syms;
	Elf_Data *xndx;		/* SHT_SYMTAB_SHNDX data, or NULL */
	size_t nsyms;
	size_t strtab;		/* the symtab's string table */
};

/* Flags for elf_for_each_object(). */
#define LKD_SKIP_NON_ELF 1	/* a file that is neither ELF nor ar is fine (ld script) */

typedef int (*lkd_obj_fn)(struct lkd_obj *obj, void *data);

void lkd_elf_init(void);

/*
 * Call fn for the object in path, or for every member of the archive in
 * path (thin archive members are opened relative to the archive's
 * directory).  Returns -1 if a file is unreadable or malformed (message
 * printed), else the sum of fn's non-negative results; a negative result
 * from fn also gives -1 but the walk continues.
 */
int lkd_for_each_object(const char *path, int flags, lkd_obj_fn fn, void *data);

/*
 * The same for a buffer already in memory (the fuzz harness, tests).
 * buf must be writable (libelf may convert in place).  dir is where thin
 * archive members live (NULL: thin archives are refused).
 */
int lkd_for_each_in_memory(const char *name, void *buf, size_t size,
			   const char *dir, int flags, lkd_obj_fn fn, void *data);

/* Section header by index; NULL (no message) if out of range. */
GElf_Shdr *obj_shdr(struct lkd_obj *obj, size_t idx, GElf_Shdr *sh);
/* Section name, or NULL if the header or string is invalid. */
const char *obj_sec_name(struct lkd_obj *obj, size_t idx);
/* Section data (whole section), NULL for NOBITS or on error. */
Elf_Data *obj_sec_data(struct lkd_obj *obj, size_t idx);

/* Symbol i with its real section index in *shndx (SHN_XINDEX resolved). */
int obj_sym(struct lkd_obj *obj, size_t i, GElf_Sym *sym, size_t *shndx);
/* Symbol name ("" if invalid). */
const char *obj_sym_name(struct lkd_obj *obj, const GElf_Sym *sym);
/*
 * Name of the symbol in section shndx nearest at or below off (functions
 * and objects first, then any).  *delta gets off - value.  NULL if none.
 */
const char *obj_nearest_sym(struct lkd_obj *obj, size_t shndx, GElf_Addr off,
			    GElf_Addr *delta);

/* One relocation, REL or RELA (REL addends read from the section data). */
struct lkd_reloc {
	GElf_Addr offset;
	GElf_Sxword addend;
	/* n64 mips: r_type in bits 0-7, r_type2 8-15, r_type3 16-23, r_ssym 24-31. */
	unsigned int type;
	size_t sym;
};

/*
 * The relocations that apply to section idx, in an array sorted by
 * offset (one allocation; free() it).  *nr 0 and NULL when there are none.
 * -1 on a malformed relocation section.
 */
int obj_relocs_for(struct lkd_obj *obj, size_t idx, struct lkd_reloc **out,
		   size_t *nr);

#endif
