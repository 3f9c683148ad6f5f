// SPDX-License-Identifier: GPL-2.0
/*
 * Per-target as words.  Each gcc function below transcribes that
 * target's *asm spec from gcc 12's -dumpspecs (the line is quoted above
 * it); the defaults its driver injects when a flag is absent are taken
 * from the driver's own answer for no flags (tg->defaults), since they
 * depend on how the compiler was configured (--with-arch, --with-float).
 * tests/ccd/cross.sh compares every function with "CROSS-gcc -### -c".
 */
#include "asspec.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(t) (sizeof(t) / sizeof(*(t)))

/* Does word start with pattern ("-march=") or equal it ("-mvsx")? */
static int matches(const char *word, const char *pattern)
{
	size_t n = strlen(pattern);

	return pattern[n - 1] == '=' ? !strncmp(word, pattern, n) : !strcmp(word, pattern);
}

/* How many flag words match any of the patterns (NULL-terminated). */
static int count(const struct ccd_cmd *cmd, const char *const *patterns)
{
	int n = 0;

	for (size_t i = 0; i < cmd->nr_args; i++)
		for (size_t k = 0; cmd->args[i].role == ARG_FLAG && patterns[k]; k++)
			n += matches(cmd->args[i].word, patterns[k]);
	return n;
}

#define COUNT(cmd, ...) count(cmd, (const char *const[]){ __VA_ARGS__, NULL })

/* The last flag word matching pattern, or NULL. */
static const char *last(const struct ccd_cmd *cmd, const char *pattern)
{
	const char *w = NULL;

	for (size_t i = 0; i < cmd->nr_args; i++)
		if (cmd->args[i].role == ARG_FLAG && matches(cmd->args[i].word, pattern))
			w = cmd->args[i].word;
	return w;
}

/* The value of the one "-opt=VALUE" word, or NULL. */
static const char *value(const struct ccd_cmd *cmd, const char *pattern)
{
	const char *w = last(cmd, pattern);

	return w ? w + strlen(pattern) : NULL;
}

/* Push the default words starting with prefix; how many. */
static int push_defaults(struct strvec *out, const struct as_target *tg, const char *prefix)
{
	const char *p = tg->defaults;
	size_t n = strlen(prefix);
	int pushed = 0;

	while (p && *p) {
		size_t len = strcspn(p, "\t");

		if (len >= n && !strncmp(p, prefix, n)) {
			strvec_pushf(out, "%.*s", (int)len, p);
			pushed++;
		}
		p += len + (p[len] == '\t');
	}
	return pushed;
}

/* The value of the first default word "prefixVALUE" (into buf), or NULL. */
static const char *default_value(const struct as_target *tg, const char *prefix,
				 char *buf, size_t size)
{
	struct strvec w = STRVEC_INIT;
	const char *v = NULL;

	if (push_defaults(&w, tg, prefix)) {
		snprintf(buf, size, "%s", w.v[0] + strlen(prefix));
		v = buf;
	}
	strvec_clear(&w);
	return v;
}

/*
 * Any group of options given more than once, or any never-modelled
 * option present: the driver's rules for those (pruning, CPU tables)
 * are its own.
 */
static int needs_driver(const struct ccd_cmd *cmd, const char *const *const *groups,
			size_t ngroups, const char *const *never)
{
	for (size_t i = 0; i < ngroups; i++)
		if (count(cmd, groups[i]) > 1)
			return 1;
	return never && count(cmd, never) > 0;
}

#define G(...) (const char *const[]){ __VA_ARGS__, NULL }

/* x86 (gcc): %{m16|m32:--32} %{m16|m32|mx32:;:--64} %{mx32:--x32} %{msse2avx:%{!mavx:-msse2avx}} */
static int x86(struct strvec *out, enum as_style style, const struct as_target *tg,
	       const struct ccd_cmd *cmd)
{
	int bits = cmd->bits;

	/* An i386 compiler's own default is 32 bits. */
	if (!cmd->bits_given && tg->target && tg->target->bits == 32)
		bits = 32;
	if (bits == 16 || bits == 32)
		strvec_push(out, "--32");
	else if (bits == -32)
		strvec_push(out, "--x32");
	else
		strvec_push(out, "--64");
	if (style == AS_GCC && cmd->sse2avx && !cmd->avx)
		strvec_push(out, "-msse2avx");
	return 0;
}

/* aarch64: %{mbig-endian:-EB} %{mlittle-endian:-EL} %{march=*:-march=%*} %(asm_cpu_spec)%{mabi=*:-mabi=%*} */
static int gcc_aarch64(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-mbig-endian", "-mlittle-endian"), G("-march="), G("-mabi="),
	};
	const char *w;

	/* asm_cpu_spec: -march=%:rewrite_mcpu(), the driver's CPU table. */
	if (needs_driver(cmd, groups, N(groups), G("-mcpu=")))
		return -1;
	if (last(cmd, "-mbig-endian"))
		strvec_push(out, "-EB");
	else if (last(cmd, "-mlittle-endian"))
		strvec_push(out, "-EL");
	else
		push_defaults(out, tg, "-E");
	if ((w = last(cmd, "-march=")))
		strvec_push(out, w);
	else
		push_defaults(out, tg, "-march=");
	if ((w = last(cmd, "-mabi=")))
		strvec_push(out, w);
	else
		push_defaults(out, tg, "-mabi=");
	return 0;
}

