/* SPDX-License-Identifier: GPL-2.0 */
/* Lists of names on command lines and in ccd.conf: "all", "none", "a,b". */
#ifndef CCD_NAMELIST_H
#define CCD_NAMELIST_H

#include <stddef.h>

/*
 * list -> a bit mask over the n names name(0) .. name(n-1): words
 * separated by commas, each a name, "all" or "none" (empty words are
 * skipped).  An unknown word is an error naming it as a "what" and the
 * words that are known; then -1 and *mask is 0.
 */
int namelist_parse(const char *list, const char *(*name)(size_t i), size_t n,
		   const char *what, unsigned *mask);

#endif
