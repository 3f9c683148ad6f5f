// SPDX-License-Identifier: GPL-2.0
/*
 * What a pass would repair leaves a trace in the object the backend
 * assembled itself: a common symbol (common), a keep-alive accessor's name
 * (used-accessors), a record section (altinstr).  ccd reads those off the
 * backend's own object to tell whether its assembly needs asmfix at all.
 * A file it cannot read is taken to have every trace: the assembly then
 * goes through asmfix, as before.
 */
#include "objtrace.h"
#include "asmfix.h"
#include "fileio.h"
#include "strbuf.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

struct elf_view {
	const unsigned char *p;
	size_t len;
	int is64, little;
	uint64_t shoff, shentsize, shnum;
};

static uint64_t get(const struct elf_view *e, size_t off, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned b = e->p[off + (e->little ? n - 1 - i : i)];

		v = v << 8 | b;
	}
	return v;
}

/* Field at off of size n (4 or 8 by class), or 0 past the end. */
static uint64_t field(const struct elf_view *e, size_t off, size_t n32, size_t n64)
{
	size_t n = e->is64 ? n64 : n32;

	return off + n <= e->len ? get(e, off, n) : 0;
}

struct shdr {
	uint32_t name, type, link;
	uint64_t offset, size, entsize;
};

static int read_shdr(const struct elf_view *e, uint64_t i, struct shdr *s)
{
	uint64_t shoff = e->shoff, shentsize = e->shentsize, at = shoff + i * shentsize;

	if (i >= e->shnum || shoff > e->len || i * shentsize > e->len - shoff ||
	    shentsize > e->len - at || shentsize < (e->is64 ? 64u : 40u))
		return -1;
	s->name = (uint32_t)get(e, at, 4);
	s->type = (uint32_t)get(e, at + 4, 4);
	s->offset = e->is64 ? get(e, at + 24, 8) : get(e, at + 16, 4);
	s->size = e->is64 ? get(e, at + 32, 8) : get(e, at + 20, 4);
	s->link = (uint32_t)(e->is64 ? get(e, at + 40, 4) : get(e, at + 24, 4));
	s->entsize = e->is64 ? get(e, at + 56, 8) : get(e, at + 36, 4);
	/* .bss and its kin take no room in the file. */
	return s->type != SHT_NOBITS && (s->offset > e->len || s->size > e->len - s->offset) ? -1 : 0;
}

/* The NUL-terminated string at off in a string table section, or NULL. */
static const char *str_at(const struct elf_view *e, const struct shdr *tab, uint64_t off)
{
	const char *s = (const char *)e->p + tab->offset + off;

	if (tab->type != SHT_STRTAB || off >= tab->size ||
	    !memchr(s, '\0', tab->size - off))
		return NULL;
	return s;
}

static int is_record_section(const char *name)
{
	return !strcmp(name, ".altinstructions") || !strcmp(name, ".altinstr_replacement") ||
	       !strcmp(name, ".altinstr_aux") || !strcmp(name, ".smp_locks");
}

/* Is section i named name? */
static int section_is(const struct elf_view *e, const struct shdr *names, unsigned i,
		      const char *name)
{
	struct shdr s;
	const char *n;

	return !read_shdr(e, i, &s) && (n = str_at(e, names, s.name)) && !strcmp(n, name);
}

/*
 * The traces in the symbol table sym; -1: malformed.  With
 * -fdata-sections the common pass also moves ".local x; .comm x" (a local
 * object in .bss) to .bss.x.
 */
static int symbol_traces(const struct elf_view *e, const struct shdr *sym, const struct shdr *names,
			 const struct objtrace_opts *o, unsigned *traces)
{
	size_t entsize = e->is64 ? 24 : 16, klen = o->keep_prefix ? strlen(o->keep_prefix) : 0;
	struct shdr str;

	if (sym->entsize != entsize || read_shdr(e, sym->link, &str))
		return -1;
	for (uint64_t at = sym->offset; at + entsize <= sym->offset + sym->size; at += entsize) {
		unsigned info = (unsigned)get(e, at + (e->is64 ? 4 : 12), 1);
		unsigned shndx = (unsigned)get(e, at + (e->is64 ? 6 : 14), 2);
		const char *s = str_at(e, &str, get(e, at, 4));

		if (!s)
			return -1;
		if (shndx == SHN_COMMON)
			*traces |= OBJTRACE_COMMON;
		if (klen && !strncmp(s, o->keep_prefix, klen))
			*traces |= OBJTRACE_ACCESSOR;
		if (o->data_sections && ELF64_ST_BIND(info) == STB_LOCAL &&
		    ELF64_ST_TYPE(info) == STT_OBJECT && shndx && shndx < SHN_LORESERVE &&
		    section_is(e, names, shndx, ".bss"))
			*traces |= OBJTRACE_COMMON;
	}
	return 0;
}

static int view_traces(struct elf_view *e, const struct objtrace_opts *o, unsigned *traces)
{
	uint64_t shstrndx = get(e, e->is64 ? 62 : 50, 2);
	struct shdr names, s;

	e->shoff = field(e, e->is64 ? 40 : 32, 4, 8);
	e->shentsize = get(e, e->is64 ? 58 : 46, 2);
	e->shnum = get(e, e->is64 ? 60 : 48, 2);
	if (!e->shnum || read_shdr(e, shstrndx, &names))
		return -1;
	for (uint64_t i = 1; i < e->shnum; i++) {
		const char *name;

		if (read_shdr(e, i, &s) || !(name = str_at(e, &names, s.name)))
			return -1;
		if (o->records && is_record_section(name))
			*traces |= OBJTRACE_RECORDS;
		if (s.type == SHT_SYMTAB && symbol_traces(e, &s, &names, o, traces))
			return -1;
	}
	return 0;
}

unsigned objtrace_read(const char *path, const struct objtrace_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	struct elf_view e;
	unsigned traces = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || strbuf_read_fd(&sb, fd)) {
		if (fd >= 0)
			close(fd);
		strbuf_release(&sb);
		return OBJTRACE_ALL;
	}
	close(fd);
	memset(&e, 0, sizeof(e));
	e.p = (const unsigned char *)sb.buf;
	e.len = sb.len;
	if (sb.len < 52 || memcmp(sb.buf, ELFMAG, SELFMAG) ||
	    (sb.buf[EI_CLASS] != ELFCLASS32 && sb.buf[EI_CLASS] != ELFCLASS64) ||
	    (sb.buf[EI_DATA] != ELFDATA2LSB && sb.buf[EI_DATA] != ELFDATA2MSB)) {
		strbuf_release(&sb);
		return OBJTRACE_ALL;
	}
	e.is64 = sb.buf[EI_CLASS] == ELFCLASS64;
	e.little = sb.buf[EI_DATA] == ELFDATA2LSB;
	if ((e.is64 && sb.len < 64) || view_traces(&e, o, &traces))
		traces = OBJTRACE_ALL;
	strbuf_release(&sb);
	return traces;
}

unsigned objtrace_passes(unsigned traces)
{
	static const struct {
		unsigned trace;
		const char *pass;
	} map[] = {
		{ OBJTRACE_COMMON, "common" },
		{ OBJTRACE_ACCESSOR, "used-accessors" },
		{ OBJTRACE_RECORDS, "altinstr" },
	};
	unsigned mask = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++) {
		unsigned m;

		if ((traces & map[i].trace) && !asmfix_parse_passes(map[i].pass, &m))
			mask |= m;
	}
	return mask;
}