/*
 * arm: %{mbig-endian:-EB} %{mlittle-endian:-EL} %(asm_cpu_spec) %{mapcs-*:-mapcs-%*}
 * %{mapcs-float:-mfloat} %{mthumb-interwork:-mthumb-interwork} %{mfloat-abi=*}
 * %{!mfpu=auto: %{mfpu=*}} %{mabi=apcs-gnu|mabi=atpcs:-meabi=gnu;:-meabi=5}
 * %{...|march=armv4|...:--fix-v4bx}; asm_cpu_spec: -march=%:rewrite_march().
 */
static int gcc_arm(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-mbig-endian", "-mlittle-endian"), G("-march="), G("-mabi="), G("-mfpu="),
		G("-mfloat-abi=", "-msoft-float", "-mhard-float"),
	};
	char buf[128], dflt[128], march[128];
	const char *fabi = NULL, *arch, *abi, *w;
	int soft;

	if (needs_driver(cmd, groups, N(groups), G("-mcpu=", "-mfpu=auto", "-mapcs-float")))
		return -1;
	if ((w = last(cmd, "-mfloat-abi=")))
		fabi = w + 12;
	else if (last(cmd, "-msoft-float"))
		fabi = "soft";
	else if (last(cmd, "-mhard-float"))
		fabi = "hard";
	else
		fabi = default_value(tg, "-mfloat-abi=", buf, sizeof(buf));
	soft = fabi && !strcmp(fabi, "soft");
	/* rewrite_march folds -mfpu into the arch (+fp, +simd) unless soft-float. */
	if (!soft && last(cmd, "-mfpu="))
		return -1;
	arch = value(cmd, "-march=");
	if (!arch)
		arch = default_value(tg, "-march=", dflt, sizeof(dflt));
	if (arch && soft) {
		/* ... and takes the FP extension off for soft-float. */
		size_t n = strlen(arch);

		snprintf(march, sizeof(march), "%.*s", (int)(n > 3 && !strcmp(arch + n - 3, "+fp")
							     ? n - 3 : n), arch);
		if (strchr(march, '+'))
			return -1;
		arch = march;
	}
	if (last(cmd, "-mbig-endian"))
		strvec_push(out, "-EB");
	if (last(cmd, "-mlittle-endian"))
		strvec_push(out, "-EL");
	if (arch)
		strvec_pushf(out, "-march=%s", arch);
	for (size_t i = 0; i < cmd->nr_args; i++)
		if (cmd->args[i].role == ARG_FLAG && !strncmp(cmd->args[i].word, "-mapcs-", 7))
			strvec_push(out, cmd->args[i].word);
	if (last(cmd, "-mthumb-interwork"))
		strvec_push(out, "-mthumb-interwork");
	if (fabi)
		strvec_pushf(out, "-mfloat-abi=%s", fabi);
	if ((w = last(cmd, "-mfpu=")))
		strvec_push(out, w);
	abi = value(cmd, "-mabi=");
	strvec_push(out, abi && (!strcmp(abi, "apcs-gnu") || !strcmp(abi, "atpcs"))
			 ? "-meabi=gnu" : "-meabi=5");
	if (arch && !strcmp(arch, "armv4"))
		strvec_push(out, "--fix-v4bx");
	return 0;
}

/*
 * riscv -march= as the driver canonicalises it (its self spec repeats
 * -march=%:riscv_expand_arch()), for the ISA strings Kbuild builds:
 * rv32/rv64, single letters from "imafdc" in order, then _zicsr and
 * _zifencei; under ISA spec 20191213 f and d imply zicsr.  Anything else
 * (g, other extensions): 0, ask the driver.
 */
static int riscv_canon(const char *arch, char *buf, size_t size)
{
	const char *order = "imafdc", *p = arch + 4, *o = order;
	int zicsr = 0, zifencei = 0, fp = 0;
	size_t n;

	if (strncmp(arch, "rv64", 4) && strncmp(arch, "rv32", 4))
		return 0;
	for (; *p && *p != '_'; p++) {
		o = strchr(o, *p);
		if (!o++)
			return 0;	/* not a letter of ours, or out of order */
		fp |= *p == 'f' || *p == 'd';
	}
	n = (size_t)(p - arch);
	while (*p == '_') {
		size_t len = strcspn(++p, "_");

		if (len == 5 && !strncmp(p, "zicsr", 5))
			zicsr = 1;
		else if (len == 8 && !strncmp(p, "zifencei", 8))
			zifencei = 1;
		else
			return 0;
		p += len;
	}
	snprintf(buf, size, "%.*s%s%s", (int)n, arch, zicsr || fp ? "_zicsr" : "",
		 zifencei ? "_zifencei" : "");
	return 1;
}

/*
 * riscv: --traditional-format %{fno-pie|fno-PIE|fno-pic|fno-PIC:;:-fpic} %{march=*}
 * %{mabi=*} %{mno-relax} %{mbig-endian} %{mlittle-endian} %{misa-spec=*}
 */
