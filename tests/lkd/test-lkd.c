// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lkd: ld command-line analysis, check lists, archives,
 * --lkd-order's file and linker scripts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "args.h"
#include "checks/altlayout.h"
#include "checks/check.h"
#include "ldscript.h"
#include "lkd-elf.h"
#include "order.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void parse(struct ld_cmdline *cl, const char *first, ...)
{
	struct strvec v = STRVEC_INIT;
	va_list ap;

	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		strvec_push(&v, s);
	va_end(ap);
	assert_int_equal(ld_parse(cl, (int)v.nr, strvec_argv(&v)), 0);
	strvec_clear(&v);
}

static void test_inputs_and_output(void **state)
{
	struct ld_cmdline cl = LD_CMDLINE_INIT;

	(void)state;
	/* -T, -m, -z, -Map, --defsym take arguments that are not inputs. */
	parse(&cl, "-m", "elf_x86_64", "-z", "noexecstack", "-T", "x.lds", "-Map", "m.map",
	      "--defsym", "a=1", "-r", "a.o", "--whole-archive", "b.a", "--no-whole-archive",
	      "-o", "out.o", "--start-group", "c.a", "--end-group", NULL);
	assert_int_equal(cl.inputs.nr, 3);
	assert_string_equal(cl.inputs.v[0], "a.o");
	assert_string_equal(cl.inputs.v[1], "b.a");
	assert_string_equal(cl.inputs.v[2], "c.a");
	assert_string_equal(cl.output, "out.o");
	assert_true(cl.relocatable);
	assert_false(cl.query);
	ld_cmdline_release(&cl);
}

static void test_attached_forms(void **state)
{
	struct ld_cmdline cl = LD_CMDLINE_INIT;

	(void)state;
	parse(&cl, "-ofoo.o", "-Tscript.lds", "-Ttext", "0x1000", "--output=bar.o",
	      "-melf_i386", "in.o", NULL);
	assert_string_equal(cl.output, "bar.o");
	assert_int_equal(cl.inputs.nr, 1);
	assert_string_equal(cl.inputs.v[0], "in.o");
	assert_false(cl.relocatable);
	ld_cmdline_release(&cl);

	/* "-omagic" is ld's --omagic, not "-o magic"; -dT takes a script. */
	parse(&cl, "-omagic", "-dT", "d.lds", "-dc", "-soname", "libx.so", "y.o", NULL);
	assert_string_equal(cl.output, "a.out");
	assert_true(cl.define_common);
	assert_int_equal(cl.inputs.nr, 1);
	assert_string_equal(cl.inputs.v[0], "y.o");
	ld_cmdline_release(&cl);

	/* Clustered short flags. */
	parse(&cl, "-rs", "z.o", NULL);
	assert_true(cl.relocatable);
	ld_cmdline_release(&cl);
}

static void test_queries(void **state)
{
	struct ld_cmdline cl = LD_CMDLINE_INIT;

	(void)state;
	parse(&cl, "--version", NULL);
	assert_true(cl.query);
	ld_cmdline_release(&cl);
	parse(&cl, "-v", NULL);
	assert_false(cl.query);
	assert_true(cl.verbose_version);
	assert_int_equal(cl.inputs.nr, 0);
	ld_cmdline_release(&cl);
	/* Files after -b binary are blobs, not objects. */
	parse(&cl, "-r", "-b", "binary", "blob.bin", "-b", "default", "o.o", NULL);
	assert_int_equal(cl.inputs.nr, 1);
	assert_string_equal(cl.inputs.v[0], "o.o");
	ld_cmdline_release(&cl);
}

static void test_missing_argument(void **state)
{
	struct ld_cmdline cl = LD_CMDLINE_INIT;
	char *argv[] = { "a.o", "-o", NULL };

	(void)state;
	assert_int_equal(ld_parse(&cl, 2, argv), -1);
	ld_cmdline_release(&cl);
}

