/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a backend compiler is, asked of the compiler (cached): its family,
 * its target, and the target words its driver gives as by default.
 */
#ifndef CCD_FAMILY_H
#define CCD_FAMILY_H

#include "strbuf.h"
#include "target.h"

struct compiler_answer {
	const char *family;		/* gcc, clang, icc, icx, pcc or generic */
	const struct target *target;	/* NULL: it did not say */
	/*
	 * gcc family, not x86: the words its driver gives as for an empty
	 * compile with these flags, tab-separated ("" for none): what
	 * configure chose (-march=armv7-a+fp -mfloat-abi=hard), which no
	 * table can know.
	 */
	char *as_defaults;
	struct strbuf how;		/* how the family was found */
	struct strbuf target_how;	/* how the target was found */
	/* Neither -E -dM nor -dumpmachine answered: nothing says another machine. */
	int target_silent;
	int cached;			/* the answer came from ccd's cache */
};

/*
 * Ask the compiler at path, with words that choose its target
 * (clang's --target=, NULL-terminated; NULL: none).  Never fails: a
 * compiler that cannot say its family is named by its file name; one
 * that cannot say its target has target NULL.
 */
void compiler_ask(const char *compiler, const char *const *words, struct compiler_answer *a);
void compiler_answer_release(struct compiler_answer *a);

/*
 * The words between the assembler and its "-o" on the as line of
 * "cmd... -### -c EMPTY.c": what the driver gives as for these flags.
 * 0, or -1 (the driver did not say; nothing printed).
 */
int driver_as_words(const char *const *cmd, struct strvec *out);
/*
 * The as program and the words before its "-o" on the as line of
 * "cmd... -###" (cmd a whole compile): how the driver would assemble it.
 * 0, or -1 (the driver named no as).
 */
int driver_as_command(const char *const *cmd, struct strvec *out);
/* The same from -### output (gcc's and clang's quoting); for tests. */
int parse_driver_as_line(const char *text, struct strvec *out);

#endif
