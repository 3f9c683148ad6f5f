// SPDX-License-Identifier: GPL-2.0
/*
 * kbench pgo: a profile-guided kernel in one command.  From one source
 * tree, through ccd with gcc, -O2 (see PERF_CONFIG):
 *   OUT/plain   the kbench-config kernel
 *   OUT/instr   the same with the kernel's own gcov instrumentation
 *               (CONFIG_GCOV_PROFILE_ALL: Kbuild knows which files must
 *               not be instrumented, and uses atomic counter updates)
 *   train       OUT/instr booted with the rows of --train-rows (by default
 *               about half of them, rows.h) and/or --train-workload, its
 *               counters copied out over the console into OUT/profile
 *   OUT/pgo     the kbench-config kernel again, ccd giving each compile
 *               its object's profile (CCD_PROFILE_USE), ccd's report in
 *               OUT/profile-report.txt
 * then plain and pgo are measured and compared, the rows the training ran
 * apart from the held-out rows (a profile fits its training: the held-out
 * rows' gain is what other work can expect, comparison.h); OUT/summary.json
 * says how many objects had a profile, both gains and where the results are:
 * the comparison's, computed once for the table, the chart and it.
 *
 * --method=autofdo needs no instrumented kernel: OUT/plain, built with
 * debug information, trains with a branch record (run --record-branches),
 * which kbench profile makes the compiler's sample profile for OUT/pgo.
 * --order (either method) also lays OUT/pgo's functions out in the order
 * kbench profile makes of the plain kernel's record (lkd --lkd-order).
 */
#include "cmd.h"
#include "atomic-file.h"
#include "builds.h"
#include "pgo-kernels.h"
#include "comparison.h"
#include "json.h"
#include "pgo-report.h"
#include "strbuf.h"
#include "warn.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pgo_opts {
	struct kbuild kb;
	const char *out, *cc, *train_workload;
	int autofdo, order;		/* --method=autofdo, --order */
	int train_cpus;			/* --train-cpus (0: not given) */
	struct strvec run_args;		/* passed on to every `kbench run` */
	struct kb_train train;		/* --train-rows */
	struct lab_sweep lab;		/* --lava: the measurements on a lab */
};

static int parse_pgo_option(struct pgo_opts *o, int argc, char **argv, int *i)
{
	const char *v;
	int r;

	if ((v = opt_arg(argc, argv, i, "--out"))) {
		o->out = v;
	} else if (lab_sweep_option(&o->lab, argc, argv, i)) {
		;
	} else if ((v = opt_arg(argc, argv, i, "--cc"))) {
		if (!*v || strchr(v, '/'))
			return usage_error("--cc takes a backend name (gcc, gcc-11...), not '%s'", v);
		o->cc = v;
	} else if ((v = opt_arg(argc, argv, i, "--train-cpus"))) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || end == v || n < 1 || n > KB_MAX_CPUS)
			return usage_error("--train-cpus takes a CPU count from 1 to %d, not '%s'",
					   KB_MAX_CPUS, v);
		o->train_cpus = (int)n;
	} else if ((v = opt_arg(argc, argv, i, "--method"))) {
		if (strcmp(v, "instrument") && strcmp(v, "autofdo"))
			return usage_error("--method is instrument or autofdo, not '%s'", v);
		o->autofdo = !strcmp(v, "autofdo");
	} else if (!strcmp(argv[*i], "--order")) {
		o->order = 1;
	} else if ((v = opt_arg(argc, argv, i, "--train-workload"))) {
		o->train_workload = v;
	} else if ((v = opt_arg(argc, argv, i, "--train-rows"))) {
		return train_option(&o->train, v, "--train-rows") ? -1 : 0;
	} else if ((r = builds_option(&o->kb, &o->run_args, 0, argc, argv, i)) <= 0) {
		return r < 0 ? -1 : usage_error("pgo: unexpected argument '%s'", argv[*i]);
	}
	return 0;
}

static char *path_in(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb, NULL);
}

/* run_args has --cpus (the measurements' counts). */
static int has_cpus(const struct strvec *run_args)
{
	for (size_t k = 0; k < run_args->nr; k++)
		if (!strncmp(run_args->v[k], "--cpus=", 7))
			return 1;
	return 0;
}

