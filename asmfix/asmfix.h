/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asmfix: the repair engine.  A streaming filter over GNU-as (AT&T)
 * assembly that applies the kernel fix-up passes.  ccd links this library
 * and runs it in-process; the asmfix program is a thin CLI over it.
 */
#ifndef ASMFIX_H
#define ASMFIX_H

#include <stddef.h>

#define ASMFIX_MAX_PASSES 16

struct asmfix_options {
	const char *filename;	/* name used in diagnostics ("<stdin>" if NULL) */
	unsigned passes;	/* bit i = pass i of the table; see asmfix_parse_passes */
	int check_only;		/* report what would change, output the input unchanged */
	const char *keep_prefix;	/* used-accessors prefix; NULL = "__ccd_keep_" */
	int data_sections;	/* compile used -fdata-sections: .comm -> .bss.<name> */
	/*
	 * Small data (mips' -G N without abicalls): gcc -fno-common puts an
	 * object of 1 to N bytes in .sbss, and its code reaches it through
	 * $gp, so the common pass must too.  32-bit ppc gcc puts public ones
	 * there too (-G 8 by default), so the object is gcc's.  0: none.
	 */
	unsigned long long small_data;
	/*
	 * The assembly's target: a name or triple lib/target.c knows
	 * ("aarch64", "arm-linux-gnueabihf"); NULL: x86_64.  It decides the
	 * comment syntax, what the passes write (%object on arm) and which
	 * passes apply (asmfix_target_passes).
	 */
	const char *target;
};

struct asmfix_stats {
	unsigned long changes[ASMFIX_MAX_PASSES];	/* per pass, table order */
	unsigned long lines;
};

/*
 * Filter in_fd to out_fd.  Returns 0 on success, 1 when the input has a
 * problem a pass cannot repair (diagnostics "file:line: pass: message"
 * already printed; the output must not be used), -1 on an I/O error.
 * stats may be NULL.
 */
int asmfix_filter(const struct asmfix_options *opt, int in_fd, int out_fd,
		  struct asmfix_stats *stats);

/*
 * The passes that apply to target (asmfix_options.target's spelling):
 * a mask; 0 and an error message for a target asmfix does not know.
 * Passes outside it are skipped even when asked for.
 */
unsigned asmfix_target_passes(const char *target);

/* Pass table access, in table (execution) order. */
size_t asmfix_pass_count(void);
const char *asmfix_pass_name(size_t i);
const char *asmfix_pass_help(size_t i);
/* "all", "none" or "a,b,c" -> mask.  -1 and an error message on an unknown name. */
int asmfix_parse_passes(const char *list, unsigned *mask);
/* Mask of every pass. */
unsigned asmfix_all_passes(void);
/* Write the mask back as a canonical comma list ("none" if empty). */
void asmfix_format_passes(unsigned mask, char *buf, size_t size);

#endif
