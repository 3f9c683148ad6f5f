// SPDX-License-Identifier: GPL-2.0
/*
 * kbench validate MANIFEST: the cost model against this host.  Each
 * program of the manifest runs natively in --rounds rounds of --runs runs
 * (round-robin with the others, on one CPU; its CPU time from the
 * children's rusage, see run_native, times the core clock the native
 * probe measures) and once under the model in qemu-x86_64 (the plugin
 * counting the whole run); compare/validation.c turns both into errors,
 * speedups and how well the model ranks them.  --native-from takes the
 * native side from an earlier report instead.  With --arch naming another
 * machine (arm64 programs on an x86-64 host) the model's side only (or
 * with --native-from, that machine's report), through that machine's
 * QEMU user mode.
 */
#include "atomic-file.h"
#include "cmd.h"
#include "cost-model.h"
#include "host-probe.h"
#include "json.h"
#include "machine.h"
#include "qemu.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "validation.h"
#include "warn.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_RUNS 5
#define DEFAULT_ROUNDS 2
#define DEFAULT_ESTIMATOR VAL_MEDIAN

static const char *const estimator_names[] = { [VAL_MEDIAN] = "median", [VAL_MIN] = "min" };

struct val_opts {
	const char *manifest, *profile, *out;
	const char *native_from;	/* a report whose native figures to take */
	const struct kb_machine *m;	/* the programs' machine */
	int runs, rounds, json, jobs;
	int counts_given;	/* --runs or --rounds on the command line */
	int native;	/* m is the host's and no --native-from: the programs run natively too */
	enum val_estimator est;
};

/* A manifest's program: what to run, and its figures. */
struct vprog {
	struct strvec argv;
	const char *stdin_path;
	double events[KB_NR_METRICS];	/* the model's whole run */
};

struct validation {
	struct json *manifest;
	struct vprog *progs;
	struct val_program *v;
	size_t nr;
	double ghz;	/* the core clock, measured or the report's; NaN: unknown */
	int cpu;	/* the CPU the native runs were pinned to; -1: none */
};

static int number_option(const char *v, const char *name, int lo, int hi, int *n)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (!*v || *end || x < lo || x > hi)
		return usage_error("%s takes a number from %d to %d, not '%s'", name, lo, hi, v);
	*n = (int)x;
	return 0;
}

static int estimator_option(const char *v, enum val_estimator *est)
{
	for (size_t k = 0; k < sizeof(estimator_names) / sizeof(*estimator_names); k++)
		if (!strcmp(v, estimator_names[k])) {
			*est = (enum val_estimator)k;
			return 0;
		}
	return usage_error("--estimator is min or median, not '%s'", v);
}

#define NOT_AN_OPTION (-1)

/* One option at argv[*i]: 0, NOT_AN_OPTION if it is none of validate's, or KB_USAGE. */
static int val_option(struct val_opts *o, int argc, char **argv, int *i)
{
	const char *v;

	if (!strcmp(argv[*i], "--json"))
		o->json = 1;
	else if ((v = opt_arg(argc, argv, i, "--profile")))
		o->profile = v;
	else if ((v = opt_arg(argc, argv, i, "-o")) || (v = opt_arg(argc, argv, i, "--output")))
		o->out = v;
	else if ((v = opt_arg(argc, argv, i, "--runs"))) {
		o->counts_given = 1;
		return number_option(v, "--runs", 1, 99, &o->runs);
	} else if ((v = opt_arg(argc, argv, i, "--rounds"))) {
		o->counts_given = 1;
		return number_option(v, "--rounds", 1, VAL_MAX_ROUNDS, &o->rounds);
	} else if ((v = opt_arg(argc, argv, i, "--estimator")))
		return estimator_option(v, &o->est);
	else if ((v = opt_arg(argc, argv, i, "--native-from")))
		o->native_from = v;
	else if ((v = opt_arg(argc, argv, i, "--jobs")))
		return number_option(v, "--jobs", 1, 256, &o->jobs);
	else if ((v = opt_arg(argc, argv, i, "--arch")))
		return (o->m = arch_option(v)) ? 0 : KB_USAGE;
	else
		return NOT_AN_OPTION;
	return 0;
}

static int parse_val_options(struct val_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->runs = DEFAULT_RUNS;
	o->rounds = DEFAULT_ROUNDS;
	o->est = DEFAULT_ESTIMATOR;
	o->jobs = host_cpus();
	o->profile = "";
	o->m = machine_host();
	for (int i = 1; i < argc; i++) {
		int r = val_option(o, argc, argv, &i);

		if (r == NOT_AN_OPTION && (argv[i][0] == '-' || o->manifest))
			return usage_error("validate: unexpected argument '%s'", argv[i]);
		if (r == NOT_AN_OPTION)
			o->manifest = argv[i];
		else if (r)
			return r;
	}
	if (!o->manifest)
		return usage_error("validate: no MANIFEST (a JSON list of programs)");
	if (o->native_from && o->counts_given)
		return usage_error("--native-from takes its report's rounds and runs: "
				   "no --rounds or --runs beside it");
	o->native = o->m == machine_host() && !o->native_from;
#if !defined(__x86_64__) && !defined(__aarch64__)
	/* The native probe times its clock with x86-64's or arm64's adds. */
	if (o->native)
		return usage_error("validate runs programs natively on x86-64 and arm64 hosts only; "
				   "--arch=MACHINE for the model's side alone");
#endif
	return 0;
}

