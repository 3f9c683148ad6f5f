// SPDX-License-Identifier: GPL-2.0
/* A kernel's functions from its symbol table (symbols.h), through libelf. */
#include "symbols.h"
#include "strbuf.h"
#include "warn.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void add_func(struct kb_funcs *f, uint64_t addr, uint64_t size, const char *name)
{
	size_t len = strlen(name) + 1;

	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 4096;
		f->v = xrealloc(f->v, f->alloc * sizeof(*f->v));
	}
	if (f->names_len + len > f->names_alloc) {
		f->names_alloc = 2 * (f->names_len + len) + 65536;
		f->names = xrealloc(f->names, f->names_alloc);
	}
	memcpy(f->names + f->names_len, name, len);
	f->v[f->nr].addr = addr;
	f->v[f->nr].size = size;
	/* An offset until the names stop moving: names grows. */
	f->v[f->nr++].name = (const char *)(uintptr_t)f->names_len;
	f->names_len += len;
}

static int cmp_func(const void *a, const void *b)
{
	const struct kb_func *p = a, *q = b;

	return p->addr < q->addr ? -1 : p->addr > q->addr;
}

/* The symbol table's functions of a size: aliases at one address are kept once. */
static void read_symtab(struct kb_funcs *f, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = d && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    !s.st_size || s.st_shndx == SHN_UNDEF ||
		    !(name = elf_strptr(e, sh->sh_link, s.st_name)) || !*name)
			continue;
		add_func(f, s.st_value, s.st_size, name);
	}
	for (size_t i = 0; i < f->nr; i++)
		f->v[i].name = f->names + (uintptr_t)f->v[i].name;
	if (f->nr)
		qsort(f->v, f->nr, sizeof(*f->v), cmp_func);
	for (size_t i = 0; i < f->nr; i++)
		if (!out || f->v[out - 1].addr != f->v[i].addr)
			f->v[out++] = f->v[i];
	f->nr = out;
}

int funcs_read(struct kb_funcs *f, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *e;

	memset(f, 0, sizeof(*f));
	if (fd < 0)
		return error_errno("cannot open %s", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		ret = error("%s: not an ELF file", path);
	} else {
		while ((scn = elf_nextscn(e, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
				read_symtab(f, e, scn, &sh);
				break;
			}
		if (!f->nr)
			ret = error("%s: no functions in its symbol table (stripped?)", path);
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

void funcs_release(struct kb_funcs *f)
{
	free(f->v);
	free(f->names);
	memset(f, 0, sizeof(*f));
}

long funcs_find(const struct kb_funcs *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nr;

	/* The last function starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - f->v[lo - 1].addr >= f->v[lo - 1].size)
		return -1;
	return (long)(lo - 1);
}
