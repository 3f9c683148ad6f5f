/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GNU as command line the backend's driver would run for a C compile,
 * and the post-steps after it (-gsplit-dwarf).  Derived from the argv by
 * a per-profile spec instead of asking the backend (-###), which costs a
 * driver run per compile; the test suite checks the spec against
 * "gcc -### -c" and "clang -fno-integrated-as -### -c".
 */
#ifndef CCD_ASSEMBLE_H
#define CCD_ASSEMBLE_H

#include "asspec.h"
#include "classify.h"
#include "profiles.h"
#include "strbuf.h"

/*
 * Append to out the as arguments (after the program name) for assembling
 * asm_path into obj: a filter over cmd's classified words, the target's
 * words from asspec (tg NULL: x86_64).  0, or -1 with out unchanged when
 * the target words are the driver's to say (asspec_words): ask it, set
 * tg->asked and call again.
 */
int assemble_args(struct strvec *out, const struct profile *p, const struct ccd_cmd *cmd,
		  const struct as_target *tg, const char *obj, const char *asm_path);

/* -gsplit-dwarf: the .dwo gcc extracts from obj ("build/a.o" -> "build/a.dwo"). */
char *dwo_name(const struct ccd_cmd *cmd, const struct ccd_input *in);

#endif
