// SPDX-License-Identifier: GPL-2.0
/*
 * What the core's timing (timing.c) needs of an instruction: the registers
 * it waits for, the ones it writes, its latency.  Read from QEMU's
 * disassembly (AT&T syntax for x86-64, Arm's for arm64) once, when a block
 * is translated.  What is not understood waits for nothing and takes a
 * cycle: a missed dependency makes the model optimistic, never stuck.
 */
#include "sim.h"

#include <ctype.h>
#include <string.h>

#define MAX_OPS 6

struct ops {
	char *op[MAX_OPS];
	int n;
};

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int any_of(const char *m, const char *const *list)
{
	for (; *list; list++)
		if (starts(m, *list))
			return 1;
	return 0;
}

static void add_reg(uint8_t *regs, uint8_t *n, size_t max, int r)
{
	if (r <= 0 || *n >= max)
		return;
	for (unsigned i = 0; i < *n; i++)
		if (regs[i] == r)
			return;
	regs[(*n)++] = (uint8_t)r;
}

static void src(struct insn_info *in, int r)
{
	add_reg(in->src, &in->nsrc, sizeof(in->src), r);
}

static void dst(struct insn_info *in, int r)
{
	add_reg(in->dst, &in->ndst, sizeof(in->dst), r);
}

/* Split "a, b(c, d), e" at the commas outside brackets, in place. */
static void split(char *s, struct ops *o, char open, char close)
{
	int depth = 0;

	o->n = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return;
	o->op[o->n++] = s;
	for (; *s; s++) {
		if (*s == open)
			depth++;
		else if (*s == close)
			depth--;
		else if (*s == ',' && !depth && o->n < MAX_OPS) {
			*s = '\0';
			while (s[1] == ' ' || s[1] == '\t')
				s++;
			o->op[o->n++] = s + 1;
		}
	}
}

/* x86-64 registers: 1-16 the general ones (%rsp none: the stack engine), 17-48 vectors. */
enum { X_FLAGS = 49, X_K0 = 50 };

static int x86_reg(const char *r, size_t len)
{
	static const char *const gpr[][4] = {
		{ "rax", "eax", "ax", "al" }, { "rbx", "ebx", "bx", "bl" },
		{ "rcx", "ecx", "cx", "cl" }, { "rdx", "edx", "dx", "dl" },
		{ "rsi", "esi", "si", "sil" }, { "rdi", "edi", "di", "dil" },
		{ "rbp", "ebp", "bp", "bpl" },
	};
	static const char *const high[] = { "ah", "bh", "ch", "dh" };
	char b[8];

	if (len == 0 || len >= sizeof(b))
		return 0;
	memcpy(b, r, len);
	b[len] = '\0';
	for (int i = 0; i < 7; i++)
		for (int j = 0; j < 4; j++)
			if (!strcmp(b, gpr[i][j]))
				return i + 1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(b, high[i]))
			return i + 1;
	if (b[0] == 'r' && isdigit((unsigned char)b[1])) {
		int n = b[1] - '0';

		if (isdigit((unsigned char)b[2]))
			n = n * 10 + b[2] - '0';
		return n >= 8 && n <= 15 ? n + 1 : 0;
	}
	if ((b[0] == 'x' || b[0] == 'y' || b[0] == 'z') && !strncmp(b + 1, "mm", 2) &&
	    isdigit((unsigned char)b[3])) {
		int n = b[3] - '0';

		if (isdigit((unsigned char)b[4]))
			n = n * 10 + b[4] - '0';
		return n < 32 ? 17 + n : 0;
	}
	if (b[0] == 'k' && b[1] >= '0' && b[1] <= '7' && !b[2])
		return X_K0 + b[1] - '0';
	return 0;	/* rsp, rip, segments, x87: ready whenever asked */
}

/* Every register named in s ("%rax", "0x8(%rbx, %rcx, 4)") into f. */
static void x86_regs_of(const char *s, struct insn_info *in, void (*f)(struct insn_info *, int))
{
	for (; *s; s++)
		if (*s == '%') {
			size_t n = 0;

			while (isalnum((unsigned char)s[1 + n]))
				n++;
			f(in, x86_reg(s + 1, n));
			s += n;
		}
}

