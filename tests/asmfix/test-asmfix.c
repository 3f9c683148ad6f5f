// SPDX-License-Identifier: GPL-2.0
/* Unit tests for asmfix: the parser, the section stack, and every pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asmfix.h"
#include "parse.h"
#include "section.h"
#include "strbuf.h"

static struct asm_lexer lx;

static int parse(const char *s, struct asm_stmt *st)
{
	return asmfix_parse_line(&lx, s, strlen(s), st, ASM_MAX_STMTS);
}

static void assert_str(struct asm_str s, const char *want)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%.*s", (int)s.len, s.p);
	assert_string_equal(buf, want);
}

static void test_parse_labels(void **state)
{
	struct asm_stmt st[ASM_MAX_STMTS];
	(void)state;

	assert_int_equal(parse("a: b: ..B1.1: 661: \"quoted name\": movl %eax, %ebx # c", st), 1);
	assert_int_equal(st[0].nlabels, 5);
	assert_str(st[0].labels[2], "..B1.1");
	assert_int_equal(asmfix_numeric_label(st[0].labels[3]), 661);
	assert_str(st[0].labels[4], "\"quoted name\"");
	assert_int_equal(st[0].kind, STMT_INSN);
	assert_str(st[0].name, "movl");
	assert_int_equal(st[0].nops, 2);
	assert_str(st[0].ops[1], "%ebx");

	assert_int_equal(parse("..B1.3:                         # Preds ..B1.2", st), 1);
	assert_int_equal(st[0].kind, STMT_NONE);
	assert_int_equal(parse("\tmovl %eax, %fs:(%ebx)", st), 1);
	assert_int_equal(st[0].nlabels, 0);
	assert_str(st[0].ops[1], "%fs:(%ebx)");
}

static void test_parse_prefixes(void **state)
{
	struct asm_stmt st[ASM_MAX_STMTS];
	(void)state;

	assert_int_equal(parse("\tlock; cmpxchgl %esi,12(%esp)", st), 1);
	assert_int_equal(st[0].nprefixes, 1);
	assert_str(st[0].prefixes[0], "lock");
	assert_str(st[0].name, "cmpxchgl");
	assert_str(st[0].ops[1], "12(%esp)");
	assert_int_equal(parse("rep movsb", st), 1);
	assert_str(st[0].prefixes[0], "rep");
	assert_str(st[0].name, "movsb");
	assert_int_equal(parse("1: lock incl (%eax); sete %cl", st), 2);
	assert_int_equal(st[0].nlabels, 1);
	assert_str(st[0].prefixes[0], "lock");
	assert_str(st[1].name, "sete");
}

static void test_parse_comments_strings(void **state)
{
	struct asm_stmt st[ASM_MAX_STMTS];
	(void)state;

	lx.in_comment = 0;
	assert_int_equal(parse(".string \"a;b # c /* d \\\" e\"; nop", st), 2);
	assert_str(st[0].args, "\"a;b # c /* d \\\" e\"");
	assert_str(st[1].name, "nop");
	assert_int_equal(parse("movl %eax, %ebx /* start", st), 1);
	assert_true(lx.in_comment);
	assert_str(st[0].ops[1], "%ebx");
	assert_int_equal(parse("still comment; .section x", st), 0);
	assert_int_equal(parse("end */ .previous", st), 1);
	assert_false(lx.in_comment);
	assert_str(st[0].name, ".previous");
	assert_int_equal(parse("\t.string \"unterminated", st), 1);
	assert_true(lx.bad_string);
	assert_int_equal(parse("cmpb $'#', %al # real comment", st), 1);
	assert_int_equal(st[0].nops, 2);
	assert_int_equal(parse("", st), 0);
	assert_int_equal(parse("# only a comment ; .text", st), 0);
}

static void test_parse_mem_regs(void **state)
{
	struct asm_mem m;
	struct asm_str s = { "-8(%ebp,%ecx,4)", 15 };
	int w;
	(void)state;

	assert_true(asmfix_parse_mem(s, &m));
	assert_int_equal(m.base, REG_BP);
	assert_int_equal(m.index, REG_CX);
	assert_str(m.disp, "-8");
	s = (struct asm_str){ "%eax", 4 };
	assert_false(asmfix_parse_mem(s, &m));
	assert_int_equal(asmfix_reg(s, &w), REG_AX);
	assert_int_equal(w, 4);
	s = (struct asm_str){ "%r10d", 5 };
	assert_int_equal(asmfix_reg(s, &w), REG_R10);
	assert_int_equal(w, 4);
	s = (struct asm_str){ "$0", 2 };
	assert_int_equal(asmfix_reg(s, NULL), REG_NONE);
}