/* qemu-x86_64 needs a file: a bare command name is looked up in PATH. */
static char *program_file(const char *arg0)
{
	char *found = strchr(arg0, '/') ? NULL : find_in_path(arg0);

	return found ? found : xstrdup(arg0);
}

/* Entry i's program is m's: QEMU would only say "Invalid ELF image". */
static int check_program(const struct kb_machine *m, const char *arg0, const char *path, size_t i,
			 const char *name)
{
	struct strbuf what = STRBUF_INIT;
	char *file = program_file(arg0);
	int ret;

	strbuf_addf(&what, "%s: entry %zu (%s): the program", path, i + 1, name);
	if (access(file, X_OK))
		ret = error_errno("%s %s", what.buf, file);
	else
		ret = machine_check_program(m, file, what.buf,
					    m == machine_host() ?
					    "a program for this host, or --arch=ITS_MACHINE" :
					    "a program for it, or --arch=ITS_MACHINE");
	strbuf_release(&what);
	free(file);
	return ret;
}

/* Entry i of the manifest into p, or -1 after an error naming it. */
static int load_entry(const struct validation *val, size_t i, const char *path,
		      const struct kb_machine *m)
{
	const struct json *e = val->manifest->items[i], *a = json_get(e, "argv");
	const char *name = json_get_str(e, "name");
	struct val_program *v = &val->v[i];
	struct vprog *p = &val->progs[i];

	if (e->type != JSON_OBJECT || !name || !*name)
		return error("%s: entry %zu has no \"name\"", path, i + 1);
	if (!a || a->type != JSON_ARRAY || !a->nr)
		return error("%s: entry %zu (%s): \"argv\" is not a list of strings", path, i + 1,
			     name);
	for (size_t k = 0; k < a->nr; k++) {
		if (a->items[k]->type != JSON_STRING)
			return error("%s: entry %zu (%s): \"argv\" is not a list of strings", path,
				     i + 1, name);
		strvec_push(&p->argv, a->items[k]->str);
	}
	if (json_get(e, "stdin") && !(p->stdin_path = json_get_str(e, "stdin")))
		return error("%s: entry %zu (%s): \"stdin\" is not a file name", path, i + 1, name);
	if (json_get(e, "baseline") && !(v->baseline = json_get_str(e, "baseline")))
		return error("%s: entry %zu (%s): \"baseline\" is not a name", path, i + 1, name);
	for (size_t k = 0; k < i; k++)
		if (!strcmp(val->v[k].name, name))
			return error("%s: entry %zu: the name '%s' again", path, i + 1, name);
	v->name = name;
	return check_program(m, p->argv.v[0], path, i, name);
}

static int check_baselines(const struct validation *val, const char *path)
{
	for (size_t i = 0; i < val->nr; i++) {
		size_t k = 0;

		while (val->v[i].baseline && k < val->nr && strcmp(val->v[k].name,
								    val->v[i].baseline))
			k++;
		if (k == val->nr || (val->v[i].baseline && k == i))
			return error("%s: entry %zu (%s): the baseline '%s' is no other entry", path,
				     i + 1, val->v[i].name, val->v[i].baseline);
	}
	return 0;
}

static int load_manifest(struct validation *val, const char *path, const struct kb_machine *m)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int ret = -1;

	if (strbuf_read_file(&text, path, 0) < 0) {
		error_errno("cannot read the manifest %s", path);
		goto out;
	}
	val->manifest = json_parse(text.buf ? text.buf : "", text.len, &err);
	if (!val->manifest || val->manifest->type != JSON_ARRAY || !val->manifest->nr) {
		error("%s: %s", path, val->manifest ? "not a list of programs" : err.buf);
		goto out;
	}
	val->nr = val->manifest->nr;
	val->progs = xcalloc(val->nr, sizeof(*val->progs));
	val->v = xcalloc(val->nr, sizeof(*val->v));
	ret = 0;
	for (size_t i = 0; i < val->nr && !ret; i++)
		ret = load_entry(val, i, path, m);
	ret = ret ? ret : check_baselines(val, path);
out:
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

static void validation_release(struct validation *val)
{
	for (size_t i = 0; i < val->nr; i++) {
		strvec_clear(&val->progs[i].argv);
		free(val->v[i].native);
	}
	free(val->progs);
	free(val->v);
	json_free(val->manifest);
}