static int x86_is_mem(const char *op)
{
	return strchr(op, '(') || strchr(op, ':');
}

static const char *const x86_write_only[] = {
	"mov", "lea", "cvt", "set", "pop", "bsf", "bsr", "popcnt", "lzcnt", "tzcnt",
	"pmovmsk", "vpmovmsk", "vmov", "vbroadcast", "vpbroadcast", "pshufd", "pshuflw",
	"pshufhw", "rdtsc",
	"cwtl", "cltq", "cbtw", "cqto", "cltd", "cwtd", "bextr", "shlx", "shrx", "sarx",
	"rorx", "andn", "pext", "pdep", "blsr", "blsi", "blsmsk", NULL
};
static const char *const x86_read_only[] = {
	"cmp", "test", "ucomis", "comis", "ptest", "vptest", "vucomis", "vcomis", "push",
	"jmp", "call", "ret", "nop", "prefetch", "endbr", "lfence", "sfence", "mfence",
	"pause", "ud2", "int3", "hlt", NULL
};
static const char *const x86_sets_flags[] = {
	"add", "sub", "and", "or", "xor", "adc", "sbb", "sh", "sa", "ro", "rc", "inc", "dec",
	"neg", "cmp", "test", "bt", "imul", "mul", "div", "idiv", "bsf", "bsr", "popcnt",
	"lzcnt", "tzcnt", "ucomis", "comis", "ptest", "vptest", "vucomis", "vcomis", "andn",
	"bextr", "blsr", "blsi", "blsmsk", NULL
};
static const char *const x86_serial[] = {
	"cpuid", "mfence", "lfence", "rdtscp", "xchg", "cmpxchg", "xadd", "syscall",
	"sysret", "iret", "wrmsr", "rdmsr", "hlt", "invlpg", "mov %cr", "swapgs", "out", "in ",
	"lgdt", "lidt", "ltr", "wbinvd", "clflush", NULL
};

struct lat_class {
	const char *prefix;
	uint8_t lat;
};

/* The first class whose prefix the mnemonic starts with; 1 for none. */
static uint8_t lat_of(const char *m, const struct lat_class *t)
{
	for (; t->prefix; t++)
		if (starts(m, t->prefix))
			return t->lat;
	return 1;
}

/*
 * Latency from sources to result, beyond a load's, of the instructions
 * whose result takes more than a cycle; the more specific prefix first.
 */
static const struct lat_class x86_lats[] = {
	/* Single precision divides and roots finish sooner than double's. */
	{ "divss", 11 }, { "divps", 11 }, { "vdivss", 11 }, { "vdivps", 11 },
	{ "divs", 13 }, { "divp", 13 }, { "vdivs", 13 }, { "vdivp", 13 },
	{ "sqrtss", 15 }, { "sqrtps", 15 }, { "vsqrtss", 15 }, { "vsqrtps", 15 },
	{ "sqrt", 21 }, { "vsqrt", 21 },
	{ "vfmadd", 4 }, { "vfmsub", 4 }, { "vfnmadd", 4 }, { "vfnmsub", 4 },
	{ "pclmul", 4 }, { "vpclmul", 4 }, { "aes", 4 }, { "vaes", 4 },
	{ "sha1rnds4", 6 }, { "sha256rnds2", 4 }, { "sha256msg2", 5 }, { "sha256msg1", 3 },
	{ "sha", 2 },
	{ "mulx", 4 }, { "pdep", 3 }, { "pext", 3 }, { "crc32", 3 },
	{ "pmul", 3 }, { "vpmul", 3 }, { "pmadd", 3 }, { "vpmadd", 3 }, { "psadbw", 3 },
	{ "vpsadbw", 3 },
	{ "imul", 3 }, { "mul", 3 }, { "adds", 3 }, { "addp", 3 }, { "subs", 3 }, { "subp", 3 },
	{ "vadd", 3 }, { "vsub", 3 }, { "vmul", 3 },
	/* Between a general register and a vector one: half a round trip. */
	{ "cvtsi2", 6 }, { "vcvtsi2", 6 }, { "cvtts", 6 }, { "vcvtts", 6 }, { "cvtsd2si", 6 },
	{ "vcvtsd2si", 6 }, { "cvtss2si", 6 }, { "vcvtss2si", 6 },
	{ "cvt", 3 }, { "vcvt", 3 },
	{ "pshufb", 2 }, { "vpshufb", 2 }, { "palignr", 2 }, { "vpalignr", 2 },
	{ "vperm2", 3 }, { "vpermd", 4 }, { "vpermq", 4 }, { "vpermps", 4 }, { "vpermpd", 4 },
	{ "bts", 2 }, { "btr", 2 }, { "btc", 2 }, { "shld", 2 }, { "shrd", 2 },
	{ "cmpxchg", 3 },
	{ "rdtsc", 35 }, { "cpuid", 147 }, { "lfence", 10 }, { "mfence", 58 },
	{ NULL, 1 }
};

