/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the kernels kbench compares: tinyconfig plus `kbench config`
 * (plus an extra fragment), bzImage through make CC=ccd LD=lkd, the
 * backend in CCD_CC.  Shared by `kbench backends` and `kbench pgo`.
 */
#ifndef KBENCH_KBUILD_H
#define KBENCH_KBUILD_H

#include "strbuf.h"

struct kbuild {
	const char *source, *ccd, *lkd;
	const struct kb_machine *m;	/* --arch (cross, Debian's gcc), else the host's */
	int jobs, dry_run;
	/* --model's value: the measurements run under it, judged in cycles */
	const char *model;
	/* --program=SPEC options: the measurements run them, never a training */
	struct strvec programs;
};

/*
 * The options `backends` and `pgo` share: --source, --ccd, --lkd, --jobs,
 * --dry-run, --model (kb->model), --program (kb->programs) and run's
 * options, passed on to every run into run_args (--workload and --post
 * only if with_workload).  1 if argv[*i] was one of them, 0 if not, -1
 * after a usage error.
 */
int kbuild_option(struct kbuild *kb, struct strvec *run_args, int with_workload,
		  int argc, char **argv, int *i);

/*
 * Before any build: --model needs the icount clock, its plugin and a
 * good profile.  KB_OK, or the exit status after an error.
 */
int kbuild_check_model(const struct kbuild *kb, const struct strvec *run_args);
/*
 * Before any build: every --program is an x86_64 program whose libraries
 * are there (program.h).  KB_OK, or KB_TROUBLE after an error naming it.
 */
int kbuild_check_programs(const struct kbuild *kb);

/* Fixed KBUILD_BUILD_* so that kernels differ only by what they were built with. */
void kbuild_fixed_env(void);
/* An absolute path for path (make -C runs elsewhere); allocated. */
char *kbuild_abs(const char *path);
/* Run args, or print them with dry_run; 0, or -1 after an error. */
int kbuild_run(const struct kbuild *kb, struct strvec *args);
/*
 * Configure dir (created if need be) and build its bzImage with backend
 * cc; extra is one more config fragment (NULL: none).  0 or -1.
 */
int kbuild_kernel(const struct kbuild *kb, const char *cc, const char *dir, const char *extra);
/*
 * `kbench run` with run_args on dir's bzImage into result (in-process),
 * under kb->model and with kb->programs if measure (a measurement, not a
 * training); a KB_ status.
 */
int kbuild_bench(const struct kbuild *kb, const char *dir, const char *result,
		 const struct strvec *run_args, const char *const *more, int measure);
/* "cycles" under --model, else NULL: compare's --metric and summary.json's "metric". */
const char *kbuild_metric(const struct kbuild *kb);
/* The machine the kernels are built for: --arch's, else the host's. */
const struct kb_machine *kbuild_machine(const struct kbuild *kb);

#endif
