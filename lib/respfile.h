/* SPDX-License-Identifier: GPL-2.0 */
/*
 * @file response files, expanded as gcc and ld do (libiberty's expandargv
 * and buildargv), so ccd and lkd see the command line their backend sees.
 */
#ifndef CCD_RESPFILE_H
#define CCD_RESPFILE_H

#include "strbuf.h"

/* How many @files one command line may expand (libiberty's limit). */
#define RESPFILE_MAX_EXPANSIONS 2000

/*
 * Split response-file text (up to len bytes or a NUL) into words:
 * whitespace separates, '...' and "..." group, a backslash makes the next
 * character literal (inside quotes too), and a quote left open runs to the
 * end.  Whitespace alone gives no words.
 */
void respfile_split(struct strvec *out, const char *text, size_t len);

/*
 * Append argv[0..argc) to out with every readable @file replaced by its
 * words, @files among them expanded in turn.  An @name that cannot be
 * read (missing, a directory) stays as it is.  Returns 0, or -1 with a
 * message after RESPFILE_MAX_EXPANSIONS expansions (a file including
 * itself).
 */
int respfile_expand(struct strvec *out, int argc, char *const *argv);

#endif
