// SPDX-License-Identifier: GPL-2.0
/*
 * ccd unit tests: the classifier as a table (every way Kbuild invokes
 * the compiler, plus the driver's traps: option values, -o forms, -x,
 * stdin, queries), the roles of every word, the option table, the profile
 * translation tables and the as spec.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "classify.h"
#include "options.h"
#include "profiles.h"
#include "respfile.h"
#include "strbuf.h"
#include "target.h"

struct row {
	const char *argv;	/* blank-separated; ~ stands for an empty word */
	enum ccd_mode mode;
	int action;		/* 'c' / 'S' for handled rows */
	const char *inputs;	/* blank-separated input paths */
	const char *output;	/* -o value or NULL */
	enum dep_kind deps;
	int preprocesses;
};

#define P MODE_PASS
#define H MODE_HANDLE

static const struct row rows[] = {
	/* Kbuild C object (cmd_cc_o_c) */
	{ "-Wp,-MMD,fs/.file.o.d -nostdinc -isystem /usr/lib/gcc/include -I./arch/x86/include "
	  "-include ./include/linux/kconfig.h -include ./include/linux/compiler_types.h "
	  "-D__KERNEL__ -fno-strict-aliasing -mno-sse -O2 -DKBUILD_MODNAME=\"file\" "
	  "-c -o fs/file.o fs/file.c", H, 'c', "fs/file.c", "fs/file.o", DEP_WP, 1 },
	/* .mod.c and asm-offsets as objects */
	{ "-Wp,-MMD,fs/.x.mod.o.d -O2 -c -o fs/x.mod.o fs/x.mod.c", H, 'c', "fs/x.mod.c", "fs/x.mod.o", DEP_WP, 1 },
	/* cmd_cc_s_c: asm-offsets.s is handled: the user gets repaired asm */
	{ "-Wp,-MMD,k/.asm-offsets.s.d -O2 -fverbose-asm -S -o k/asm-offsets.s k/asm-offsets.c",
	  H, 'S', "k/asm-offsets.c", "k/asm-offsets.s", DEP_WP, 1 },
	/* *.i targets and linker scripts ($(CPP)) */
	{ "-E -Wp,-MMD,a/.x.i.d -o a/x.i a/x.c", P, 0, "a/x.c", "a/x.i", DEP_WP, 1 },
	{ "-E -P -D__ASSEMBLY__ -DLINKER_SCRIPT -o vmlinux.lds vmlinux.lds.S", P, 0, "vmlinux.lds.S", "vmlinux.lds", DEP_NONE, 1 },
	/* .S objects */
	{ "-Wp,-MMD,a/.e.o.d -D__ASSEMBLY__ -c -o a/e.o a/e.S", P, 0, "a/e.S", "a/e.o", DEP_WP, 1 },
	/* cc-option family */
	{ "-Werror -fno-stack-protector -c -x c /dev/null -o .tmp_1/tmp", P, 0, "/dev/null", ".tmp_1/tmp", DEP_NONE, 1 },
	{ "-Werror -mno-red-zone -E -x c /dev/null -o /dev/null", P, 0, "/dev/null", "/dev/null", DEP_NONE, 1 },
	/* as-option / as-instr */
	{ "-Wa,--noexecstack -c -x assembler-with-cpp /dev/null -o tmp", P, 0, "/dev/null", "tmp", DEP_NONE, 1 },
	{ "-Wa,--fatal-warnings -c -x assembler-with-cpp -o tmp -", P, 0, "-", "tmp", DEP_NONE, 1 },
	/* cc-version.sh, as-version.sh */
	{ "-E -P -x c -", P, 0, "-", NULL, DEP_NONE, 1 },
	{ "-Wa,--version -c -x assembler /dev/null -o /dev/null", P, 0, "/dev/null", "/dev/null", DEP_NONE, 0 },
	/* stack-protector probe */
	{ "-S -x c -c -m64 -O0 -fstack-protector - -o -", P, 0, "-", "-", DEP_NONE, 1 },
	/* queries */
	{ "-print-file-name=include", P, 0, "", NULL, DEP_NONE, 0 },
	{ "--version", P, 0, "", NULL, DEP_NONE, 0 },
	{ "-dumpmachine", P, 0, "", NULL, DEP_NONE, 0 },
	{ "-### -c a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	/* links */
	{ "-o vdso.so a.o b.o -nostdlib -Wl,-soname=linux-vdso.so.1", P, 0, "a.o b.o", "vdso.so", DEP_NONE, 0 },
	{ "-o prog a.c", P, 0, "a.c", "prog", DEP_NONE, 1 },
	/* option values are never inputs */
	{ "-c -o x.c -include y.c -MF z.c -MT t.c -isystem inc a.c", H, 'c', "a.c", "x.c", DEP_NONE, 1 },
	{ "-c -ox.o -xc a.txt", H, 'c', "a.txt", "x.o", DEP_NONE, 1 },
	{ "-c -x c a.txt -x none b.c", H, 'c', "a.txt b.c", NULL, DEP_NONE, 1 },
	{ "-c -x cpp-output a.i", H, 'c', "a.i", NULL, DEP_NONE, 0 },
	{ "-c a.i", H, 'c', "a.i", NULL, DEP_NONE, 0 },
	{ "-c -Xassembler --defsym -Xassembler x=1 -Xpreprocessor -DX a.c", H, 'c', "a.c", NULL, DEP_NONE, 1 },
	/* modes gcc decides (sccache #251, -c -S) */
	{ "-c -M a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -MM a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -S a.c", H, 'S', "a.c", NULL, DEP_NONE, 1 },
	{ "-c -E a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -fsyntax-only a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -save-temps=obj a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -v a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	/* LTO: the object is IR, where -D__CCD__ would move clang's inline-asm
	 * locations; preprocessing alone still says ccd */
	{ "-c -flto a.c", P, 0, "a.c", NULL, DEP_NONE, 0 },
	{ "-S -flto=thin a.c", P, 0, "a.c", NULL, DEP_NONE, 0 },
	{ "-c -flto -fno-lto a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -fno-lto -flto=full a.c", P, 0, "a.c", NULL, DEP_NONE, 0 },
	{ "-E -flto a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -flto -MM a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	/* dependency forms (D1-D5) */
	{ "-c -MD a.c", H, 'c', "a.c", NULL, DEP_DRIVER, 1 },
	{ "-c -MMD -MF x.d -MT t a.c", H, 'c', "a.c", NULL, DEP_DRIVER, 1 },
	{ "-c -Wp,-MD,dep,-MT,target a.c", H, 'c', "a.c", NULL, DEP_WP, 1 },
	{ "-c -Wp,-MD,a.d -MD a.c", P, 0, "a.c", NULL, DEP_DRIVER, 1 },
	/* several inputs; -o with several inputs is gcc's error to give */
	{ "-c a.c b.c", H, 'c', "a.c b.c", NULL, DEP_NONE, 1 },
	{ "-c a.c b.c -o x.o", P, 0, "a.c b.c", "x.o", DEP_NONE, 1 },
	{ "-c a.c b.S", P, 0, "a.c b.S", NULL, DEP_NONE, 1 },
	/* last -o wins; -o - is stdout */
	{ "-c -o a.o -o b.o a.c", H, 'c', "a.c", "b.o", DEP_NONE, 1 },
	{ "-c -o - a.c", P, 0, "a.c", "-", DEP_NONE, 1 },
	/* missing option argument, no input, unreadable @file left literal */
	{ "-c a.c -o", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c", P, 0, "", NULL, DEP_NONE, 0 },
	{ "-c @missing.rsp a.c", P, 0, "@missing.rsp a.c", NULL, DEP_NONE, 1 },
	/* -Wa,-march= is not the listing option (ccache #1162); still handled */
	{ "-c -Wa,-march=generic64 -Wa,-adhln a.c", H, 'c', "a.c", NULL, DEP_NONE, 1 },
	{ "-c -Wl,-z,now a.c", H, 'c', "a.c", NULL, DEP_NONE, 1 },
	{ "-c -dumpdir x/ a.c", P, 0, "a.c", NULL, DEP_NONE, 1 },
	{ "-c -x c++ a.cc", P, 0, "a.cc", NULL, DEP_NONE, 0 },
	/* Intel -xHost is a code path, not a language */
	{ "-c -xHost -xCORE-AVX2 a.c", H, 'c', "a.c", NULL, DEP_NONE, 1 },
	/* a missing input is the backend's to report */
	{ "-c nonexistent.c", H, 'c', "nonexistent.c", NULL, DEP_NONE, 1 },
	{ "-c a.h", P, 0, "a.h", NULL, DEP_NONE, 1 },
};

static void split(struct strvec *sv, const char *s)
{
	char *copy = xstrdup(s), *save = NULL;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		strvec_push(sv, !strcmp(w, "~") ? "" : w);
	free(copy);
}

static void test_classify_table(void **state)
{
	(void)state;
	unsetenv("DEPENDENCIES_OUTPUT");
	unsetenv("SUNPRO_DEPENDENCIES");
	for (size_t r = 0; r < sizeof(rows) / sizeof(*rows); r++) {
		const struct row *row = &rows[r];
		struct strvec args = STRVEC_INIT, want = STRVEC_INIT;
		struct ccd_cmd cmd;

		split(&args, row->argv);
		split(&want, row->inputs);
		classify(&cmd, (int)args.nr, args.v);
		print_message("%s\n", row->argv);
		assert_int_equal(cmd.mode, row->mode);
		if (row->mode == MODE_HANDLE)
			assert_int_equal(cmd.action, row->action);
		assert_int_equal(cmd.nr_inputs, want.nr);
		for (size_t i = 0; i < want.nr; i++)
			assert_string_equal(cmd.inputs[i].path, want.v[i]);
		if (row->output)
			assert_string_equal(cmd.output, row->output);
		else
			assert_null(cmd.output);
		assert_int_equal(cmd.deps, row->deps);
		assert_int_equal(cmd.preprocesses, row->preprocesses);
		if (row->mode == MODE_PASS)
			assert_non_null(cmd.why);
		ccd_cmd_release(&cmd);
		strvec_clear(&args);
		strvec_clear(&want);
	}
}

static void test_classify_env(void **state)
{
	char *argv[] = { "-c", "a.c", NULL };
	struct ccd_cmd cmd;

	(void)state;
	setenv("DEPENDENCIES_OUTPUT", "x.d", 1);
	classify(&cmd, 2, argv);
	assert_int_equal(cmd.mode, MODE_PASS);
	ccd_cmd_release(&cmd);
	unsetenv("DEPENDENCIES_OUTPUT");
	classify(&cmd, 2, argv);
	assert_int_equal(cmd.mode, MODE_HANDLE);
	ccd_cmd_release(&cmd);
}

static void test_debug_and_bits(void **state)
{
	static const struct {
		const char *argv;
		int level, version, bits, split;
	} t[] = {
		{ "-c a.c", 0, 0, 64, 0 },
		{ "-c -g a.c", 2, 0, 64, 0 },
		{ "-c -g1 -g a.c", 1, 0, 64, 0 },
		{ "-c -g3 -g0 a.c", 0, 0, 64, 0 },
		{ "-c -g0 -gdwarf-4 a.c", 2, 4, 64, 0 },
		{ "-c -ggdb3 a.c", 3, 0, 64, 0 },
		{ "-c -m32 -m16 a.c", 0, 0, 16, 0 },
		{ "-c -m32 -m64 a.c", 0, 0, 64, 0 },
		{ "-c -mx32 a.c", 0, 0, -32, 0 },
		{ "-c -gsplit-dwarf -gno-split-dwarf -gsplit-dwarf a.c", 0, 0, 64, 1 },
		{ "-c -gz -gcolumn-info a.c", 0, 0, 64, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct strvec args = STRVEC_INIT;
		struct ccd_cmd cmd;

		split(&args, t[i].argv);
		classify(&cmd, (int)args.nr, args.v);
		print_message("%s\n", t[i].argv);
		assert_int_equal(cmd.debug_level, t[i].level);
		assert_int_equal(cmd.dwarf_version, t[i].version);
		assert_int_equal(cmd.bits, t[i].bits);
		assert_int_equal(cmd.split_dwarf, t[i].split);
		ccd_cmd_release(&cmd);
		strvec_clear(&args);
	}
}

static void test_names(void **state)
{
	char *s;
	struct ccd_cmd cmd;
	char *argv[] = { "-c", "dir/a.b.c", NULL };

	(void)state;
	s = strip_suffix("build/a.o"); assert_string_equal(s, "build/a"); free(s);
	s = strip_suffix("build.d/a"); assert_string_equal(s, "build.d/a"); free(s);
	s = strip_suffix(".hidden"); assert_string_equal(s, ".hidden"); free(s);
	classify(&cmd, 2, argv);
	s = default_output(&cmd, &cmd.inputs[0]);
	assert_string_equal(s, "a.b.o");	/* in cwd, last suffix replaced */
	free(s);
	s = dwo_name(&cmd, &cmd.inputs[0]);
	assert_string_equal(s, "a.b.dwo");
	free(s);
	ccd_cmd_release(&cmd);
}

static void join(struct strbuf *sb, struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++)
		strbuf_addf(sb, "%s[%s]", i ? " " : "", sv->v[i]);
}

static void test_respfile_split(void **state)
{
	static const char text[] = "  -DA=1\t'-DB=two words' \"-DC=\\\"q\\\"\"\n"
				   "back\\ slash '' x\"y\"z\n";
	struct strvec sv = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	respfile_split(&sv, text, sizeof(text) - 1);
	join(&sb, &sv);
	assert_string_equal(sb.buf, "[-DA=1] [-DB=two words] [-DC=\"q\"] [back slash] [] [xyz]");
	strvec_clear(&sv);
	strbuf_release(&sb);
}

static void test_respfile_literal(void **state)
{
	char *argv[] = { "-c", "@/nonexistent/x.rsp", "@/", NULL };
	struct strvec sv = STRVEC_INIT;

	(void)state;
	assert_int_equal(respfile_expand(&sv, 3, argv), 0);
	assert_int_equal(sv.nr, 3);
	assert_string_equal(sv.v[1], "@/nonexistent/x.rsp");
	assert_string_equal(sv.v[2], "@/");
	strvec_clear(&sv);
}

static const char *xlat(const char *profile, const char *args)
{
	static struct strbuf sb = STRBUF_INIT;
	struct strvec in = STRVEC_INIT, out = STRVEC_INIT;

	struct ccd_cmd cmd;

	split(&in, args);
	classify(&cmd, (int)in.nr, in.v);
	profile_translate(profile_by_name(profile), &out, &cmd);
	ccd_cmd_release(&cmd);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "");
	join(&sb, &out);
	strvec_clear(&in);
	strvec_clear(&out);
	return sb.buf;
}

static void test_profiles(void **state)
{
	(void)state;
	assert_string_equal(family_from_name("/usr/bin/gcc"), "gcc");
	assert_string_equal(family_from_name("x86_64-linux-gnu-gcc-12"), "gcc");
	assert_string_equal(family_from_name("clang-14"), "clang");
	assert_string_equal(family_from_name("/opt/intel/bin/icc"), "icc");
	assert_string_equal(family_from_name("icx"), "icx");
	assert_string_equal(family_from_name("cc"), "gcc");
	assert_string_equal(family_from_name("/usr/bin/pcc"), "pcc");
	assert_string_equal(family_from_name("/opt/x/bin/mycc"), "generic");
	/* gcc and clang: nothing is ever translated */
	assert_string_equal(xlat("gcc", "-Wall -fno-omit-frame-pointer -mno-sse"),
			    "[-Wall] [-fno-omit-frame-pointer] [-mno-sse]");
	assert_string_equal(xlat("clang", "-Wall -fconserve-stack"), "[-Wall] [-fconserve-stack]");
	/* icc: the rows of its table */
	assert_string_equal(xlat("icc", "-Wall -fno-omit-frame-pointer -march=i686 -march=x86-64 -mtune=generic"),
			    "[-w] [-fp] [-march=pentiumpro] [-march=core2]");
	assert_string_equal(xlat("icc", "-mno-sse -mno-sse2 -mno-avx -mno-mmx -mno-3dnow -mno-80387 -mno-fp-ret-in-387"),
			    "[-no-vec] [-no-vec] [-no-vec]");
	assert_string_equal(xlat("icc", "-mpreferred-stack-boundary=3 -mskip-rax-setup -falign-jumps=1 "
				 "-falign-loops=1 -fconserve-stack -fno-delete-null-pointer-checks "
				 "-fno-allow-store-data-races -fno-var-tracking-assignments "
				 "-fdiagnostics-color=always -Wno-pointer-sign -O2"), "[-O2]");
	/* option values are data: -MT -Wall keeps its target */
	assert_string_equal(xlat("icc", "-MT -Wall -o -mno-sse -Wall"), "[-MT] [-Wall] [-o] [-mno-sse] [-w]");
	/* icx */
	assert_string_equal(xlat("icx", "-fconserve-stack -fno-allow-store-data-races -fno-var-tracking-assignments "
				 "-falign-jumps=1 -mpreferred-stack-boundary=3 -fdiagnostics-color -Wall"),
			    "[-fcolor-diagnostics] [-Wall]");
}

static const char *as_line(const char *profile, const char *args)
{
	static struct strbuf sb = STRBUF_INIT;
	struct strvec in = STRVEC_INIT, out = STRVEC_INIT;
	struct ccd_cmd cmd;

	split(&in, args);
	classify(&cmd, (int)in.nr, in.v);
	assemble_args(&out, profile_by_name(profile), &cmd, NULL, "o.o", "t.s");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "");
	join(&sb, &out);
	ccd_cmd_release(&cmd);
	strvec_clear(&in);
	strvec_clear(&out);
	return sb.buf;
}

/* Each word as ROLE:DEST, ROLE one of F V I O A, DEST letters b(ackend) c(pp) a(s) d(eps). */
static const char *roles(const char *args)
{
	static struct strbuf sb = STRBUF_INIT;
	struct strvec in = STRVEC_INIT;
	struct ccd_cmd cmd;

	split(&in, args);
	classify(&cmd, (int)in.nr, in.v);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "");
	assert_int_equal(cmd.nr_args, in.nr);
	for (size_t i = 0; i < cmd.nr_args; i++) {
		const struct ccd_arg *a = &cmd.args[i];

		assert_ptr_equal(a->word, in.v[i]);
		strbuf_addf(&sb, "%s%c:%s%s%s%s", i ? " " : "", "FVIOA"[a->role],
			    a->dest & TO_BACKEND ? "b" : "", a->dest & TO_CPP ? "c" : "",
			    a->dest & TO_AS ? "a" : "", a->dest & TO_DEPS ? "d" : "");
	}
	ccd_cmd_release(&cmd);
	strvec_clear(&in);
	return sb.buf;
}

static void test_args(void **state)
{
	(void)state;
	assert_string_equal(roles("-c -o out.o a.c"), "A:b O: V: I:b");
	assert_string_equal(roles("-oout.o -S a.c -O2"), "O: A:b I:b F:b");
	assert_string_equal(roles("-Iinc -I x -DX -D Y -include h.h -isystem s"),
			    "F:bca F:bca V:bc F:bc F:bc V:bc F:bc V:bc F:bc V:bc");
	assert_string_equal(roles("-MD -MF d.d -MQ t -MP -Wp,-MMD,x.d -Wp,-DZ"),
			    "F:bd F:bd V:bd F:bd V:bd F:bd F:bcd F:bc");
	assert_string_equal(roles("-Wa,--noexecstack -Xassembler -a -Xlinker -a -x c -"),
			    "F:ba F:ba V:b F:b V:b F:b V:b I:b");
	/* an option's value is never an input or an option, even "-o" */
	assert_string_equal(roles("-MT -o -c a.c"), "F:bd V:bd A:b I:b");
}

static void test_option_lookup(void **state)
{
	static const struct {
		const char *arg, *row;
	} t[] = {
		{ "-o", "-o" }, { "-ofile", "-o" }, { "-I", "-I" }, { "-Idir", "-I" },
		{ "-include", "-include" }, { "-includex.h", "-include" },
		{ "-iwithprefixbefore", "-iwithprefixbefore" },
		{ "-iwithprefixbeforedir", "-iwithprefixbefore" },
		{ "-iwithprefixdir", "-iwithprefix" }, { "-fdump-tree-all", "-fdump-" },
		{ "--param", "--param" }, { "--print-file-name=x", "--print-" },
		{ "-print-prog-name=as", "-print-" }, { "-###", "-###" },
		{ "-MF", "-MF" }, { "-MFd.d", "-MF" }, { "-M", "-M" }, { "-MM", "-MM" },
		{ "-flto=auto", "-flto" }, { "-Xassembler", "-Xassembler" },
		{ "-O2", NULL }, { "-Wall", NULL }, { "-MD", NULL }, { "-", NULL }, { "x.c", NULL },
		{ "-\xff", NULL }, { "--paramx", NULL }, { "-Xassemblerx", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		const struct gcc_option *o = option_lookup(t[i].arg);

		print_message("%s\n", t[i].arg);
		if (t[i].row)
			assert_string_equal(o ? o->name : "(none)", t[i].row);
		else
			assert_null(o);
	}
}

static void test_assemble(void **state)
{
	(void)state;
	assert_string_equal(as_line("gcc", "-c a.c"), "[--64] [-o] [o.o] [t.s]");
	assert_string_equal(as_line("gcc", "-c -w -Iinc -I x -g -gz -m16 -Wa,a,b -Xassembler c,d a.c"),
			    "[-W] [-I] [inc] [-I] [x] [--gdwarf-5] [--compress-debug-sections=zlib] "
			    "[--32] [a] [b] [c,d] [-o] [o.o] [t.s]");
	assert_string_equal(as_line("gcc", "-c -include -Ifoo a.c"), "[--64] [-o] [o.o] [t.s]");
	assert_string_equal(as_line("gcc", "-c -gdwarf-2 -msse2avx a.c"),
			    "[--gdwarf2] [--64] [-msse2avx] [-o] [o.o] [t.s]");
	assert_string_equal(as_line("clang", "-c -w -g -gz -Iinc -m32 -Wa,-W a.c"),
			    "[--compress-debug-sections=zlib] [--32] [-I] [inc] [-W] [-o] [o.o] [t.s]");
	assert_string_equal(as_line("icc", "-c -m32 a.c"), "[--32] [-o] [o.o] [t.s]");
}

/* The as line for target name with the driver's defaults (tab-separated). */
static const char *tas_line(const char *profile, const char *target, const char *defaults,
			    const char *args)
{
	static struct strbuf sb = STRBUF_INIT;
	struct strvec in = STRVEC_INIT, out = STRVEC_INIT;
	struct as_target tg = { target_named(target), defaults, NULL };
	struct ccd_cmd cmd;

	assert_non_null(tg.target);
	split(&in, args);
	classify(&cmd, (int)in.nr, in.v);
	strbuf_reset(&sb);
	if (assemble_args(&out, profile_by_name(profile), &cmd, &tg, "o.o", "t.s"))
		strbuf_addstr(&sb, "ASK");
	else
		join(&sb, &out);
	ccd_cmd_release(&cmd);
	strvec_clear(&in);
	strvec_clear(&out);
	return sb.buf;
}

static void test_targets(void **state)
{
	static const struct {
		const char *name, *want;
	} names[] = {
		{ "x86_64-linux-gnu", "x86_64" }, { "i686-pc-linux-gnu", "i386" },
		{ "aarch64-unknown-linux-gnu", "aarch64" }, { "arm64", "aarch64" },
		{ "armv7-unknown-linux-gnueabihf", "arm" }, { "arm-linux-gnueabihf", "arm" },
		{ "riscv64-linux-gnu", "riscv64" }, { "powerpc64le-linux-gnu", "ppc64le" },
		{ "powerpc64-linux-gnu", "ppc64" }, { "s390x-linux-gnu", "s390x" },
		{ "ppc64le", "ppc64le" }, { "armeb-linux-gnueabi", NULL }, { "vax-dec-ultrix", NULL },
		{ "mips-linux-gnu", "mips" }, { "mipsel-linux-gnu", "mipsel" },
		{ "mips64el-linux-gnuabi64", "mips64el" }, { "mips64-linux-gnuabi64", "mips64" },
		{ "mips64el-linux-gnuabin32", NULL }, { "mipsisa32r6el-linux-gnu", NULL },
		{ "arm-linux-gnueabi", "arm" }, { "m68k-linux-gnu", "m68k" },
		{ "powerpc-linux-gnu", "ppc" }, { "ppc", "ppc" }, { "powerpcle-linux-gnu", NULL },
		{ "m68k-unknown-linux-gnu", "m68k" }, { "m68000-elf", NULL }, { "", NULL },
	};
	static const struct {
		const char *dm, *want;
	} macros[] = {
		{ "#define __GNUC__ 12\n#define __x86_64__ 1\n", "x86_64" },
		{ "#define __i386__ 1\n", "i386" },
		{ "#define __aarch64__ 1\n", "aarch64" },
		{ "#define __aarch64__ 1\n#define __AARCH64EB__ 1\n", NULL },
		{ "#define __arm__ 1\n#define __ARM_ARCH 7\n", "arm" },
		{ "#define __riscv 1\n#define __riscv_xlen 64\n", "riscv64" },
		{ "#define __riscv 1\n#define __riscv_xlen 32\n", "riscv32" },
		{ "#define __riscv_xlen 640\n", NULL },
		{ "#define __powerpc64__ 1\n#define __LITTLE_ENDIAN__ 1\n", "ppc64le" },
		{ "#define __powerpc64__ 1\n#define __BIG_ENDIAN__ 1\n", "ppc64" },
		{ "#define __s390x__ 1\n", "s390x" },
		{ "#define __x86_64_foo__ 1\n", NULL },
		{ "#define __mips__ 1\n", NULL },
		/* o32 for a 64-bit ISA defines __mips64: _MIPS_SIM decides. */
		{ "#define __mips__ 1\n#define __mips64 1\n#define _MIPS_SIM _ABIO32\n"
		  "#define __MIPSEL__ 1\n", "mipsel" },
		{ "#define __mips__ 1\n#define _MIPS_SIM _ABIO32\n#define __MIPSEB__ 1\n", "mips" },
		{ "#define __mips__ 1\n#define _MIPS_SIM _ABI64\n#define __MIPSEL__ 1\n", "mips64el" },
		{ "#define __MIPSEB__ 1\n#define _MIPS_SIM _ABI64\n#define __mips__ 1\n", "mips64" },
		{ "#define __mips__ 1\n#define _MIPS_SIM _ABIN32\n#define __MIPSEL__ 1\n", NULL },
		{ "#define __mips__ 1\n#define _MIPS_SIM _ABIO32\n", NULL },
		/* ppc32: __powerpc__ without __powerpc64__; little-endian ppc32 has no row. */
		{ "#define __powerpc__ 1\n#define __BIG_ENDIAN__ 1\n", "ppc" },
		{ "#define __powerpc__ 1\n#define __powerpc64__ 1\n#define __BIG_ENDIAN__ 1\n", "ppc64" },
		{ "#define __powerpc__ 1\n#define __LITTLE_ENDIAN__ 1\n", NULL },
		{ "#define __m68k__ 1\n#define __mcoldfire__ 1\n", "m68k" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		const struct target *t = target_named(names[i].name);

		print_message("%s\n", names[i].name);
		assert_string_equal(t ? t->name : "(none)", names[i].want ? names[i].want : "(none)");
	}
	for (size_t i = 0; i < sizeof(macros) / sizeof(*macros); i++) {
		struct strbuf how = STRBUF_INIT;
		const struct target *t = target_from_macros(macros[i].dm, &how);

		print_message("%s", macros[i].dm);
		assert_string_equal(t ? t->name : "(none)", macros[i].want ? macros[i].want : "(none)");
		assert_true(how.len > 0);
		strbuf_release(&how);
	}
	assert_int_equal(target_named("arm")->type_prefix, '%');
	assert_string_equal(target_named("arm")->comment, "@");
	assert_string_equal(target_named("aarch64")->comment, "//");
	assert_int_equal(target_named("mips64")->big_endian, 1);
	assert_int_equal(target_named("mips64el")->big_endian, 0);
	assert_int_equal(target_named("mipsel")->bits, 32);
	assert_int_equal(target_named("mipsel")->type_prefix, '@');
	assert_int_equal(target_named("ppc")->bits, 32);
	assert_int_equal(target_named("ppc")->big_endian, 1);
	assert_string_equal(target_named("m68k")->comment, "|");
	assert_int_equal(target_named("m68k")->type_prefix, '@');
	assert_int_equal(target_named("m68k")->big_endian, 1);
}

/* mips' small-data limit for a command line. */
static unsigned long long small_data(const char *target, const char *args)
{
	struct strvec in = STRVEC_INIT;
	struct ccd_cmd cmd;
	unsigned long long n;

	split(&in, args);
	classify(&cmd, (int)in.nr, in.v);
	n = asspec_small_data(target_named(target), AS_GCC, &cmd);
	ccd_cmd_release(&cmd);
	strvec_clear(&in);
	return n;
}

static void test_mips(void **state)
{
	const char *el = "-EL\t-mips32r2\t-O1\t-mabi=32\t-march=mips32r2\t-mfpxx\t-KPIC";
	const char *be64 = "-EB\t-mips64r2\t-O1\t-mabi=64\t-march=mips64r2\t-KPIC";

	(void)state;
	/* The defaults, -O2 for any -O but -O0, -g as itself (no --gdwarf). */
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -O2 -g -gdwarf-4 a.c"),
			    "[-EL] [-mips32r2] [-O2] [-g] [-mabi=32] [-march=mips32r2] [-mfpxx] "
			    "[-KPIC] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -O2 -O0 -ggdb3 a.c"),
			    "[-EL] [-mips32r2] [-O1] [-g3] [-mabi=32] [-march=mips32r2] [-mfpxx] "
			    "[-KPIC] [-o] [o.o] [t.s]");
	/* Kbuild's: -G 0 first, -EB over the default, -mno-shared for -fno-pic, no -KPIC. */
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -fno-PIE -mabi=32 -G 0 -mno-abicalls "
				     "-fno-pic -msoft-float -EB -march=mips32 -Wa,--trap -O2 a.c"),
			    "[-G] [0] [-EB] [-mips32] [-O2] [-mabi=32] [-march=mips32] [-mno-shared] "
			    "[-msoft-float] [--trap] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "mips64", be64, "-c -mabi=64 -G0 -mno-abicalls -fno-pic "
				     "-msym32 -EL -march=mips64r2 a.c"),
			    "[-G] [0] [-EL] [-mips64r2] [-O1] [-mabi=64] [-march=mips64r2] "
			    "[-mno-shared] [-msym32] [-o] [o.o] [t.s]");
	/* Another ABI, a CPU name, -mips16, non-PIC abicalls, repeats: the driver's. */
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -mabi=64 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -march=24kc a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -mips16 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -mno-mips16 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -mdspr2 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -mfix-24k a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mips64", be64, "-c -fno-pic a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -g -g2 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "mipsel", el, "-c -fpic -fno-pic a.c"), "ASK");
	/* Small data: -G N without abicalls only. */
	assert_int_equal(small_data("mipsel", "-c -G 8 -mno-abicalls -fno-pic a.c"), 8);
	assert_int_equal(small_data("mips64", "-c -G8 -mno-abicalls -mabicalls a.c"), 0);
	assert_int_equal(small_data("mipsel", "-c -G 8 a.c"), 0);
	assert_int_equal(small_data("mipsel", "-c -mno-abicalls a.c"), 0);
	assert_int_equal(small_data("aarch64", "-c -G 8 -mno-abicalls a.c"), 0);
	/* 32-bit ppc: -G 8 unless said otherwise; -msdata=none, 64-bit code: none. */
	assert_int_equal(small_data("ppc", "-c a.c"), 8);
	assert_int_equal(small_data("ppc", "-c -G 4 a.c"), 4);
	assert_int_equal(small_data("ppc", "-c -G0 a.c"), 0);
	assert_int_equal(small_data("ppc", "-c -msdata=none a.c"), 0);
	assert_int_equal(small_data("ppc", "-c -mno-sdata -msdata=data a.c"), 8);
	assert_int_equal(small_data("ppc", "-c -m64 a.c"), 0);
	assert_int_equal(small_data("ppc64", "-c a.c"), 0);
	assert_int_equal(small_data("ppc64", "-c -m32 -G 16 a.c"), 16);
	assert_int_equal(small_data("ppc64le", "-c a.c"), 0);
	assert_int_equal(small_data("m68k", "-c -G 8 a.c"), 0);
}