/*
 * Boot a kernel once for its profile: the workload, then the training's
 * rows (after run_args: its --only is the last, the one run takes); the
 * profile by collect, run's --gcov-out=DIR (the instrumented kernel's
 * counters) or --record-branches=FILE (a branch record of any kernel).
 */
static int train(const struct pgo_opts *o, const char *kernel, const char *collect,
		 const char *result)
{
	struct strbuf work = STRBUF_INIT, only = STRBUF_INIT;
	struct strbuf cpus = STRBUF_INIT;
	const char *more[6] = { NULL };
	int n = 0, ret;

	more[n++] = collect;
	/* One boot: --train-cpus, else one CPU whatever the measurements' --cpus. */
	if (o->train_cpus || has_cpus(&o->run_args)) {
		strbuf_addf(&cpus, "--cpus=%d", o->train_cpus ? o->train_cpus : 1);
		more[n++] = cpus.buf;
	}
	if (o->train_workload) {
		strbuf_addf(&work, "--workload=%s", o->train_workload);
		more[n++] = work.buf;
	}
	strbuf_addstr(&only, "--only=");
	train_only(&o->train, &only);
	if (only.len > strlen("--only=")) {
		more[n++] = only.buf;
	} else {
		/*
		 * The workload alone trains, but a run needs a row: one sample
		 * of a control, user space but for its buffer's page faults.
		 */
		more[n++] = "--only=mem_write_bw";
		more[n++] = "--runs=1";
	}
	ret = builds_bench(&o->kb, kernel, result, &o->run_args, more, 0);
	strbuf_release(&work);
	strbuf_release(&only);
	strbuf_release(&cpus);
	return ret;
}

/* The summary's "train": the rows and the workload it ran. */
static void add_train(const struct pgo_opts *o, struct strbuf *json)
{
	char *work = o->train_workload ? kbuild_abs(o->train_workload) : NULL;

	strbuf_addstr(json, "  \"train\": {\"rows\": ");
	train_json(&o->train, json);
	strbuf_addstr(json, ", \"workload\": ");
	if (work)
		json_add_string(json, work);
	else
		strbuf_addstr(json, "null");
	strbuf_addstr(json, "},\n");
	free(work);
}

/*
 * Its "metric", "train", "trained", "held_out" and "programs": the gains
 * compare printed after its table, in its metric, with the same noise table.
 */
static void add_gains(const struct pgo_opts *o, const struct comparison *c, struct strbuf *json)
{
	strbuf_addstr(json, "  \"metric\": ");
	json_add_string(json, c->metric);
	strbuf_addstr(json, ",\n");
	add_train(o, json);
	strbuf_addstr(json, "  ");
	compare_json_gains(c, json);
	strbuf_addstr(json, ",\n");
}

/* What the profiles were made of: the record's samples, their functions. */
struct pgo_made {
	struct profile_made profile, order;
};

/* "method", "profile" and "order": how the kernel was guided, by how much. */
static void add_method(const struct pgo_opts *o, const struct pgo_made *m, struct strbuf *json)
{
	strbuf_addf(json, "  \"method\": \"%s\",\n", o->autofdo ? "autofdo" : "instrument");
	if (o->autofdo)
		strbuf_addf(json, "  \"profile\": {\"samples\": %zu, \"functions\": %zu},\n",
			    m->profile.samples, m->profile.functions);
	else
		strbuf_addstr(json, "  \"profile\": {\"samples\": null, \"functions\": null},\n");
	if (o->order)
		strbuf_addf(json, "  \"order\": {\"samples\": %zu, \"functions\": %zu},\n",
			    m->order.samples, m->order.functions);
	else
		strbuf_addstr(json, "  \"order\": null,\n");
}

