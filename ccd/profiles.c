// SPDX-License-Identifier: GPL-2.0
#include "profiles.h"
#include "classify.h"
#include "options.h"

#include <string.h>

#define N(t) (sizeof(t) / sizeof(*(t)))

/*
 * Intel C++ Compiler Classic (icc, EDG front end).  The kernel's gcc
 * flags that icc rejects, misreads or answers with a flood (Kubbilun 2004).
 */
static const struct flag_xlat icc_xlat[] = {
	{ "-Wall", "-w", "icc's -Wall floods remarks about kernel idioms; keep errors only" },
	{ "-fno-omit-frame-pointer", "-fp", "icc spells 'keep the frame pointer' -fp" },
	{ "-march=i686", "-march=pentiumpro", "icc names the i686 baseline pentiumpro" },
	{ "-march=x86-64", "-march=core2", "icc has no generic x86-64 -march; core2 is its oldest 64-bit" },
	{ "-mtune=generic", NULL, "icc rejects -mtune=generic; its default tuning is generic" },
	{ "-mno-sse", "-no-vec", "icc ignores -mno-sse; stop its vectorizer putting SSE in kernel code" },
	{ "-mno-sse2", "-no-vec", "as -mno-sse: no auto-vectorized SIMD in the kernel" },
	{ "-mno-mmx", NULL, "icc never emits MMX uninvited; the flag is unknown to it" },
	{ "-mno-3dnow", NULL, "icc never emits 3DNow!; the flag is unknown to it" },
	{ "-mno-avx", "-no-vec", "as -mno-sse: no auto-vectorized SIMD in the kernel" },
	{ "-mno-80387", NULL, "icc cannot drop x87; kernel code has no floating point anyway" },
	{ "-mno-fp-ret-in-387", NULL, "unknown to icc; kernel code returns no floats" },
	{ "-mpreferred-stack-boundary=*", NULL, "unknown to icc; the kernel relies on the ABI default" },
	{ "-mskip-rax-setup", NULL, "unknown to icc; only affects varargs calls" },
	{ "-falign-jumps=*", NULL, "unknown to icc; alignment is a tuning hint" },
	{ "-falign-loops=*", NULL, "unknown to icc; alignment is a tuning hint" },
	{ "-fconserve-stack", NULL, "unknown to icc; a gcc inliner heuristic" },
	{ "-fno-delete-null-pointer-checks", NULL, "unknown to icc; icc does not delete them" },
	{ "-fno-allow-store-data-races", NULL, "unknown to icc; a gcc optimisation guard" },
	{ "-fno-var-tracking-assignments", NULL, "unknown to icc; gcc debug-info tuning" },
	{ "-fdiagnostics-color*", NULL, "icc has no colour option; ccache adds it for gcc-typed compilers (H4)" },
	{ "-Wno-*", NULL, "icc rejects many gcc warning names; -w already silences warnings" },
};

/* Intel oneAPI icx (clang front end): only gcc flags clang rejects. */
static const struct flag_xlat icx_xlat[] = {
	{ "-fconserve-stack", NULL, "clang rejects it; a gcc inliner heuristic" },
	{ "-fno-allow-store-data-races", NULL, "clang rejects it; a gcc optimisation guard" },
	{ "-fno-var-tracking-assignments", NULL, "clang ignores it with a warning that -Werror turns fatal" },
	{ "-falign-jumps=*", NULL, "clang ignores it with a warning that -Werror turns fatal" },
	{ "-mpreferred-stack-boundary=*", NULL, "clang rejects it on x86-64; the ABI default is used" },
	{ "-fdiagnostics-color", "-fcolor-diagnostics", "the clang spelling" },
};

/*
 * The Portable C Compiler (pcc 1.2): a driver of its own, no -dumpdir or
 * -dumpbase, and like icc 8.0 it emits .comm for uninitialised globals
 * even under -fno-common (accepted and ignored), which is what the common
 * pass repairs (statics too: .local + .comm, sizes in octal).
 */
static const struct flag_xlat pcc_xlat[] = {
	{ "-fdiagnostics-color*", NULL, "pcc has no colour option; ccache adds it for gcc-typed compilers" },
};

static const struct profile profiles[] = {
	{ "gcc", AS_GCC, 1, NULL, NULL, 0 },
	/* Without it clang -S writes .addrsig and friends for its own assembler. */
	{ "clang", AS_CLANG, 0, "-fno-integrated-as", NULL, 0 },
	{ "icc", AS_GCC, 0, NULL, icc_xlat, N(icc_xlat) },
	{ "icx", AS_CLANG, 0, "-fno-integrated-as", icx_xlat, N(icx_xlat) },
	{ "pcc", AS_GCC, 0, NULL, pcc_xlat, N(pcc_xlat) },
};

const struct profile *profile_by_name(const char *name)
{
	for (size_t i = 0; i < N(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct profile *profile_for(const char *compiler)
{
	const char *base = path_basename(compiler);

	if (strstr(base, "clang"))
		return profile_by_name("clang");
	if (!strncmp(base, "icx", 3) || strstr(base, "-icx"))
		return profile_by_name("icx");
	if (!strncmp(base, "icc", 3) || strstr(base, "-icc"))
		return profile_by_name("icc");
	if (!strncmp(base, "pcc", 3) || strstr(base, "-pcc"))
		return profile_by_name("pcc");
	return profile_by_name("gcc");
}

static const struct flag_xlat *match(const struct profile *p, const char *arg)
{
	for (size_t i = 0; i < p->nr_xlat; i++) {
		const char *from = p->xlat[i].from;
		size_t len = strlen(from);

		if (len && from[len - 1] == '*') {
			if (!strncmp(arg, from, len - 1))
				return &p->xlat[i];
		} else if (!strcmp(arg, from)) {
			return &p->xlat[i];
		}
	}
	return NULL;
}

size_t profile_translate(const struct profile *p, struct strvec *out,
			 int argc, char *const *argv)
{
	size_t changed = 0;

	for (int i = 0; i < argc; i++) {
		const struct gcc_option *o = option_lookup(argv[i]);
		const struct flag_xlat *x;

		/* An option's value is data, never a flag to translate. */
		if (o && (o->flags & OPT_SEP) && !strcmp(argv[i], o->name) && i + 1 < argc) {
			strvec_pushl(out, argv[i], argv[i + 1], NULL);
			i++;
			continue;
		}
		x = match(p, argv[i]);
		if (!x) {
			strvec_push(out, argv[i]);
			continue;
		}
		changed++;
		if (x->to)
			strvec_push(out, x->to);
	}
	return changed;
}
