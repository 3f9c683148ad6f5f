// SPDX-License-Identifier: GPL-2.0
/*
 * libelf access for lkd: open files, walk archives, safe accessors.
 */
#include "lkd-elf.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define AR_MAGIC	"!<arch>\n"
#define AR_THIN		"!<thin>\n"
#define AR_MAGIC_LEN	8
#define AR_HDR_LEN	60
#define MAX_NESTING	4	/* thin archives naming archives naming ... */

void lkd_elf_init(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf is out of date: %s", elf_errmsg(-1));
}

GElf_Shdr *obj_shdr(struct lkd_obj *obj, size_t idx, GElf_Shdr *sh)
{
	Elf_Scn *scn;

	if (idx >= obj->shnum || !(scn = elf_getscn(obj->elf, idx)))
		return NULL;
	return gelf_getshdr(scn, sh);
}

const char *obj_sec_name(struct lkd_obj *obj, size_t idx)
{
	GElf_Shdr sh;

	if (!obj_shdr(obj, idx, &sh))
		return NULL;
	return elf_strptr(obj->elf, obj->shstrndx, sh.sh_name);
}

Elf_Data *obj_sec_data(struct lkd_obj *obj, size_t idx)
{
	Elf_Scn *scn;
	Elf_Data *d;

	if (idx >= obj->shnum || !(scn = elf_getscn(obj->elf, idx)))
		return NULL;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return NULL;
	return d;
}

int obj_sym(struct lkd_obj *obj, size_t i, GElf_Sym *sym, size_t *shndx)
{
	Elf32_Word x = 0;

	if (i >= obj->nsyms || !gelf_getsymshndx(obj->syms, obj->xndx, (int)i, sym, &x))
		return -1;
	*shndx = sym->st_shndx == SHN_XINDEX ? x : sym->st_shndx;
	return 0;
}

const char *obj_sym_name(struct lkd_obj *obj, const GElf_Sym *sym)
{
	const char *s = elf_strptr(obj->elf, obj->strtab, sym->st_name);

	return s ? s : "";
}

const char *obj_nearest_sym(struct lkd_obj *obj, size_t shndx, GElf_Addr off,
			    GElf_Addr *delta)
{
	const char *best = NULL;
	GElf_Addr best_val = 0;
	int best_named = 0;

	/* Only run for error messages, so a linear scan is fine. */
	for (size_t i = 1; i < obj->nsyms; i++) {
		GElf_Sym sym;
		size_t sec;
		int type, named;

		if (obj_sym(obj, i, &sym, &sec) || sec != shndx || sym.st_value > off)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		named = type == STT_FUNC || type == STT_OBJECT;
		if (best && (sym.st_value < best_val ||
			     (sym.st_value == best_val && best_named >= named)))
			continue;
		best = obj_sym_name(obj, &sym);
		best_val = sym.st_value;
		best_named = named;
	}
	if (best && !*best)
		best = NULL;
	if (best)
		*delta = off - best_val;
	return best;
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct lkd_reloc *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* REL stores the addend in the place being relocated. */
static GElf_Sxword implicit_addend(struct lkd_obj *obj, Elf_Data *target, GElf_Addr off)
{
	size_t w = obj->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	int32_t v32;
	int64_t v64;

	if (!target || off > target->d_size || target->d_size - off < w)
		return 0;
	if (w == 4) {
		memcpy(&v32, (char *)target->d_buf + off, 4);
		return v32;
	}
	memcpy(&v64, (char *)target->d_buf + off, 8);
	return v64;
}

/* An n-byte unsigned number at p in the file's byte order. */
static uint64_t file_uint(const struct lkd_obj *obj, const unsigned char *p, int n)
{
	int big = obj->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[big ? i : n - 1 - i];
	return v;
}

/*
 * 64-bit mips records (n64) hold r_sym (4 bytes, file order), then r_ssym
 * and three types, one byte each; libelf (0.188) reads the eight bytes as
 * one number, so on mips64el GELF_R_SYM is garbage.  Read the file's bytes.
 */
static int mips64_relocs(struct lkd_obj *obj, Elf_Data *raw, size_t ent, int rela,
			 Elf_Data *tdata, struct lkd_reloc *out, size_t n)
{
	if (!raw || !raw->d_buf || raw->d_size < n * ent)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)raw->d_buf + i * ent;

		out[i].offset = file_uint(obj, p, 8);
		out[i].sym = file_uint(obj, p + 8, 4);
		out[i].type = p[15] | p[14] << 8 | p[13] << 16 | (unsigned int)p[12] << 24;
		out[i].addend = rela ? (GElf_Sxword)file_uint(obj, p + 16, 8)
				     : implicit_addend(obj, tdata, out[i].offset);
	}
	return 0;
}