/* div and idiv, with or without a size suffix; not divss and its kin. */
static int x86_int_div(const char *m)
{
	size_t stem = m[0] == 'i' ? 4 : 3;

	if (strncmp(m, "idiv", 4) && strncmp(m, "div", 3))
		return 0;
	return !m[stem] || (strchr("bwlq", m[stem]) && !m[stem + 1]);
}

/* A register's width in bits from its name (rcx 64, ecx 32, cx 16, cl 8, r9d 32); 0 if none. */
static int x86_reg_width(const char *op)
{
	size_t n = 0;
	char last;

	if (op[0] != '%')
		return 0;
	while (isalnum((unsigned char)op[1 + n]))
		n++;
	if (n < 2)
		return 0;
	last = op[n];
	if (op[1] == 'r' && isdigit((unsigned char)op[2]))
		return last == 'b' || last == 'l' ? 8 : last == 'w' ? 16 : last == 'd' ? 32 : 64;
	if (op[1] == 'r')
		return 64;
	if (op[1] == 'e')
		return 32;
	return last == 'l' || last == 'h' ? 8 : 16;
}

/*
 * The divider's latency grows with the operand: these are a full-width
 * quotient's (a short quotient finishes in about 11 at any width).
 */
static uint8_t x86_div_latency(const char *m, const struct ops *o)
{
	char suffix = m[m[0] == 'i' ? 4 : 3];
	int width = suffix == 'b' ? 8 : suffix == 'w' ? 16 : suffix == 'l' ? 32 :
		    suffix == 'q' ? 64 : o->n ? x86_reg_width(o->op[0]) : 0;

	switch (width) {
	case 8:
		return 10;
	case 16:
		return 12;
	case 64:
		return 19;
	default:
		return 14;
	}
}

/* base + index + displacement: an extra cycle; two of the three take one. */
static int x86_lea3(const char *op)
{
	const char *p = strchr(op, '(');

	return p && p != op && p[1] == '%' && strchr(p, ',');
}

static uint8_t x86_latency(const char *m, const struct ops *o)
{
	if (x86_int_div(m))
		return x86_div_latency(m, o);
	if (starts(m, "lea"))
		return o->n == 2 && x86_lea3(o->op[0]) ? 2 : 1;
	/* One operand: the high half, in rdx, comes a cycle after the low. */
	if (o->n == 1 && (starts(m, "mul") || starts(m, "imul")))
		return 4;
	return lat_of(m, x86_lats);
}

