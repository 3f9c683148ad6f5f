// SPDX-License-Identifier: GPL-2.0
/*
 * common: SHN_COMMON symbols.
 *
 * The module loader refuses a module with a common symbol ("please
 * compile with -fno-common"), and objects from compilers that default to
 * -fcommon carry them.  In a -r link ld leaves commons alone unless told
 * to allocate them with -d, so lkd asks for -d whenever an input has one.
 * A final link allocates commons anyway: nothing to do there.
 */
#include "check.h"
#include "warn.h"

/* Large commons (x86-64 -mcmodel=medium); not in every <elf.h>. */
#ifndef SHN_X86_64_LCOMMON
#define SHN_X86_64_LCOMMON 0xff02
#endif

/*
 * mips' small commons: GNU ld -r turns a .comm within its -G limit into
 * SHN_MIPS_SCOMMON (readelf's SCOM); -d allocates those too.
 */
static int is_common(struct lkd_obj *obj, size_t shndx)
{
	unsigned int m = obj->ehdr.e_machine;

	return shndx == SHN_COMMON || (m == EM_X86_64 && shndx == SHN_X86_64_LCOMMON) ||
	       (m == EM_MIPS && (shndx == SHN_MIPS_SCOMMON || shndx == SHN_MIPS_ACOMMON));
}

static int common_input(struct lkd_ctx *ctx, struct lkd_obj *obj)
{
	int findings = 0;

	for (size_t i = 1; i < obj->nsyms; i++) {
		GElf_Sym sym;
		size_t shndx;

		if (obj_sym(obj, i, &sym, &shndx) || !is_common(obj, shndx))
			continue;
		ctx->commons++;
		switch (ctx->mode) {
		case LKD_VERIFY:
			error("%s: common: symbol '%s' is SHN_COMMON (size %llu); a module "
			      "with it fails to load (link it -r through lkd)",
			      obj->name, obj_sym_name(obj, &sym), (unsigned long long)sym.st_size);
			findings++;
			break;
		case LKD_LINK_REL:
			ctx->define_common = 1;
			if (!ctx->quiet)
				note("%s: common symbol '%s' allocated by ld -d", obj->name,
				     obj_sym_name(obj, &sym));
			break;
		case LKD_LINK_FINAL:
			break;
		}
	}
	return findings;
}

/*
 * A common the LTO link made from bitcode: lkd could not see it before
 * the link to ask for -d (and ld.lld is dropping -d), so the output is
 * what the linker alone makes.  Said, not failed, unless --lkd-strict.
 */
static int lto_common(struct lkd_ctx *ctx, struct lkd_obj *obj, const char *name)
{
	if (ctx->strict) {
		error("%s: common: symbol '%s' is SHN_COMMON after an LTO link (from LLVM "
		      "bitcode, which lkd cannot read before the link)", obj->name, name);
		return 1;
	}
	warning("%s: common: symbol '%s' is SHN_COMMON after an LTO link (from LLVM "
		"bitcode, which lkd cannot read before the link); a module with it fails "
		"to load: compile with -fno-common", obj->name, name);
	return 0;
}

/* After ld -r -d no common may be left; if one is, the module would not load. */
static int common_output(struct lkd_ctx *ctx, struct lkd_obj *obj)
{
	int findings = 0;

	if (ctx->mode != LKD_LINK_REL)
		return 0;
	for (size_t i = 1; i < obj->nsyms; i++) {
		GElf_Sym sym;
		size_t shndx;

		if (obj_sym(obj, i, &sym, &shndx) || !is_common(obj, shndx))
			continue;
		if (ctx->ir_objects && !ctx->define_common) {
			findings += lto_common(ctx, obj, obj_sym_name(obj, &sym));
			continue;
		}
		error("%s: common: symbol '%s' is still SHN_COMMON after the link",
		      obj->name, obj_sym_name(obj, &sym));
		findings++;
	}
	return findings;
}

const struct lkd_check check_common = {
	.name = "common",
	.help = "SHN_COMMON symbols: ld -r gets -d so none survives into a module",
	.input = common_input,
	.output = common_output,
};
