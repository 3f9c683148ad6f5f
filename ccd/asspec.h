/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target part of the as command line (gcc's %a, the *asm spec; the
 * bitness and endianness clang's GNU-as tool passes), per target, as the
 * backend's driver builds it for the flags Kbuild passes.  Mirrors each
 * cross gcc's -dumpspecs; the driver's configured defaults (what
 * "gcc -### -c" gives as with no flags) come from the compiler.  A flag
 * the spec here does not model (a -mcpu= the driver rewrites through a
 * CPU table, a repeated or contradicting option) is the driver's to say:
 * asspec_words() returns -1 and ccd asks it once for that compile.
 */
#ifndef CCD_ASSPEC_H
#define CCD_ASSPEC_H

#include "classify.h"
#include "profiles.h"
#include "strbuf.h"
#include "target.h"

struct as_target {
	const struct target *target;	/* NULL: x86_64, as ccd always was */
	const char *defaults;	/* the driver's as words with no flags, tab-separated, or NULL */
	const struct strvec *asked;	/* the driver's words for this command, or NULL: derive */
};

/* Append the target words for cmd; 0, or -1: not modelled, ask the driver. */
int asspec_words(struct strvec *out, enum as_style style, const struct as_target *tg,
		 const struct ccd_cmd *cmd);
/*
 * The small-data limit the compiler uses for cmd, 0: none.  mips: -G without
 * abicalls; 32-bit ppc (gcc's style only): -G, 8 by default, unless -msdata=none.
 */
unsigned long long asspec_small_data(const struct target *t, enum as_style style,
				     const struct ccd_cmd *cmd);
/*
 * The words of cmd the driver must see to say its target words (-m*, -f*,
 * --target=; on mips also -O*, -g*, -G, -EB/-EL: its as spec reads them).
 */
void asspec_driver_words(const struct target *t, const struct ccd_cmd *cmd, struct strvec *out);

#endif
