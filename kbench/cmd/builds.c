// SPDX-License-Identifier: GPL-2.0
/* What kbench backends and kbench pgo share (builds.h). */
#include "builds.h"
#include "cmd.h"
#include "cost-model.h"
#include "machine.h"
#include "program.h"
#include "run-command.h"
#include "warn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int builds_option(struct kbuild *kb, struct strvec *run_args, int with_workload,
		  int argc, char **argv, int *i)
{
	static const char *const run_opts[] = {
		"--runs", "--only", "--append", "--clock", "--timeout", "--qemu", "--guest",
		"--busybox", "--cpus", "--workload", "--post",
	};
	size_t nr_run_opts = sizeof(run_opts) / sizeof(*run_opts) - (with_workload ? 0 : 2);
	const char *v;

	if ((v = opt_arg(argc, argv, i, "--source"))) {
		kb->source = v;
	} else if ((v = opt_arg(argc, argv, i, "--config"))) {
		kb->base_config = v;
	} else if ((v = opt_arg(argc, argv, i, "--ccd"))) {
		kb->ccd = v;
	} else if ((v = opt_arg(argc, argv, i, "--lkd"))) {
		kb->lkd = v;
	} else if ((v = opt_arg(argc, argv, i, "--jobs"))) {
		kb->jobs = atoi(v);
		if (kb->jobs < 1 || kb->jobs > 1024) {
			usage_error("--jobs takes a number from 1 to 1024, not '%s'", v);
			return -1;
		}
	} else if ((v = opt_arg(argc, argv, i, "--arch"))) {
		if (!(kb->m = arch_option(v)))
			return -1;
		strvec_pushf(run_args, "--arch=%s", v);
	} else if ((v = opt_arg(argc, argv, i, "--model"))) {
		if (strcmp(v, "cycles") && strncmp(v, "cycles=", 7)) {
			usage_error("--model is cycles or cycles=PROFILE, not '%s'", v);
			return -1;
		}
		kb->model = v;
	} else if ((v = opt_arg(argc, argv, i, "--program"))) {
		struct kb_programs ps = { NULL, 0, 0 };
		int bad = 0;

		/* The specs together, so that a name given twice is refused. */
		for (size_t k = 0; k < kb->programs.nr && !bad; k++)
			bad = program_option(&ps, kb->programs.v[k]);
		if (!bad)
			bad = program_option(&ps, v);
		programs_release(&ps);
		if (bad)
			return -1;
		strvec_push(&kb->programs, v);
	} else if (!strcmp(argv[*i], "--dry-run")) {
		kb->dry_run = 1;
	} else if (!strcmp(argv[*i], "--quick")) {
		strvec_push(run_args, argv[*i]);
	} else {
		for (size_t k = 0; k < nr_run_opts; k++) {
			if ((v = opt_arg(argc, argv, i, run_opts[k]))) {
				strvec_pushf(run_args, "%s=%s", run_opts[k], v);
				return 1;
			}
		}
		return 0;
	}
	return 1;
}

int builds_check_model(const struct kbuild *kb, const struct strvec *run_args)
{
	struct kb_model md;

	if (!kb->model)
		return KB_OK;
	for (size_t i = 0; i < run_args->nr; i++)
		if (!strcmp(run_args->v[i], "--clock=kvm"))
			return usage_error("--model needs --clock=icount "
					   "(the model runs in QEMU's TCG)");
	if (model_setup(&md, kb->model[6] ? kb->model + 7 : "", kbuild_machine(kb)))
		return KB_TROUBLE;
	model_release(&md);
	return KB_OK;
}

int builds_check_programs(const struct kbuild *kb)
{
	struct kb_programs ps = { NULL, 0, 0 };
	int ret = KB_OK;

	for (size_t k = 0; k < kb->programs.nr; k++)
		program_option(&ps, kb->programs.v[k]);	/* checked by builds_option */
	if (programs_resolve(&ps, machine_named("x86_64")))
		ret = KB_TROUBLE;
	programs_release(&ps);
	return ret;
}

int builds_prepare(const struct kbuild *kb, const struct strvec *run_args, const char *out)
{
	int ret;

	if ((ret = builds_check_model(kb, run_args)) != KB_OK ||
	    (ret = builds_check_programs(kb)) != KB_OK)
		return ret;
	if (kbuild_check_base(kb))
		return KB_TROUBLE;
	if ((ret = run_precheck(run_args, kb->model, kbuild_machine(kb))) != KB_OK)
		return ret;
	/* Builds that only differ by their compiler: no date, user or host in them. */
	kbuild_fixed_env();
	if (!kb->dry_run && mkdir(out, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", out), KB_TROUBLE;
	return KB_OK;
}

int builds_bench(const struct kbuild *kb, const char *dir, const char *result,
		 const struct strvec *run_args, const char *const *more, int measure)
{
	struct strvec args = STRVEC_INIT;
	int ret;

	strvec_pushl(&args, "kbench", "run", "-o", result, NULL);
	if (run_args->v)
		strvec_pushv(&args, run_args->v);
	if (measure && kb->model)
		strvec_pushf(&args, "--model=%s", kb->model);
	for (size_t k = 0; measure && k < kb->programs.nr; k++)
		strvec_pushf(&args, "--program=%s", kb->programs.v[k]);
	for (; more && *more; more++)
		strvec_push(&args, *more);
	strvec_pushf(&args, "%s/%s", dir, kbuild_machine(kb)->image);
	if (kb->dry_run) {
		struct strbuf sb = STRBUF_INIT;

		quote_argv(&sb, args.v);
		printf("%s\n", sb.buf);
		strbuf_release(&sb);
		ret = KB_OK;
	} else {
		ret = cmd_run((int)args.nr - 1, args.v + 1);
	}
	strvec_clear(&args);
	return ret;
}

int builds_measure(const struct kbuild *kb, struct lab_sweep *lab, const char *name,
		   const char *dir, const char *result, const struct strvec *run_args)
{
	struct strbuf image = STRBUF_INIT;
	int ret;

	if (!lab->lab)
		return builds_bench(kb, dir, result, run_args, NULL, 1);
	strbuf_addf(&image, "%s/%s", dir, kbuild_machine(kb)->image);
	ret = lab_sweep_add(lab, name, image.buf, result, run_args);
	strbuf_release(&image);
	return ret;
}
