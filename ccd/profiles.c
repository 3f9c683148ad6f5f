// SPDX-License-Identifier: GPL-2.0
#include "profiles.h"
#include "classify.h"
#include "config.h"
#include "warn.h"

#include <stdlib.h>
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
	{ "-fdiagnostics-color*", NULL, "icc has no colour option; ccache adds it for gcc-typed compilers" },
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

#define BUILTIN "built-in"

static const struct profile profiles[] = {
	{ "gcc", "gcc", AS_GCC, 1, DEPS_YES, 1, "-S", NULL, NULL, NULL, 0, NULL, BUILTIN },
	/* Without -fno-integrated-as clang -S writes .addrsig and friends for its own assembler. */
	{ "clang", "clang", AS_CLANG, 0, DEPS_YES, 1, "-S", "-fno-integrated-as", NULL, NULL, 0, NULL, BUILTIN },
	{ "icc", "icc", AS_GCC, 0, DEPS_YES, 1, "-S", NULL, NULL, icc_xlat, N(icc_xlat), NULL, BUILTIN },
	{ "icx", "icx", AS_CLANG, 0, DEPS_YES, 1, "-S", "-fno-integrated-as", NULL, icx_xlat, N(icx_xlat),
	  NULL, BUILTIN },
	/*
	 * pcc's cpp fails on -Wp,-MD,FILE, and with -MT or -MQ it writes
	 * uninitialised bytes before the target (seen with MALLOC_PERTURB_):
	 * ccd gives it only the target it derives itself.
	 */
	{ "pcc", "pcc", AS_PLAIN, 0, DEPS_DRIVER, 0, "-S", NULL, NULL, pcc_xlat, N(pcc_xlat), NULL, BUILTIN },
	/*
	 * A compiler ccd does not know: only what every Unix cc accepts to
	 * give assembly (-S, -o, -D); the user's flags as they are; no
	 * dependency files ccd cannot vouch for (refused, see classify).
	 */
	{ "generic", "generic", AS_PLAIN, 0, DEPS_NO, 0, "-S", NULL, NULL, NULL, 0, NULL, BUILTIN },
};

/* Profiles from ccd.conf; their strings live as long as they do. */
struct user_profile {
	struct profile p;
	struct flag_xlat *rows;
	size_t alloc;
	struct strvec strings;
};

static struct user_profile **users;
static size_t nr_users;

static const struct profile *builtin(const char *name)
{
	for (size_t i = 0; i < N(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct profile *user_profile(const char *name)
{
	for (size_t i = 0; i < nr_users; i++)
		if (!strcmp(users[i]->p.name, name))
			return &users[i]->p;
	return NULL;
}

const struct profile *profile_by_name(const char *name)
{
	const struct profile *p = user_profile(name);

	return p ? p : builtin(name);
}

const char *family_from_name(const char *compiler)
{
	const char *base = path_basename(compiler);

	if (strstr(base, "clang"))
		return "clang";
	if (!strncmp(base, "icx", 3) || strstr(base, "-icx"))
		return "icx";
	if (!strncmp(base, "icc", 3) || strstr(base, "-icc"))
		return "icc";
	if (!strncmp(base, "pcc", 3) || strstr(base, "-pcc"))
		return "pcc";
	if (strstr(base, "gcc") || !strcmp(base, "cc"))
		return "gcc";
	return "generic";
}

void profile_caps(const struct profile *p, struct backend_caps *caps)
{
	caps->dumpbase = p->dumpbase;
	caps->deps = p->deps;
	caps->dep_target = p->dep_target;
	caps->name = p->name;
}

static const struct flag_xlat *match(const struct profile *p, const char *arg)
{
	for (; p; p = p->inherits) {
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
	}
	return NULL;
}

int profile_translates(const struct profile *p)
{
	for (; p; p = p->inherits)
		if (p->nr_xlat)
			return 1;
	return 0;
}

int profile_translate_word(const struct profile *p, struct strvec *out, const char *word)
{
	const struct flag_xlat *x = match(p, word);

	if (!x) {
		strvec_push(out, word);
		return 0;
	}
	if (x->to)
		strvec_push(out, x->to);
	return 1;
}

size_t profile_translate(const struct profile *p, struct strvec *out,
			 const struct ccd_cmd *cmd)
{
	size_t changed = 0;

	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		/* An option's value is data, never a flag to translate. */
		if (a->role == ARG_VALUE || a->role == ARG_INPUT)
			strvec_push(out, a->word);
		else
			changed += (size_t)profile_translate_word(p, out, a->word);
	}
	return changed;
}

void profile_push_words(struct strvec *out, const char *words)
{
	if (words)
		strvec_split(out, words);
}

/* ---- [profile NAME] sections ---- */

static struct user_profile *user_get(const char *name)
{
	struct user_profile *u;

	for (size_t i = 0; i < nr_users; i++)
		if (!strcmp(users[i]->p.name, name))
			return users[i];
	u = xcalloc(1, sizeof(*u));
	strvec_push(&u->strings, name);
	u->p = *builtin(builtin(name) ? name : "generic");
	u->p.name = u->strings.v[0];
	u->p.xlat = NULL;
	u->p.nr_xlat = 0;
	u->p.inherits = builtin(u->p.family);
	users = xrealloc(users, (nr_users + 1) * sizeof(*users));
	users[nr_users++] = u;
	return u;
}

static const char *keep(struct user_profile *u, const char *s)
{
	strvec_push(&u->strings, s);
	return u->strings.v[u->strings.nr - 1];
}

/* "FLAG [TO] | reason": the words before '|' (1 or 2), the reason after. */
static int parse_row(struct user_profile *u, const char *value, int words,
		     const char *origin, const char *key)
{
	const char *bar = strchr(value, '|');
	struct strvec w = STRVEC_INIT;
	struct flag_xlat *row;
	int ret = 0;

	if (bar) {
		char *head = xstrndup(value, (size_t)(bar - value));

		strvec_split(&w, head);
		free(head);
	}
	while (bar && (*++bar == ' ' || *bar == '\t'))
		;
	if (!bar || !*bar) {
		ret = error("%s: %s: give a reason after '|' (\"%s\")", origin, key,
			    words == 1 ? "FLAG | why" : "FROM TO | why");
	} else if (w.nr != (size_t)words) {
		ret = error("%s: %s: expected %s before '|', got %zu word(s)", origin, key,
			    words == 1 ? "one flag" : "two words (FROM TO)", w.nr);
	} else {
		if (u->p.nr_xlat == u->alloc) {
			u->alloc = u->alloc ? 2 * u->alloc : 8;
			u->rows = xrealloc(u->rows, u->alloc * sizeof(*u->rows));
		}
		row = &u->rows[u->p.nr_xlat++];
		row->from = keep(u, w.v[0]);
		row->to = words == 2 ? keep(u, w.v[1]) : NULL;
		row->why = keep(u, bar);
		u->p.xlat = u->rows;
	}
	strvec_clear(&w);
	return ret;
}

static int set_bool(int *field, const char *value, const char *origin, const char *key)
{
	int b = config_parse_bool(value);

	if (b < 0)
		return error("%s: %s: '%s' is not a boolean (yes/no)", origin, key, value);
	*field = b;
	return 0;
}

static int set_family(struct user_profile *u, const char *value, const char *origin)
{
	const struct profile *base = builtin(value);

	if (!base)
		return error("%s: family: '%s' is not one of gcc, clang, icc, icx, pcc, generic",
			     origin, value);
	/* The profile starts over from that family: set it first. */
	u->p.nr_xlat = 0;
	u->p.family = base->name;
	u->p.as_style = base->as_style;
	u->p.dumpbase = base->dumpbase;
	u->p.deps = base->deps;
	u->p.dep_target = base->dep_target;
	u->p.assembly = base->assembly;
	u->p.assembly_last = base->assembly_last;
	u->p.as_flags = base->as_flags;
	u->p.inherits = base;
	return 0;
}

/* value as an index into names (an enum's spelling); -1 if none. */
static int name_index(const char *const *names, size_t n, const char *value)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(value, names[i]))
			return (int)i;
	return -1;
}

