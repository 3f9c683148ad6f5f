/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files a dynamically linked program needs to run (elfdeps.c): its ELF
 * interpreter and every shared library it needs, directly or through
 * another, found as the guest's dynamic loader would find them in an
 * initramfs holding the same files at the same paths (no ld.so.cache
 * there): RPATH/RUNPATH with $ORIGIN, then the machine's multiarch and
 * plain library directories.  Read from the ELF files themselves: ldd
 * would run the program.
 */
#ifndef KBENCH_ELFDEPS_H
#define KBENCH_ELFDEPS_H

#include "machine.h"
#include "strbuf.h"

#include <stdint.h>

/*
 * Push onto files (empty) the absolute path of prog (as given, made
 * absolute), its interpreter and its libraries, each once, in the order
 * found; *bytes grows by their sizes.  0, or -1 after an error naming the file: not an
 * ELF program, not one for m, not 64-bit, or a library that is nowhere
 * (naming it and the file that needs it).
 */
int elf_closure(const struct kb_machine *m, const char *prog, struct strvec *files,
		uint64_t *bytes);

#endif