/* A program that failed: its name, how it ended and its standard error's end. */
static int program_failed(const char *name, const char *how, int status, const char *err)
{
	return error("%s%s: %s %d%s%s", name, how, WIFSIGNALED(status) ? "signal" : "exit status",
		     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
		     *err ? "; its standard error ends:\n" : "", err);
}

/*
 * A run's own cycles: its user and system time together, times the
 * program's user share over all its runs.  The kernel splits a run's CPU
 * time between the two by where its clock ticks fell: their sum is
 * exact, the split a sample, unbiased only on average (on an idle host,
 * the quartiles of a program's user time were 11 % apart where those of
 * the sum were 5).  The model sees the program's instructions, not the
 * kernel's work for it (qemu-x86_64 does its system calls natively), so
 * that share is taken out, as the runs together measure it.  A program
 * whose runs take a few ticks in all has no such measure (one tick that
 * fell in its exec made a 4-ms program all system time): its whole CPU
 * time counts, and the report says so.
 */
#define MIN_SPLIT_SECONDS 0.2	/* 50 ticks at 250 Hz */

static double user_share(const char *name, double user, double total, int runs)
{
	if (total >= MIN_SPLIT_SECONDS)
		return user / total;
	warning("%s: %.0f ms of CPU time in its %d runs, too few clock ticks to split its user "
		"time from its system time: its whole CPU time counts (give it more work)",
		name, total * 1e3, runs);
	return 1;
}

/* One run of program i natively: its CPU time and the user part of it. */
static int run_once(const struct validation *val, size_t i, double *cpu, double *user)
{
	struct strbuf err = STRBUF_INIT;
	double u = 0, s = 0;
	int status = host_run_program(val->progs[i].argv.v, val->progs[i].stdin_path, &u, &s,
				      &err);

	if (status >= 0 && !status_ok(status))
		program_failed(val->v[i].name, "", status, err.buf ? err.buf : "");
	strbuf_release(&err);
	*cpu = u + s;
	*user = u;
	return status_ok(status) ? 0 : -1;
}

/*
 * Round r: a warm-up run of each program, discarded (its first run after
 * the others' has the page cache, the CPU's caches and predictors and its
 * clock as they left them), then runs runs of each, round-robin.  user
 * and total gather each program's CPU time over the kept runs.
 */
static int run_round(struct validation *val, size_t r, size_t runs, double *user, double *total)
{
	double cpu, u;

	for (size_t i = 0; i < val->nr; i++)
		if (run_once(val, i, &cpu, &u))
			return -1;
	for (size_t k = 0; k < runs; k++)
		for (size_t i = 0; i < val->nr; i++) {
			if (run_once(val, i, &cpu, &u))
				return -1;
			val->v[i].native[r * runs + k] = cpu;
			user[i] += u;
			total[i] += cpu;
		}
	return 0;
}

/*
 * Every native run on one CPU: the one kbench is on as they begin, which
 * is in its affinity mask (taskset's choice holds; CPU 0 may be outside
 * it, and takes most of the interrupts on many hosts).  Each run then
 * has the same core, caches and clock domain and never migrates.
 * kbench pins itself and the children inherit the mask at the spawn, so
 * each is pinned from its first instruction (a mask set on the child
 * after the spawn would miss its start); kbench only waits meanwhile.
 * The CPU pinned to, *saved the old mask; -1 (said) if it cannot be.
 */