static int gcc_riscv(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-fpic", "-fPIC", "-fpie", "-fPIE", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE"),
		G("-march="), G("-mabi="), G("-mrelax", "-mno-relax"),
		G("-mbig-endian", "-mlittle-endian"), G("-misa-spec="),
	};
	char canon[128], isa[64];
	const char *arch = value(cmd, "-march="), *spec = value(cmd, "-misa-spec="), *w;

	if (needs_driver(cmd, groups, N(groups), G("-mcpu=")))
		return -1;
	if (!spec)
		spec = default_value(tg, "-misa-spec=", isa, sizeof(isa));
	if (arch && (!spec || strcmp(spec, "20191213") || !riscv_canon(arch, canon, sizeof(canon))))
		return -1;
	strvec_push(out, "--traditional-format");
	if (!COUNT(cmd, "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE"))
		strvec_push(out, "-fpic");
	if (arch) {
		strvec_push(out, last(cmd, "-march="));
		strvec_pushf(out, "-march=%s", canon);
	} else
		push_defaults(out, tg, "-march=");
	if ((w = last(cmd, "-mabi=")))
		strvec_push(out, w);
	else
		push_defaults(out, tg, "-mabi=");
	if (last(cmd, "-mno-relax"))
		strvec_push(out, "-mno-relax");
	if ((w = last(cmd, "-mbig-endian")) || (w = last(cmd, "-mlittle-endian")))
		strvec_push(out, w);
	if (spec)
		strvec_pushf(out, "-misa-spec=%s", spec);
	return 0;
}

/*
 * asm_cpu's -mcpu= rows (gcc 12, rs6000.h's ASM_CPU_SPEC), in its order: the
 * as word, and whether the row adds -maltivec unless -mvsx or -maltivec is
 * given.  power8 (and powerpc64le) says -mpower9 under -mpower9-vector.
 */
static const struct {
	const char *cpu, *word;
	int altivec;
} ppc_cpus[] = {
	{ "power10", "-mpower10", 0 }, { "power9", "-mpower9", 0 }, { "power8", "-mpower8", 0 },
	{ "powerpc64le", "-mpower8", 0 }, { "power7", "-mpower7", 0 },
	{ "power6x", "-mpower6", 1 }, { "power6", "-mpower6", 1 }, { "power5+", "-mpower5", 0 },
	{ "power5", "-mpower5", 0 }, { "power4", "-mpower4", 0 }, { "power3", "-mppc64", 0 },
	{ "powerpc", "-mppc", 0 }, { "powerpc64", "-mppc64", 0 }, { "a2", "-ma2", 0 },
	{ "cell", "-mcell", 0 }, { "rs64", "-mppc64", 0 }, { "401", "-mppc", 0 },
	{ "403", "-m403", 0 }, { "405", "-m405", 0 }, { "405fp", "-m405", 0 },
	{ "440", "-m440", 0 }, { "440fp", "-m440", 0 }, { "464", "-m440", 0 },
	{ "464fp", "-m440", 0 }, { "476", "-m476", 0 }, { "476fp", "-m476", 0 },
	{ "505", "-mppc", 0 }, { "601", "-m601", 0 }, { "602", "-mppc", 0 }, { "603", "-mppc", 0 },
	{ "603e", "-mppc", 0 }, { "ec603e", "-mppc", 0 }, { "604", "-mppc", 0 },
	{ "604e", "-mppc", 0 }, { "620", "-mppc64", 0 }, { "630", "-mppc64", 0 },
	{ "740", "-mppc", 0 }, { "750", "-mppc", 0 }, { "G3", "-mppc", 0 },
	{ "7400", "-mppc", 1 }, { "7450", "-mppc", 1 }, { "G4", "-mppc", 1 },
	{ "801", "-mppc", 0 }, { "821", "-mppc", 0 }, { "823", "-mppc", 0 }, { "860", "-mppc", 0 },
	{ "970", "-mpower4", 1 }, { "G5", "-mpower4", 1 }, { "8540", "-me500", 0 },
	{ "8548", "-me500", 0 }, { "e300c2", "-me300", 0 }, { "e300c3", "-me300", 0 },
	{ "e500mc", "-me500mc", 0 }, { "e500mc64", "-me500mc64", 0 }, { "e5500", "-me5500", 0 },
	{ "e6500", "-me6500", 0 }, { "titan", "-mtitan", 0 },
};

/* The -mcpu= row's index (native and unknown names: -1, the driver's). */
static int ppc_cpu(const char *cpu)
{
	for (size_t i = 0; i < N(ppc_cpus); i++)
		if (!strcmp(cpu, ppc_cpus[i].cpu))
			return (int)i;
	return -1;
}

/*
 * asm_spec32: -a32 %{mrelocatable} %{mrelocatable-lib}
 * %{fno-pie|fno-PIE|fno-pic|fno-PIC:;:-K PIC} %{memb|msdata=eabi: -memb}
 */
