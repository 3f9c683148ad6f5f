// SPDX-License-Identifier: GPL-2.0
/*
 * altinstr: .altinstructions records.
 *
 * apply_alternatives() trusts every record: it patches replacementlen
 * bytes from the replacement over the original instruction.  A record
 * whose references point elsewhere, or whose lengths disagree, corrupts
 * kernel text at boot or module load.  Like objtool's special.c the
 * record layout is data (a table), the references are found through
 * their relocations in relocatable objects, and through the linked
 * values in executables (vmlinux, vdso), which have no relocations left.
 */
#include "altlayout.h"
#include "check.h"
#include "strbuf.h"
#include "warn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALTINSTR_SEC	".altinstructions"
#define REPL_SEC	".altinstr_replacement"
#define MAX_REPORTS	20	/* per section; a broken compiler breaks them all */

static const char *type_name(unsigned int machine, unsigned int type, char *buf, size_t len)
{
	static const struct { unsigned int machine, type; const char *name; } names[] = {
		{ EM_X86_64, R_X86_64_NONE, "R_X86_64_NONE" },
		{ EM_X86_64, R_X86_64_64, "R_X86_64_64" },
		{ EM_X86_64, R_X86_64_PC32, "R_X86_64_PC32" },
		{ EM_X86_64, R_X86_64_32, "R_X86_64_32" },
		{ EM_X86_64, R_X86_64_32S, "R_X86_64_32S" },
		{ EM_X86_64, R_X86_64_PLT32, "R_X86_64_PLT32" },
		{ EM_X86_64, R_X86_64_PC64, "R_X86_64_PC64" },
		{ EM_X86_64, R_X86_64_16, "R_X86_64_16" },
		{ EM_X86_64, R_X86_64_PC16, "R_X86_64_PC16" },
		{ EM_386, R_386_NONE, "R_386_NONE" },
		{ EM_386, R_386_32, "R_386_32" },
		{ EM_386, R_386_PC32, "R_386_PC32" },
		{ EM_386, R_386_PLT32, "R_386_PLT32" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (names[i].machine == machine && names[i].type == type)
			return names[i].name;
	snprintf(buf, len, "type %u", type);
	return buf;
}

static int is_pcrel(unsigned int machine, unsigned int type)
{
	if (machine == EM_386)
		return type == R_386_PC32 || type == R_386_PLT32;
	return type == R_X86_64_PC32 || type == R_X86_64_PLT32 || type == R_X86_64_PC64 ||
	       type == R_X86_64_PC16 || type == R_X86_64_PC8;
}

/* One record being checked, for located messages. */
struct rec {
	struct lkd_obj *obj;
	const struct alt_layout *l;
	const char *secname;
	GElf_Addr off;		/* of the record in its section */
	size_t index;
	/* Where the original instruction is; its symbol is looked up only for messages. */
	size_t near_sec;	/* 0: unknown */
	GElf_Addr near_off;
	const char *near;
	GElf_Addr delta;
	unsigned long *reports;
	int faults;
};

__attribute__((format(printf, 2, 3)))
static void rec_error(struct rec *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	r->faults++;
	if (++*r->reports > MAX_REPORTS)
		return;
	if (r->near_sec && !r->near)
		r->near = obj_nearest_sym(r->obj, r->near_sec, r->near_off, &r->delta);
	strbuf_addf(&sb, "%s: %s+0x%llx (record %zu", r->obj->name, r->secname,
		    (unsigned long long)r->off, r->index);
	if (r->near && r->delta)
		strbuf_addf(&sb, ", at %s+0x%llx", r->near, (unsigned long long)r->delta);
	else if (r->near)
		strbuf_addf(&sb, ", at %s", r->near);
	strbuf_addstr(&sb, "): ");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", sb.buf);
	strbuf_release(&sb);
}

/* Where a relocation points: section and offset.  -1 if nowhere sensible. */
static int reloc_target(struct lkd_obj *obj, const struct lkd_reloc *rel, size_t *shndx,
			GElf_Sxword *off, GElf_Sym *sym)
{
	if (obj_sym(obj, rel->sym, sym, shndx))
		return -1;
	if (*shndx == SHN_UNDEF || *shndx >= obj->shnum ||
	    (sym->st_shndx >= SHN_LORESERVE && sym->st_shndx != SHN_XINDEX))
		return -1;
	/* Both come from the file: add without signed overflow (UB). */
	*off = (GElf_Sxword)((GElf_Xword)sym->st_value + (GElf_Xword)rel->addend);
	return 0;
}

/* Check one reference of a record in a relocatable object. */
static void check_rel_ref(struct rec *r, const struct lkd_reloc *rel, const char *field,
			  int want_repl, unsigned int len)
{
	struct lkd_obj *obj = r->obj;
	unsigned int machine = obj->ehdr.e_machine, want = altlayout_reloc_type(r->l, machine);
	char b1[32], b2[32];
	const char *secname;
	GElf_Sxword off;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t shndx;

	if (!rel) {
		rec_error(r, "%s: missing relocation", field);
		return;
	}
	if (rel->type != want) {
		const char *kind = is_pcrel(machine, rel->type) ? "PC-relative" : "absolute";

		rec_error(r, "%s: %s relocation %s, expected %s", field, kind,
			  type_name(machine, rel->type, b1, sizeof(b1)),
			  type_name(machine, want, b2, sizeof(b2)));
		return;
	}
	if (reloc_target(obj, rel, &shndx, &off, &sym)) {
		if (rel->sym >= obj->nsyms)
			rec_error(r, "%s: relocation names symbol %zu of %zu", field, rel->sym,
				  obj->nsyms);
		else
			rec_error(r, "%s: relocation against '%s', which is not defined in a "
				  "section of this object", field, obj_sym_name(obj, &sym));
		return;
	}
	secname = obj_sec_name(obj, shndx);
	if (!obj_shdr(obj, shndx, &sh) || !secname) {
		rec_error(r, "%s: relocation targets a bad section %zu", field, shndx);
		return;
	}
	if (want_repl && strcmp(secname, REPL_SEC)) {
		rec_error(r, "%s: relocation targets '%s', expected '%s'", field, secname, REPL_SEC);
		return;
	}
	if (!want_repl && !(sh.sh_flags & SHF_EXECINSTR)) {
		rec_error(r, "%s: relocation targets '%s', which is not executable", field, secname);
		return;
	}
	if (off < 0 || (GElf_Xword)off > sh.sh_size || sh.sh_size - (GElf_Xword)off < len)
		rec_error(r, "%s: target %s%s0x%llx, %u bytes, lies outside the section (size 0x%llx)",
			  field, secname, off < 0 ? "-" : "+",
			  (unsigned long long)(off < 0 ? -(unsigned long long)off : (unsigned long long)off),
			  len, (unsigned long long)sh.sh_size);
}

static const struct lkd_reloc *only_reloc(struct rec *r, const struct lkd_reloc *rel,
					  size_t n, unsigned int at, const char *field)
{
	const struct lkd_reloc *found = NULL;
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		if (rel[i].offset - r->off == at) {
			found = &rel[i];
			count++;
		}
	}
	if (count > 1)
		rec_error(r, "%s: %zu relocations, expected one", field, count);
	return found;
}

static void locate_rel(struct rec *r, const struct lkd_reloc *instr)
{
	GElf_Sxword off;
	GElf_Sym sym;
	size_t shndx;

	if (instr && !reloc_target(r->obj, instr, &shndx, &off, &sym) && off >= 0) {
		r->near_sec = shndx;
		r->near_off = (GElf_Addr)off;
	}
}

/* A length byte of the record; 0 where the layout does not say. */
static unsigned int rec_len(const unsigned char *p, unsigned char at)
{
	return at == ALT_NO_LEN ? 0 : p[at];
}

/* Relocations [rel, rel + n) all lie within this record. */
static void check_rel_record(struct rec *r, const unsigned char *p,
			     const struct lkd_reloc *rel, size_t n)
{
	const struct alt_layout *l = r->l;
	const struct lkd_reloc *ri, *rr;
	unsigned int ilen = rec_len(p, l->instrlen), rlen = rec_len(p, l->replen);

	ri = only_reloc(r, rel, n, l->instr, l->instr_field);
	locate_rel(r, ri);
	rr = only_reloc(r, rel, n, l->repl, l->repl_field);
	for (size_t i = 0; i < n; i++) {
		GElf_Addr at = rel[i].offset - r->off;

		if (at != l->instr && at != l->repl)
			rec_error(r, "unexpected relocation at record offset %llu (only %s and %s "
				  "are relocated)", (unsigned long long)at, l->instr_field,
				  l->repl_field);
	}
	check_rel_ref(r, ri, l->instr_field, 0, ilen);
	check_rel_ref(r, rr, l->repl_field, 1, rlen);
	if (l->instrlen != ALT_NO_LEN && rlen > ilen)
		rec_error(r, "replacementlen %u is larger than instrlen %u", rlen, ilen);
}

/* Value of a reference in a linked file: the address it points to. */
static GElf_Addr linked_target(const struct alt_layout *l, const unsigned char *p,
			       GElf_Addr field_addr)
{
	if (l->ref == REF_PCREL) {
		int32_t v;

		memcpy(&v, p, 4);
		return field_addr + (GElf_Addr)(GElf_Sxword)v;
	}
	if (l->ref_size == 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	uint32_t v32;

	memcpy(&v32, p, 4);
	return v32;
}

/* The section holding addr, one of the wanted kind if several do (empty ones). */
static size_t section_at(struct lkd_obj *obj, GElf_Addr addr, int want_repl, int *good)
{
	size_t found = 0;

	*good = 0;
	for (size_t i = 1; i < obj->shnum; i++) {
		GElf_Shdr sh;
		const char *name;

		if (!obj_shdr(obj, i, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    addr < sh.sh_addr || addr - sh.sh_addr > sh.sh_size)
			continue;
		name = obj_sec_name(obj, i);
		if (want_repl ? name && !strcmp(name, REPL_SEC) : !!(sh.sh_flags & SHF_EXECINSTR)) {
			*good = 1;
			return i;
		}
		if (!found || addr - sh.sh_addr < sh.sh_size)
			found = i;
	}
	return found;
}

static void check_linked_ref(struct rec *r, GElf_Addr target, const char *field,
			     int want_repl, unsigned int len)
{
	int good;
	size_t sec = section_at(r->obj, target, want_repl, &good);
	const char *name = sec ? obj_sec_name(r->obj, sec) : NULL;
	GElf_Shdr sh;

	if (!sec || !obj_shdr(r->obj, sec, &sh)) {
		rec_error(r, "%s: target 0x%llx lies outside every section", field,
			  (unsigned long long)target);
		return;
	}
	if (!name)
		name = "?";
	if (!good && want_repl)
		rec_error(r, "%s: points into '%s', expected '%s'", field, name, REPL_SEC);
	else if (!good)
		rec_error(r, "%s: points into '%s', which is not executable", field, name);
	else if (sh.sh_addr + sh.sh_size - target < len)
		rec_error(r, "%s: target %s+0x%llx, %u bytes, lies outside the section "
			  "(size 0x%llx)", field, name, (unsigned long long)(target - sh.sh_addr),
			  len, (unsigned long long)sh.sh_size);
}

static void check_linked_record(struct rec *r, const unsigned char *p, GElf_Addr addr)
{
	const struct alt_layout *l = r->l;
	unsigned int ilen = rec_len(p, l->instrlen), rlen = rec_len(p, l->replen);
	GElf_Addr it = linked_target(l, p + l->instr, addr + l->instr);
	GElf_Addr rt = linked_target(l, p + l->repl, addr + l->repl);
	int good;
	size_t sec = section_at(r->obj, it, 0, &good);

	if (sec) {
		r->near_sec = sec;
		r->near_off = it;
	}
	check_linked_ref(r, it, l->instr_field, 0, ilen);
	check_linked_ref(r, rt, l->repl_field, 1, rlen);
	if (l->instrlen != ALT_NO_LEN && rlen > ilen)
		rec_error(r, "replacementlen %u is larger than instrlen %u", rlen, ilen);
}

/* Check the records of section idx under layout l; returns the faults found. */
static int check_section(struct lkd_obj *obj, const struct alt_layout *l, size_t idx,
			 GElf_Shdr *sh, unsigned long *reports)
{
	struct rec r = { .obj = obj, .l = l, .secname = ALTINSTR_SEC, .reports = reports };
	struct lkd_reloc *rel = NULL;
	size_t nrel = 0, ri = 0, nrec;
	Elf_Data *d = obj_sec_data(obj, idx);
	int relocatable = obj->ehdr.e_type == ET_REL;

	if (!d)
		return error("%s: cannot read %s: %s", obj->name, ALTINSTR_SEC, elf_errmsg(-1));
	nrec = altlayout_records(l, d->d_size);
	if (!nrec && d->d_size) {
		error("%s: %s: size %zu is not a multiple of the %u-byte %s record",
		      obj->name, ALTINSTR_SEC, d->d_size, l->size, l->name);
		return 1;
	}
	if (relocatable && obj_relocs_for(obj, idx, &rel, &nrel))
		return -1;
	for (size_t i = 0; i < nrec; i++) {
		const unsigned char *p = (const unsigned char *)d->d_buf + i * l->size;
		size_t first = ri;

		r.off = i * l->size;
		r.index = i;
		r.near = NULL;
		r.near_sec = 0;
		if (!relocatable) {
			check_linked_record(&r, p, sh->sh_addr + r.off);
		} else {
			while (ri < nrel && rel[ri].offset < r.off + l->size)
				ri++;
			check_rel_record(&r, p, nrel ? rel + first : NULL, ri - first);
		}
	}
	if (ri < nrel) {
		r.off = rel[ri].offset;
		r.index = nrec;
		rec_error(&r, "relocation past the last record");
	}
	free(rel);
	if (*reports > MAX_REPORTS)
		error("%s: %s: %lu more faults not shown", obj->name, ALTINSTR_SEC,
		      *reports - MAX_REPORTS);
	return r.faults;
}

/*
 * A section lkd cannot read: said once, and the rest of the object is
 * still checked and linked; --lkd-strict makes it an error.
 */
__attribute__((format(printf, 3, 4)))
static int cannot_interpret(struct lkd_ctx *ctx, struct lkd_obj *obj, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ctx->strict)
		error("%s: %s: cannot interpret: %s", obj->name, ALTINSTR_SEC, sb.buf);
	else
		warning("%s: %s: cannot interpret: %s; not checked", obj->name, ALTINSTR_SEC,
			sb.buf);
	strbuf_release(&sb);
	return ctx->strict;
}

struct choice {
	const struct alt_layout *l;
	size_t good, total;	/* relocations (objects) or records (linked files) */
};

/* a explains a larger share of what it was tried on than b. */
static int better(const struct choice *a, const struct choice *b)
{
	return !b->l || a->good * b->total > b->good * a->total;
}

/*
 * In an object the relocations show the layout: the table layout (whose
 * record size divides the section) that puts most of them at its two
 * references, with its relocation type.  Errors are then faults of
 * single records, which a compiler bug makes.
 */
static void choose_rel(struct lkd_obj *obj, size_t size, const struct lkd_reloc *rel,
		       size_t nrel, struct choice *best, struct choice *nofit)
{
	unsigned int machine = obj->ehdr.e_machine;
	const struct alt_layout *l;

	for (size_t i = 0; (l = altlayout_nth(obj->ehdr.e_ident[EI_CLASS], i)); i++) {
		struct choice c = { l, altlayout_relocs_fitting(l, machine, rel, nrel), nrel };

		if (altlayout_records(l, size) && better(&c, best))
			*best = c;
		/* A size that does not fit, with relocations past one record that do. */
		if (!altlayout_records(l, size) && c.good == nrel &&
		    rel[nrel - 1].offset >= l->size &&
		    !nofit->l)
			*nofit = c;
	}
}

/*
 * A linked file has no relocations: the layout whose records' two
 * references land inside sections of the file, the original instruction
 * in code.  Under a wrong layout they read length bytes and feature words
 * as offsets, which land nowhere.  Faults of the kind a bad link makes
 * (a replacement merged into .text) leave the references landing.
 */
static size_t linked_fitting(struct lkd_obj *obj, const struct alt_layout *l,
			     const unsigned char *buf, size_t size, GElf_Addr addr)
{
	size_t fit = 0, nrec = altlayout_records(l, size);

	for (size_t i = 0; i < nrec; i++) {
		GElf_Addr off = i * l->size;
		const unsigned char *p = buf + off;
		int exec, repl;

		section_at(obj, linked_target(l, p + l->instr, addr + off + l->instr), 0, &exec);
		if (exec && section_at(obj, linked_target(l, p + l->repl, addr + off + l->repl),
				       1, &repl))
			fit++;
	}
	return fit;
}

static void choose_linked(struct lkd_obj *obj, size_t idx, GElf_Shdr *sh, size_t size,
			  struct choice *best)
{
	Elf_Data *d = obj_sec_data(obj, idx);
	const struct alt_layout *l;

	if (!d || d->d_size != size)
		return;
	for (size_t i = 0; (l = altlayout_nth(obj->ehdr.e_ident[EI_CLASS], i)); i++) {
		struct choice c = { l, 0, altlayout_records(l, size) };

		if (!c.total)
			continue;
		c.good = linked_fitting(obj, l, d->d_buf, size, sh->sh_addr);
		if (better(&c, best))
			*best = c;
	}
}

/* The layout to check section idx with; NULL when none is understood (said so). */
static const struct alt_layout *pick_layout(struct lkd_ctx *ctx, struct lkd_obj *obj,
					    size_t idx, GElf_Shdr *sh, size_t size,
					    struct alt_layout *inferred, int *findings)
{
	struct choice best = { 0 }, nofit = { 0 };
	struct lkd_reloc *rel = NULL;
	size_t nrel = 0;

	if (obj->ehdr.e_type != ET_REL) {
		choose_linked(obj, idx, sh, size, &best);
		if (best.l && best.good * 2 >= best.total && best.good)
			return best.l;
		*findings += cannot_interpret(ctx, obj, "size %zu: the records of no known "
					      "layout (linux612, linux6, linux26) point into "
					      "this file", size);
		return NULL;
	}
	if (obj_relocs_for(obj, idx, &rel, &nrel)) {
		*findings = -1;
		return NULL;
	}
	if (nrel)
		choose_rel(obj, size, rel, nrel, &best, &nofit);
	if (!(best.l && best.good * 2 > best.total) && nrel &&
	    !altlayout_infer(inferred, obj->ehdr.e_ident[EI_CLASS], obj->ehdr.e_machine,
			     size, rel, nrel)) {
		best = (struct choice){ inferred, nrel, nrel };
	}
	free(rel);
	if (best.l && best.good * 2 > best.total)
		return best.l;
	if (nofit.l) {
		error("%s: %s: size %zu is not a multiple of the %u-byte %s record its "
		      "relocations show", obj->name, ALTINSTR_SEC, size, nofit.l->size,
		      nofit.l->name);
		*findings += 1;
		return NULL;
	}
	*findings += cannot_interpret(ctx, obj, "size %zu, %zu relocations: no known layout "
				      "(linux612, linux6, linux26) fits them", size, nrel);
	return NULL;
}

static int check_one(struct lkd_ctx *ctx, struct lkd_obj *obj, size_t idx, GElf_Shdr *sh)
{
	struct alt_layout inferred;
	const struct alt_layout *l;
	unsigned long reports = 0;
	int findings = 0, r;

	/*
	 * Other machines have sections of this name with records of their own
	 * (arm64's alternatives): not this check's business, nothing to say.
	 */
	if (obj->ehdr.e_machine != EM_386 && obj->ehdr.e_machine != EM_X86_64)
		return 0;
	if (strcmp(ctx->layout, "auto")) {
		l = altlayout_named(ctx->layout, obj->ehdr.e_ident[EI_CLASS]);
		if (!l)
			return error("unknown altinstr layout '%s'", ctx->layout);
	} else if (!sh->sh_size) {
		return 0;
	} else {
		l = pick_layout(ctx, obj, idx, sh, sh->sh_size, &inferred, &findings);
		if (!l)
			return findings;
	}
	if (ctx->verbose && l->instrlen == ALT_NO_LEN)
		note("%s: checking %s (inferred layout, %u-byte records, references at %u "
		     "and %u; lengths not checked)", obj->name, ALTINSTR_SEC, l->size, l->instr,
		     l->repl);
	else if (ctx->verbose)
		note("%s: checking %s (%s layout, %u-byte records)", obj->name, ALTINSTR_SEC,
		     l->name, l->size);
	r = check_section(obj, l, idx, sh, &reports);
	return r < 0 ? -1 : findings + r;
}

static int altinstr_check(struct lkd_ctx *ctx, struct lkd_obj *obj)
{
	int findings = 0;

	for (size_t i = 1; i < obj->shnum; i++) {
		const char *name = obj_sec_name(obj, i);
		GElf_Shdr sh;
		int r;

		if (!name || strcmp(name, ALTINSTR_SEC) || !obj_shdr(obj, i, &sh) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		r = check_one(ctx, obj, i, &sh);
		if (r < 0)
			return -1;
		findings += r;
	}
	return findings;
}

const struct lkd_check check_altinstr = {
	.name = "altinstr",
	.help = ".altinstructions: two relocations per record, targets and lengths",
	.input = altinstr_check,
	.output = altinstr_check,
};