static void test_response_files(void **state)
{
	char dir[] = "/tmp/lkd-unit.XXXXXX";
	struct strvec out = STRVEC_INIT;
	char path[64], inner[64], arg[80];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(inner, sizeof(inner), "%s/inner", dir);
	f = fopen(inner, "w");
	fputs("c.o\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/rsp", dir);
	f = fopen(path, "w");
	fprintf(f, "-o 'with space.o' \"dq arg\" back\\ slash\n@%s\n", inner);
	fclose(f);
	snprintf(arg, sizeof(arg), "@%s", path);
	{
		char *argv[] = { "a.o", arg, "@/nonexistent/rsp", NULL };

		assert_int_equal(expand_response_files(&out, 3, argv), 0);
	}
	assert_int_equal(out.nr, 7);
	assert_string_equal(out.v[0], "a.o");
	assert_string_equal(out.v[1], "-o");
	assert_string_equal(out.v[2], "with space.o");
	assert_string_equal(out.v[3], "dq arg");
	assert_string_equal(out.v[4], "back slash");
	assert_string_equal(out.v[5], "c.o");
	/* A missing file stays as it is, as in ld. */
	assert_string_equal(out.v[6], "@/nonexistent/rsp");
	strvec_clear(&out);
	unlink(inner);
	unlink(path);
	rmdir(dir);
}

static void test_scripts_named(void **state)
{
	struct ld_cmdline cl = LD_CMDLINE_INIT;
	static const char *const want[] = { "a.lds", "b.lds", "c.lds", "d.lds", "e.lds",
					    "f.lds", "g.lds", "h.lds" };
	static const char *const pick[] = { "-m", "elf_i386", "-pie", "-z", "relro", "-z",
					    "separate-code", "-N", "--no-omagic", "-shared" };

	(void)state;
	/* -Ttext and -Tbss set addresses; -dTh.lds is -d and -Th.lds, as ld reads it. */
	parse(&cl, "-T", "a.lds", "-Tb.lds", "--script=c.lds", "--script", "d.lds", "-dT",
	      "e.lds", "-script=f.lds", "--default-script=g.lds", "-Ttext", "0x1000",
	      "-Tbss=0x2000", "-dTh.lds", "-m", "elf_i386", "-pie", "-z", "relro",
	      "-zseparate-code", "-N", "--no-omagic", "-shared", "-o", "x", "x.o", NULL);
	assert_int_equal(cl.nr_scripts, 8);
	for (size_t i = 0; i < cl.nr_scripts; i++)
		assert_string_equal(cl.args.v[cl.scripts[i].arg] + cl.scripts[i].off, want[i]);
	assert_int_equal(cl.scripts[1].off, 2);
	assert_int_equal(cl.scripts[0].off, 0);
	assert_true(cl.define_common);
	assert_int_equal(cl.script_opts.nr, sizeof(pick) / sizeof(*pick));
	for (size_t i = 0; i < cl.script_opts.nr; i++)
		assert_string_equal(cl.script_opts.v[i], pick[i]);
	assert_int_equal(cl.inputs.nr, 1);
	ld_cmdline_release(&cl);
}

/* The script at the point where ldscript_text_start() inserts starts with rest. */
static void assert_inserts_before(const char *script, const char *rest)
{
	ssize_t at = ldscript_text_start(script, strlen(script));

	assert_true(at >= 0);
	assert_int_equal(strncmp(script + at, rest, strlen(rest)), 0);
}