static int pin_native(cpu_set_t *saved)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(*saved), saved) || !CPU_ISSET(cpu, saved)) {
		warning("cannot tell which CPU kbench runs on: the native runs are not pinned");
		return -1;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		warning("cannot pin the native runs to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	return cpu;
}

/*
 * Each run's cycles, whole ones: what the report writes is then exactly
 * what a later --native-from computes with.
 */
static void to_cycles(struct val_program *v, double user, double total, double ghz)
{
	double share = user_share(v->name, user, total, (int)(v->runs * v->rounds));

	for (size_t k = 0; k < v->runs * v->rounds; k++)
		v->native[k] = round(v->native[k] * share * ghz * 1e9);
}

static int run_native(struct validation *val, const struct val_opts *o, double ghz)
{
	size_t runs = (size_t)o->runs, rounds = (size_t)o->rounds;
	double *user = xcalloc(val->nr, sizeof(double)), *total = xcalloc(val->nr, sizeof(double));
	cpu_set_t saved;
	int ret = 0;

	for (size_t i = 0; i < val->nr; i++) {
		val->v[i].native = xcalloc(runs * rounds, sizeof(double));
		val->v[i].runs = runs;
		val->v[i].rounds = rounds;
	}
	val->cpu = pin_native(&saved);
	for (size_t r = 0; r < rounds && !ret; r++) {
		ret = run_round(val, r, runs, user, total);
		if (!ret)
			note("native round %zu/%zu done", r + 1, rounds);
	}
	if (val->cpu >= 0)
		sched_setaffinity(0, sizeof(saved), &saved);
	for (size_t i = 0; i < val->nr && !ret; i++)
		to_cycles(&val->v[i], user[i], total[i], ghz);
	free(user);
	free(total);
	return ret;
}

/*
 * --native-from: the native figures of an earlier `validate --json` of
 * these programs (on an idle machine, say), so that one measurement
 * serves several profiles.  Its raw runs are taken, whole cycles as it
 * wrote them, and --estimator applies to them as to runs made here.
 */

/* A list of 1 to max numbers, none negative: how many, or 0. */
static size_t numbers(const struct json *a, size_t max)
{
	if (!a || a->type != JSON_ARRAY || !a->nr || a->nr > max)
		return 0;
	for (size_t k = 0; k < a->nr; k++)
		if (a->items[k]->type != JSON_NUMBER || !(a->items[k]->num >= 0))
			return 0;
	return a->nr;
}

/* Entry e's "native_round_runs" into v (by name): 0, or -1 after an error. */
static int take_rounds(struct val_program *v, const struct json *e, const char *path,
		       const struct val_program *first)
{
	const struct json *a = json_get(e, "native_round_runs");
	size_t rounds = a && a->type == JSON_ARRAY ? a->nr : 0;
	size_t runs = rounds && rounds <= VAL_MAX_ROUNDS ? numbers(a->items[0], 99) : 0;

	if (!a)
		return error("%s: program '%s' has no \"native_round_runs\" (not a report of "
			     "this kbench's validate --json with native runs)", path, v->name);
	for (size_t r = 1; r < rounds && runs; r++)
		if (numbers(a->items[r], 99) != runs)
			runs = 0;	/* rounds of unequal runs cannot be paired */
	if (!runs)
		return error("%s: program '%s': \"native_round_runs\" is not a list of 1 to %d "
			     "rounds of 1 to 99 runs each, in cycles", path, v->name,
			     VAL_MAX_ROUNDS);
	if (first && (rounds != first->rounds || runs != first->runs))
		return error("%s: program '%s' has %zu rounds of %zu runs, '%s' %zu of %zu", path,
			     v->name, rounds, runs, first->name, first->rounds, first->runs);
	v->rounds = rounds;
	v->runs = runs;
	v->native = xcalloc(rounds * runs, sizeof(double));
	for (size_t r = 0; r < rounds; r++)
		for (size_t k = 0; k < runs; k++)
			v->native[r * runs + k] = a->items[r]->items[k]->num;
	return 0;
}

/* The report's entry named name in programs, or NULL. */
static const struct json *report_entry(const struct json *programs, const char *name)
{
	for (size_t k = 0; k < programs->nr; k++) {
		const char *n = json_get_str(programs->items[k], "name");

		if (n && !strcmp(n, name))
			return programs->items[k];
	}
	return NULL;
}

/* The report's native figures for every program: 0, or -1 after an error naming path. */
static int take_report(struct validation *val, const struct json *d, const char *path,
		       const struct kb_machine *m)
{
	const struct json *programs = json_get(d, "programs"), *native = json_get(d, "native");
	const struct json *ghz = json_get(d, "core_ghz");
	const char *machine = json_get_str(d, "machine");

	if (!programs || programs->type != JSON_ARRAY || !machine)
		return error("%s: not a report of kbench validate --json", path);
	if (!native || native->type != JSON_BOOL || !native->num)
		return error("%s: no native figures in it (\"native\" is not true)", path);
	if (strcmp(machine, m->debian))
		return error("%s: a report of %s programs, not %s", path, machine, m->debian);
	for (size_t i = 0; i < val->nr; i++) {
		const struct json *e = report_entry(programs, val->v[i].name);

		if (!e)
			return error("%s: no program '%s' in it", path, val->v[i].name);
		if (take_rounds(&val->v[i], e, path, i ? &val->v[0] : NULL))
			return -1;
	}
	val->ghz = ghz && ghz->type == JSON_NUMBER ? ghz->num : NAN;
	return 0;
}

static int native_from(struct validation *val, const char *path, const struct kb_machine *m)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct json *d = NULL;
	int ret = -1;

	if (strbuf_read_file(&text, path, 0) < 0)
		error_errno("--native-from: cannot read %s", path);
	else if (!(d = json_parse(text.buf ? text.buf : "", text.len, &err)))
		error("%s: not JSON: %s", path, err.buf);
	else if (d->type != JSON_OBJECT)
		error("%s: not a report of kbench validate --json", path);
	else
		ret = take_report(val, d, path, m);
	json_free(d);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/* One program under the model, running beside others. */
struct model_job {
	struct host_program hp;
	const char *records;	/* the plugin's output, a temporary file */
	size_t prog;		/* which program; SIZE_MAX: the slot is free */
	double t0;
};

static int start_model(struct model_job *j, const struct vprog *p, const struct kb_model *md,
		       const struct kb_machine *m)
{
	struct strvec argv = STRVEC_INIT;
	char *file = program_file(p->argv.v[0]);
	int ret;

	strvec_push(&argv, m->qemu_user);
	model_qemu_args_whole(&argv, md, j->records);
	strvec_push(&argv, file);
	for (size_t k = 1; k < p->argv.nr; k++)
		strvec_push(&argv, p->argv.v[k]);
	ret = host_program_start(&j->hp, argv.v, p->stdin_path);
	strvec_clear(&argv);
	free(file);
	return ret;
}

/* A job's program ended with status: its whole-run sample into p and v. */
static int end_model(struct model_job *j, int status, struct vprog *p, struct val_program *v)
{
	struct model_records r = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	host_program_end(&j->hp, &err);
	if (status >= 0 && !status_ok(status))
		program_failed(v->name, " under the model", status, err.buf ? err.buf : "");
	else if (status >= 0 && !model_read(&r, j->records)) {
		if (r.nr) {
			memcpy(p->events, r.v[r.nr - 1].v, sizeof(p->events));
			v->model_cycles = p->events[KB_M_cycles];
			ret = 0;
		} else
			error("%s: the model wrote no sample of the whole run", v->name);
	}
	model_records_release(&r);
	strbuf_release(&err);
	return ret;
}

/* One program failed: the others are stopped (-1, the failure). */
static int stop_models(struct child_process **cps, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (cps[k] && cps[k]->pid > 0)
			kill(cps[k]->pid, SIGTERM);
	return -1;
}

/* Every program once under the model, up to jobs at a time (the model's
 * figures do not depend on what runs beside it). */
static int run_models(struct validation *val, const struct kb_model *md,
		      const struct kb_machine *m, int jobs)
{
	struct model_job *j = xcalloc((size_t)jobs, sizeof(*j));
	struct child_process **cps = xcalloc((size_t)jobs, sizeof(*cps));
	size_t next = 0, done = 0, running = 0;
	int ret = 0;

	for (int k = 0; k < jobs; k++) {
		int fd = tempfile_create("kbench-", ".model", &j[k].records);

		j[k].prog = SIZE_MAX;
		if (fd < 0)
			ret = -1;
		else
			close(fd);
	}
	while (!ret || running) {
		size_t k;
		int status;

		for (k = 0; !ret && next < val->nr && k < (size_t)jobs; k++) {
			if (j[k].prog != SIZE_MAX)
				continue;
			if (start_model(&j[k], &val->progs[next], md, m)) {
				ret = stop_models(cps, (size_t)jobs);
				break;
			}
			j[k].prog = next++;
			j[k].t0 = qemu_clock();
			cps[k] = &j[k].hp.cp;
			running++;
		}
		if (!running)
			break;
		status = finish_any_command(cps, (size_t)jobs, &k);
		if (status < 0)
			break;
		running--;
		cps[k] = NULL;
		if (ret)	/* stopped after another's failure: its figures are not wanted */
			host_program_end(&j[k].hp, NULL);
		else if (end_model(&j[k], status, &val->progs[j[k].prog], &val->v[j[k].prog]))
			ret = stop_models(cps, (size_t)jobs);
		else
			note("model %zu/%zu: %s, %.0f s", ++done, val->nr, val->v[j[k].prog].name,
			     qemu_clock() - j[k].t0);
		j[k].prog = SIZE_MAX;
	}
	for (int k = 0; k < jobs; k++) {
		if (j[k].prog != SIZE_MAX) {	/* only when waiting failed */
			stop_models(&cps[k], 1);
			finish_command(&j[k].hp.cp);
			host_program_end(&j[k].hp, NULL);
			ret = -1;
		}
		if (j[k].records)
			tempfile_remove(j[k].records);
	}
	free(cps);
	free(j);
	return ret;
}

static void add_events(struct strbuf *sb, const double *events)
{
	strbuf_addch(sb, '{');
	for (int m = 1; m < KB_NR_METRICS; m++) {
		strbuf_addstr(sb, m > 1 ? ", " : "");
		json_add_string(sb, kb_metric_names[m]);
		strbuf_addf(sb, ": %.0f", events[m]);
	}
	strbuf_addch(sb, '}');
}

/* A number exactly as computed (the rounds' figures are compared across reports); null if none. */
static void add_exact(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.17g", v);
	else
		strbuf_addstr(sb, "null");
}

static void add_list(struct strbuf *sb, const double *v, size_t nr,
		     void (*add)(struct strbuf *, double))
{
	strbuf_addch(sb, '[');
	for (size_t k = 0; k < nr; k++) {
		strbuf_addstr(sb, k ? ", " : "");
		add(sb, v[k]);
	}
	strbuf_addch(sb, ']');
}

/* Whole cycles, or null. */
static void add_cycles(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addstr(sb, "null");
}

static size_t rounds_of(const struct val_program *v)
{
	return v->runs ? v->rounds : 0;
}

/* Each program's native figures: every run, the rounds' figures, the runs round by round. */
static void add_native_runs(struct strbuf *sb, const struct val_program *v)
{
	strbuf_addstr(sb, ", \"native_runs\": ");
	add_list(sb, v->native, v->runs * rounds_of(v), add_cycles);
	strbuf_addstr(sb, ", \"native_rounds\": ");
	add_list(sb, v->round_cycles, rounds_of(v), add_exact);
	strbuf_addstr(sb, ", \"native_round_runs\": [");
	for (size_t r = 0; r < rounds_of(v); r++) {
		strbuf_addstr(sb, r ? ", " : "");
		add_list(sb, v->native + r * v->runs, v->runs, add_cycles);
	}
	strbuf_addch(sb, ']');
}

static void add_json_programs(struct strbuf *sb, const struct validation *val)
{
	for (size_t i = 0; i < val->nr; i++) {
		strbuf_addstr(sb, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_add_string(sb, val->v[i].name);
		strbuf_addstr(sb, ", \"native_cycles\": ");
		add_cycles(sb, round(val->v[i].native_cycles));
		strbuf_addstr(sb, ", \"native_spread_pct\": ");
		json_add_number(sb, val->v[i].native_spread_pct);
		strbuf_addf(sb, ", \"model_cycles\": %.0f, \"error_pct\": ", val->v[i].model_cycles);
		json_add_number(sb, val->v[i].error_pct);
		add_native_runs(sb, &val->v[i]);
		strbuf_addstr(sb, ", \"events\": ");
		add_events(sb, val->progs[i].events);
		strbuf_addch(sb, '}');
	}
}

static void add_json_pairs(struct strbuf *sb, const struct val_pair *pairs, size_t np)
{
	for (size_t i = 0; i < np; i++) {
		size_t rounds = isnan(pairs[i].native_pct) ? 0 : rounds_of(pairs[i].p);

		strbuf_addstr(sb, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_add_string(sb, pairs[i].p->name);
		strbuf_addstr(sb, ", \"baseline\": ");
		json_add_string(sb, pairs[i].base->name);
		strbuf_addstr(sb, ", \"native_speedup_pct\": ");
		json_add_number(sb, pairs[i].native_pct);
		strbuf_addstr(sb, ", \"model_speedup_pct\": ");
		json_add_number(sb, pairs[i].model_pct);
		strbuf_addstr(sb, ", \"error_points\": ");
		json_add_number(sb, pairs[i].error_points);
		strbuf_addstr(sb, ", \"native_noise_points\": ");
		json_add_number(sb, pairs[i].native_noise);
		strbuf_addf(sb, ", \"beyond_noise\": %s", pairs[i].beyond_noise ? "true" : "false");
		strbuf_addstr(sb, ", \"native_rounds_pct\": ");
		add_list(sb, pairs[i].round_pct, rounds, json_add_number);
		strbuf_addstr(sb, ", \"native_rounds_noise_points\": ");
		add_list(sb, pairs[i].round_noise, rounds, json_add_number);
		strbuf_addf(sb, ", \"measured\": %s}", pairs[i].measured ? "true" : "false");
	}
}

static void add_json_summary(struct strbuf *sb, const struct val_summary *s)
{
	strbuf_addstr(sb, "\"summary\": {\"spearman\": ");
	json_add_number(sb, s->spearman);
	strbuf_addstr(sb, ", \"mean_abs_speedup_error_points\": ");
	json_add_number(sb, s->mean_abs_speedup_error);
	strbuf_addf(sb, ", \"pairs_beyond_noise\": %zu, \"signs_agree\": %zu, "
		    "\"median_abs_cycle_error_pct\": ", s->beyond_noise, s->signs_agree);
	json_add_number(sb, s->median_abs_cycle_error_pct);
	strbuf_addstr(sb, ",\n    \"rounds_spearman\": ");
	json_add_number(sb, s->rounds_spearman);
	strbuf_addstr(sb, ", \"rounds_mean_abs_diff_points\": ");
	json_add_number(sb, s->rounds_mean_abs_diff);
	strbuf_addf(sb, ",\n    \"measured_pairs\": %zu, \"measured_signs_agree\": %zu, "
		    "\"measured_slope\": ", s->measured, s->measured_signs_agree);
	json_add_number(sb, s->measured_slope);
	strbuf_addstr(sb, ", \"measured_pearson\": ");
	json_add_number(sb, s->measured_pearson);
	strbuf_addstr(sb, ", \"measured_median_rel_error_pct\": ");
	json_add_number(sb, s->measured_median_rel_error_pct);
	strbuf_addch(sb, '}');
}

/* Native figures are null (lists empty) where the programs ran under the model only. */
static void add_json(struct strbuf *sb, const struct validation *val, const struct val_pair *pairs,
		     size_t np, const struct val_summary *s, const struct val_opts *o)
{
	strbuf_addstr(sb, "{\n  \"machine\": ");
	json_add_string(sb, o->m->debian);
	strbuf_addf(sb, ", \"native\": %s, \"rounds\": %zu, \"runs_per_round\": %zu, "
		    "\"estimator\": ", val->v[0].runs ? "true" : "false", rounds_of(&val->v[0]),
		    val->v[0].runs);
	json_add_string(sb, estimator_names[o->est]);
	strbuf_addstr(sb, ", \"core_ghz\": ");
	json_add_number(sb, val->ghz);
	strbuf_addstr(sb, ", \"native_from\": ");
	if (o->native_from)
		json_add_string(sb, o->native_from);
	else
		strbuf_addstr(sb, "null");
	strbuf_addstr(sb, ",\n  \"programs\": [");
	add_json_programs(sb, val);
	strbuf_addstr(sb, "\n  ],\n  \"pairs\": [");
	add_json_pairs(sb, pairs, np);
	strbuf_addstr(sb, np ? "\n  ],\n  " : "],\n  ");
	add_json_summary(sb, s);
	strbuf_addstr(sb, "\n}\n");
}

/* The model's side alone: cycles, events, speedups; nothing to err against. */
static void add_model_table(struct strbuf *sb, const struct validation *val,
			    const struct val_pair *pairs, size_t np, const struct kb_machine *m,
			    const struct kb_model *md)
{
	strbuf_addf(sb, "modelled only: %s programs in %s under the model (%s); "
		    "the model's figures, not a CPU's\n\n", m->debian, m->qemu_user,
		    md->profile_path);
	strbuf_addf(sb, "%-20s %15s %13s %10s %10s %10s\n", "program", "model cycles",
		    "instructions", "L1d miss", "LLC miss", "mispredict");
	for (size_t i = 0; i < val->nr; i++)
		strbuf_addf(sb, "%-20s %15.0f %13.0f %10.0f %10.0f %10.0f\n", val->v[i].name,
			    val->v[i].model_cycles, val->progs[i].events[KB_M_instructions],
			    val->progs[i].events[KB_M_l1d_misses],
			    val->progs[i].events[KB_M_llc_misses],
			    val->progs[i].events[KB_M_branch_misses]);
	if (np)
		strbuf_addf(sb, "\n%-30s %15s\n", "pair (speedup over baseline)", "model");
	for (size_t i = 0; i < np; i++) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "%s over %s", pairs[i].p->name, pairs[i].base->name);
		strbuf_addf(sb, "%-30s %+14.1f%%\n", name.buf, pairs[i].model_pct);
		strbuf_release(&name);
	}
}

/* fmt's figure, or "none" where there is none. */
static void add_figure(struct strbuf *sb, const char *fmt, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "none");
	else
		strbuf_addf(sb, fmt, v);
}

