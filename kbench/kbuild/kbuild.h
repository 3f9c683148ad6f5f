/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the kernels kbench compares: tinyconfig plus `kbench config`
 * (or a distribution's configuration plus what kbench needs to boot),
 * plus an extra fragment, bzImage through make CC=ccd LD=lkd, the
 * backend in CCD_CC.  Shared by `kbench backends` and `kbench pgo`
 * (cmd/builds.h: their options, and measuring what was built).
 */
#ifndef KBENCH_KBUILD_H
#define KBENCH_KBUILD_H

#include "strbuf.h"

struct kbuild {
	const char *source, *ccd, *lkd;
	const struct kb_machine *m;	/* --arch (cross, Debian's gcc), else the host's */
	int jobs, dry_run;
	/* --config: a distribution's configuration, the base instead of tinyconfig */
	const char *base_config;
	/* --model's value: the measurements run under it, judged in cycles */
	const char *model;
	/* --program=SPEC options: the measurements run them, never a training */
	struct strvec programs;
	/* What a profile-guided build adds: KCFLAGS, and lkd's link order (or NULL) */
	const char *kcflags, *link_order;
};

/* Fixed KBUILD_BUILD_* so that kernels differ only by what they were built with. */
void kbuild_fixed_env(void);
/* An absolute path for path (make -C runs elsewhere); allocated. */
char *kbuild_abs(const char *path);
/* --config's file (if any) is a readable, uncompressed configuration: 0, or -1 (said). */
int kbuild_check_base(const struct kbuild *kb);
/* Run args, or print them with dry_run; 0, or -1 after an error. */
int kbuild_run(const struct kbuild *kb, struct strvec *args);
/*
 * Configure dir (created if need be) and build its bzImage with backend
 * cc; extra is one more config fragment (NULL: none).  0 or -1.
 */
int kbuild_kernel(const struct kbuild *kb, const char *cc, const char *dir, const char *extra);
/* "cycles" under --model, else NULL: compare's --metric and summary.json's "metric". */
const char *kbuild_metric(const struct kbuild *kb);
/* The machine the kernels are built for: --arch's, else the host's. */
const struct kb_machine *kbuild_machine(const struct kbuild *kb);

#endif
