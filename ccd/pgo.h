/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Profile use: each compile gets the gcda profile of its own object from
 * one directory, laid out the way gcc looks for it under
 * -fprofile-use=DIR -fprofile-prefix-path=BUILD-DIR: the object's path
 * without its suffix, relative to the build directory, '/' written '#'
 * (kernel/fork.o: DIR/kernel#fork.gcda).  An object without a profile is
 * compiled exactly as without profile use.  See ccd(1) "PROFILE USE".
 */
#ifndef CCD_PGO_H
#define CCD_PGO_H

#include "pgo-report.h"
#include "strbuf.h"

struct compile_opts;
struct ccd_input;

struct pgo_job {
	enum pgo_status status;
	char *profile;		/* DIR/<mangled>.gcda */
};

/*
 * Resolve the configured profile directory into *abs_dir and the build
 * directory as gcc names it into *build_dir.  0, or -1 after a warning
 * (the compile goes on without profile use).
 */
int pgo_init(const char *dir, char **abs_dir, char **build_dir);
/* Decide what one compile does with its profile; obj is its output. */
void pgo_prepare(const struct compile_opts *o, const struct ccd_input *in,
		 const char *obj, struct pgo_job *pj);
/* True when the backend gets the profile flags (and its stderr is read). */
int pgo_active(const struct pgo_job *pj);
/* The backend flags that hand it the profile. */
void pgo_args(struct strvec *out, const struct compile_opts *o);
/* After the backend: read what it said, warn, append to the report. */
void pgo_finish(const struct compile_opts *o, const char *obj, struct pgo_job *pj,
		const char *backend_stderr);
void pgo_release(struct pgo_job *pj);

/* ccd --ccd-profile-summary=REPORT: one line of counts; exit status. */
int pgo_summary(const char *report);

#endif