static int set_as_style(struct user_profile *u, const char *value, const char *origin)
{
	static const char *const names[] = { "gcc", "clang", "plain" };
	int i = name_index(names, N(names), value);

	if (i < 0)
		return error("%s: as_style: '%s' is not one of gcc, clang, plain", origin, value);
	u->p.as_style = (enum as_style)i;
	return 0;
}

static int set_deps(struct user_profile *u, const char *value, const char *origin)
{
	static const char *const names[] = { "no", "driver", "yes" };
	int i = name_index(names, N(names), value);

	if (i < 0)
		return error("%s: deps: '%s' is not one of yes, driver, no", origin, value);
	u->p.deps = (enum deps_support)i;
	return 0;
}

static int set_key(struct user_profile *u, const char *key, const char *value,
		   const char *origin)
{
	if (!strcmp(key, "family"))
		return set_family(u, value, origin);
	if (!strcmp(key, "assembly")) {
		if (!*value)
			return error("%s: assembly: the words that ask for assembly (\"-S\")", origin);
		u->p.assembly = keep(u, value);
	} else if (!strcmp(key, "assembly_last")) {
		u->p.assembly_last = *value ? keep(u, value) : NULL;
	} else if (!strcmp(key, "as_flags")) {
		u->p.as_flags = *value ? keep(u, value) : NULL;
	} else if (!strcmp(key, "as_style")) {
		return set_as_style(u, value, origin);
	} else if (!strcmp(key, "dumpbase")) {
		return set_bool(&u->p.dumpbase, value, origin, key);
	} else if (!strcmp(key, "deps")) {
		return set_deps(u, value, origin);
	} else if (!strcmp(key, "dep_target")) {
		return set_bool(&u->p.dep_target, value, origin, key);
	} else if (!strcmp(key, "drop")) {
		return parse_row(u, value, 1, origin, key);
	} else if (!strcmp(key, "translate")) {
		return parse_row(u, value, 2, origin, key);
	} else {
		return error("%s: unknown key '%s' in [profile %s] (family, assembly, "
			     "assembly_last, as_style, as_flags, dumpbase, deps, dep_target, drop, "
			     "translate)",
			     origin, key, u->p.name);
	}
	return 0;
}

int profile_config(const char *name, const char *key, const char *value,
		   const char *origin)
{
	struct user_profile *u = user_get(name);
	int ret = set_key(u, key, value, origin);

	/* The first line of the section names where the profile comes from. */
	if (!ret && !strcmp(u->p.origin, BUILTIN))
		u->p.origin = keep(u, origin);
	return ret;
}

void profiles_release(void)
{
	for (size_t i = 0; i < nr_users; i++) {
		free(users[i]->rows);
		strvec_clear(&users[i]->strings);
		free(users[i]);
	}
	free(users);
	users = NULL;
	nr_users = 0;
}
