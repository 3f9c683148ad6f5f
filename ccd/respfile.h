/* SPDX-License-Identifier: GPL-2.0 */
/* @file response files, expanded as gcc (libiberty expandargv) does. */
#ifndef CCD_RESPFILE_H
#define CCD_RESPFILE_H

#include "strbuf.h"

/*
 * Split response-file text into words like libiberty's buildargv:
 * blanks separate, '...' and "..." quote, backslash escapes one char.
 */
void respfile_split(struct strvec *out, const char *text, size_t len);

/*
 * Append argv[0..argc) to out with every readable @file replaced by its
 * words (recursively).  An unreadable @name stays literal, as for gcc.
 * Returns 0, or -1 (message printed) when nesting is too deep.
 */
int respfile_expand(struct strvec *out, int argc, char *const *argv);

#endif
