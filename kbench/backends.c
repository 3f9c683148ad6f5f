// SPDX-License-Identifier: GPL-2.0
/*
 * kbench backends: one command from a kernel tree to the comparison.  For
 * every named backend it configures the tree (tinyconfig plus the kbench
 * fragment), builds bzImage through `make CC=ccd LD=lkd` with CCD_CC set
 * to the backend, runs the benchmarks, and finally compares them all, the
 * first backend being the reference.
 */
#include "kbench.h"
#include "fileio.h"
#include "run-command.h"
#include "strbuf.h"
#include "warn.h"
#include "kbench-config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BACKENDS 16

struct backends_opts {
	const char *source, *out, *ccd, *lkd, *chart;
	const char *cc[MAX_BACKENDS];
	int nr, jobs, dry_run;
	struct strvec run_args;		/* passed on to `kbench run` */
};

static const char kbench_config[] = KBENCH_CONFIG_TEXT;
/* What the fragment leaves to the architecture. */
#define X86_64_CONFIG "CONFIG_64BIT=y\n"

static int parse_backends_option(struct backends_opts *o, int argc, char **argv, int *i)
{
	static const char *const run_opts[] = {
		"--runs", "--only", "--append", "--clock", "--timeout", "--qemu", "--guest",
		"--busybox", "--workload", "--post",
	};
	const char *v;

	if ((v = opt_arg(argc, argv, i, "--source")))
		o->source = v;
	else if ((v = opt_arg(argc, argv, i, "--out")))
		o->out = v;
	else if ((v = opt_arg(argc, argv, i, "--ccd")))
		o->ccd = v;
	else if ((v = opt_arg(argc, argv, i, "--lkd")))
		o->lkd = v;
	else if ((v = opt_arg(argc, argv, i, "-o")) || (v = opt_arg(argc, argv, i, "--output")))
		o->chart = v;
	else if ((v = opt_arg(argc, argv, i, "--cc"))) {
		if (o->nr == MAX_BACKENDS)
			return usage_error("at most %d backends", MAX_BACKENDS);
		if (!*v || strchr(v, '/') || !strcmp(v, ".") || !strcmp(v, ".."))
			return usage_error("--cc takes a backend name (gcc, clang-16...), not '%s'", v);
		o->cc[o->nr++] = v;
	} else if ((v = opt_arg(argc, argv, i, "--jobs"))) {
		o->jobs = atoi(v);
		if (o->jobs < 1 || o->jobs > 1024)
			return usage_error("--jobs takes a number from 1 to 1024, not '%s'", v);
	} else if (!strcmp(argv[*i], "--dry-run")) {
		o->dry_run = 1;
	} else if (!strcmp(argv[*i], "--quick")) {
		strvec_push(&o->run_args, argv[*i]);
	} else {
		for (size_t k = 0; k < sizeof(run_opts) / sizeof(*run_opts); k++) {
			if ((v = opt_arg(argc, argv, i, run_opts[k]))) {
				strvec_pushf(&o->run_args, "%s=%s", run_opts[k], v);
				return 0;
			}
		}
		return usage_error("backends: unexpected argument '%s'", argv[*i]);
	}
	return 0;
}

/* Build and run commands, or print them with --dry-run. */
static int run_argv(const struct backends_opts *o, struct strvec *args)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf sb = STRBUF_INIT;
	int status;

	quote_argv(&sb, args->v);
	if (o->dry_run) {
		printf("%s\n", sb.buf);
		strbuf_release(&sb);
		return 0;
	}
	note("%s", sb.buf);
	strbuf_release(&sb);
	strvec_pushv(&cp.args, args->v);
	status = run_command(&cp);
	child_process_clear(&cp);
	if (status_ok(status))
		return 0;
	return error("'%s' failed", args->v[0]);
}

static int kmake(const struct backends_opts *o, const char *dir, const char *target, int jobs)
{
	struct strvec args = STRVEC_INIT;
	int ret;

	strvec_pushl(&args, "make", "-C", o->source, NULL);
	strvec_pushf(&args, "O=%s", dir);
	strvec_push(&args, "ARCH=x86_64");
	if (jobs) {
		strvec_pushf(&args, "-j%d", jobs);
		strvec_pushf(&args, "CC=%s", o->ccd);
		strvec_pushf(&args, "LD=%s", o->lkd);
	}
	strvec_push(&args, target);
	ret = run_argv(o, &args);
	strvec_clear(&args);
	return ret;
}

static int append_fragment(const struct backends_opts *o, const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret = 0;

	strbuf_addf(&path, "%s/.config", dir);
	if (o->dry_run) {
		printf("kbench config >>%s\n", path.buf);
		strbuf_release(&path);
		return 0;
	}
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || write_in_full(fd, kbench_config, sizeof(kbench_config) - 1) ||
	    write_in_full(fd, X86_64_CONFIG, strlen(X86_64_CONFIG)))
		ret = error_errno("cannot append the kbench configuration to %s", path.buf);
	if (fd >= 0 && close(fd) && !ret)
		ret = error_errno("cannot write %s", path.buf);
	strbuf_release(&path);
	return ret;
}