static void test_assemble_targets(void **state)
{
	const char *a64 = "-EL\t-mabi=lp64";
	const char *arm = "-march=armv7-a+fp\t-mfloat-abi=hard\t-meabi=5";
	const char *rv = "--traditional-format\t-fpic\t-march=rv64imafdc_zicsr_zifencei\t"
			 "-march=rv64imafdc_zicsr_zifencei\t-mabi=lp64d\t-misa-spec=20191213";
	const char *ppc = "-a64\t-mpower8\t-many\t-mlittle";
	const char *ppc64 = "-a64\t-mpower4\t-many\t-mbig";
	const char *ppc32 = "-a32\t-K\tPIC\t-mppc\t-many\t-mbig";
	const char *m68k = "-mcpu=68020";
	const char *s390 = "-m64\t-mzarch\t-march=z196";

	(void)state;
	/* x86 as ever; an i386 compiler's default is --32. */
	assert_string_equal(tas_line("gcc", "x86_64", NULL, "-c a.c"), "[--64] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "i386", NULL, "-c a.c"), "[--32] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "i386", NULL, "-c -m64 a.c"), "[--64] [-o] [o.o] [t.s]");
	/* aarch64: the defaults, an explicit endianness and -march; -mcpu= is the driver's. */
	assert_string_equal(tas_line("gcc", "aarch64", a64, "-c -g a.c"),
			    "[--gdwarf-5] [-EL] [-mabi=lp64] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "aarch64", a64, "-c -mbig-endian -march=armv8.2-a a.c"),
			    "[-EB] [-march=armv8.2-a] [-mabi=lp64] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "aarch64", a64, "-c -mcpu=cortex-a57 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "aarch64", a64, "-c -march=a -march=b a.c"), "ASK");
	/* arm: no --gdwarf; Kbuild's soft-float flags take +fp off; hard float with -mfpu is asked. */
	assert_string_equal(tas_line("gcc", "arm", arm, "-c -g -Wa,-x a.c"),
			    "[-march=armv7-a+fp] [-mfloat-abi=hard] [-meabi=5] [-x] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "arm", arm, "-c -mlittle-endian -mabi=aapcs-linux "
				     "-mfpu=vfp -marm -march=armv7-a -msoft-float a.c"),
			    "[-EL] [-march=armv7-a] [-mfloat-abi=soft] [-mfpu=vfp] [-meabi=5] "
			    "[-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "arm", arm, "-c -msoft-float -mabi=apcs-gnu a.c"),
			    "[-march=armv7-a] [-mfloat-abi=soft] [-meabi=gnu] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "arm", arm, "-c -march=armv4 -msoft-float a.c"),
			    "[-march=armv4] [-mfloat-abi=soft] [-meabi=5] [--fix-v4bx] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "arm", arm, "-c -mfpu=neon a.c"), "ASK");
	/* riscv: -fno-PIE drops -fpic; -march is repeated canonicalised; -mno-relax passes. */
	assert_string_equal(tas_line("gcc", "riscv64", rv, "-c -march=rv64imac_zicsr_zifencei "
				     "-mabi=lp64 -mcmodel=medany -mno-relax -fno-PIE a.c"),
			    "[--traditional-format] [-march=rv64imac_zicsr_zifencei] "
			    "[-march=rv64imac_zicsr_zifencei] [-mabi=lp64] [-mno-relax] "
			    "[-misa-spec=20191213] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "riscv64", rv, "-c -march=rv64imafdc a.c"),
			    "[--traditional-format] [-fpic] [-march=rv64imafdc] [-march=rv64imafdc_zicsr] "
			    "[-mabi=lp64d] [-misa-spec=20191213] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "riscv64", rv, "-c -march=rv64gc a.c"), "ASK");
	/* ppc64: -mcpu= rows, the default cpu, endianness. */
	assert_string_equal(tas_line("gcc", "ppc64le", ppc, "-c -m64 -mcpu=power9 -mno-vsx a.c"),
			    "[-a64] [-mpower9] [-many] [-mlittle] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc64le", ppc, "-c -mvsx -mbig-endian a.c"),
			    "[-a64] [-mpower7] [-mvsx] [-maltivec] [-many] [-mbig] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc64le", ppc, "-c -mcpu=native a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "ppc64le", ppc, "-c -mcpu=power9 -mcpu=power8 a.c"), "ASK");
	/* The whole -mcpu= table: rows that add -maltivec unless -mvsx or -maltivec. */
	assert_string_equal(tas_line("gcc", "ppc64", ppc64, "-c -mcpu=970 a.c"),
			    "[-a64] [-mpower4] [-maltivec] [-many] [-mbig] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc64", ppc64, "-c -mcpu=970 -mvsx a.c"),
			    "[-a64] [-mpower4] [-mvsx] [-maltivec] [-many] [-mbig] [-o] [o.o] [t.s]");
	/* Kbuild's ppc64 (big-endian, ELFv1): -mbig-endian twice is no repeat to ask about. */
	assert_string_equal(tas_line("gcc", "ppc64", ppc64, "-c -mbig-endian -m64 -mabi=elfv1 "
				     "-mcpu=power4 -Wa,-many -mbig-endian a.c"),
			    "[-a64] [-mpower4] [-many] [-mbig] [-many] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc64", ppc64, "-c -mbig -mlittle-endian a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "ppc64", ppc64, "-c -m32 a.c"), "ASK");
	/* 32-bit ppc: asm_spec32's -K PIC unless -fno-pie/-fno-pic, -memb; -m64 is asked. */
	assert_string_equal(tas_line("gcc", "ppc", ppc32, "-c a.c"),
			    "[-a32] [-K] [PIC] [-mppc] [-many] [-mbig] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc", ppc32, "-c -mbig-endian -m32 -mcpu=e500mc "
				     "-mno-altivec -fno-PIE -mbig-endian a.c"),
			    "[-a32] [-me500mc] [-many] [-mbig] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc", ppc32, "-c -mrelocatable -msdata=eabi -mcpu=G4 "
				     "-fno-pic a.c"),
			    "[-a32] [-mrelocatable] [-memb] [-mppc] [-maltivec] [-many] [-mbig] "
			    "[-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "ppc", ppc32, "-c -m64 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "ppc", ppc32, "-c -fpic -fno-pic a.c"), "ASK");
	/* m68k: aliases as -mcpu=, the configured cpu otherwise, --pcrel; repeats asked. */
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -g a.c"),
			    "[-mcpu=68020] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -m68040 -msoft-float a.c"),
			    "[-mno-float] [-mcpu=68040] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -mcfv4e -m68851 -fpic a.c"),
			    "[-m68851] [-mcpu=547x] [--pcrel] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -m68020-60 -msep-data a.c"),
			    "[-m68040] [--pcrel] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -march=isac -mpcrel a.c"),
			    "[-march=isac] [--pcrel] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -m68040 -mcpu=68060 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -m68020-40 -march=68020 a.c"), "ASK");
	assert_string_equal(tas_line("gcc", "m68k", m68k, "-c -msoft-float -mhard-float a.c"), "ASK");
	/* s390x: -m31 brings -mesa; archN names. */
	assert_string_equal(tas_line("gcc", "s390x", s390, "-c -m31 -march=arch11 a.c"),
			    "[-m31] [-mesa] [-march=z13] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("gcc", "s390x", s390, "-c a.c"),
			    "[-m64] [-mzarch] [-march=z196] [-o] [o.o] [t.s]");
	/* clang: aarch64's -EL/-EB between -gz and -I; other targets are asked. */
	assert_string_equal(tas_line("clang", "aarch64", "", "-c -gz -Iinc -mbig-endian a.c"),
			    "[--compress-debug-sections=zlib] [-EB] [-I] [inc] [-o] [o.o] [t.s]");
	assert_string_equal(tas_line("clang", "riscv64", "", "-c a.c"), "ASK");
	assert_string_equal(tas_line("pcc", "aarch64", "", "-c -Wa,-x a.c"), "[-x] [-o] [o.o] [t.s]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_table),
		cmocka_unit_test(test_mips),
		cmocka_unit_test(test_classify_env),
		cmocka_unit_test(test_debug_and_bits),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_respfile_split),
		cmocka_unit_test(test_respfile_literal),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_assemble),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_assemble_targets),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_option_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
