/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kbuild's LLVM= (make LLVM=1, LLVM=-14, LLVM=/opt/llvm/bin/) names the
 * compiler and linker a build runs.  make exports variables given on its
 * command line to every command it runs, so ccd and lkd see it too, and
 * run the tool Kbuild would have run in their place.
 */
#ifndef CCD_LLVM_H
#define CCD_LLVM_H

/*
 * The LLVM tool Kbuild names for LLVM=VALUE, as its Makefile spells it:
 * "${VALUE}TOOL" for a VALUE ending in '/', "TOOL${VALUE}" for one
 * starting with '-', "TOOL" otherwise.  NULL when LLVM is unset or empty.
 * The caller frees the result.
 */
char *llvm_tool(const char *tool);

#endif
