/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts of x86 .altinstructions records: the ones Linux has had, as
 * data, and how lkd tells which one an object uses.  The record format is
 * the kernel's private business and has changed (2.6 pointers, 4.x
 * offsets, a 32-bit feature word in 6.3), so lkd reads it off the object
 * rather than trusting one built-in guess.
 */
#ifndef LKD_ALTLAYOUT_H
#define LKD_ALTLAYOUT_H

#include "lkd-elf.h"

enum alt_ref { REF_PCREL, REF_ABS };

#define ALT_NO_LEN 0xff	/* an inferred layout: where the lengths are is unknown */

struct alt_layout {
	const char *name;
	unsigned char class;
	unsigned char size;		/* one record */
	unsigned char instr, repl;	/* offsets of the two references */
	unsigned char ref_size;
	enum alt_ref ref;
	unsigned char instrlen, replen;	/* offsets of the u8 lengths, or ALT_NO_LEN */
	const char *instr_field, *repl_field;
	/*
	 * Bytes of a last record whose padding was left off (2.6 aligned each
	 * record at its start), 0 if every record is whole.
	 */
	unsigned char tail;
};

/* "auto" or the name of a layout in the table. */
int altlayout_known(const char *name);

/* Named layout for this ELF class, NULL if none. */
const struct alt_layout *altlayout_named(const char *name, unsigned char class);

/* The i-th table layout for this class, newest first; NULL past the end. */
const struct alt_layout *altlayout_nth(unsigned char class, size_t i);

/* How many records a section of size bytes holds under l; 0 if it does not fit. */
size_t altlayout_records(const struct alt_layout *l, size_t size);

/* The relocation type each reference of a record carries in an object. */
unsigned int altlayout_reloc_type(const struct alt_layout *l, unsigned int machine);

/* How many of the n relocations sit at a reference of l with l's type. */
size_t altlayout_relocs_fitting(const struct alt_layout *l, unsigned int machine,
				const struct lkd_reloc *rel, size_t n);

/*
 * A layout read off the relocations alone: pairs of 32-bit PC-relative
 * relocations repeating with one stride that divides the section.  The
 * first of a pair is the original instruction, as in every x86 layout;
 * where the lengths are is not known.  0 and *out filled if they agree.
 */
int altlayout_infer(struct alt_layout *out, unsigned char class, unsigned int machine,
		    size_t secsize, const struct lkd_reloc *rel, size_t n);

#endif