static int is_mips64(const struct lkd_obj *obj)
{
	return obj->ehdr.e_machine == EM_MIPS && obj->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
}

static int add_relocs(struct lkd_obj *obj, size_t rsec, GElf_Shdr *sh, size_t target,
		      struct lkd_reloc **out, size_t *nr)
{
	Elf_Data *d = obj_sec_data(obj, rsec), *tdata = NULL;
	size_t ent = gelf_fsize(obj->elf, sh->sh_type == SHT_RELA ? ELF_T_RELA : ELF_T_REL,
				1, EV_CURRENT);
	size_t n;

	if (!d)
		return error("%s: cannot read relocation section %zu: %s", obj->name, rsec,
			     elf_errmsg(-1));
	if (!ent || d->d_size % ent)
		return error("%s: relocation section %zu has a bad size", obj->name, rsec);
	if (sh->sh_link != obj->symtab)
		return error("%s: relocation section %zu does not use the symbol table",
			     obj->name, rsec);
	n = d->d_size / ent;
	if (sh->sh_type == SHT_REL)
		tdata = obj_sec_data(obj, target);
	*out = xrealloc(*out, (*nr + n) * sizeof(**out));
	if (is_mips64(obj)) {
		if (mips64_relocs(obj, elf_rawdata(elf_getscn(obj->elf, rsec), NULL), ent,
				  sh->sh_type == SHT_RELA, tdata, *out + *nr, n))
			return error("%s: cannot read relocation section %zu", obj->name, rsec);
		*nr += n;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct lkd_reloc *r = &(*out)[*nr + i];
		GElf_Rela rela;
		GElf_Rel rel;

		if (sh->sh_type == SHT_RELA) {
			if (!gelf_getrela(d, (int)i, &rela))
				return error("%s: bad relocation %zu in section %zu", obj->name, i, rsec);
		} else {
			if (!gelf_getrel(d, (int)i, &rel))
				return error("%s: bad relocation %zu in section %zu", obj->name, i, rsec);
			rela.r_offset = rel.r_offset;
			rela.r_info = rel.r_info;
			rela.r_addend = implicit_addend(obj, tdata, rel.r_offset);
		}
		r->offset = rela.r_offset;
		r->addend = rela.r_addend;
		/* gelf hands out r_info in the 64-bit encoding for both classes. */
		r->sym = GELF_R_SYM(rela.r_info);
		r->type = GELF_R_TYPE(rela.r_info);
	}
	*nr += n;
	return 0;
}

int obj_relocs_for(struct lkd_obj *obj, size_t idx, struct lkd_reloc **out, size_t *nr)
{
	*out = NULL;
	*nr = 0;
	for (size_t i = 1; i < obj->shnum; i++) {
		GElf_Shdr sh;

		if (!obj_shdr(obj, i, &sh))
			continue;
		if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) || sh.sh_info != idx)
			continue;
		if (add_relocs(obj, i, &sh, idx, out, nr)) {
			free(*out);
			*out = NULL;
			*nr = 0;
			return -1;
		}
	}
	if (*nr > 1)
		qsort(*out, *nr, sizeof(**out), cmp_reloc);
	return 0;
}

/* s390x, ppc64, ppc, mips, m68k, and the big-endian arm and aarch64. */
static int big_endian_machine(unsigned int machine)
{
	return machine == EM_S390 || machine == EM_PPC64 || machine == EM_PPC ||
	       machine == EM_ARM || machine == EM_AARCH64 || machine == EM_MIPS ||
	       machine == EM_68K;
}