static void add_table_head(struct strbuf *sb, const struct validation *val,
			   const struct val_opts *o)
{
	const struct val_program *v = &val->v[0];

	strbuf_addstr(sb, "native: ");
	if (o->native_from)
		strbuf_addf(sb, "from %s (its core clock ", o->native_from);
	else
		strbuf_addstr(sb, "core clock ");
	add_figure(sb, "%.2f GHz", val->ghz);
	strbuf_addf(sb, "%s, %zu round%s of %zu runs of each", o->native_from ? ")" :
		    " (measured)", v->rounds, v->rounds > 1 ? "s" : "", v->runs);
	if (!o->native_from)
		strbuf_addstr(sb, " after a warm-up run");
	if (val->cpu >= 0)
		strbuf_addf(sb, ", on CPU %d", val->cpu);
	strbuf_addf(sb, "; a round's figure the %s of its runs, a program's the median of its "
		    "rounds'\n\n", estimator_names[o->est]);
}

static void add_table_pairs(struct strbuf *sb, const struct val_pair *pairs, size_t np)
{
	if (np)
		strbuf_addf(sb, "\n%-30s %15s %8s %15s %8s %-12s %-8s %s\n",
			    "pair (speedup over baseline)", "native", "noise", "model", "error",
			    "beyond noise", "measured", "each round");
	for (size_t i = 0; i < np; i++) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "%s over %s", pairs[i].p->name, pairs[i].base->name);
		strbuf_addf(sb, "%-30s %+14.1f%% %8.1f %+14.1f%% %+8.1f %-12s %-8s", name.buf,
			    pairs[i].native_pct, pairs[i].native_noise, pairs[i].model_pct,
			    pairs[i].error_points, pairs[i].beyond_noise ? "yes" : "no",
			    pairs[i].measured ? "yes" : "no");
		for (size_t r = 0; r < pairs[i].p->rounds; r++)
			strbuf_addf(sb, " %+.1f", pairs[i].round_pct[r]);
		strbuf_addch(sb, '\n');
		strbuf_release(&name);
	}
}