/* ccd's counts of the objects it gave a gcov profile (instrument only). */
static int add_counts(const char *report, struct strbuf *json)
{
	struct pgo_counts c;

	if (pgo_report_read(report, &c))
		return -1;
	strbuf_addf(json, "  \"objects\": %lu,\n  \"with_profile\": %lu,\n"
		    "  \"matching\": %lu,\n  \"stale\": %lu,\n  \"mismatched\": %lu,\n"
		    "  \"without_profile\": %lu,\n  \"failed_with_profile\": %lu,\n",
		    c.objects, c.n[PGO_USED] + c.n[PGO_STALE] + c.n[PGO_MISMATCH],
		    c.n[PGO_USED] + c.n[PGO_STALE], c.n[PGO_STALE], c.n[PGO_MISMATCH],
		    c.n[PGO_NONE], c.n[PGO_FAILED]);
	note("%lu objects, %lu with a profile (%lu mismatched), %lu without",
	     c.objects, c.n[PGO_USED] + c.n[PGO_STALE] + c.n[PGO_MISMATCH],
	     c.n[PGO_MISMATCH], c.n[PGO_NONE]);
	return 0;
}

/* OUT/summary.json: the method, ccd's counts, the gains and where everything is. */
static int write_summary(const struct pgo_opts *o, const struct pgo_made *m, const char *report,
			 const char *plain, const char *pgo, const struct comparison *cmp)
{
	struct strbuf json = STRBUF_INIT;
	char *path = path_in(o->out, "summary.json");
	int ret = 0;

	strbuf_addstr(&json, "{\n");
	add_method(o, m, &json);
	if (!o->autofdo && add_counts(report, &json))
		ret = -1;
	if (!ret) {
		add_gains(o, cmp, &json);
		/* Paths are the caller's own (absolute, no quotes or controls in practice). */
		strbuf_addf(&json, "  \"plain\": \"%s\",\n  \"pgo\": \"%s\",\n"
			    "  \"report\": ", plain, pgo);
		if (o->autofdo)
			strbuf_addstr(&json, "null\n}\n");
		else
			strbuf_addf(&json, "\"%s\"\n}\n", report);
		ret = write_atomically(path, json.buf, json.len);
	}
	if (!ret)
		note("summary in %s", path);
	strbuf_release(&json);
	free(path);
	return ret;
}

/* What `kbench compare --trained=... [--metric=cycles] -o chart plain pgo` compares. */
static int load_comparison(const struct pgo_opts *o, const char *plain, const char *pgo,
			   struct comparison *cmp)
{
	char *files[] = { (char *)plain, (char *)pgo };
	const char *m = kbuild_metric(&o->kb);
	struct comparison_spec spec = { files, 2, NULL, m ? metric_named(m) : -1, &o->train };

	return comparison_load(cmp, &spec);
}

/*
 * Table and gains on stdout and in OUT/compare.txt, chart in OUT/chart.svg;
 * the comparison stays in cmp for the summary.
 */
static int compare(const struct pgo_opts *o, const char *plain, const char *pgo,
		   struct comparison *cmp)
{
	char *chart = path_in(o->out, "chart.svg"), *table = path_in(o->out, "compare.txt");
	struct strbuf trained = STRBUF_INIT, metric = STRBUF_INIT;
	int fd, saved, ret;