static void ppc_spec32(struct strvec *out, const struct ccd_cmd *cmd)
{
	const char *sdata = value(cmd, "-msdata=");

	strvec_push(out, "-a32");
	if (last(cmd, "-mrelocatable"))
		strvec_push(out, "-mrelocatable");
	if (last(cmd, "-mrelocatable-lib"))
		strvec_push(out, "-mrelocatable-lib");
	if (!COUNT(cmd, "-fno-pie", "-fno-PIE", "-fno-pic", "-fno-PIC"))
		strvec_pushl(out, "-K", "PIC", NULL);
	if (last(cmd, "-memb") || (sdata && !strcmp(sdata, "eabi")))
		strvec_push(out, "-memb");
}

/*
 * ppc64 (and ppc64le): %{m32:%(asm_spec32)}%{!m32:-a64} %(asm_cpu) %{mlittle|mlittle-endian:
 * -mlittle; mbig|mbig-endian: -mbig; mcall-i960-old: -mlittle;: (the configured one)};
 * 32-bit ppc: %{!m64:%(asm_spec32)}%{m64:-a64}, asm_default -mppc%{m64:64};
 * asm_cpu: %{mcpu=...: the rows above; !mcpu*: %{mpower9-vector: -mpower9;
 * mpower8-vector|mcrypto|mdirect-move|mhtm: -mpower8; mvsx: -mpower7; mpowerpc64: -mppc64;:
 * %(asm_default)}} %{mvsx: -mvsx -maltivec; maltivec: -maltivec} -many.  The other
 * word size than the compiler's own (its asm_default differs) is the driver's.
 */
static int gcc_ppc(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-mcpu="), G("-mvsx", "-mno-vsx"), G("-maltivec", "-mno-altivec"),
		G("-mpower9-vector", "-mno-power9-vector"), G("-mpower8-vector", "-mno-power8-vector"),
		G("-mcrypto", "-mno-crypto"), G("-mdirect-move", "-mno-direct-move"),
		G("-mhtm", "-mno-htm"), G("-mpowerpc64", "-mno-powerpc64"),
	};
	/* asm_spec32's words: the last -fpic or -fno-pic decides, and so on. */
	const char *const *const groups32[] = {
		G("-fpic", "-fPIC", "-fpie", "-fPIE", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE"),
		G("-mrelocatable", "-mno-relocatable"), G("-mrelocatable-lib", "-mno-relocatable-lib"),
		G("-memb"), G("-msdata="),
	};
	const char *cpu = value(cmd, "-mcpu="), *w = NULL;
	struct strvec def = STRVEC_INIT;
	int row = cpu ? ppc_cpu(cpu) : -1, bits32 = tg->target->bits == 32;

	/*
	 * Kbuild gives -mbig-endian (and -m32 or -m64) twice: a repeat is the
	 * same answer; both endiannesses are the spec's first alternative.
	 */
	if (needs_driver(cmd, groups, N(groups),
			 bits32 ? G("-m64", "-mcall-i960-old") : G("-m32", "-mcall-i960-old")) ||
	    (bits32 && needs_driver(cmd, groups32, N(groups32), NULL)) || (cpu && row < 0) ||
	    (COUNT(cmd, "-mlittle", "-mlittle-endian") && COUNT(cmd, "-mbig", "-mbig-endian")))
		return -1;
	if (bits32)
		ppc_spec32(out, cmd);
	else
		strvec_push(out, "-a64");
	if (cpu) {
		w = ppc_cpus[row].word;
		if (!strcmp(w, "-mpower8") && last(cmd, "-mpower9-vector"))
			w = "-mpower9";
	} else if (last(cmd, "-mpower9-vector"))
		w = "-mpower9";
	else if (COUNT(cmd, "-mpower8-vector", "-mcrypto", "-mdirect-move", "-mhtm"))
		w = "-mpower8";
	else if (last(cmd, "-mvsx"))
		w = "-mpower7";
	else if (last(cmd, "-mpowerpc64"))
		w = "-mppc64";
	if (w) {
		strvec_push(out, w);
		if (cpu && ppc_cpus[row].altivec && !COUNT(cmd, "-mvsx", "-maltivec"))
			strvec_push(out, "-maltivec");
	} else {
		/* asm_default: the driver's words between the -a/-K ones and -many. */
		push_defaults(&def, tg, "-m");
		for (size_t i = 0; i < def.nr && strcmp(def.v[i], "-many"); i++)
			if (strcmp(def.v[i], "-maltivec") && strcmp(def.v[i], "-mrelocatable") &&
			    strcmp(def.v[i], "-mrelocatable-lib") && strcmp(def.v[i], "-memb"))
				strvec_push(out, def.v[i]);
		strvec_clear(&def);
	}
	if (last(cmd, "-mvsx"))
		strvec_pushl(out, "-mvsx", "-maltivec", NULL);
	else if (last(cmd, "-maltivec"))
		strvec_push(out, "-maltivec");
	strvec_push(out, "-many");
	if (COUNT(cmd, "-mlittle", "-mlittle-endian"))
		strvec_push(out, "-mlittle");
	else if (COUNT(cmd, "-mbig", "-mbig-endian"))
		strvec_push(out, "-mbig");
	else if (!push_defaults(out, tg, "-mlittle"))
		push_defaults(out, tg, "-mbig");
	return 0;
}

