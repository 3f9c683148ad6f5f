// SPDX-License-Identifier: GPL-2.0
/*
 * kbench backends: one command from a kernel tree to the comparison.  For
 * every named backend it configures the tree (tinyconfig plus the kbench
 * fragment), builds bzImage through `make CC=ccd LD=lkd` with CCD_CC set
 * to the backend, runs the benchmarks, and finally compares them all, the
 * first backend being the reference.
 */
#include "cmd.h"
#include "builds.h"
#include "strbuf.h"
#include "warn.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BACKENDS 16

struct backends_opts {
	struct kbuild kb;
	const char *out, *chart;
	const char *cc[MAX_BACKENDS];
	int nr;
	struct strvec run_args;		/* passed on to `kbench run` */
	struct lab_sweep lab;		/* --lava */
};

static int parse_backends_option(struct backends_opts *o, int argc, char **argv, int *i)
{
	const char *v;
	int r;

	if ((v = opt_arg(argc, argv, i, "--out"))) {
		o->out = v;
	} else if ((v = opt_arg(argc, argv, i, "-o")) || (v = opt_arg(argc, argv, i, "--output"))) {
		o->chart = v;
	} else if ((v = opt_arg(argc, argv, i, "--cc"))) {
		if (o->nr == MAX_BACKENDS)
			return usage_error("at most %d backends", MAX_BACKENDS);
		if (!*v || strchr(v, '/') || !strcmp(v, ".") || !strcmp(v, ".."))
			return usage_error("--cc takes a backend name (gcc, clang-16...), not '%s'", v);
		o->cc[o->nr++] = v;
	} else if (lab_sweep_option(&o->lab, argc, argv, i)) {
		;
	} else if ((r = builds_option(&o->kb, &o->run_args, 1, argc, argv, i)) <= 0) {
		return r < 0 ? -1 : usage_error("backends: unexpected argument '%s'", argv[*i]);
	}
	return 0;
}

int cmd_backends(int argc, char **argv)
{
	struct backends_opts o = { { .ccd = "ccd", .lkd = "lkd", .jobs = 2, .programs = STRVEC_INIT },
				   "kbench-backends", NULL,
				   { NULL }, 0, STRVEC_INIT, { 0 } };
	struct strvec results = STRVEC_INIT;
	char *out;
	int ret = KB_OK;

	for (int i = 1; i < argc; i++) {
		if (parse_backends_option(&o, argc, argv, &i)) {
			strvec_clear(&o.run_args);
			strvec_clear(&o.kb.programs);
			return KB_USAGE;
		}
	}
	if (!o.kb.source)
		return usage_error("backends: --source=TREE (a kernel source tree) is required");
	if (o.nr < 2)
		return usage_error("backends: name two backends or more (--cc=gcc --cc=clang)");
	if ((ret = builds_prepare(&o.kb, &o.run_args, o.out)) != KB_OK) {
		strvec_clear(&o.run_args);
		strvec_clear(&o.kb.programs);
		return ret;
	}
	/* make -C runs in the tree: O= must not be relative to here. */
	out = kbuild_abs(o.out);
	ret = lab_sweep_start(&o.lab, &o.kb, out, &o.run_args);
	strvec_pushl(&results, "kbench", "compare", NULL);
	if (kbuild_metric(&o.kb))
		strvec_pushf(&results, "--metric=%s", kbuild_metric(&o.kb));
	for (int i = 0; i < o.nr && ret == KB_OK; i++) {
		struct strbuf dir = STRBUF_INIT, res = STRBUF_INIT;

		strbuf_addf(&dir, "%s/%s", out, o.cc[i]);
		strbuf_addf(&res, "%s/%s.json", out, o.cc[i]);
		if (kbuild_kernel(&o.kb, o.cc[i], dir.buf, NULL)) {
			error("the %s kernel did not build", o.cc[i]);
			ret = KB_TROUBLE;
		} else {
			ret = builds_measure(&o.kb, &o.lab, o.cc[i], dir.buf, res.buf, &o.run_args);
		}
		strvec_push(&results, res.buf);
		strbuf_release(&dir);
		strbuf_release(&res);
	}
	if (ret == KB_OK)
		ret = lab_sweep_finish(&o.lab);
	if (ret == KB_OK) {
		if (o.chart)
			strvec_pushl(&results, "-o", o.chart, NULL);
		if (o.kb.dry_run)
			ret = kbuild_run(&o.kb, &results) ? KB_TROUBLE : KB_OK;
		else
			ret = cmd_compare((int)results.nr - 1, results.v + 1);
	}
	strvec_clear(&results);
	strvec_clear(&o.run_args);
	strvec_clear(&o.kb.programs);
	lab_sweep_release(&o.lab);
	free(out);
	return ret;
}