static void print_ref(void *data, struct asm_str name, long num, int dir)
{
	struct strbuf *sb = data;
	if (num >= 0)
		strbuf_addf(sb, "[%ld%c]", num, dir);
	else
		strbuf_addf(sb, "[%.*s]", (int)name.len, name.p);
}

static void test_refs(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct asm_str e = { "661b - . + sym+0x10(%rip) \"str\" 6641f", 38 };
	(void)state;
	asmfix_for_each_ref(e, print_ref, &sb);
	assert_string_equal(sb.buf, "[661b][sym][6641f]");
	strbuf_release(&sb);
}

/* GAS semantics of .previous, .pushsection/.popsection, .subsection. */
static void test_sections(void **state)
{
	struct sec_names sn;
	struct sec_state ss;
	struct asm_stmt st[ASM_MAX_STMTS];
	static const char *const prog[] = {
		".section .altinstructions,\"a\"", ".text", ".previous", ".previous",
		".pushsection .foo", ".subsection 2", ".popsection", ".previous", ".data 3",
	};
	static const char *const want[] = {
		".altinstructions", ".text", ".altinstructions", ".text",
		".foo", ".foo", ".text", ".altinstructions", ".data",
	};
	(void)state;

	asmfix_sec_names_init(&sn);
	asmfix_sec_state_init(&ss, &sn);
	for (size_t i = 0; i < sizeof(prog) / sizeof(*prog); i++) {
		assert_int_equal(parse(prog[i], st), 1);
		assert_int_equal(asmfix_sec_apply(&ss, &sn, st), 0);
		assert_string_equal(asmfix_sec_name(&sn, ss.cur.sec), want[i]);
	}
	assert_int_equal(ss.cur.sub, 3);
	assert_int_equal(parse(".popsection", st), 1);
	assert_int_equal(asmfix_sec_apply(&ss, &sn, st), -1);	/* GAS ignores it */
	assert_string_equal(asmfix_sec_name(&sn, ss.cur.sec), ".data");
	assert_true(asmfix_sec_is_exec(&sn, asmfix_sec_intern(&sn, ".text.unlikely", 14)));
	asmfix_sec_state_release(&ss);
	asmfix_sec_names_release(&sn);
}

