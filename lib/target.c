// SPDX-License-Identifier: GPL-2.0
/*
 * The one target table.  A row says what the programs must know of a
 * machine: how to recognise it (triple, predefined macros), its ELF
 * machine, and the assembly syntax asmfix writes for it.
 */
#include "target.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#define NROWS(t) (sizeof(t) / sizeof(*(t)))

static const struct target targets[] = {
	{ "x86_64", TARGET_X86, EM_X86_64, 64, 0, "#", '@', 1 },
	{ "i386", TARGET_X86, EM_386, 32, 0, "#", '@', 1 },
	{ "aarch64", TARGET_AARCH64, EM_AARCH64, 64, 0, "//", '%', 1 },
	/* '@' starts a comment on arm: gcc writes %object, %nobits. */
	{ "arm", TARGET_ARM, EM_ARM, 32, 0, "@", '%', 0 },
	{ "riscv64", TARGET_RISCV, EM_RISCV, 64, 0, "#", '@', 1 },
	{ "riscv32", TARGET_RISCV, EM_RISCV, 32, 0, "#", '@', 1 },
	{ "ppc64le", TARGET_PPC, EM_PPC64, 64, 0, "#", '@', 0 },
	{ "ppc64", TARGET_PPC, EM_PPC64, 64, 1, "#", '@', 0 },
	/* 32-bit big-endian powerpc: the same gcc driver spec as ppc64. */
	{ "ppc", TARGET_PPC, EM_PPC, 32, 1, "#", '@', 0 },
	{ "s390x", TARGET_S390, EM_S390, 64, 1, "#", '@', 0 },
	/* o32 and n64; gcc's mips driver gives as -g words, never --gdwarf. */
	{ "mipsel", TARGET_MIPS, EM_MIPS, 32, 0, "#", '@', 0 },
	{ "mips", TARGET_MIPS, EM_MIPS, 32, 1, "#", '@', 0 },
	{ "mips64el", TARGET_MIPS, EM_MIPS, 64, 0, "#", '@', 0 },
	{ "mips64", TARGET_MIPS, EM_MIPS, 64, 1, "#", '@', 0 },
	/* '|' starts a comment on m68k ('#' is an immediate's prefix); '@' is free. */
	{ "m68k", TARGET_M68K, EM_68K, 32, 1, "|", '@', 0 },
};

/* A triple's first field (or a Kbuild ARCH name) -> ccd's name; prefix rows end in '*'. */
static const struct {
	const char *cpu, *name;
} cpus[] = {
	{ "x86_64", "x86_64" }, { "amd64", "x86_64" }, { "x86", "x86_64" },
	{ "i386", "i386" }, { "i486", "i386" }, { "i586", "i386" }, { "i686", "i386" },
	{ "aarch64", "aarch64" }, { "arm64", "aarch64" },
	{ "armeb*", NULL }, { "arm*", "arm" },	/* arm, armv7, armv7l, armv7a, armhf */
	{ "riscv64", "riscv64" }, { "riscv32", "riscv32" },
	{ "powerpc64le", "ppc64le" }, { "ppc64le", "ppc64le" },
	{ "powerpc64", "ppc64" }, { "ppc64", "ppc64" },
	{ "powerpc", "ppc" }, { "ppc", "ppc" },	/* powerpcle, ppcle: no row */
	{ "s390x", "s390x" },
	{ "mipsel", "mipsel" }, { "mips", "mips" },
	{ "mips64el", "mips64el" }, { "mips64", "mips64" },
	{ "mipsisa*", NULL },	/* r6 triples: another driver configuration */
	{ "m68k", "m68k" },
};

/* A triple naming an ABI no row has: mips64el-linux-gnuabin32 is n32, not n64. */
static const char *const other_abis[] = { "abin32" };

/*
 * Predefined macros, checked in order; a condition is "NAME" or "NAME
 * VALUE".  A NULL name: a machine ccd does not support (big-endian arm),
 * which must not be taken for the little-endian row after it.
 */
static const struct {
	const char *cond, *cond2, *name;
} machine_macros[] = {
	{ "__x86_64__", NULL, "x86_64" },
	{ "__i386__", NULL, "i386" },
	{ "__AARCH64EB__", NULL, NULL },
	{ "__aarch64__", NULL, "aarch64" },
	{ "__ARMEB__", NULL, NULL },
	{ "__arm__", NULL, "arm" },
	{ "__riscv_xlen 64", NULL, "riscv64" },
	{ "__riscv_xlen 32", NULL, "riscv32" },
	{ "__powerpc64__", "__LITTLE_ENDIAN__", "ppc64le" },
	{ "__powerpc64__", "__BIG_ENDIAN__", "ppc64" },
	/* 32-bit: __powerpc__ without __powerpc64__ (the rows above took those). */
	{ "__powerpc__", "__BIG_ENDIAN__", "ppc" },
	{ "__powerpc__", NULL, NULL },	/* little-endian ppc32 */
	{ "__s390x__", NULL, "s390x" },
	/* _MIPS_SIM, not __mips64: o32 code for a 64-bit ISA defines __mips64 too. */
	{ "_MIPS_SIM _ABIO32", "__MIPSEL__", "mipsel" },
	{ "_MIPS_SIM _ABIO32", "__MIPSEB__", "mips" },
	{ "_MIPS_SIM _ABI64", "__MIPSEL__", "mips64el" },
	{ "_MIPS_SIM _ABI64", "__MIPSEB__", "mips64" },
	{ "__mips__", NULL, NULL },	/* n32, or no endianness said */
	{ "__m68k__", NULL, "m68k" },	/* 680x0 and ColdFire: one as, one ELF machine */
};

