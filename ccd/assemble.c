// SPDX-License-Identifier: GPL-2.0
/*
 * gcc 12 x86-64 spec, in the order the driver expands it:
 *   asm_options: %{v} %{w:-W} %{I*} %(asm_debug_option) %{gz...} %a %Y -o obj
 *   asm (%a):    %{m16|m32:--32} %{m16|m32|mx32:;:--64} %{mx32:--x32}
 *                %{msse2avx:%{!mavx:-msse2avx}}
 *   %Y:          -Wa, items and -Xassembler values, in command-line order
 * clang 14's GNU as tool: --compress-debug-sections, bitness, -I dirs,
 * then -Wa,/-Xassembler, -o obj.  pcc's driver (AS_PLAIN): only -Wa, items
 * and -o obj.  A profile's as_flags go last before -o.
 */
#include "assemble.h"
#include "options.h"

#include <stdlib.h>
#include <string.h>

/* %{I*}: every -I dir as "-I" "dir", joined or not. */
static void add_includes(struct strvec *out, const struct ccd_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		if (a->role == ARG_FLAG && a->opt && !strcmp(a->opt->name, "-I"))
			strvec_pushl(out, "-I", a->val, NULL);
	}
}

/* %Y: -Wa,a,b split on commas, -Xassembler x whole, in order. */
static void add_assembler_opts(struct strvec *out, const struct ccd_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		if (a->role != ARG_FLAG || !(a->dest & TO_AS))
			continue;
		if (a->opt && !strcmp(a->opt->name, "-Xassembler")) {
			strvec_push(out, a->val);
		} else if (!a->opt) {	/* -Wa,a,b */
			char *copy = xstrdup(a->word + 4), *p = copy;

			for (;;) {
				char *comma = strchr(p, ',');

				if (comma)
					*comma = '\0';
				strvec_push(out, p);
				if (!comma)
					break;
				p = comma + 1;
			}
			free(copy);
		}
	}
}

static void add_debug(struct strvec *out, const struct ccd_cmd *cmd)
{
	int v = cmd->dwarf_version ? cmd->dwarf_version : 5;

	if (cmd->debug_level <= 0)
		return;
	if (v > 4)
		strvec_push(out, "--gdwarf-5");
	else if (v > 3)
		strvec_push(out, "--gdwarf-4");
	else if (v > 2)
		strvec_push(out, "--gdwarf-3");
	else
		strvec_push(out, "--gdwarf2");
}

static void add_gz(struct strvec *out, const struct ccd_cmd *cmd)
{
	if (cmd->gz_zlib)
		strvec_push(out, "--compress-debug-sections=zlib");
	if (cmd->gz_none)
		strvec_push(out, "--compress-debug-sections=none");
	if (cmd->gz_zlib_gnu)
		strvec_push(out, "--compress-debug-sections=zlib-gnu");
}

int assemble_args(struct strvec *out, const struct profile *p, const struct ccd_cmd *cmd,
		  const struct as_target *tg, const char *obj, const char *asm_path)
{
	const struct target *t = tg ? tg->target : NULL;
	size_t start = out->nr;
	int ret = 0;

	if (p->as_style == AS_CLANG) {
		add_gz(out, cmd);
		ret = asspec_words(out, p->as_style, tg, cmd);
		add_includes(out, cmd);
	} else if (p->as_style == AS_GCC) {
		if (cmd->w)
			strvec_push(out, "-W");
		add_includes(out, cmd);
		/* arm, ppc, s390x, mips and m68k gcc write their own debug sections: no --gdwarf. */
		if (!t || t->as_debug)
			add_debug(out, cmd);
		add_gz(out, cmd);
		ret = asspec_words(out, p->as_style, tg, cmd);
	}
	if (ret) {
		while (out->nr > start)	/* the caller asks the driver and comes back */
			strvec_remove(out, out->nr - 1);
		return -1;
	}
	add_assembler_opts(out, cmd);
	profile_push_words(out, p->as_flags);
	strvec_pushl(out, "-o", obj, asm_path, NULL);
	return 0;
}

char *dwo_name(const struct ccd_cmd *cmd, const struct ccd_input *in)
{
	struct strbuf sb = STRBUF_INIT;
	char *base = output_stem(cmd, in);

	strbuf_addf(&sb, "%s.dwo", base);
	free(base);
	return strbuf_detach(&sb, NULL);
}