static void test_pass_table(void **state)
{
	unsigned mask;
	char buf[128];
	(void)state;

	assert_int_equal(asmfix_pass_count(), 4);
	assert_string_equal(asmfix_pass_name(0), "common");
	assert_null(asmfix_pass_name(4));
	assert_int_equal(asmfix_parse_passes("all", &mask), 0);
	assert_int_equal(mask, asmfix_all_passes());
	assert_int_equal(asmfix_parse_passes("lockfix,common", &mask), 0);
	asmfix_format_passes(mask, buf, sizeof(buf));
	assert_string_equal(buf, "common,lockfix");
	assert_int_equal(asmfix_parse_passes("none", &mask), 0);
	asmfix_format_passes(mask, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	assert_int_equal(asmfix_parse_passes("common,nope", &mask), -1);
}

/* Run the filter over a string; returns the output (malloc'ed). */
static char *run(const char *passes, const char *in, int *rc, struct asmfix_stats *stats)
{
	struct asmfix_options opt = { 0 };
	FILE *fi = tmpfile(), *fo = tmpfile();
	struct asmfix_stats st;
	long n;
	char *out;

	assert_non_null(fi);
	assert_non_null(fo);
	fputs(in, fi);
	fflush(fi);
	rewind(fi);
	opt.filename = "t.s";
	assert_int_equal(asmfix_parse_passes(passes, &opt.passes), 0);
	*rc = asmfix_filter(&opt, fileno(fi), fileno(fo), stats ? stats : &st);
	n = lseek(fileno(fo), 0, SEEK_END);
	out = calloc(1, (size_t)n + 1);
	assert_int_equal(pread(fileno(fo), out, (size_t)n, 0), n);
	fclose(fi);
	fclose(fo);
	return out;
}

static void expect(const char *passes, const char *in, const char *want, int want_rc)
{
	int rc;
	char *out = run(passes, in, &rc, NULL);
	assert_int_equal(rc, want_rc);
	if (want)
		assert_string_equal(out, want);
	free(out);
}

static void test_common(void **state)
{
	(void)state;
	expect("common", "\t.text\n\t.comm\tx,4,4\n\tnop\n",
	       "\t.text\n\t.pushsection\t.bss,\"aw\",@nobits\n\t.globl\tx\n\t.balign\t4\n"
	       "\t.type\tx, @object\n\t.size\tx, 4\nx:\n\t.zero\t4\n\t.popsection\n\tnop\n", 0);
	/* no alignment: natural, at most 16 */
	expect("common", ".comm big,100\n",
	       "\t.pushsection\t.bss,\"aw\",@nobits\n\t.globl\tbig\n\t.balign\t16\n"
	       "\t.type\tbig, @object\n\t.size\tbig, 100\nbig:\n\t.zero\t100\n\t.popsection\n", 0);
	/* .local + .comm is already a local .bss object; .lcomm too */
	expect("common", "\t.local s\n\t.comm s,8,8\n\t.lcomm t,4\n",
	       "\t.local s\n\t.comm s,8,8\n\t.lcomm t,4\n", 0);
	/* the same symbol again: dropped if the same, else not ours to choose */
	expect("common", ".comm x,4,4\n.comm x,4,4\n",
	       "\t.pushsection\t.bss,\"aw\",@nobits\n\t.globl\tx\n\t.balign\t4\n"
	       "\t.type\tx, @object\n\t.size\tx, 4\nx:\n\t.zero\t4\n\t.popsection\n", 0);
	expect("common", ".comm x,4,4\n.comm x,4,8\n",
	       "\t.pushsection\t.bss,\"aw\",@nobits\n\t.globl\tx\n\t.balign\t4\n"
	       "\t.type\tx, @object\n\t.size\tx, 4\nx:\n\t.zero\t4\n\t.popsection\n"
	       ".comm x,4,8\n", 0);
	/* malformed */
	expect("common", "\t.comm x,n*2,4\n", NULL, 1);
	expect("common", "\t.comm x,4,3\n", NULL, 1);
	expect("common", "\t.comm\n", NULL, 1);
	/* strings and comments that look like .comm are not */
	expect("common", "\t.string \".comm x,4,4\"\n# .comm y,4\n/* .comm z,4\n*/\n",
	       "\t.string \".comm x,4,4\"\n# .comm y,4\n/* .comm z,4\n*/\n", 0);
}

static const char accessor[] =
	"\t.text\n"
	"\t.p2align 4\n"
	"\t.globl\tkeep_me\n"
	"\t.type\tkeep_me, @function\n"
	"keep_me:\n"
	"\tret\n"
	"\t.size\tkeep_me, .-keep_me\n"
	"\t.section\t.text.__ccd_keep_obj,\"ax\",@progbits\n"
	"\t.p2align 4\n"
	"\t.globl\t__ccd_keep_obj\n"
	"\t.type\t__ccd_keep_obj, @function\n"
	"__ccd_keep_obj:\n"
	".LFB1:\n"
	"\t.cfi_startproc\n"
	"1:\tleaq\tobj(%rip), %rax\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	".LFE1:\n"
	"\t.size\t__ccd_keep_obj, .-__ccd_keep_obj\n"
	"\t.text\n"
	"\t.globl\tafter\n"
	"after:\n"
	"\tret\n";

static void test_used_accessors(void **state)
{
	struct asmfix_stats st;
	char *out, *big;
	int rc;
	(void)state;

	out = run("used-accessors", accessor, &rc, &st);
	assert_int_equal(rc, 0);
	assert_int_equal(st.changes[1], 1);
	assert_null(strstr(out, "__ccd_keep"));
	/* its local labels stay, at the place it was (DWARF ranges) */
	assert_non_null(strstr(out, "keep_me:\n\tret\n\t.size\tkeep_me, .-keep_me\n"
			       ".LFB1:\n.LFE1:\n\t.text\n\t.globl\tafter\n"));
	free(out);

	/* references to its local labels resolve to the kept ones */
	big = xmalloc(sizeof(accessor) + 64);
	strcpy(big, accessor);
	strcat(big, "\tjmp .LFB1\n");
	expect("used-accessors", big, NULL, 0);
	/* references to the removed function or its numeric labels are errors */
	strcpy(big, accessor);
	strcat(big, "\tjmp 1b\n");
	expect("used-accessors", big, NULL, 1);
	strcpy(big, "\tcall __ccd_keep_obj\n");
	strcat(big, accessor);
	expect("used-accessors", big, NULL, 1);
	free(big);
	/* no .size: cannot tell where it ends */
	expect("used-accessors", "__ccd_keep_x:\n\tret\n", NULL, 1);
	/* not an accessor */
	expect("used-accessors", "\t.globl ccd_keep\nccd_keep:\n\tret\n",
	       "\t.globl ccd_keep\nccd_keep:\n\tret\n", 0);
}

static const char listing2[] =
	"f:\n"
	"..B1.3:\n"
	"        movl      (%ebx), %ecx\n"
	"        movl      (%esp), %edx\n"
	"        movl      %ecx, 12(%esp)\n"
	"        movl      %edx, %eax\n"
	"# Begin ASM\n"
	"        lock; cmpxchgl %esi,12(%esp)\n"
	"# End ASM\n"
	"        cmpl      %edx, %eax\n"
	"        ret\n"
	"\t.size\tf,.-f\n";

static void test_lockfix(void **state)
{
	char *out, buf[1024], *p;
	int rc;
	(void)state;

	out = run("lockfix", listing2, &rc, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "        lock; cmpxchgl %esi,(%ebx)\n"));
	free(out);
	/* push between store and lock: offsets follow %esp */
	expect("lockfix", "f:\n\tmovl 4(%ebx), %ecx\n\tmovl %ecx, 8(%esp)\n\tpushl %eax\n"
	       "\tlock; incl 12(%esp)\n\tpopl %eax\n\tret\n\t.size f,.-f\n",
	       "f:\n\tmovl 4(%ebx), %ecx\n\tmovl %ecx, 8(%esp)\n\tpushl %eax\n"
	       "\tlock; incl 4(%ebx)\n\tpopl %eax\n\tret\n\t.size f,.-f\n", 0);
	/* address register changes: error */
	strcpy(buf, listing2);
	p = strstr(buf, "movl      (%esp), %edx");
	memcpy(p, "movl      (%esp), %ebx", 22);
	expect("lockfix", buf, NULL, 1);
	/* slot read afterwards: error */
	strcpy(buf, listing2);
	p = strstr(buf, "cmpl      %edx, %eax");
	memcpy(p, "cmpl 12(%esp), %eax ", 20);
	expect("lockfix", buf, NULL, 1);
	/* barriers, real stack objects, other blocks: untouched */
	expect("lockfix", "f:\n\tmovl (%ebx), %eax\n\tmovl %eax, (%esp)\n\tlock orl $0,(%esp)\n"
	       "\tlock; addl $0,0(%rsp)\n\tmovl $1, 4(%esp)\n\tlock incl 4(%esp)\n"
	       "\tmovl %eax, 8(%esp)\n.L2:\n\tlock incl 8(%esp)\n\t.size f,.-f\n",
	       "f:\n\tmovl (%ebx), %eax\n\tmovl %eax, (%esp)\n\tlock orl $0,(%esp)\n"
	       "\tlock; addl $0,0(%rsp)\n\tmovl $1, 4(%esp)\n\tlock incl 4(%esp)\n"
	       "\tmovl %eax, 8(%esp)\n.L2:\n\tlock incl 8(%esp)\n\t.size f,.-f\n", 0);
	/* xchg with memory is implicitly locked; no .size: done at EOF */
	expect("lockfix", "\tmovq (%rdi), %rax\n\tmovq %rax, -8(%rbp)\n\txchgq %rdx, -8(%rbp)\n",
	       "\tmovq (%rdi), %rax\n\tmovq %rax, -8(%rbp)\n\txchgq %rdx, (%rdi)\n", 0);
}