/*
 * s390x: %{m31&m64}%{mesa&mzarch}%{march=z*}%{march=arch5:-march=z900}...
 * %{march=arch11:-march=z13}; the driver's self specs add -m64 and -mzarch
 * (-mesa for -m31) when absent, configure the -march default.
 */
static int gcc_s390(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-m31", "-m64"), G("-mesa", "-mzarch"), G("-march="),
	};
	static const char *const archs[][2] = {
		{ "arch5", "z900" }, { "arch6", "z990" }, { "arch7", "z9-ec" }, { "arch8", "z10" },
		{ "arch9", "z196" }, { "arch10", "zEC12" }, { "arch11", "z13" },
	};
	const char *bits = last(cmd, "-m31") ? "-m31" : last(cmd, "-m64");
	const char *mode = last(cmd, "-mesa") ? "-mesa" : last(cmd, "-mzarch");
	const char *arch = value(cmd, "-march=");

	int is31;

	if (needs_driver(cmd, groups, N(groups), NULL))
		return -1;
	if (bits)
		strvec_push(out, bits);
	else if (!push_defaults(out, tg, "-m64") && !push_defaults(out, tg, "-m31"))
		return -1;
	is31 = !strcmp(out->v[out->nr - 1], "-m31");
	strvec_push(out, mode ? mode : is31 ? "-mesa" : "-mzarch");
	if (!arch) {
		push_defaults(out, tg, "-march=");
		return 0;
	}
	if (arch[0] == 'z') {
		strvec_pushf(out, "-march=%s", arch);
		return 0;
	}
	for (size_t i = 0; i < N(archs); i++)
		if (!strcmp(arch, archs[i][0])) {
			strvec_pushf(out, "-march=%s", archs[i][1]);
			return 0;
		}
	return -1;	/* native, a newer archN: the driver's */
}

/* -march=mipsN (not r6: its own NaN and FP rules) -> -mipsN; a CPU name: the driver's table. */
static int mips_isa(const char *arch)
{
	static const char *const isas[] = {
		"mips1", "mips2", "mips3", "mips4", "mips32", "mips32r2", "mips32r3", "mips32r5",
		"mips64", "mips64r2", "mips64r3", "mips64r5",
	};

	for (size_t i = 0; i < N(isas); i++)
		if (!strcmp(arch, isas[i]))
			return 1;
	return 0;
}

/*
 * Words the spec passes on or rewrites that are not modelled here: -mipsN,
 * -mips16, microMIPS, the ASEs and -mfix- workarounds, -mplt, -mgp32/64 (self
 * specs of their own); the driver says.  A '*' at the end: a prefix.
 */
static int mips_unmodelled(const char *w)
{
	static const char *const words[] = {
		"-mips*", "-mno-mips*", "-mmicromips", "-mno-micromips", "-mdmx", "-mno-mdmx",
		"-mdsp*", "-mno-dsp*", "-mmcu", "-mno-mcu", "-meva", "-mno-eva", "-mvirt", "-mno-virt",
		"-mxpa", "-mno-xpa", "-mcrc", "-mno-crc", "-mginv", "-mno-ginv", "-mmsa", "-mno-msa",
		"-mloongson-*", "-mno-loongson-*", "-msmartmips", "-mno-smartmips", "-mmt", "-mno-mt",
		"-mfix-*", "-mno-fix-*", "-mplt", "-noasmopt", "-mgp32", "-mgp64", "-mno-float",
	};

	for (size_t i = 0; i < N(words); i++) {
		size_t n = strlen(words[i]);

		if (words[i][n - 1] == '*' ? !strncmp(w, words[i], n - 1) : !strcmp(w, words[i]))
			return 1;
	}
	return 0;
}

/* The last -O word decides (the driver prunes earlier ones): O0 -O1, O* -O2, none -O1. */
static const char *mips_opt(const struct ccd_cmd *cmd)
{
	const char *o = NULL;

	for (size_t i = 0; i < cmd->nr_args; i++)
		if (cmd->args[i].role == ARG_FLAG && !strncmp(cmd->args[i].word, "-O", 2))
			o = cmd->args[i].word;
	if (last(cmd, "-fno-delayed-branch") || !o || !strcmp(o, "-O0"))
		return "-O1";
	return "-O2";
}

/* Is w one of subtarget_asm_debugging_spec's words: -g, -gN, -ggdb, -ggdbN (N 0-3)? */
static int mips_gword(const char *w)
{
	const char *n = !strncmp(w, "-ggdb", 5) ? w + 5 : w + 2;

	return !strncmp(w, "-g", 2) && (!*n || (*n >= '0' && *n <= '3' && !n[1]));
}

/* subtarget_asm_debugging_spec: -ggdb(N) as -g(N); 0, or -1 for the driver (stabs, repeats). */
static int mips_debug(struct strvec *out, const struct ccd_cmd *cmd)
{
	const char *g = NULL;

	for (size_t i = 0; i < cmd->nr_args; i++) {
		const char *w = cmd->args[i].word;

		if (cmd->args[i].role != ARG_FLAG)
			continue;
		if ((g && mips_gword(w)) || !strncmp(w, "-gstabs", 7))
			return -1;
		if (mips_gword(w))
			g = w;
	}
	if (g)
		strvec_pushf(out, "-g%s", g + (!strncmp(g, "-ggdb", 5) ? 5 : 2));
	return 0;
}

