/* SPDX-License-Identifier: GPL-2.0 */
/* A backend's compiler family, asked of the compiler (cached). */
#ifndef CCD_FAMILY_H
#define CCD_FAMILY_H

#include "strbuf.h"

/*
 * The family of the compiler at path (gcc, clang, icc, icx, pcc or
 * generic), with how it was found appended to how; *cached says whether
 * the answer came from the cache.  Never fails: a compiler that cannot
 * say is named by its file name.
 */
const char *compiler_family(const char *compiler, struct strbuf *how, int *cached);

#endif
