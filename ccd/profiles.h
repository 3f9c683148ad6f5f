/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Backend profiles: how a compiler differs from gcc, as data.  Built-in
 * rows for gcc, clang, icc, icx, pcc and a conservative "generic"; users
 * add or override profiles in ccd.conf ([profile NAME] sections, see
 * ccd.conf(5)).  Every translation row says why.
 */
#ifndef CCD_PROFILES_H
#define CCD_PROFILES_H

#include "classify.h"
#include "strbuf.h"

struct flag_xlat {
	const char *from;	/* gcc flag; a trailing '*' matches a prefix */
	const char *to;		/* replacement (one argv element), NULL = drop */
	const char *why;
};

enum as_style {
	AS_GCC,		/* the gcc 12 driver's asm spec */
	AS_CLANG,	/* clang's GNU-as tool (-fno-integrated-as) */
	AS_PLAIN,	/* -Wa,/-Xassembler words only, as pcc's driver does */
};

struct profile {
	const char *name;
	const char *family;	/* compiler family it is for (a built-in's name) */
	enum as_style as_style;
	int dumpbase;		/* driver knows -dumpdir/-dumpbase (gcc >= 11) */
	enum deps_support deps;	/* gcc-style dependency options it takes */
	int dep_target;		/* takes -MQ for the dependency target */
	const char *assembly;	/* words in place of -c/-S that ask for assembly */
	const char *assembly_last;	/* words after all others (so they win), or NULL */
	const char *as_flags;	/* words for as before its -o, or NULL */
	const struct flag_xlat *xlat;
	size_t nr_xlat;
	const struct profile *inherits;	/* rows checked after ours, or NULL */
	const char *origin;	/* "built-in" or the ccd.conf file:line */
};

/* A user profile of that name, else the built-in one, else NULL. */
const struct profile *profile_by_name(const char *name);
/* Only the user's ([profile NAME] in ccd.conf), or NULL. */
const struct profile *user_profile(const char *name);
/*
 * The family a compiler's file name suggests (the fallback when the
 * compiler cannot say): *clang* -> clang, icx*, icc*, pcc*, *gcc* and
 * cc -> gcc, anything else generic.
 */
const char *family_from_name(const char *compiler);

/* What classify_for() needs to know of p. */
void profile_caps(const struct profile *p, struct backend_caps *caps);

/*
 * Append the classified command's words translated through p's rows:
 * option values and inputs as they are.  Returns how many words the
 * rows changed or dropped.
 */
size_t profile_translate(const struct profile *p, struct strvec *out,
			 const struct ccd_cmd *cmd);
/* Has p (or a profile it inherits) any row? */
int profile_translates(const struct profile *p);
/* One option word through p's rows; 1 if a row matched. */
int profile_translate_word(const struct profile *p, struct strvec *out, const char *word);
/* Split p's word list (assembly, assembly_last, as_flags) onto out. */
void profile_push_words(struct strvec *out, const char *words);

/*
 * ccd.conf's [profile NAME] sections: one call per "key = value" line.
 * -1 (message naming origin printed) for an unknown key or a bad value.
 */
int profile_config(const char *name, const char *key, const char *value,
		   const char *origin);
void profiles_release(void);

#endif