/* -fno-pic and friends, which the Linux self spec answers with -mno-shared. */
static int mips_nopic(const struct ccd_cmd *cmd)
{
	return COUNT(cmd, "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE");
}

/* What the mips spec below cannot say for cmd: 1, ask the driver. */
static int mips_needs_driver(const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-EB", "-EL", "-meb", "-mel"), G("-march="), G("-mabi="), G("-mtune="), G("-mnan="),
		G("-mfp32", "-mfpxx", "-mfp64"), G("-mhard-float", "-msoft-float"),
		G("-msingle-float", "-mdouble-float"), G("-mabicalls", "-mno-abicalls"),
		G("-mshared", "-mno-shared"), G("-msym32", "-mno-sym32"), G("-mxgot", "-mno-xgot"),
		G("-modd-spreg", "-mno-odd-spreg"), G("-fdelayed-branch", "-fno-delayed-branch"),
	};
	char dabi[32];
	const char *arch = value(cmd, "-march="), *abi = value(cmd, "-mabi=");
	const char *dflt_abi = default_value(tg, "-mabi=", dabi, sizeof(dabi));
	int gs = 0, nopic = mips_nopic(cmd);

	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		if (a->role == ARG_FLAG && mips_unmodelled(a->word))
			return 1;
		gs += a->role == ARG_FLAG && a->opt && !strcmp(a->opt->name, "-G");
	}
	/*
	 * -fpic and -fno-pic words mixed: the driver keeps the last of them.
	 * Non-PIC abicalls code: -KPIC or -call_nonpic by how the compiler was
	 * configured (n64's -mplt default), which no default word shows.
	 */
	if ((nopic && COUNT(cmd, "-fpic", "-fPIC", "-fpie", "-fPIE")) ||
	    (!last(cmd, "-mno-abicalls") &&
	     (last(cmd, "-mno-shared") || (nopic && !last(cmd, "-mshared")))))
		return 1;
	/* Another ABI than the configured one has other -march and -mfp defaults. */
	return gs > 1 || needs_driver(cmd, groups, N(groups), NULL) || (arch && !mips_isa(arch)) ||
	       (abi && (!dflt_abi || strcmp(abi, dflt_abi)));
}

/* The spec from %{mxgot:-xgot} on: FP mode, the flags as given, PIC. */
static void mips_tail(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	static const char *const verbatim[] = {
		"-mnan=", "-modd-spreg", "-mno-odd-spreg", "-mshared", "-mno-shared", "-msym32",
		"-mno-sym32", "-mtune=", "-mhard-float", "-msoft-float", "-msingle-float",
		"-mdouble-float",
	};
	const char *w;

	if (last(cmd, "-mxgot"))
		strvec_push(out, "-xgot");
	if ((w = last(cmd, "-mfp32")) || (w = last(cmd, "-mfpxx")) || (w = last(cmd, "-mfp64")))
		strvec_push(out, w);
	else if (!COUNT(cmd, "-msoft-float", "-msingle-float"))
		push_defaults(out, tg, "-mfp");
	for (size_t k = 0; k < N(verbatim); k++)
		if ((w = last(cmd, verbatim[k])))
			strvec_push(out, w);
		else if (!strcmp(verbatim[k], "-mno-shared") && mips_nopic(cmd) &&
			 !last(cmd, "-mshared"))
			strvec_push(out, "-mno-shared");	/* the Linux self spec's, for non-PIC */
	if (!last(cmd, "-mno-abicalls"))
		strvec_push(out, "-KPIC");
}

/*
 * mips: %{G*} %(endian_spec) %{mips*} ... %{noasmopt:-O0; O0|fno-delayed-branch:-O1;
 * O*:-O2; :-O1} %(subtarget_asm_debugging_spec) %{mabi=*} %{mgp32} %{mgp64} %{march=*}
 * %{mxgot:-xgot} %{mfp32} %{mfpxx} %{mfp64} %{mnan=*} %{modd-spreg} %{mno-odd-spreg}
 * %{mshared} %{mno-shared} %{msym32} %{mno-sym32} %{mtune=*}%{mhard-float} %{msoft-float}
 * %{msingle-float} %{mdouble-float} %{!mno-abicalls:%{mplt:-call_nonpic;:-KPIC}}.
 * The driver's self specs add the endianness, -mipsN for -march=, and the
 * configured -march, -mabi and (o32) -mfpxx, which depend on the ABI.
 */