/* The rounds' agreement, then the model's on the measured pairs. */
static void add_table_measured(struct strbuf *sb, const struct val_summary *s, size_t rounds)
{
	strbuf_addstr(sb, "\nthe rounds against each other: Spearman of the speedups ");
	add_figure(sb, "%.2f", s->rounds_spearman);
	strbuf_addstr(sb, ", mean |difference| ");
	add_figure(sb, "%.1f points", s->rounds_mean_abs_diff);
	if (rounds > 2)
		strbuf_addf(sb, " (means over the %zu pairs of rounds)", rounds * (rounds - 1) / 2);
	strbuf_addf(sb, "\nmeasured pairs (every round at least 5 %% and 3 x its noise, "
		    "one sign): %zu\n  the model's sign right: %zu of %zu\n"
		    "  slope of modelled on native speedup (least squares through 0): ",
		    s->measured, s->measured_signs_agree, s->measured);
	add_figure(sb, "%.2f", s->measured_slope);
	strbuf_addstr(sb, "\n  Pearson r of modelled and native speedups: ");
	add_figure(sb, "%.2f", s->measured_pearson);
	strbuf_addstr(sb, "\n  median |model - native| / |native|: ");
	add_figure(sb, "%.1f%%", s->measured_median_rel_error_pct);
	strbuf_addch(sb, '\n');
}

