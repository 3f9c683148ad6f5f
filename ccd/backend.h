/* SPDX-License-Identifier: GPL-2.0 */
/* Which compiler ccd delegates to, and which as and objcopy go with it. */
#ifndef CCD_BACKEND_H
#define CCD_BACKEND_H

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
 * The as (or objcopy) the backend's driver would run.  as_cfg: the
 * configured assembler ("" or NULL: derive).  cmd: the classified
 * compile, for its -B options (NULL: none).  See ccd(1) "ASSEMBLER" for the rule and why.
 */
char *backend_tool(const struct backend *b, const char *tool, const char *cfg,
		   const struct ccd_cmd *cmd);

#endif