static const struct target *target_row(const char *name, size_t len)
{
	for (size_t i = 0; i < NROWS(targets); i++)
		if (strlen(targets[i].name) == len && !strncmp(targets[i].name, name, len))
			return &targets[i];
	return NULL;
}

const struct target *target_named(const char *name)
{
	size_t len = strcspn(name, "-");

	if (!name[len] && target_row(name, len))
		return target_row(name, len);
	for (size_t i = 0; i < NROWS(other_abis); i++)
		if (strstr(name + len, other_abis[i]))
			return NULL;
	for (size_t i = 0; i < NROWS(cpus); i++) {
		size_t n = strlen(cpus[i].cpu);
		int prefix = cpus[i].cpu[n - 1] == '*';

		if (prefix ? len >= n - 1 && !strncmp(name, cpus[i].cpu, n - 1)
			   : len == n && !strncmp(name, cpus[i].cpu, n))
			return cpus[i].name ? target_row(cpus[i].name, strlen(cpus[i].name)) : NULL;
	}
	return NULL;
}

/* The value of "#define MACRO VALUE" in text, or NULL if not defined. */
static const char *dm_value(const char *text, const char *macro, size_t len)
{
	for (const char *p = text; (p = strstr(p, "#define ")); p++) {
		p += 8;
		if (!strncmp(p, macro, len) && (p[len] == ' ' || p[len] == '\n'))
			return p + len + (p[len] == ' ');
	}
	return NULL;
}

int dm_defines(const char *text, const char *macro)
{
	return dm_value(text, macro, strlen(macro)) != NULL;
}

/* "NAME" defined, or "NAME VALUE" defined to exactly VALUE. */
static int holds(const char *text, const char *cond)
{
	const char *sp = strchr(cond, ' ');
	const char *v = dm_value(text, cond, sp ? (size_t)(sp - cond) : strlen(cond));
	size_t n;

	if (!v || !sp)
		return v != NULL;
	n = strlen(sp + 1);
	return !strncmp(v, sp + 1, n) && (v[n] == '\n' || !v[n]);
}

const struct target *target_from_macros(const char *text, struct strbuf *how)
{
	for (size_t i = 0; i < NROWS(machine_macros); i++) {
		const char *cond = machine_macros[i].cond, *cond2 = machine_macros[i].cond2;
		const char *name = machine_macros[i].name;

		if (!holds(text, cond) || (cond2 && !holds(text, cond2)))
			continue;
		if (!name) {
			strbuf_addf(how, "predefined macro %s: a machine ccd does not support", cond);
			return NULL;
		}
		strbuf_addf(how, "predefined macro %s%s%s", cond, cond2 ? " and " : "",
			    cond2 ? cond2 : "");
		return target_row(name, strlen(name));
	}
	strbuf_addstr(how, "no known machine macro among its predefined ones");
	return NULL;
}

const struct target *target_host(void)
{
#if defined(__x86_64__)
	return target_named("x86_64");
#elif defined(__i386__)
	return target_named("i386");
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
	return target_named("aarch64");
#elif defined(__arm__) && !defined(__ARMEB__)
	return target_named("arm");
#elif defined(__riscv) && __riscv_xlen == 64
	return target_named("riscv64");
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
	return target_named("ppc64le");
#elif defined(__powerpc64__)
	return target_named("ppc64");
#elif defined(__powerpc__) && defined(__BIG_ENDIAN__)
	return target_named("ppc");
#elif defined(__s390x__)
	return target_named("s390x");
#elif defined(__mips__) && _MIPS_SIM == _ABIO32 && defined(__MIPSEL__)
	return target_named("mipsel");
#elif defined(__mips__) && _MIPS_SIM == _ABIO32
	return target_named("mips");
#elif defined(__mips__) && _MIPS_SIM == _ABI64 && defined(__MIPSEL__)
	return target_named("mips64el");
#elif defined(__mips__) && _MIPS_SIM == _ABI64
	return target_named("mips64");
#elif defined(__m68k__)
	return target_named("m68k");
#else
	return NULL;
#endif
}

const char *target_names(void)
{
	static char buf[256];	/* 110 bytes with fifteen rows */

	if (!buf[0])
		for (size_t i = 0; i < NROWS(targets); i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 i ? ", " : "", targets[i].name);
	return buf;
}
