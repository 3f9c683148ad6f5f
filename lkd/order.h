/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --lkd-order=FILE: a final link's functions laid out in FILE's order
 * (lkd(1) FUNCTION ORDER).  FILE is in the format of ld.lld's
 * --symbol-ordering-file: one symbol a line, hottest first.  ld.lld takes
 * it as it is.  GNU ld has no such option: it links with a copy of the
 * link's linker script (or of its built-in one) whose .text output section
 * starts with one *(.text.NAME .text.hot.NAME) a name, in FILE's order, the sections
 * -ffunction-sections gives each function.
 */
#ifndef LKD_ORDER_H
#define LKD_ORDER_H

#include "args.h"
#include "strbuf.h"

/* Longer lines are not symbol names but a wrong file. */
#define LKD_ORDER_LINE_MAX 4096

struct lkd_order {
	const char *file;
	struct strvec names;	/* in FILE's order */
	unsigned long *lines;	/* FILE's line of each name */
	const char *script;	/* the rewritten script (a temp file), or NULL */
	int strict;		/* what lkd cannot do with FILE fails the link */
	int verbose;
};

#define LKD_ORDER_INIT { NULL, STRVEC_INIT, NULL, NULL, 0, 0 }

/*
 * Read FILE as ld.lld does: blanks around a line are dropped, and blank
 * lines and lines starting with '#' skipped.  0, or -1 after an error
 * naming FILE (unreadable) or FILE:LINE (a NUL byte, a line longer than
 * LKD_ORDER_LINE_MAX).
 */
int order_read(struct lkd_order *ord, const char *file);

/*
 * Make the final link ld (the linker command's first nr_cmd words, then
 * the arguments cl was parsed from) lay out its functions in the order
 * read.  What lkd cannot do (a linker that is neither GNU ld nor ld.lld,
 * a script without a .text output section, a name GNU ld's scripts cannot
 * hold) is a warning, ld or that name left alone; --lkd-strict: an error.
 * 0, or -1 after an error (nothing is to be linked).
 */
int order_apply(struct lkd_order *ord, struct strvec *ld, size_t nr_cmd,
		const struct ld_cmdline *cl);

/* Remove the rewritten script, once ld has run; free the names. */
void order_release(struct lkd_order *ord);

#endif
