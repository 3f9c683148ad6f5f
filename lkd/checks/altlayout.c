// SPDX-License-Identifier: GPL-2.0
/*
 * The .altinstructions record layouts lkd knows, and reading one off an
 * object's relocations (see altlayout.h).
 */
#include "altlayout.h"

#include <string.h>

static const struct alt_layout layouts[] = {
	/*
	 * Linux 6.3 on: s32 instr_offset, s32 repl_offset, u32 ft_flags
	 * (cpuid and flags), u8 instrlen, u8 replacementlen; __packed.
	 */
	{ "linux612", ELFCLASS64, 14, 0, 4, 4, REF_PCREL, 12, 13, "instr_offset", "repl_offset", 0 },
	{ "linux612", ELFCLASS32, 14, 0, 4, 4, REF_PCREL, 12, 13, "instr_offset", "repl_offset", 0 },
	/* Linux 4.x to 6.2: the same with a u16 cpuid (12 bytes). */
	{ "linux6", ELFCLASS64, 12, 0, 4, 4, REF_PCREL, 10, 11, "instr_offset", "repl_offset", 0 },
	{ "linux6", ELFCLASS32, 12, 0, 4, 4, REF_PCREL, 10, 11, "instr_offset", "repl_offset", 0 },
	/*
	 * 2.6 era: u8 *instr, u8 *replacement, u8 cpuid, u8 instrlen,
	 * u8 replacementlen, padding to pointer alignment.  The macros put
	 * ".align" before each record, so an object's last one is short.
	 */
	{ "linux26", ELFCLASS64, 24, 0, 8, 8, REF_ABS, 17, 18, "instr", "replacement", 19 },
	{ "linux26", ELFCLASS32, 12, 0, 4, 4, REF_ABS, 9, 10, "instr", "replacement", 11 },
};

#define NLAYOUTS (sizeof(layouts) / sizeof(*layouts))

int altlayout_known(const char *name)
{
	if (!strcmp(name, "auto"))
		return 1;
	for (size_t i = 0; i < NLAYOUTS; i++)
		if (!strcmp(layouts[i].name, name))
			return 1;
	return 0;
}

const struct alt_layout *altlayout_named(const char *name, unsigned char class)
{
	for (size_t i = 0; i < NLAYOUTS; i++)
		if (!strcmp(layouts[i].name, name) && layouts[i].class == class)
			return &layouts[i];
	return NULL;
}

const struct alt_layout *altlayout_nth(unsigned char class, size_t n)
{
	for (size_t i = 0; i < NLAYOUTS; i++)
		if (layouts[i].class == class && !n--)
			return &layouts[i];
	return NULL;
}

size_t altlayout_records(const struct alt_layout *l, size_t size)
{
	size_t rest = size % l->size;

	if (!rest)
		return size / l->size;
	return l->tail && rest == l->tail ? size / l->size + 1 : 0;
}

unsigned int altlayout_reloc_type(const struct alt_layout *l, unsigned int machine)
{
	if (machine == EM_386)
		return l->ref == REF_PCREL ? R_386_PC32 : R_386_32;
	if (l->ref == REF_PCREL)
		return R_X86_64_PC32;
	return l->ref_size == 8 ? R_X86_64_64 : R_X86_64_32;
}

size_t altlayout_relocs_fitting(const struct alt_layout *l, unsigned int machine,
				const struct lkd_reloc *rel, size_t n)
{
	unsigned int want = altlayout_reloc_type(l, machine);
	size_t fit = 0;

	for (size_t i = 0; i < n; i++) {
		GElf_Addr at = rel[i].offset % l->size;

		if ((at == l->instr || at == l->repl) && rel[i].type == want)
			fit++;
	}
	return fit;
}

int altlayout_infer(struct alt_layout *out, unsigned char class, unsigned int machine,
		    size_t secsize, const struct lkd_reloc *rel, size_t n)
{
	unsigned int pc32 = machine == EM_386 ? R_386_PC32 : R_X86_64_PC32;
	GElf_Addr a, b, stride;

	if (n < 2 || n % 2)
		return -1;
	a = rel[0].offset;
	b = rel[1].offset;
	stride = n > 2 ? rel[2].offset - a : secsize;
	/* Both references inside a record of at most 255 bytes, after each other. */
	if (!stride || stride > 255 || b < a + 4 || b + 4 > stride || secsize % stride ||
	    secsize / stride != n / 2)
		return -1;
	for (size_t i = 0; i < n / 2; i++)
		if (rel[2 * i].offset != a + i * stride || rel[2 * i + 1].offset != b + i * stride ||
		    rel[2 * i].type != pc32 || rel[2 * i + 1].type != pc32)
			return -1;
	*out = (struct alt_layout){ "inferred", class, (unsigned char)stride, (unsigned char)a,
		(unsigned char)b, 4, REF_PCREL, ALT_NO_LEN, ALT_NO_LEN, "first reference",
		"second reference", 0 };
	return 0;
}
