/* SPDX-License-Identifier: GPL-2.0 */
/* Which compiler ccd delegates to, and which as and objcopy go with it. */
#ifndef CCD_BACKEND_H
#define CCD_BACKEND_H

#include "family.h"
#include "profiles.h"
#include "strbuf.h"

struct backend {
	struct strvec cmd;	/* prefix words ("distcc") + resolved compiler */
	const char *compiler;	/* last element of cmd */
	char *path;		/* the compiler's file (compiler may be a bare word) */
	const struct profile *profile;
	struct strbuf why;	/* how the profile was chosen */
	int cached;		/* the family came from ccd's cache */
	const char *origin;	/* where the choice came from */
	struct compiler_answer ans;	/* asked with no flags (ans.family NULL: not yet) */
	/* Set by backend_target(): this compile's target and where it came from. */
	const struct target *target;
	const char *as_defaults;	/* the driver's default as words, tab-separated */
	struct strbuf target_why;
	struct compiler_answer tans;	/* asked with the compile's --target= words */
};

/* True if path is this ccd binary (same file: any name, symlink or hard link). */
int is_self(const char *path);
/* Search PATH for name, skipping ccd itself and masquerade links to it. */
char *find_backend_in_path(const char *name);

/*
 * Resolve spec ("gcc", "/usr/bin/clang", "distcc gcc"); NULL spec means
 * the first of icc, icx, gcc, clang on PATH.  Returns 0, or prints an
 * error and returns 127 (not found) or 1 (ccd is its own backend).
 */
int backend_resolve(struct backend *b, const char *spec, const char *origin);
/*
 * Choose b's profile: forced (the 'profile' key) if set, else a user
 * profile named like the compiler file, else the one of the family the
 * compiler says it is.  0, or 1 after a message (no such profile).
 */
int backend_profile(struct backend *b, const char *forced);
void backend_release(struct backend *b);

/*
 * This compile's target: forced (the 'target' setting, its origin) if
 * set, else what the compiler says, asked with cmd's target-choosing
 * words (clang's --target=, -target; NULL cmd: none).  0, or 1 after a
 * message naming what to set (an unknown name, a compiler that cannot
 * tell).
 */
int backend_target(struct backend *b, const struct ccd_cmd *cmd, const char *forced,
		   const char *forced_origin);
/* cmd's target-choosing words, for asking the compiler (not copied). */
void target_words(const struct ccd_cmd *cmd, struct strvec *out);

/*
 * The as (or objcopy) the backend's driver would run.  as_cfg: the
 * configured assembler ("" or NULL: derive).  cmd: the classified
 * compile, for its -B, --prefix and --target options (NULL: none).  For
 * a target that is not this machine's (backend_target() said), never the
 * host's plain tool: ${CROSS_COMPILE}TOOL, else the driver's
 * -print-prog-name.  See ccd(1) "ASSEMBLER" for the rule and why.
 */
char *backend_tool(const struct backend *b, const char *tool, const char *cfg,
		   const struct ccd_cmd *cmd);

#endif