	strbuf_addstr(&trained, "--trained=");
	train_spec(&o->train, &trained);
	if (kbuild_metric(&o->kb))
		strbuf_addf(&metric, "--metric=%s", kbuild_metric(&o->kb));
	if (o->kb.dry_run) {
		printf("kbench compare %s%s%s -o %s %s %s >%s\n", trained.buf,
		       metric.len ? " " : "", metric.buf, chart, plain, pgo, table);
		strbuf_release(&trained);
		strbuf_release(&metric);
		free(chart);
		free(table);
		return KB_OK;
	}
	fflush(stdout);
	fd = open(table, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	saved = dup(1);
	if (fd < 0 || saved < 0 || dup2(fd, 1) < 0) {
		error_errno("cannot write %s", table);
		ret = KB_TROUBLE;
	} else {
		ret = load_comparison(o, plain, pgo, cmp);
		if (ret == KB_OK)
			ret = comparison_report(cmp, chart, NULL);
		fflush(stdout);
		dup2(saved, 1);
	}
	if (fd >= 0)
		close(fd);
	if (saved >= 0)
		close(saved);
	if (ret == KB_OK) {
		struct strbuf sb = STRBUF_INIT;

		/* Out before the summary's note on stderr: one file may take both. */
		if (!strbuf_read_file(&sb, table, 0))
			fputs(sb.buf, stdout);
		fflush(stdout);
		strbuf_release(&sb);
	}
	strbuf_release(&trained);
	strbuf_release(&metric);
	free(chart);
	free(table);
	return ret;
}

/* Where a loop's files are, all in OUT. */
struct pgo_paths {
	char *plain, *instr, *pgo, *profile, *report, *train_res, *plain_res, *pgo_res;
	char *vmlinux, *record, *record_res, *order;
};

static void paths_init(struct pgo_paths *p, const struct pgo_opts *o)
{
	const char *profile = !o->autofdo ? "profile" :
		kbuild_cc_is_clang(o->cc) ? "profile.prof" : "profile.afdo";

	p->plain = path_in(o->out, "plain");
	p->instr = path_in(o->out, "instr");
	p->pgo = path_in(o->out, "pgo");
	p->profile = path_in(o->out, profile);
	p->report = path_in(o->out, "profile-report.txt");
	p->train_res = path_in(o->out, "train.json");
	p->plain_res = path_in(o->out, "plain.json");
	p->pgo_res = path_in(o->out, "pgo.json");
	p->vmlinux = path_in(p->plain, "vmlinux");
	p->record = path_in(o->out, "branches.perf");
	p->record_res = path_in(o->out, "record.json");
	p->order = path_in(o->out, "order.txt");
}

static void paths_release(struct pgo_paths *p)
{
	char **v[] = { &p->plain, &p->instr, &p->pgo, &p->profile, &p->report, &p->train_res,
		       &p->plain_res, &p->pgo_res, &p->vmlinux, &p->record, &p->record_res,
		       &p->order };

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		free(*v[i]);
		*v[i] = NULL;
	}
}

/* "--name=value", allocated. */
static char *opt_value(const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "--%s=%s", name, value);
	return strbuf_detach(&sb, NULL);
}

/* The plain kernel's branches in the training, into the record. */
static int record_plain(const struct pgo_opts *o, const struct pgo_paths *p, const char *result)
{
	char *opt = opt_value("record-branches", p->record);
	int ret = train(o, p->plain, opt, result);

	free(opt);
	if (ret != KB_OK)
		error("recording the plain kernel's branches failed");
	return ret;
}

/* kbench profile on the record (a dry run prints it). */
static int make_profile(const struct pgo_opts *o, const struct pgo_paths *p, const char *format,
			const char *out, struct profile_made *made)
{
	if (o->kb.dry_run) {
		printf("kbench profile --record=%s --vmlinux=%s --format=%s -o %s\n", p->record,
		       p->vmlinux, format, out);
		return KB_OK;
	}
	return profile_make(p->record, p->vmlinux, format, out, PROFILE_MIN_SAMPLES, made);
}

/* The instrumented kernel trained: its counters in p->profile. */
static int profile_instrument(const struct pgo_opts *o, const struct pgo_paths *p)
{
	char *opt;
	int ret;

	if (kbuild_instrumented(&o->kb, o->cc, p->instr))
		return error("the instrumented kernel did not build"), KB_TROUBLE;
	if (kbuild_remove(&o->kb, p->profile))
		return KB_TROUBLE;
	opt = opt_value("gcov-out", p->profile);
	ret = train(o, p->instr, opt, p->train_res);
	free(opt);
	if (ret != KB_OK)
		error("training the instrumented kernel failed");
	return ret;
}

/* The method's profile, and with --order the link order; KB_OK or why not. */
static int make_profiles(const struct pgo_opts *o, const struct pgo_paths *p, struct pgo_made *m)
{
	int ret;

	if (o->autofdo) {
		if ((ret = record_plain(o, p, p->train_res)) != KB_OK ||
		    (ret = make_profile(o, p, kbuild_cc_is_clang(o->cc) ? "llvm" : "afdo",
					p->profile, &m->profile)) != KB_OK)
			return ret;
	} else if ((ret = profile_instrument(o, p)) != KB_OK) {
		return ret;
	}
	if (!o->order)
		return KB_OK;
	/* Instrumented training ran another kernel: the plain one's record is a boot more. */
	if (!o->autofdo && (ret = record_plain(o, p, p->record_res)) != KB_OK)
		return ret;
	return make_profile(o, p, "order", p->order, &m->order);
}