static void add_table(struct strbuf *sb, const struct validation *val, const struct val_pair *pairs,
		      size_t np, const struct val_summary *s, const struct val_opts *o)
{
	add_table_head(sb, val, o);
	strbuf_addf(sb, "%-20s %15s %8s %15s %8s %13s %10s\n", "program", "native cycles",
		    "spread", "model cycles", "error", "instructions", "L1d miss");
	for (size_t i = 0; i < val->nr; i++)
		strbuf_addf(sb, "%-20s %15.0f %7.1f%% %15.0f %+7.1f%% %13.0f %10.0f\n",
			    val->v[i].name, val->v[i].native_cycles, val->v[i].native_spread_pct,
			    val->v[i].model_cycles, val->v[i].error_pct,
			    val->progs[i].events[KB_M_instructions],
			    val->progs[i].events[KB_M_l1d_misses]);
	add_table_pairs(sb, pairs, np);
	if (isnan(s->spearman))
		strbuf_addstr(sb, "\nrank correlation of the speedups (Spearman): none under two "
			      "pairs\n");
	else
		strbuf_addf(sb, "\nrank correlation of the speedups (Spearman, the model against "
			    "the rounds' mean): %.2f\n", s->spearman);
	strbuf_addf(sb, "mean |speedup error|: %.1f points\n"
		    "signs agree: %zu of %zu pairs beyond noise\n"
		    "median |cycle error|: %.1f%%\n", s->mean_abs_speedup_error,
		    s->signs_agree, s->beyond_noise, s->median_abs_cycle_error_pct);
	add_table_measured(sb, s, val->v[0].rounds);
}

