/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Backend profiles: how each compiler family differs from gcc.  Each
 * profile has one translation table for gcc flags the backend does not
 * accept; every row says why.
 */
#ifndef CCD_PROFILES_H
#define CCD_PROFILES_H

#include "strbuf.h"

struct flag_xlat {
	const char *from;	/* gcc flag; a trailing '*' matches a prefix */
	const char *to;		/* replacement (one argv element), NULL = drop */
	const char *why;
};

enum as_style {
	AS_GCC,		/* the gcc 12 driver's asm spec */
	AS_CLANG,	/* clang's GNU-as tool (-fno-integrated-as) */
};

struct profile {
	const char *name;
	enum as_style as_style;
	int dumpbase;		/* driver knows -dumpdir/-dumpbase (gcc >= 11) */
	const char *gnu_as_flag;	/* asks -S for assembly GNU as accepts (last, so it wins) */
	const struct flag_xlat *xlat;
	size_t nr_xlat;
};

/* By compiler basename: *clang* -> clang, icx*, icc*, anything else gcc. */
const struct profile *profile_for(const char *compiler);
const struct profile *profile_by_name(const char *name);

/*
 * Append args translated through p's table.  Returns the number of
 * arguments the table changed or dropped.
 */
size_t profile_translate(const struct profile *p, struct strvec *out,
			 int argc, char *const *argv);

#endif