/* The profile-guided kernel: the method's profile, --order's layout. */
static int build_pgo(const struct pgo_opts *o, const struct pgo_paths *p)
{
	struct kbuild k = o->kb;

	if (o->order) {
		k.kcflags = "-ffunction-sections";
		k.link_order = p->order;
	}
	if (kbuild_remove(&k, p->pgo) ||
	    (o->autofdo ? kbuild_autofdo(&k, o->cc, p->pgo, p->profile) :
	     kbuild_profiled(&k, o->cc, p->pgo, p->profile, p->report)))
		return error("the profile-guided kernel did not build"), KB_TROUBLE;
	return KB_OK;
}

static int pgo_loop(struct pgo_opts *o)
{
	struct pgo_paths p;
	struct pgo_made m = { { 0, 0 }, { 0, 0 } };
	struct comparison cmp = { 0 };
	int ret;

	paths_init(&p, o);
	if (o->autofdo ? kbuild_autofdo_plain(&o->kb, o->cc, p.plain) :
	    kbuild_plain(&o->kb, o->cc, p.plain)) {
		error("the plain kernel did not build");
		ret = KB_TROUBLE;
	} else if ((ret = make_profiles(o, &p, &m)) != KB_OK ||
		   (ret = build_pgo(o, &p)) != KB_OK) {
		;
	} else if ((ret = builds_measure(&o->kb, &o->lab, "plain", p.plain, p.plain_res,
				      &o->run_args)) == KB_OK &&
		   (ret = builds_measure(&o->kb, &o->lab, "pgo", p.pgo, p.pgo_res,
				      &o->run_args)) == KB_OK &&
		   (ret = lab_sweep_finish(&o->lab)) == KB_OK &&
		   (ret = compare(o, p.plain_res, p.pgo_res, &cmp)) == KB_OK && !o->kb.dry_run &&
		   write_summary(o, &m, p.report, p.plain_res, p.pgo_res, &cmp)) {
		ret = KB_TROUBLE;
	}
	comparison_release(&cmp);
	paths_release(&p);
	return ret;
}

static int parse_pgo_options(struct pgo_opts *o, int argc, char **argv)
{
	train_default(&o->train);
	for (int i = 1; i < argc; i++)
		if (parse_pgo_option(o, argc, argv, &i))
			return -1;
	if (!o->kb.source)
		return usage_error("pgo: --source=TREE (a kernel source tree) is required");
	if (!o->train_workload && !train_nr(&o->train))
		return usage_error("pgo: --train-rows=none trains on a workload alone: "
				   "--train-workload=FILE is required");
	return 0;
}

/* The training's boot at --train-cpus, as builds_prepare checked the measurements'. */
static int precheck_training(const struct pgo_opts *o)
{
	struct strvec args = STRVEC_INIT;
	int ret;

	if (!o->train_cpus)
		return KB_OK;
	if (o->run_args.v)
		strvec_pushv(&args, o->run_args.v);
	strvec_pushf(&args, "--cpus=%d", o->train_cpus);
	ret = run_precheck(&args, NULL, kbuild_machine(&o->kb));
	strvec_clear(&args);
	return ret;
}

int cmd_pgo(int argc, char **argv)
{
	struct pgo_opts o = { .kb = { .ccd = "ccd", .lkd = "lkd", .jobs = 2, .programs = STRVEC_INIT }, .out = "kbench-pgo",
			      .cc = "gcc", .run_args = STRVEC_INIT };
	char *out;
	int ret;

	if (parse_pgo_options(&o, argc, argv)) {
		strvec_clear(&o.run_args);
		strvec_clear(&o.kb.programs);
		return KB_USAGE;
	}
	if ((ret = precheck_training(&o)) != KB_OK ||
	    (ret = builds_prepare(&o.kb, &o.run_args, o.out)) != KB_OK) {
		strvec_clear(&o.run_args);
		strvec_clear(&o.kb.programs);
		return ret;
	}
	/* make -C runs in the tree, and ccd needs the profile from anywhere. */
	out = kbuild_abs(o.out);
	o.out = out;
	if ((ret = lab_sweep_start(&o.lab, &o.kb, out, &o.run_args)) == KB_OK)
		ret = pgo_loop(&o);
	lab_sweep_release(&o.lab);
	strvec_clear(&o.run_args);
	strvec_clear(&o.kb.programs);
	free(out);
	return ret;
}
