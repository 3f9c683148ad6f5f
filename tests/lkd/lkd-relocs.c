// SPDX-License-Identifier: GPL-2.0
/*
 * Print every relocation of each object as lkd reads it: "offset info",
 * info in readelf's form (symbol and type as one number), sorted by the
 * caller, so that lkd-test.sh can hold it against readelf -r.
 */
#include "lkd-elf.h"

#include <stdio.h>
#include <stdlib.h>

static int print_relocs(struct lkd_obj *obj, void *data)
{
	int wide = obj->ehdr.e_ident[EI_CLASS] == ELFCLASS64;

	(void)data;
	for (size_t idx = 1; idx < obj->shnum; idx++) {
		struct lkd_reloc *r;
		size_t nr;

		if (obj_relocs_for(obj, idx, &r, &nr))
			return -1;
		for (size_t i = 0; i < nr; i++)
			printf("%0*llx %0*llx\n", wide ? 16 : 8, (unsigned long long)r[i].offset,
			       wide ? 16 : 8, wide ? (unsigned long long)r[i].sym << 32 | r[i].type
						  : (unsigned long long)r[i].sym << 8 | r[i].type);
		free(r);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	lkd_elf_init();
	for (int i = 1; i < argc; i++)
		ret |= lkd_for_each_object(argv[i], 0, print_relocs, NULL) < 0;
	return ret;
}