static void x86_read(char *text, struct insn_info *in)
{
	static const char *const prefixes[] = { "lock", "rep", "repz", "repnz", "repe",
		"repne", "notrack", "bnd", "data16", "addr32", "cs", "ds", "es", "fs", "gs",
		"ss", NULL };
	char *m = text, *rest;
	struct ops o;
	int locked = 0, rep = 0, rmw;

	for (;;) {
		size_t len, i;

		while (*m == ' ' || *m == '\t')
			m++;
		len = strcspn(m, " \t");
		for (i = 0; prefixes[i] && (strlen(prefixes[i]) != len ||
					    strncmp(m, prefixes[i], len)); i++)
			;
		if (!prefixes[i] || !m[len])
			break;
		locked |= !strcmp(prefixes[i], "lock");
		rep |= starts(prefixes[i], "rep");
		m += len;
	}
	rest = m + strcspn(m, " \t");
	if (*rest)
		*rest++ = '\0';
	split(rest, &o, '(', ')');
	in->lat = x86_latency(m, &o);
	in->move = any_of(m, (const char *const[]){ "mov", "vmov", "pop", "vbroadcast",
						    "vpbroadcast", NULL });
	in->serial = locked || any_of(m, x86_serial);
	if (m[0] == 'j' && !starts(m, "jmp"))
		src(in, X_FLAGS);
	if (starts(m, "cmov") || starts(m, "set") || starts(m, "adc") || starts(m, "sbb") ||
	    starts(m, "rc"))
		src(in, X_FLAGS);
	if (any_of(m, x86_sets_flags))
		dst(in, X_FLAGS);
	/* Implicit rax and rdx: one-operand multiply and divide, sign extensions. */
	if ((o.n == 1 && (starts(m, "mul") || starts(m, "imul"))) || x86_int_div(m)) {
		src(in, 1);
		src(in, 4);
		dst(in, 1);
		dst(in, 4);
	} else if (any_of(m, (const char *const[]){ "cltq", "cwtl", "cbtw", NULL })) {
		src(in, 1);
		dst(in, 1);
	} else if (any_of(m, (const char *const[]){ "cqto", "cltd", "cwtd", NULL })) {
		src(in, 1);
		dst(in, 4);
	}
	/*
	 * QEMU runs a string instruction once an element; a current core's
	 * string microcode moves many bytes a cycle: each element waits for
	 * nothing but its turn to dispatch.
	 */
	if (rep)
		return;
	if (!o.n)
		return;
	/* xor %eax, %eax and its kin: the result depends on nothing. */
	if (o.n == 2 && !strcmp(o.op[0], o.op[1]) && o.op[0][0] == '%' &&
	    any_of(m, (const char *const[]){ "xor", "sub", "pxor", "vpxor", "xorp", "vxorp",
					      "psub", "vpsub", NULL })) {
		x86_regs_of(o.op[1], in, dst);
		return;
	}
	for (int i = 0; i + 1 < o.n; i++)
		x86_regs_of(o.op[i][0] == '*' ? o.op[i] + 1 : o.op[i], in, src);
	if ((any_of(m, x86_read_only) && !starts(m, "cmpxchg")) || m[0] == 'j' ||
	    !strcmp(m, "bt") || !strcmp(m, "btl") || !strcmp(m, "btq") || !strcmp(m, "btw")) {
		x86_regs_of(o.op[o.n - 1][0] == '*' ? o.op[o.n - 1] + 1 : o.op[o.n - 1], in, src);
		return;
	}
	/* The last operand is written; read too unless the instruction only writes it. */
	rmw = !any_of(m, x86_write_only) && !(m[0] == 'v' && o.n >= 3 && !starts(m, "vfm") &&
					       !starts(m, "vfnm")) &&
	      !(starts(m, "imul") && o.n == 3);
	if (starts(m, "cmov") || starts(m, "xchg") || starts(m, "cmpxchg") || starts(m, "xadd"))
		rmw = 1;
	if (x86_is_mem(o.op[o.n - 1])) {
		x86_regs_of(o.op[o.n - 1], in, src);	/* the address */
		return;
	}
	if (rmw)
		x86_regs_of(o.op[o.n - 1], in, src);
	x86_regs_of(o.op[o.n - 1], in, dst);
	if (starts(m, "xchg") || starts(m, "xadd"))
		x86_regs_of(o.op[0], in, dst);
}

/* arm64 registers: x0-x30 1-31 (sp, xzr none), v0-v31 33-64, the flags 65. */
enum { A_FLAGS = 65 };

static int arm64_reg(const char *s, size_t len)
{
	int n = 0;

	if (len < 2 || len > 3)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return 0;
		n = n * 10 + s[i] - '0';
	}
	if ((s[0] == 'x' || s[0] == 'w') && n <= 30)
		return n + 1;
	if (strchr("vqdshb", s[0]) && n <= 31)
		return 33 + n;
	return 0;
}