static int gcc_mips(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *arch = value(cmd, "-march="), *w;

	if (mips_needs_driver(tg, cmd))
		return -1;
	for (size_t i = 0; i < cmd->nr_args; i++)
		if (cmd->args[i].role == ARG_FLAG && cmd->args[i].opt &&
		    !strcmp(cmd->args[i].opt->name, "-G"))
			strvec_pushl(out, "-G", cmd->args[i].val, NULL);
	if (COUNT(cmd, "-EB", "-meb"))
		strvec_push(out, "-EB");
	else if (COUNT(cmd, "-EL", "-mel"))
		strvec_push(out, "-EL");
	else
		push_defaults(out, tg, "-E");
	if (arch)
		strvec_pushf(out, "-%s", arch);
	else
		push_defaults(out, tg, "-mips");
	strvec_push(out, mips_opt(cmd));
	if (mips_debug(out, cmd) || !push_defaults(out, tg, "-mabi="))
		return -1;
	if ((w = last(cmd, "-march=")))
		strvec_push(out, w);
	else
		push_defaults(out, tg, "-march=");
	mips_tail(out, tg, cmd);
	return 0;
}

/* m68k.opt's aliases of -mcpu= (the driver rewrites them before the spec). */
static const char *const m68k_aliases[][2] = {
	{ "-m68000", "68000" }, { "-mc68000", "68000" }, { "-m68010", "68010" },
	{ "-m68020", "68020" }, { "-mc68020", "68020" }, { "-m68030", "68030" },
	{ "-m68040", "68040" }, { "-m68060", "68060" }, { "-m68302", "68302" },
	{ "-m68332", "68332" }, { "-mcpu32", "68332" }, { "-m5200", "5206" },
	{ "-m5206e", "5206e" }, { "-m528x", "528x" }, { "-m5307", "5307" }, { "-m5407", "5407" },
	{ "-mcfv4e", "547x" },
};

/*
 * m68k: %{m68851}%{mno-68851} %{m68881}%{mno-68881} %{msoft-float:-mno-float}
 * %{m68020-40:-m68040}%{m68020-60:-m68040}%{mcpu=*:-mcpu=%*}%{march=*:-march=%*}
 * %{fpie|fPIE|fpic|fPIC:--pcrel} %{mpcrel:%{fpie|fPIE|fpic|fPIC:;:--pcrel}}
 * %{msep-data|mid-shared-library:--pcrel}; the configured -mcpu= (--with-cpu)
 * when no -mcpu=, -march=, alias or -m68020-40/60 is given.  No --gdwarf.
 * Repeats and mixes (the driver joins "-m68040" to a following -mcpu= word,
 * passes both of -msoft-float -mhard-float) are the driver's.
 */
