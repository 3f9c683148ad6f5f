// SPDX-License-Identifier: GPL-2.0
/*
 * gcc 12 x86-64 spec, in the order the driver expands it:
 *   asm_options: %{v} %{w:-W} %{I*} %(asm_debug_option) %{gz...} %a %Y -o obj
 *   asm (%a):    %{m16|m32:--32} %{m16|m32|mx32:;:--64} %{mx32:--x32}
 *                %{msse2avx:%{!mavx:-msse2avx}}
 *   %Y:          -Wa, items and -Xassembler values, in command-line order
 * clang 14's GNU as tool: --compress-debug-sections, bitness, -I dirs,
 * then -Wa,/-Xassembler, -o obj.
 */
#include "assemble.h"
#include "options.h"

#include <stdlib.h>
#include <string.h>

/* %{I*}: every -I dir as "-I" "dir", joined or not. */
static void add_includes(struct strvec *out, int argc, char *const *argv)
{
	for (int i = 0; i < argc; i++) {
		const struct gcc_option *o = option_lookup(argv[i]);

		if (!o) {
			continue;
		} else if (!strcmp(o->name, "-I")) {
			if (argv[i][2]) {
				strvec_pushl(out, "-I", argv[i] + 2, NULL);
			} else if (i + 1 < argc) {
				strvec_pushl(out, "-I", argv[i + 1], NULL);
				i++;
			}
		} else if ((o->flags & OPT_SEP) && !strcmp(argv[i], o->name)) {
			i++;	/* skip the value: "-include -Ifoo" is no -I */
		}
	}
}

/* %Y: -Wa,a,b split on commas, -Xassembler x whole, in order. */
static void add_assembler_opts(struct strvec *out, int argc, char *const *argv)
{
	for (int i = 0; i < argc; i++) {
		const struct gcc_option *o;

		if (!strncmp(argv[i], "-Wa,", 4)) {
			char *copy = xstrdup(argv[i] + 4), *p = copy;

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
			continue;
		}
		o = option_lookup(argv[i]);
		if (o && (o->flags & OPT_SEP) && !strcmp(argv[i], o->name) && i + 1 < argc) {
			if (!strcmp(o->name, "-Xassembler"))
				strvec_push(out, argv[i + 1]);
			i++;
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

static void add_bits(struct strvec *out, const struct ccd_cmd *cmd)
{
	if (cmd->bits == 16 || cmd->bits == 32)
		strvec_push(out, "--32");
	else if (cmd->bits == -32)
		strvec_push(out, "--x32");
	else
		strvec_push(out, "--64");
}

void assemble_args(struct strvec *out, const struct profile *p,
		   const struct ccd_cmd *cmd, int argc, char *const *argv,
		   const char *obj, const char *asm_path)
{
	if (p->as_style == AS_CLANG) {
		add_gz(out, cmd);
		add_bits(out, cmd);
		add_includes(out, argc, argv);
	} else {
		if (cmd->w)
			strvec_push(out, "-W");
		add_includes(out, argc, argv);
		add_debug(out, cmd);
		add_gz(out, cmd);
		add_bits(out, cmd);
		if (cmd->sse2avx && !cmd->avx)
			strvec_push(out, "-msse2avx");
	}
	add_assembler_opts(out, argc, argv);
	strvec_pushl(out, "-o", obj, asm_path, NULL);
}

char *dwo_name(const struct ccd_cmd *cmd, const struct ccd_input *in)
{
	struct strbuf sb = STRBUF_INIT;
	char *base = cmd->output ? strip_suffix(cmd->output)
				 : strip_suffix(path_basename(in->path));

	strbuf_addf(&sb, "%s.dwo", base);
	free(base);
	return strbuf_detach(&sb, NULL);
}