static void arm64_regs_of(const char *s, struct insn_info *in, void (*f)(struct insn_info *, int))
{
	while (*s) {
		size_t n = 0;

		if (!isalpha((unsigned char)*s)) {
			/* A number (#0x10, 16b) is not a register, whatever letters follow. */
			while (isalnum((unsigned char)*s))
				s++;
			if (*s)
				s++;
			continue;
		}
		while (isalnum((unsigned char)s[n]))
			n++;
		/* v0.16b and the like: the register is the part before the dot. */
		f(in, arm64_reg(s, n));
		s += n;
	}
}

static uint8_t arm64_latency(const char *m, const struct ops *o)
{
	/* The divider iterates: its worst case, by the register's width. */
	if (any_of(m, (const char *const[]){ "sdiv", "udiv", NULL }))
		return o->n && o->op[0][0] == 'w' ? 12 : 20;
	if (any_of(m, (const char *const[]){ "fdiv", "fsqrt", NULL }))
		return 10;
	if (any_of(m, (const char *const[]){ "mul", "madd", "msub", "smul", "umul", "smaddl",
					      "umaddl", "fmul", "fadd", "fsub", "fmadd", "fcvt",
					      "scvtf", "ucvtf", "crc32", "aes", "sha", "pmull", NULL }))
		return 3;
	return 1;
}

static void arm64_read(char *text, struct insn_info *in)
{
	char *m = text, *rest = text + strcspn(text, " \t");
	struct ops o;
	int store, first_dst;

	if (*rest)
		*rest++ = '\0';
	split(rest, &o, '[', ']');
	in->lat = arm64_latency(m, &o);
	in->move = starts(m, "ld");
	in->serial = any_of(m, (const char *const[]){ "dmb", "dsb", "isb", "ldxr", "ldaxr",
						      "stxr", "stlxr", "cas", "swp", "ldadd",
						      "ldclr", "ldset", "msr", "mrs", "svc", "eret",
						      "wfi", "hvc", "smc", NULL });
	if (starts(m, "b.") || starts(m, "cs") || starts(m, "cc") || starts(m, "adc") ||
	    starts(m, "sbc") || starts(m, "fcsel") || starts(m, "cinc") || starts(m, "cneg") ||
	    starts(m, "cset") || starts(m, "cinv"))
		src(in, A_FLAGS);
	if (!strcmp(m, "cmp") || !strcmp(m, "cmn") || !strcmp(m, "tst") || starts(m, "fcmp") ||
	    starts(m, "ccmp") || starts(m, "ccmn") ||
	    (strlen(m) == 4 && m[3] == 's' &&
	     any_of(m, (const char *const[]){ "add", "sub", "and", "bic", "adc", "sbc", NULL })))
		dst(in, A_FLAGS);
	if (!strcmp(m, "ret"))
		src(in, 31);
	if (!o.n)
		return;
	store = starts(m, "st") || starts(m, "prfm");
	first_dst = !store && !starts(m, "cmp") && !starts(m, "cmn") && !starts(m, "tst") &&
		    !starts(m, "fcmp") && !starts(m, "ccm") && !starts(m, "cb") &&
		    !starts(m, "tb") && !starts(m, "b") && !starts(m, "ret") && !starts(m, "br");
	for (int i = 0; i < o.n; i++) {
		char *op = o.op[i];

		if (op[0] == '[') {
			arm64_regs_of(op, in, src);
			/* Pre- and post-index: the base register is written back. */
			if (strchr(op, '!') || (i + 1 < o.n && o.op[i + 1][0] == '#'))
				arm64_regs_of(op, in, dst);
			continue;
		}
		/* ldp writes both its first operands; a load's registers are its results. */
		if (first_dst && (i == 0 || (i == 1 && starts(m, "ldp") && o.n > 2))) {
			arm64_regs_of(op, in, dst);
			/* movk, bfi and a lane insert keep the rest of the register. */
			if (starts(m, "movk") || starts(m, "bf") || starts(m, "ins"))
				arm64_regs_of(op, in, src);
			continue;
		}
		arm64_regs_of(op, in, src);
	}
}

void insn_read(enum isa isa, const char *disas, struct insn_info *in)
{
	char text[160];

	memset(in, 0, sizeof(*in));
	in->lat = 1;
	if (!disas)
		return;
	strncpy(text, disas, sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	if (isa == ISA_X86)
		x86_read(text, in);
	else if (isa == ISA_ARM64)
		arm64_read(text, in);
}
