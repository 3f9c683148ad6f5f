/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a profile needs to know of a kernel's ELF file (elf-info.c): its
 * build ID, which ties a record to the build it came from, and where its
 * code is loaded from the file (what autofdo's text profile counts from).
 */
#ifndef KBENCH_ELF_INFO_H
#define KBENCH_ELF_INFO_H

#include <stdint.h>

/*
 * The GNU build ID note of the ELF file at path into *id, in hex
 * (malloc'ed; NULL if it has none): 0, or -1 after an error naming it.
 */
int build_id_of(const char *path, char **id);
/*
 * The address the file's first executable segment maps at its offset 0
 * (p_vaddr - p_offset): 0, or -1 after an error naming it.
 */
int load_base_of(const char *path, uint64_t *base);

#endif