/* Every CONFIG_X=y of the fragment survived olddefconfig. */
static int check_config(const struct backends_opts *o, const char *dir)
{
	struct strbuf conf = STRBUF_INIT, path = STRBUF_INIT;
	const char *p = kbench_config;
	char buf[8192];
	ssize_t n;
	int fd, ret = 0;

	if (o->dry_run)
		return 0;
	strbuf_addf(&path, "%s/.config", dir);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		ret = error_errno("cannot read %s", path.buf);
	strbuf_addch(&conf, '\n');
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&conf, buf, (size_t)n);
	if (fd >= 0)
		close(fd);
	while (!ret && *p) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, "CONFIG_", 7)) {
			struct strbuf line = STRBUF_INIT;

			strbuf_addch(&line, '\n');
			strbuf_add(&line, p, len);
			strbuf_addch(&line, '\n');
			if (!strstr(conf.buf, line.buf))
				ret = error("%s: %.*s did not stay set (a missing dependency?)",
					    path.buf, (int)len, p);
			strbuf_release(&line);
		}
		p += len + (p[len] == '\n');
	}
	strbuf_release(&conf);
	strbuf_release(&path);
	return ret;
}

static int build(const struct backends_opts *o, const char *cc, const char *dir)
{
	if (!o->dry_run && mkdir(dir, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", dir);
	if (o->dry_run)
		printf("CCD_CC=%s\n", cc);
	else
		setenv("CCD_CC", cc, 1);
	if (kmake(o, dir, "tinyconfig", 0) || append_fragment(o, dir) ||
	    kmake(o, dir, "olddefconfig", 0) || check_config(o, dir))
		return -1;
	return kmake(o, dir, "bzImage", o->jobs);
}

static int bench(const struct backends_opts *o, const char *dir, const char *result)
{
	struct strvec args = STRVEC_INIT;
	int ret;

	strvec_pushl(&args, "kbench", "run", "-o", result, NULL);
	strvec_pushv(&args, o->run_args.v ? o->run_args.v : (char *[]){ NULL });
	strvec_pushf(&args, "%s/arch/x86/boot/bzImage", dir);
	if (o->dry_run) {
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

int cmd_backends(int argc, char **argv)
{
	struct backends_opts o = { NULL, "kbench-backends", "ccd", "lkd", NULL, { NULL }, 0, 2,
				   0, STRVEC_INIT };
	struct strvec results = STRVEC_INIT;
	struct strbuf abs_out = STRBUF_INIT;
	int ret = KB_OK;

	for (int i = 1; i < argc; i++)
		if (parse_backends_option(&o, argc, argv, &i))
			return KB_USAGE;
	if (!o.source)
		return usage_error("backends: --source=TREE (a kernel source tree) is required");
	if (o.nr < 2)
		return usage_error("backends: name two backends or more (--cc=gcc --cc=clang)");
	/* Builds that only differ by their compiler: no date, user or host in them. */
	setenv("KBUILD_BUILD_TIMESTAMP", "Sat Jan  1 00:00:00 UTC 2000", 0);
	setenv("KBUILD_BUILD_USER", "kbench", 0);
	setenv("KBUILD_BUILD_HOST", "ccd-suite", 0);
	setenv("KBUILD_BUILD_VERSION", "1", 0);
	if (!o.dry_run && mkdir(o.out, 0755) && errno != EEXIST) {
		error_errno("cannot create %s", o.out);
		return KB_TROUBLE;
	}
	/* make -C runs in the tree: O= must not be relative to here. */
	if (o.out[0] != '/') {
		char *cwd = getcwd(NULL, 0);

		if (!cwd) {
			error_errno("getcwd");
			return KB_TROUBLE;
		}
		strbuf_addf(&abs_out, "%s/%s", cwd, o.out);
		free(cwd);
		o.out = abs_out.buf;
	}
	strvec_pushl(&results, "kbench", "compare", NULL);
	for (int i = 0; i < o.nr && ret == KB_OK; i++) {
		struct strbuf dir = STRBUF_INIT, res = STRBUF_INIT;

		strbuf_addf(&dir, "%s/%s", o.out, o.cc[i]);
		strbuf_addf(&res, "%s/%s.json", o.out, o.cc[i]);
		if (build(&o, o.cc[i], dir.buf)) {
			error("the %s kernel did not build", o.cc[i]);
			ret = KB_TROUBLE;
		} else {
			ret = bench(&o, dir.buf, res.buf);
		}
		strvec_push(&results, res.buf);
		strbuf_release(&dir);
		strbuf_release(&res);
	}
	if (ret == KB_OK) {
		if (o.chart)
			strvec_pushl(&results, "-o", o.chart, NULL);
		if (o.dry_run)
			ret = run_argv(&o, &results) ? KB_TROUBLE : KB_OK;
		else
			ret = cmd_compare((int)results.nr - 1, results.v + 1);
	}
	strvec_clear(&results);
	strvec_clear(&o.run_args);
	strbuf_release(&abs_out);
	return ret;
}