static void test_altinstr(void **state)
{
	static const char broken[] =
		"\t.text\nf:\n# Begin ASM\n661:\n\tnop\n662:\n"
		".section .altinstructions,\"a\"\n .long 661b\n .long 663f\n# End ASM\n"
		"\t.section .rodata\n\t.string \"x\"\n\t.text\n# Begin ASM\n.previous\n"
		".section .altinstr_replacement,\"ax\"\n663:\n\tmfence\n664:\n.previous\n# End ASM\n"
		"\tret\n";
	int rc;
	char *out;
	(void)state;

	out = run("altinstr", broken, &rc, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\n.pushsection .altinstructions,\"a\"\n"));
	assert_non_null(strstr(out, "# Begin ASM\n.popsection\n"));
	/* the second pair had nothing between: unchanged */
	assert_non_null(strstr(out, "664:\n.previous\n"));
	free(out);
	/* 6.1 form, fine as it is */
	expect("altinstr", "f:\n661:\n\tnop\n662:\n.pushsection .altinstructions,\"a\"\n"
	       " .long 661b - .\n .long 6641f - .\n .word 26\n .byte 1\n .byte 1\n.popsection\n"
	       ".pushsection .altinstr_replacement, \"ax\"\n6641:\n\tmfence\n6651:\n.popsection\n",
	       NULL, 0);
	/* replacement never defined; original in data: warnings, unchanged */
	expect("altinstr", ".pushsection .altinstructions,\"a\"\n .long 661b - .\n .long 663f - .\n"
	       ".popsection\n", ".pushsection .altinstructions,\"a\"\n .long 661b - .\n"
	       " .long 663f - .\n.popsection\n", 0);
	expect("altinstr", ".data\n661:\n.pushsection .altinstructions,\"a\"\n .long 661b - .\n"
	       ".popsection\n.section .altinstr_replacement,\"ax\"\n663:\n.previous\n", NULL, 0);
	/*
	 * gcc's lazy #NO_APP: its string section inside the #APP region of a
	 * top-level asm is not a pair, and its own .previous closes nothing.
	 */
	expect("altinstr", "#APP\n.section .initcall5.init,\"a\"\n.long f - .\n.previous\n"
	       "\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n.LC0:\n\t.string \"m\"\n#NO_APP\n"
	       "\t.section\t.init.text,\"ax\",@progbits\nf:\n1:\tcall __fentry__\n"
	       "\t.section __mcount_loc, \"a\",@progbits\n\t.quad 1b\n\t.previous\n\tret\n",
	       "#APP\n.section .initcall5.init,\"a\"\n.long f - .\n.previous\n"
	       "\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n.LC0:\n\t.string \"m\"\n#NO_APP\n"
	       "\t.section\t.init.text,\"ax\",@progbits\nf:\n1:\tcall __fentry__\n"
	       "\t.section __mcount_loc, \"a\",@progbits\n\t.quad 1b\n\t.previous\n\tret\n", 0);
	/* compiler directives between, but .previous lands where the asm left: kept */
	expect("altinstr", "\t.text\n#APP\n661:\n\tnop\n.section .altinstructions,\"a\"\n#NO_APP\n"
	       "\t.text\n\t.section .altinstructions,\"a\"\n#APP\n.previous\n#NO_APP\n",
	       "\t.text\n#APP\n661:\n\tnop\n.section .altinstructions,\"a\"\n#NO_APP\n"
	       "\t.text\n\t.section .altinstructions,\"a\"\n#APP\n.previous\n#NO_APP\n", 0);
	/* unbalanced .popsection: warning, passed through */
	expect("altinstr", ".popsection\n\tnop\n", ".popsection\n\tnop\n", 0);
}

