// SPDX-License-Identifier: GPL-2.0
/* The GNU build ID note of an ELF file (elf-info.h), through libelf. */
#include "elf-info.h"
#include "strbuf.h"
#include "warn.h"

#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static char *hex(const unsigned char *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%02x", p[i]);
	return strbuf_detach(&sb, NULL);
}

/* The build ID among one note section's notes, or NULL. */
static char *in_notes(Elf_Data *d)
{
	GElf_Nhdr nh;
	size_t off = 0, next, name_off, desc_off;

	while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz)
			return hex((unsigned char *)d->d_buf + desc_off, nh.n_descsz);
		off = next;
	}
	return NULL;
}

static char *find_id(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	char *id = NULL;

	while (!id && (scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		if ((d = elf_getdata(scn, NULL)))
			id = in_notes(d);
	}
	return id;
}

/* The first executable segment's p_vaddr - p_offset, or -1 (none). */
static int find_base(Elf *e, uint64_t *base)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			*base = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	return -1;
}

/* Open path's ELF for fn; 0, or -1 after an error naming it. */
static int with_elf(const char *path, int (*fn)(Elf *e, const char *path, void *arg), void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	Elf *e;

	if (fd < 0)
		return error_errno("cannot open %s", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e)
		ret = error("%s: %s", path, elf_errmsg(-1));
	else if (elf_kind(e) != ELF_K_ELF)
		ret = error("%s: not an ELF file", path);
	else
		ret = fn(e, path, arg);
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

static int id_fn(Elf *e, const char *path, void *arg)
{
	(void)path;
	*(char **)arg = find_id(e);
	return 0;
}

int build_id_of(const char *path, char **id)
{
	*id = NULL;
	return with_elf(path, id_fn, id);
}

static int base_fn(Elf *e, const char *path, void *arg)
{
	if (find_base(e, arg))
		return error("%s: no executable segment", path);
	return 0;
}

int load_base_of(const char *path, uint64_t *base)
{
	return with_elf(path, base_fn, base);
}
