/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets ccd-suite knows: one table (target.c) of what differs per
 * machine for the programs that read assembly or objects.  ccd detects
 * its backend's target with it and builds as's target words from it
 * (ccd/asspec.c), asmfix writes the target's syntax and runs only the
 * passes that apply, lkd checks .altinstructions only where they are the
 * x86 records it knows.
 */
#ifndef LIB_TARGET_H
#define LIB_TARGET_H

#include "strbuf.h"

enum target_arch {
	TARGET_X86,	/* x86_64 and i386: one gcc driver spec */
	TARGET_AARCH64,
	TARGET_ARM,
	TARGET_RISCV,
	TARGET_PPC,	/* ppc64le, ppc64 and 32-bit ppc: one gcc driver spec */
	TARGET_S390,
	TARGET_MIPS,	/* o32 and n64, either endianness: one gcc driver spec */
	TARGET_M68K,	/* 680x0 and ColdFire */
};

struct target {
	const char *name;	/* ccd's name: x86_64, aarch64, ppc64le, ... */
	enum target_arch arch;
	unsigned short elf_machine;	/* EM_* of its objects */
	unsigned char bits;	/* 32 or 64 */
	unsigned char big_endian;
	/* What starts a comment after a statement: "#", "@" (arm), "//" (aarch64), "|" (m68k). */
	const char *comment;
	/* .type and section-type prefix: '@', or '%' where '@' starts a comment. */
	char type_prefix;
	/* gcc's driver gives as --gdwarf-N for -g (its asm_debug_option spec). */
	unsigned char as_debug;
};

/* By ccd's name ("aarch64") or a triple ("aarch64-linux-gnu", "armv7-unknown-linux-gnueabihf"); NULL if unknown. */
const struct target *target_named(const char *name);
/*
 * From a compiler's predefined macros (-E -dM output); NULL if none is
 * known.  The deciding macro is appended to how.
 */
const struct target *target_from_macros(const char *text, struct strbuf *how);
/* The machine this program was built for (the native backend's usual target). */
const struct target *target_host(void);
/* The names, comma-separated, for messages. */
const char *target_names(void);
/* Does -E -dM output define macro (as "#define MACRO ...")? */
int dm_defines(const char *text, const char *macro);

#endif