/* Reject what libelf accepts but the checks cannot interpret. */
static int check_ident(struct lkd_obj *obj)
{
	const unsigned char *id = obj->ehdr.e_ident;

	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return error("%s: invalid ELF class %u", obj->name, id[EI_CLASS]);
	/*
	 * libelf translates symbols and relocations to host order; only the
	 * altinstr check reads section bytes itself, and only for x86 (LSB).
	 * Big-endian files are taken for the machines that have them.
	 */
	if (id[EI_DATA] != ELFDATA2LSB &&
	    (id[EI_DATA] != ELFDATA2MSB || !big_endian_machine(obj->ehdr.e_machine)))
		return error("%s: not a little-endian ELF file (EI_DATA %u) nor a big-endian one "
			     "of a machine that has them (e_machine %u)", obj->name, id[EI_DATA],
			     obj->ehdr.e_machine);
	if (obj->ehdr.e_machine == EM_386 && id[EI_CLASS] != ELFCLASS32)
		return error("%s: wrong ELF class: 64-bit file for machine i386", obj->name);
	return 0;
}

static int find_symtab(struct lkd_obj *obj)
{
	for (size_t i = 1; i < obj->shnum; i++) {
		GElf_Shdr sh;

		if (!obj_shdr(obj, i, &sh))
			return error("%s: bad section header %zu: %s", obj->name, i, elf_errmsg(-1));
		if (sh.sh_type == SHT_SYMTAB_SHNDX && sh.sh_link == obj->symtab && obj->symtab)
			obj->xndx = obj_sec_data(obj, i);
		if (sh.sh_type != SHT_SYMTAB || obj->symtab)
			continue;
		if (sh.sh_link == 0 || sh.sh_link >= obj->shnum)
			return error("%s: symbol table has a bad string table index %u",
				     obj->name, sh.sh_link);
		obj->syms = obj_sec_data(obj, i);
		if (!obj->syms)
			return error("%s: cannot read the symbol table: %s", obj->name, elf_errmsg(-1));
		obj->symtab = i;
		obj->strtab = sh.sh_link;
		obj->nsyms = obj->syms->d_size / gelf_fsize(obj->elf, ELF_T_SYM, 1, EV_CURRENT);
	}
	/* SYMTAB_SHNDX may precede the symtab. */
	for (size_t i = 1; obj->symtab && !obj->xndx && i < obj->shnum; i++) {
		GElf_Shdr sh;

		if (obj_shdr(obj, i, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == obj->symtab)
			obj->xndx = obj_sec_data(obj, i);
	}
	return 0;
}

/* libelf quietly drops section headers it cannot place: insist on them. */
static int check_layout(struct lkd_obj *obj, size_t size)
{
	const GElf_Ehdr *eh = &obj->ehdr;
	size_t shent = gelf_fsize(obj->elf, ELF_T_SHDR, 1, EV_CURRENT);

	if (eh->e_ehsize != gelf_fsize(obj->elf, ELF_T_EHDR, 1, EV_CURRENT))
		return error("%s: bad ELF header size %u (wrong ELF class?)", obj->name,
			     eh->e_ehsize);
	if (!eh->e_shoff && obj->shnum)
		return error("%s: no section header table", obj->name);
	if (!eh->e_shoff)
		return 0;
	if (eh->e_shentsize != shent)
		return error("%s: bad section header size %u", obj->name, eh->e_shentsize);
	/* e_shnum 0 means "in section 0"; libelf reports 0 if the table was unreadable. */
	if (eh->e_shoff > size || (size - eh->e_shoff) / shent < obj->shnum ||
	    (eh->e_shnum && eh->e_shnum != obj->shnum) || !obj->shnum)
		return error("%s: section header table (offset 0x%llx, %u entries) lies "
			     "outside the file (size %zu): truncated?", obj->name,
			     (unsigned long long)eh->e_shoff, eh->e_shnum, size);
	for (size_t i = 1; i < obj->shnum; i++) {
		GElf_Shdr sh;

		if (!obj_shdr(obj, i, &sh))
			return error("%s: bad section header %zu: %s", obj->name, i, elf_errmsg(-1));
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
			continue;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
			return error("%s: section %zu (offset 0x%llx, size 0x%llx) lies outside "
				     "the file (size %zu): truncated?", obj->name, i,
				     (unsigned long long)sh.sh_offset,
				     (unsigned long long)sh.sh_size, size);
	}
	return 0;
}

static int open_obj(struct lkd_obj *obj, size_t size)
{
	if (!gelf_getehdr(obj->elf, &obj->ehdr))
		return error("%s: bad ELF header: %s", obj->name, elf_errmsg(-1));
	if (check_ident(obj))
		return -1;
	if (elf_getshdrnum(obj->elf, &obj->shnum))
		return error("%s: bad section header count: %s", obj->name, elf_errmsg(-1));
	if (obj->shnum && elf_getshdrstrndx(obj->elf, &obj->shstrndx))
		return error("%s: bad section name table index: %s", obj->name, elf_errmsg(-1));
	if (obj->shnum && obj->shstrndx >= obj->shnum)
		return error("%s: section name table index %zu out of range", obj->name,
			     obj->shstrndx);
	if (check_layout(obj, size))
		return -1;
	return find_symtab(obj);
}

static int run_on_elf(const char *name, void *buf, size_t size, lkd_obj_fn fn, void *data)
{
	struct lkd_obj obj = { .name = name };
	int ret;

	obj.elf = elf_memory(buf, size);
	if (!obj.elf)
		return error("%s: cannot read ELF: %s", name, elf_errmsg(-1));
	if (elf_kind(obj.elf) != ELF_K_ELF)
		ret = error("%s: not an ELF object", name);
	else
		ret = open_obj(&obj, size);
	if (!ret)
		ret = fn(&obj, data);
	elf_end(obj.elf);
	return ret < 0 ? -1 : ret;
}

static int walk(const char *name, void *buf, size_t size, const char *dir, int flags,
		lkd_obj_fn fn, void *data, int depth);

static int walk_file(const char *path, const char *display, int flags, lkd_obj_fn fn,
		     void *data, int depth)
{
	struct stat st;
	void *map;
	char *dir, *slash;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open %s", display);
	if (fstat(fd, &st)) {
		close(fd);
		return error_errno("cannot stat %s", display);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (flags & LKD_SKIP_NON_ELF)
			return 0;
		return error("%s: not a regular file", display);
	}
	if (!st.st_size) {
		close(fd);
		if (flags & LKD_SKIP_NON_ELF)
			return 0;
		return error("%s: empty file", display);
	}
	/* Private and writable: libelf may convert data in place, never in the file. */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return error_errno("cannot map %s", display);
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	ret = walk(display, map, (size_t)st.st_size, dir, flags, fn, data, depth);
	free(dir);
	munmap(map, (size_t)st.st_size);
	return ret;
}

/*
 * A decimal field of an ar header.  Parsed like bfd does (leading blanks,
 * digits, whatever follows ignored): GNU ar's thin archives can carry a
 * stray character after a long-name offset ("/70            /").
 * -1 if there are no digits.
 */
static long long ar_num(const char *p, size_t len)
{
	long long v = 0;
	size_t i = 0, start;

	while (i < len && p[i] == ' ')
		i++;
	start = i;
	for (; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
		if (v > (1LL << 40))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return i == start ? -1 : v;
}

struct ar_walk {
	const char *name;	/* archive, for messages */
	char *base;
	size_t size, pos;
	const char *names;	/* the "//" long-name table */
	size_t names_len;
	int thin;
};

/* Member name into sb; 0 for a special member to skip, 1 for a real one, -1 on error. */
static int ar_member_name(struct ar_walk *ar, const char *hdr, struct strbuf *sb)
{
	size_t len;

	strbuf_reset(sb);
	if (hdr[0] == '/' && (hdr[1] == ' ' || !memcmp(hdr, "/SYM64/ ", 8) || hdr[1] == '/'))
		return 0;
	if (hdr[0] == '/') {
		long long off = ar_num(hdr + 1, 15);
		const char *end;

		if (off < 0 || !ar->names || (size_t)off >= ar->names_len)
			return error("%s: bad long member name reference at offset %zu",
				     ar->name, ar->pos);
		end = memchr(ar->names + off, '\n', ar->names_len - (size_t)off);
		len = end ? (size_t)(end - (ar->names + off)) : ar->names_len - (size_t)off;
		if (len && ar->names[off + len - 1] == '/')
			len--;
		strbuf_add(sb, ar->names + off, len);
	} else {
		const char *end = memchr(hdr, '/', 16);

		len = end ? (size_t)(end - hdr) : 16;
		while (!end && len && hdr[len - 1] == ' ')
			len--;
		strbuf_add(sb, hdr, len);
	}
	if (!sb->len || memchr(sb->buf, '\0', sb->len))
		return error("%s: bad member name at offset %zu", ar->name, ar->pos);
	return 1;
}

static int walk_archive(struct ar_walk *ar, const char *dir, int flags, lkd_obj_fn fn,
			void *data, int depth)
{
	struct strbuf member = STRBUF_INIT, display = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0, any_error = 0;

	ar->pos = AR_MAGIC_LEN;
	while (ar->pos < ar->size) {
		const char *hdr = ar->base + ar->pos;
		long long msize;
		size_t dpos;
		int r, has_data;

		if (ar->size - ar->pos < AR_HDR_LEN || memcmp(hdr + 58, "`\n", 2)) {
			any_error = error("%s: truncated or corrupt archive header at offset %zu",
					  ar->name, ar->pos);
			break;
		}
		msize = ar_num(hdr + 48, 10);
		dpos = ar->pos + AR_HDR_LEN;
		if (msize < 0) {
			any_error = error("%s: bad member size at offset %zu", ar->name, ar->pos);
			break;
		}
		r = ar_member_name(ar, hdr, &member);
		/* Thin archives store only the special members' data. */
		has_data = !ar->thin || r == 0;

		if (has_data && (size_t)msize > ar->size - dpos) {
			any_error = error("%s: member at offset %zu runs past the end",
					  ar->name, ar->pos);
			break;
		}
		if (r < 0) {
			any_error = -1;
			break;
		}
		if (r == 0 && hdr[1] == '/') {
			ar->names = ar->base + dpos;
			ar->names_len = (size_t)msize;
		}
		if (r == 1) {
			strbuf_reset(&display);
			strbuf_addf(&display, "%s(%s)", ar->name, member.buf);
			if (ar->thin) {
				strbuf_reset(&path);
				if (member.buf[0] != '/')
					strbuf_addstr(&path, dir);
				strbuf_add(&path, member.buf, member.len);
				r = walk_file(path.buf, display.buf, flags & ~LKD_SKIP_NON_ELF, fn,
					      data, depth + 1);
			} else {
				r = walk(display.buf, ar->base + dpos, (size_t)msize, NULL,
					 flags & ~LKD_SKIP_NON_ELF, fn, data, depth + 1);
			}
			if (r < 0)
				any_error = -1;
			else
				ret += r;
		}
		ar->pos = dpos + (has_data ? (size_t)msize : 0);
		ar->pos += ar->pos & 1;
	}
	strbuf_release(&member);
	strbuf_release(&display);
	strbuf_release(&path);
	return any_error ? -1 : ret;
}

/* LLVM bitcode, bare ("BC" 0xC0DE) or in its wrapper header (0x0B17C0DE, little-endian). */
static int is_bitcode(const void *buf, size_t size)
{
	return size >= 4 && (!memcmp(buf, "BC\xc0\xde", 4) || !memcmp(buf, "\xde\xc0\x17\x0b", 4));
}

static int walk(const char *name, void *buf, size_t size, const char *dir, int flags,
		lkd_obj_fn fn, void *data, int depth)
{
	if (size >= SELFMAG && !memcmp(buf, ELFMAG, SELFMAG))
		return run_on_elf(name, buf, size, fn, data);
	if (is_bitcode(buf, size)) {
		struct lkd_obj obj = { .name = name, .ir = 1 };

		return fn(&obj, data);
	}
	if (size >= AR_MAGIC_LEN && (!memcmp(buf, AR_MAGIC, AR_MAGIC_LEN) ||
				     !memcmp(buf, AR_THIN, AR_MAGIC_LEN))) {
		struct ar_walk ar = { .name = name, .base = buf, .size = size };

		ar.thin = !memcmp(buf, AR_THIN, AR_MAGIC_LEN);
		if (depth >= MAX_NESTING)
			return error("%s: archives nested too deeply", name);
		if (ar.thin && !dir)
			return error("%s: thin archive outside a file system", name);
		return walk_archive(&ar, dir, flags, fn, data, depth);
	}
	if (flags & LKD_SKIP_NON_ELF)
		return 0;
	return error("%s: not an ELF object or archive", name);
}

int lkd_for_each_object(const char *path, int flags, lkd_obj_fn fn, void *data)
{
	return walk_file(path, path, flags, fn, data, 0);
}

int lkd_for_each_in_memory(const char *name, void *buf, size_t size,
			   const char *dir, int flags, lkd_obj_fn fn, void *data)
{
	return walk(name, buf, size, dir, flags, fn, data, 0);
}