static int write_report(const struct val_opts *o, const struct validation *val,
			const struct kb_model *md)
{
	struct val_pair *pairs = xcalloc(val->nr, sizeof(*pairs));
	struct val_summary s;
	struct strbuf sb = STRBUF_INIT;
	size_t np = validation_compute(val->v, val->nr, o->est, pairs, &s);
	int ret;

	if (o->json)
		add_json(&sb, val, pairs, np, &s, o);
	else if (!val->v[0].runs)
		add_model_table(&sb, val, pairs, np, o->m, md);
	else
		add_table(&sb, val, pairs, np, &s, o);
	ret = write_atomically(o->out ? o->out : "-", sb.buf, sb.len);
	strbuf_release(&sb);
	free(pairs);
	return ret;
}

/* The core clock, which turns the native runs' CPU time into cycles. */
static int measure_clock(struct validation *val)
{
	struct host_run clock = { 0 };
	struct strvec none = STRVEC_INIT;
	const char *probe = probe_path(machine_host(), 1);
	int ret = -1;

	if (access(probe, X_OK))
		error_errno("the native probe %s", probe);
	else if (!host_run_probe(&clock, probe, &none, 1)) {
		val->ghz = clock.ghz;
		ret = 0;
	}
	host_run_release(&clock);
	return ret;
}

int cmd_validate(int argc, char **argv)
{
	struct validation val = { .ghz = NAN, .cpu = -1 };
	struct val_opts o;
	struct kb_model md;
	int ret = KB_TROUBLE;

	if (parse_val_options(&o, argc, argv))
		return KB_USAGE;
	/* The plugin and profile first: a missing one is said before any run. */
	if (model_setup(&md, o.profile, o.m))
		return KB_TROUBLE;
	if (load_manifest(&val, o.manifest, o.m) ||
	    (o.native_from && native_from(&val, o.native_from, o.m)) ||
	    (o.native && measure_clock(&val)))
		goto out;
	if ((o.native && run_native(&val, &o, val.ghz)) || run_models(&val, &md, o.m, o.jobs)) {
		ret = KB_KERNEL_FAIL;
		goto out;
	}
	ret = write_report(&o, &val, &md) ? KB_TROUBLE : KB_OK;
out:
	validation_release(&val);
	model_release(&md);
	return ret;
}