static void test_ldscript_text(void **state)
{
	static const char kernel[] =
		"OUTPUT_FORMAT(\"elf64-x86-64\")\nPHDRS {\n text PT_LOAD FLAGS(5);\n}\n"
		"SECTIONS\n{\n . = (0xffffffff80000000 + ALIGN(0x1000000, 0x200000));\n"
		" .text : AT(ADDR(.text) - 0xffffffff80000000) {\n  _text = .;\n  _stext = .;\n"
		"  KEEP(*(.head.text))\n  . = ALIGN(8); *(.text.hot .text.hot.*) *(.text .text.fixup)\n"
		" } :text =0xcccc\n}\n";
	static const char builtin[] =
		"SECTIONS\n{\n  .init : { KEEP (*(SORT_NONE(.init))) }\n"
		"  .text           :\n  {\n    *(.text.unlikely .text.*_unlikely .text.unlikely.*)\n"
		"    *(.text .stub .text.* .gnu.linkonce.t.*)\n  }\n}\n";
	/* No .text output section: in comments, a phdr, an expression, another section. */
	static const char *const none[] = {
		"SECTIONS { /* .text : { *(.text) } */ .code : { *(.text) } }",
		"PHDRS { text PT_LOAD; } SECTIONS { .code : { *(.text) } :text }",
		"SECTIONS { x = SIZEOF(.text); .code : { *(.text) } > .text }",
		"SECTIONS { .text.x : { *(.text) } .texts : { } }",
		".text : { *(.text) }",
		"SECTIONS { .text = 4; }",
		"SECTIONS { /* unterminated .text : {",
		"",
	};

	(void)state;
	assert_inserts_before(kernel, " *(.text.hot .text.hot.*)");
	assert_inserts_before(builtin, "\n    *(.text.unlikely");
	/* One exact section (.text.boot) stays before; statements too. */
	assert_inserts_before("SECTIONS { .text : { PROVIDE(s = ADDR(.text)); KEEP(*(.text.boot)) "
			      "*(.text*) } }", " *(.text*)");
	assert_inserts_before("SECTIONS { .text 0x1000 (NOLOAD) : ALIGN(16) { FILL(0x90); "
			      "x = SIZEOF(.text); EXCLUDE_FILE(*crtend.o) *(.text) } }",
			      " EXCLUDE_FILE");
	assert_inserts_before("SECTIONS { .text : { *(.text.a) } }", " *(.text.a)");
	assert_inserts_before("SECTIONS { /* .text : { */ .data : {} .text:{} }", "}");
	/* A second SECTIONS command. */
	assert_inserts_before("SECTIONS { .data : { *(.data) } } SECTIONS { .text : { "
			      "*(.text) } }", " *(.text)");
	for (size_t i = 0; i < sizeof(none) / sizeof(*none); i++)
		assert_int_equal(ldscript_text_start(none[i], strlen(none[i])), -1);
}

static void test_ldscript_verbose(void **state)
{
	static const char out[] =
		"GNU ld (GNU Binutils for Debian) 2.40\n  Supported emulations:\n"
		"using internal linker script:\n"
		"==================================================\n"
		"/* Script for -z combreloc */\nSECTIONS\n{\n}\n"
		"==================================================\n";
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(ldscript_from_verbose(&sb, out, strlen(out)), 0);
	assert_string_equal(sb.buf, "/* Script for -z combreloc */\nSECTIONS\n{\n}\n");
	strbuf_reset(&sb);
	assert_int_equal(ldscript_from_verbose(&sb, out, strlen(out) - 52), -1);
	assert_int_equal(ldscript_from_verbose(&sb, "ld: no input files\n", 19), -1);
	strbuf_release(&sb);
}

