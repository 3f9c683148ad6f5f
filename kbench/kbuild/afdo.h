/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sample profile for gcc 12's -fauto-profile, made from LLVM's text
 * sample profile (what llvm-profgen --format=text and llvm-profdata merge
 * --sample --text write).  Debian 12's create_gcov writes a file gcc 12
 * refuses, so kbench writes gcc's AFDO file itself (README.md).
 *
 * LLVM's text: a header "NAME:TOTAL:HEAD" per function, then lines indented
 * one space per level of the inline stack: "OFFSET[.DISC]: COUNT
 * [TARGET:COUNT ...]" for a source line, "OFFSET[.DISC]: CALLEE:TOTAL" for
 * a call site inlined there, whose lines follow one space deeper.  Offsets
 * count lines from the function's first line, as gcc's do.
 */
#ifndef KBENCH_AFDO_H
#define KBENCH_AFDO_H

#include "strbuf.h"

#include <stddef.h>
#include <stdint.h>

struct afdo_target {
	uint32_t name;		/* index into the profile's names */
	uint64_t count;
};

/* The samples of one source line (one discriminator of it, until merged). */
struct afdo_line {
	uint32_t line;		/* offset from the function's first line */
	uint32_t disc;
	uint64_t count;
	struct afdo_target *targets;	/* the calls made there */
	size_t nr_targets, alloc_targets;
};

struct afdo_site;

/* A function, or the copy of one inlined at a call site. */
struct afdo_fn {
	uint32_t name;
	uint64_t head, total;	/* head: calls; 0 for an inlined copy */
	struct afdo_line *lines;
	size_t nr_lines, alloc_lines;
	struct afdo_site *sites;
	size_t nr_sites, alloc_sites;
};

struct afdo_site {
	uint32_t line, disc;
	struct afdo_fn *fn;
};

struct afdo_names {
	char **v;		/* v[0] is gcc's unusable index 0 (afdo.c) */
	size_t nr, alloc;
	uint32_t *slots;	/* hash table: index + 1, 0 for empty */
	size_t nr_slots;
};

struct afdo_profile {
	struct afdo_names names;
	struct afdo_fn **fns;
	size_t nr_fns, alloc_fns;
};

struct afdo_stats {
	size_t functions;	/* written, after merging */
	size_t merged;		/* functions added into another of their name */
	uint64_t samples;	/* the functions' totals */
};

void afdo_init(struct afdo_profile *p);
void afdo_release(struct afdo_profile *p);

/*
 * Add LLVM text (len bytes; in names it in messages) to p.  0, or -1
 * with "IN:LINE: what is wrong" in err.
 */
int afdo_parse(struct afdo_profile *p, const char *text, size_t len, const char *in,
	       struct strbuf *err);
/*
 * Merge what gcc 12 cannot tell apart (afdo.c): functions of one name,
 * a line's discriminators, call sites of one line and callee, a line's
 * targets of one name.  Then stats says what is left.
 */
void afdo_merge(struct afdo_profile *p, struct afdo_stats *stats);
/* gcc 12's AFDO file of a merged profile, appended to out. */
void afdo_encode(const struct afdo_profile *p, struct strbuf *out);

/*
 * The file in to the AFDO file out, whole or not at all: a failure leaves
 * no out, not even an older one, so no earlier profile stands in for this
 * one.  0, or -1 with the reason in err; when writing out fails the
 * reason was said already (atomic-file.c) and err is empty.
 */
int afdo_from_llvm_text(const char *in, const char *out, struct afdo_stats *stats,
			struct strbuf *err);

#endif