static int gcc_m68k(struct strvec *out, const struct as_target *tg, const struct ccd_cmd *cmd)
{
	const char *const *const groups[] = {
		G("-m68851", "-mno-68851"), G("-m68881"), G("-msoft-float", "-mhard-float"),
		G("-march="), G("-mpcrel", "-mno-pcrel"), G("-msep-data", "-mno-sep-data"),
		G("-mid-shared-library", "-mno-id-shared-library"),
		G("-fpic", "-fPIC", "-fpie", "-fPIE", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE"),
	};
	const char *cpu = NULL, *arch = last(cmd, "-march="), *w;
	int ncpu = 0, wide = 0, pic = 0;

	if (needs_driver(cmd, groups, N(groups), G("-mfidoa")))
		return -1;
	for (size_t i = 0; i < cmd->nr_args; i++) {
		const char *a = cmd->args[i].word;

		if (cmd->args[i].role != ARG_FLAG)
			continue;
		if (!strncmp(a, "-mcpu=", 6))
			cpu = a + 6, ncpu++;
		else if (!strcmp(a, "-m68020-40") || !strcmp(a, "-m68020-60"))
			wide = 1, ncpu++;
		for (size_t k = 0; k < N(m68k_aliases); k++)
			if (!strcmp(a, m68k_aliases[k][0]))
				cpu = m68k_aliases[k][1], ncpu++;
		pic |= !strcmp(a, "-fpic") || !strcmp(a, "-fPIC") || !strcmp(a, "-fpie") ||
		       !strcmp(a, "-fPIE");
	}
	/* -m68020-40 with -march=: one word "-m68040-march=..." */
	if (ncpu > 1 || (wide && arch))
		return -1;
	if ((w = last(cmd, "-m68851")) || (w = last(cmd, "-mno-68851")))
		strvec_push(out, w);
	if (last(cmd, "-m68881"))
		strvec_push(out, "-m68881");
	if (last(cmd, "-msoft-float"))
		strvec_push(out, "-mno-float");
	if (wide)
		strvec_push(out, "-m68040");
	if (cpu)
		strvec_pushf(out, "-mcpu=%s", cpu);
	if (arch)
		strvec_push(out, arch);
	if (!cpu && !arch && !wide)
		push_defaults(out, tg, "-mcpu=");
	if (pic)
		strvec_push(out, "--pcrel");
	if (!pic && last(cmd, "-mpcrel"))
		strvec_push(out, "--pcrel");
	if (COUNT(cmd, "-msep-data", "-mid-shared-library"))
		strvec_push(out, "--pcrel");
	return 0;
}

/* clang's GNU-as tool on aarch64: -EL or -EB by the (endian-adjusted) triple. */
static int clang_aarch64(struct strvec *out, const struct as_target *tg,
			 const struct ccd_cmd *cmd)
{
	const char *be = last(cmd, "-mbig-endian"), *le = last(cmd, "-mlittle-endian");
	int big = tg->target->big_endian;

	/* The later of the two wins (clang makes the triple aarch64_be). */
	for (size_t i = 0; i < cmd->nr_args && (be || le); i++)
		if (cmd->args[i].word == be || cmd->args[i].word == le)
			big = cmd->args[i].word == be ? 1 : (cmd->args[i].word == le ? 0 : big);
	strvec_push(out, big ? "-EB" : "-EL");
	return 0;
}

int asspec_words(struct strvec *out, enum as_style style, const struct as_target *tg,
		 const struct ccd_cmd *cmd)
{
	static const struct as_target x86_64 = { NULL, NULL, NULL };

	if (!tg)
		tg = &x86_64;
	if (tg->asked) {
		for (size_t i = 0; i < tg->asked->nr; i++)
			strvec_push(out, tg->asked->v[i]);
		return 0;
	}
	if (style == AS_PLAIN)
		return 0;
	if (!tg->target || tg->target->arch == TARGET_X86)
		return x86(out, style, tg, cmd);
	if (style == AS_CLANG)
		return tg->target->arch == TARGET_AARCH64 ? clang_aarch64(out, tg, cmd) : -1;
	switch (tg->target->arch) {
	case TARGET_AARCH64:
		return gcc_aarch64(out, tg, cmd);
	case TARGET_ARM:
		return gcc_arm(out, tg, cmd);
	case TARGET_RISCV:
		return gcc_riscv(out, tg, cmd);
	case TARGET_PPC:
		return gcc_ppc(out, tg, cmd);
	case TARGET_S390:
		return gcc_s390(out, tg, cmd);
	case TARGET_MIPS:
		return gcc_mips(out, tg, cmd);
	case TARGET_M68K:
		return gcc_m68k(out, tg, cmd);
	case TARGET_X86:
		break;
	}
	return -1;
}

/*
 * 32-bit ppc: gcc's small data (Linux's -msdata=data, -G 8 by default) puts
 * public objects of 1 to -G bytes in .sbss (code reaches them as any other,
 * r13 only for -msdata=sysv); -msdata=none or -mno-sdata: none.  64-bit
 * code (-m64, or a ppc64 compiler without -m32) has none.
 */
static unsigned long long ppc_small_data(const struct target *t, const struct ccd_cmd *cmd)
{
	const char *g = NULL;
	int bits = t->bits, sdata = 1;

	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		if (a->role != ARG_FLAG)
			continue;
		if (!strcmp(a->word, "-m32") || !strcmp(a->word, "-m64"))
			bits = a->word[2] == '3' ? 32 : 64;
		else if (!strcmp(a->word, "-mno-sdata") || !strcmp(a->word, "-msdata=none"))
			sdata = 0;
		else if (!strcmp(a->word, "-msdata") || !strncmp(a->word, "-msdata=", 8))
			sdata = 1;
		else if (a->opt && !strcmp(a->opt->name, "-G"))
			g = a->val;
	}
	return bits == 32 && sdata ? (g ? strtoull(g, NULL, 10) : 8) : 0;
}

unsigned long long asspec_small_data(const struct target *t, enum as_style style,
				     const struct ccd_cmd *cmd)
{
	const char *g = NULL;
	int abicalls = 1;	/* Linux's default; gcc allows no small data with it */

	if (t && t->arch == TARGET_PPC)
		return style == AS_GCC ? ppc_small_data(t, cmd) : 0;	/* clang has none */
	if (!t || t->arch != TARGET_MIPS)
		return 0;
	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		if (a->role != ARG_FLAG)
			continue;
		if (!strcmp(a->word, "-mabicalls") || !strcmp(a->word, "-mno-abicalls"))
			abicalls = a->word[2] == 'a';
		else if (a->opt && !strcmp(a->opt->name, "-G"))
			g = a->val;
	}
	return g && !abicalls ? strtoull(g, NULL, 10) : 0;
}

/* Words of cmd beyond -m and -f that mips' as spec reads: -O, -g, -G, -EB/-EL, -noasmopt. */
static int mips_driver_word(const struct ccd_arg *a)
{
	return !strncmp(a->word, "-O", 2) || !strncmp(a->word, "-g", 2) ||
	       !strcmp(a->word, "-EB") || !strcmp(a->word, "-EL") ||
	       !strcmp(a->word, "-noasmopt") || (a->opt && !strcmp(a->opt->name, "-G"));
}

void asspec_driver_words(const struct target *t, const struct ccd_cmd *cmd, struct strvec *out)
{
	int mips = t && t->arch == TARGET_MIPS;

	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];
		int take = a->role == ARG_FLAG &&
			   (!strncmp(a->word, "-m", 2) || !strncmp(a->word, "-f", 2) ||
			    !strncmp(a->word, "--target=", 9) ||
			    (a->opt && !strcmp(a->opt->name, "-target")) ||
			    (mips && mips_driver_word(a)));

		if (!take)
			continue;
		strvec_push(out, a->word);
		/* A separate value ("-target" "X", "-mllvm" "Y", "-G" "0") goes with it. */
		if (i + 1 < cmd->nr_args && cmd->args[i + 1].role == ARG_VALUE)
			strvec_push(out, cmd->args[++i].word);
	}
}