static void order_file(const char *path, const void *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void test_order_read(void **state)
{
	static const char text[] = "# hottest first\n\nnorth\n  east\t\r\n#west\n \n"
				   "a b\nfoo.part.0\nlast";
	char dir[] = "/tmp/lkd-unit.XXXXXX", path[64];
	struct lkd_order ord = LKD_ORDER_INIT;
	struct strbuf big = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/order", dir);
	order_file(path, text, sizeof(text) - 1);
	assert_int_equal(order_read(&ord, path), 0);
	assert_int_equal(ord.names.nr, 5);
	assert_string_equal(ord.names.v[0], "north");
	assert_int_equal(ord.lines[0], 3);
	assert_string_equal(ord.names.v[1], "east");
	assert_string_equal(ord.names.v[2], "a b");
	assert_int_equal(ord.lines[2], 7);
	assert_string_equal(ord.names.v[3], "foo.part.0");
	assert_string_equal(ord.names.v[4], "last");
	assert_int_equal(ord.lines[4], 9);
	order_release(&ord);

	order_file(path, "a\nb\0c\n", 6);
	assert_int_equal(order_read(&ord, path), -1);
	order_release(&ord);
	strbuf_addstr(&big, "ok\n");
	for (int i = 0; i <= LKD_ORDER_LINE_MAX; i++)
		strbuf_addch(&big, 'x');
	order_file(path, big.buf, big.len - 1);
	assert_int_equal(order_read(&ord, path), 0);
	order_release(&ord);
	order_file(path, big.buf, big.len);
	assert_int_equal(order_read(&ord, path), -1);
	order_release(&ord);
	unlink(path);
	assert_int_equal(order_read(&ord, path), -1);
	order_release(&ord);
	strbuf_release(&big);
	rmdir(dir);
}

static void test_check_lists(void **state)
{
	lkd_check_mask m;

	(void)state;
	assert_int_equal(lkd_parse_checks("all", &m), 0);
	assert_int_equal(m, (1u << lkd_nr_checks) - 1);
	assert_int_equal(lkd_parse_checks("none", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(lkd_parse_checks("altinstr", &m), 0);
	assert_int_equal(m, 1u << 1);
	assert_int_equal(lkd_parse_checks("common,altinstr", &m), 0);
	assert_int_equal(m, 3);
	assert_int_equal(lkd_parse_checks("common,bogus", &m), -1);
	assert_true(altlayout_known("linux6"));
	assert_true(altlayout_known("linux26"));
	assert_false(altlayout_known("linux5"));
}

/* A minimal ELF64 header with no sections: enough for the archive walk. */
static void tiny_elf(unsigned char *b)
{
	memset(b, 0, 64);
	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = ELFCLASS64;
	b[EI_DATA] = ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	b[16] = ET_REL;
	b[18] = EM_X86_64;
	b[20] = EV_CURRENT;
	b[52] = 64;	/* e_ehsize */
}

static void ar_member(struct strbuf *sb, const char *name, const void *data, size_t len)
{
	strbuf_addf(sb, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", len);
	strbuf_add(sb, data, len);
	if (len & 1)
		strbuf_addch(sb, '\n');
}

struct seen {
	struct strvec names;
};

static int record_name(struct lkd_obj *obj, void *data)
{
	struct seen *s = data;

	strvec_push(&s->names, obj->name);
	return 0;
}

static void test_archive_walk(void **state)
{
	static const char longnames[] = "a-member-with-a-long-name.o/\n";
	struct strbuf ar = STRBUF_INIT;
	struct seen s = { STRVEC_INIT };
	unsigned char elf[64];

	(void)state;
	lkd_elf_init();
	tiny_elf(elf);
	strbuf_addstr(&ar, "!<arch>\n");
	ar_member(&ar, "/", "\0\0\0\0", 4);
	ar_member(&ar, "//", longnames, sizeof(longnames) - 1);
	ar_member(&ar, "short.o/", elf, sizeof(elf));
	ar_member(&ar, "/0", elf, sizeof(elf));
	assert_int_equal(lkd_for_each_in_memory("x.a", ar.buf, ar.len, NULL, 0, record_name,
						&s), 0);
	assert_int_equal(s.names.nr, 2);
	assert_string_equal(s.names.v[0], "x.a(short.o)");
	assert_string_equal(s.names.v[1], "x.a(a-member-with-a-long-name.o)");
	strvec_clear(&s.names);

	/* GNU ar's thin archives can leave a stray '/' after the offset; bfd ignores it. */
	memcpy(ar.buf + ar.len - 64 - 60, "/0             /", 16);
	assert_int_equal(lkd_for_each_in_memory("x.a", ar.buf, ar.len, NULL, 0, record_name,
						&s), 0);
	assert_string_equal(s.names.v[1], "x.a(a-member-with-a-long-name.o)");
	strvec_clear(&s.names);

	/* Truncated: the last member runs past the end. */
	assert_int_equal(lkd_for_each_in_memory("x.a", ar.buf, ar.len - 10, NULL, 0,
						record_name, &s), -1);
	strvec_clear(&s.names);
	/* A bad long-name reference. */
	memcpy(ar.buf + ar.len - 64 - 60, "/999            ", 16);
	assert_int_equal(lkd_for_each_in_memory("x.a", ar.buf, ar.len, NULL, 0, record_name,
						&s), -1);
	strvec_clear(&s.names);
	/* A thin archive needs a directory to find its members. */
	memcpy(ar.buf, "!<thin>\n", 8);
	assert_int_equal(lkd_for_each_in_memory("t.a", ar.buf, ar.len, NULL, 0, record_name,
						&s), -1);
	strvec_clear(&s.names);
	strbuf_release(&ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_and_output),
		cmocka_unit_test(test_attached_forms),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_missing_argument),
		cmocka_unit_test(test_response_files),
		cmocka_unit_test(test_scripts_named),
		cmocka_unit_test(test_ldscript_text),
		cmocka_unit_test(test_ldscript_verbose),
		cmocka_unit_test(test_order_read),
		cmocka_unit_test(test_check_lists),
		cmocka_unit_test(test_archive_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