static void test_malformed(void **state)
{
	static const char nul[] = "\t.comm x,4,4\0garbage\n";
	FILE *fi = tmpfile(), *fo = tmpfile();
	struct asmfix_options opt = { .passes = 0xf, .filename = "nul.s" };
	struct asmfix_stats st;
	char out[64];
	(void)state;

	fwrite(nul, 1, sizeof(nul) - 1, fi);
	rewind(fi);
	assert_int_equal(asmfix_filter(&opt, fileno(fi), fileno(fo), &st), 0);
	assert_int_equal(pread(fileno(fo), out, sizeof(out), 0), (ssize_t)sizeof(nul) - 1);
	assert_memory_equal(out, nul, sizeof(nul) - 1);
	fclose(fi);
	fclose(fo);
	/* no trailing newline, unterminated comment and string */
	expect("all", "\tnop\n/* open\n\t.string \"abc", "\tnop\n/* open\n\t.string \"abc", 0);
	expect("all", "", "", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_labels),
		cmocka_unit_test(test_parse_prefixes),
		cmocka_unit_test(test_parse_comments_strings),
		cmocka_unit_test(test_parse_mem_regs),
		cmocka_unit_test(test_refs),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_pass_table),
		cmocka_unit_test(test_common),
		cmocka_unit_test(test_used_accessors),
		cmocka_unit_test(test_lockfix),
		cmocka_unit_test(test_altinstr),
		cmocka_unit_test(test_malformed),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	asmfix_lexer_release(&lx);
	return rc;
}
