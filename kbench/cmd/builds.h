/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `kbench backends` and `kbench pgo` share: their options, the checks
 * before the first build, and a built kernel measured by `kbench run`
 * in-process (kbuild/kbuild.h builds it).
 */
#ifndef KBENCH_BUILDS_H
#define KBENCH_BUILDS_H

#include "identity.h"
#include "kbuild.h"
#include "run-command.h"
#include "strbuf.h"

/*
 * The options `backends` and `pgo` share: --source, --config, --ccd, --lkd, --jobs,
 * --dry-run, --model (kb->model), --program (kb->programs) and run's
 * options, passed on to every run into run_args (--workload and --post
 * only if with_workload).  1 if argv[*i] was one of them, 0 if not, -1
 * after a usage error.
 */
int builds_option(struct kbuild *kb, struct strvec *run_args, int with_workload,
		  int argc, char **argv, int *i);

/*
 * Before any build: --model needs the icount clock, its plugin and a
 * good profile.  KB_OK, or the exit status after an error.
 */
int builds_check_model(const struct kbuild *kb, const struct strvec *run_args);
/*
 * Before any build: every --program is an x86_64 program whose libraries
 * are there (program.h).  KB_OK, or KB_TROUBLE after an error naming it.
 */
int builds_check_programs(const struct kbuild *kb);

/*
 * Before the first build: the two checks above and --config's file, the
 * build environment fixed (kbuild_fixed_env) and the directory out made
 * (not on a dry run).
 * KB_OK, or the exit status after an error.
 */
int builds_prepare(const struct kbuild *kb, const struct strvec *run_args, const char *out);

/*
 * `kbench run` with run_args on dir's bzImage into result (in-process),
 * under kb->model and with kb->programs if measure (a measurement, not a
 * training); a KB_ status.
 */
int builds_bench(const struct kbuild *kb, const char *dir, const char *result,
		 const struct strvec *run_args, const char *const *more, int measure);

/*
 * --lava=URL (lava-sweep.c): the measurements' boots as jobs on a LAVA
 * lab, the rest here.  lab_sweep_option() takes --lava, --lava-files=URL
 * (where the lab downloads the jobs' files; default: kbench serves
 * OUT/lava on 127.0.0.1 for the sweep), --lava-identity=FILE and
 * --lava-identity-name=NAME (1 if argv[*i] was one).  lab_sweep_start()
 * (nothing without --lava) loads the identity, which must be the lab's,
 * and starts the server; lab_sweep_add() writes and submits a kernel's
 * jobs, a CPU count each, its result to come at result;
 * lab_sweep_finish() waits for every job with progress, fetching each
 * kernel's result as its jobs finish, an infrastructure error submitted
 * again once.  KB_OK, or the exit status after an error.
 */
struct lab_kernel;
struct lab_sweep {
	const char *lab, *files_url, *identity, *identity_name;
	struct lava_identity id;
	int loaded, dry_run;
	char *dir, *url_base;
	struct child_process *server;
	struct lab_kernel *kernels;
	size_t nr;
};
int lab_sweep_option(struct lab_sweep *s, int argc, char **argv, int *i);
int lab_sweep_start(struct lab_sweep *s, const struct kbuild *kb, const char *out,
		    const struct strvec *run_args);
int lab_sweep_add(struct lab_sweep *s, const char *name, const char *image, const char *result,
		  const struct strvec *run_args);
int lab_sweep_finish(struct lab_sweep *s);
void lab_sweep_release(struct lab_sweep *s);
/* A measurement of dir's kernel (named name) into result: builds_bench, or on the lab. */
int builds_measure(const struct kbuild *kb, struct lab_sweep *lab, const char *name,
		   const char *dir, const char *result, const struct strvec *run_args);

#endif
