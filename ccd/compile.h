/* SPDX-License-Identifier: GPL-2.0 */
/* The handled path: backend -S, asmfix in-process, GNU as, post-steps. */
#ifndef CCD_COMPILE_H
#define CCD_COMPILE_H

#include "backend.h"
#include "classify.h"

struct compile_opts {
	struct backend *be;	/* its target is resolved on the first compile that needs it */
	const char *target_cfg, *target_origin;	/* the 'target' setting, or NULL */
	const struct ccd_cmd *cmd;
	const char *as_cfg;	/* configured assembler, NULL/"" to derive */
	unsigned passes;
	const char *keep_prefix;
	int assem;		/* 0, 1 (keep .S), 2 (also .raw.S) */
	int verbose;
	int strict;		/* as rejecting repaired assembly fails: no fallback */
	const char *pgo_dir;	/* absolute profile directory, NULL: no profile use */
	const char *pgo_build_dir;	/* the directory gcc takes profile paths from */
	const char *pgo_report;	/* append one line per object here, or NULL */
	const char *check_report;	/* append each object's check line here, or NULL */
	/*
	 * The backend is its own assembler for this command (clang, icx and
	 * no -fno-integrated-as): its object is the build's, its assembly
	 * goes through asmfix only when the object shows what a pass repairs.
	 */
	int own_as;
};

/* Does cmd leave a clang-style backend its integrated assembler (the last of -f[no-]integrated-as)? */
int uses_integrated_as(const struct ccd_cmd *cmd);

/* Compile every input; returns the exit status (dies of a child's signal). */
int compile_all(const struct compile_opts *o);

/* Pass-through argv: backend, -D__CCD__=1 when it preprocesses, the args. */
void passthrough_argv(struct strvec *out, const struct backend *be,
		      const struct ccd_cmd *cmd, int argc, char *const *argv);

#endif
