/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of GNU ld's script language for --lkd-order (order.h): where
 * the .text output section's input section descriptions start, and
 * GNU ld's built-in script as ld --verbose prints it.
 */
#ifndef LKD_LDSCRIPT_H
#define LKD_LDSCRIPT_H

#include "strbuf.h"

#include <stddef.h>
#include <sys/types.h>

/*
 * The byte offset in the script text[0, len) where input section
 * descriptions inserted come before the first one of the .text output
 * section (the first in its SECTIONS commands) that takes .text or a
 * wildcard of .text* (.text.*, .text.hot.*): after what precedes that one
 * in the braces (x86 Linux's _text = . and KEEP(*(.head.text)), which must
 * stay first), at the start of the braces when no description there takes
 * them.  -1 when there is no .text output section.
 */
ssize_t ldscript_text_start(const char *text, size_t len);

/*
 * The script between the two lines of '=' in ld --verbose's output
 * out[0, len), appended to script.  -1 when there are not two such lines.
 */
int ldscript_from_verbose(struct strbuf *script, const char *out, size_t len);

#endif
