// SPDX-License-Identifier: GPL-2.0
/*
 * kbench validate MANIFEST: the cost model against this host.  Each
 * program of the manifest runs natively --runs times (round-robin with
 * the others; its CPU time from the children's rusage, see run_native,
 * times the core clock the native probe measures) and once under the model in
 * qemu-x86_64 (the plugin counting the whole run); compare/validation.c
 * turns both into errors, speedups and how well the model ranks them.
 * With --arch naming another machine (arm64 programs on an x86-64 host)
 * the model's side only, through that machine's QEMU user mode.
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

#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_RUNS 5

struct val_opts {
	const char *manifest, *profile, *out;
	const struct kb_machine *m;	/* the programs' machine */
	int runs, json, jobs;
	int native;	/* m is the host's: the programs run natively too */
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
};

static int parse_val_options(struct val_opts *o, int argc, char **argv)
{
	const char *v;
	char *end;

	memset(o, 0, sizeof(*o));
	o->runs = DEFAULT_RUNS;
	o->jobs = host_cpus();
	o->profile = "";
	o->m = machine_host();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			o->json = 1;
		else if ((v = opt_arg(argc, argv, &i, "--profile")))
			o->profile = v;
		else if ((v = opt_arg(argc, argv, &i, "-o")) ||
			 (v = opt_arg(argc, argv, &i, "--output")))
			o->out = v;
		else if ((v = opt_arg(argc, argv, &i, "--runs"))) {
			o->runs = (int)strtol(v, &end, 10);
			if (!*v || *end || o->runs < 1 || o->runs > 99)
				return usage_error("--runs takes a number from 1 to 99, not '%s'", v);
		} else if ((v = opt_arg(argc, argv, &i, "--jobs"))) {
			o->jobs = (int)strtol(v, &end, 10);
			if (!*v || *end || o->jobs < 1 || o->jobs > 256)
				return usage_error("--jobs takes a number from 1 to 256, not '%s'", v);
		} else if ((v = opt_arg(argc, argv, &i, "--arch"))) {
			if (!(o->m = arch_option(v)))
				return KB_USAGE;
		} else if (argv[i][0] == '-' || o->manifest)
			return usage_error("validate: unexpected argument '%s'", argv[i]);
		else
			o->manifest = argv[i];
	}
	if (!o->manifest)
		return usage_error("validate: no MANIFEST (a JSON list of programs)");
	o->native = o->m == machine_host();
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

static int run_native(struct validation *val, int runs, double ghz)
{
	double *user = xcalloc(val->nr, sizeof(double)), *total = xcalloc(val->nr, sizeof(double));
	int ret = 0;

	for (size_t i = 0; i < val->nr; i++) {
		val->v[i].native = xcalloc((size_t)runs, sizeof(double));
		val->v[i].runs = (size_t)runs;
	}
	for (int r = 0; r < runs && !ret; r++)
		for (size_t i = 0; i < val->nr && !ret; i++) {
			struct strbuf err = STRBUF_INIT;
			double u = 0, s = 0;
			int status = host_run_program(val->progs[i].argv.v, val->progs[i].stdin_path,
						      &u, &s, &err);

			if (status >= 0 && !status_ok(status))
				program_failed(val->v[i].name, "", status, err.buf ? err.buf : "");
			strbuf_release(&err);
			if (!status_ok(status))
				ret = -1;
			val->v[i].native[r] = u + s;
			user[i] += u;
			total[i] += u + s;
		}
	for (size_t i = 0; i < val->nr && !ret; i++) {
		double share = user_share(val->v[i].name, user[i], total[i], runs);

		for (int r = 0; r < runs; r++)
			val->v[i].native[r] *= share * ghz * 1e9;
	}
	free(user);
	free(total);
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

/* Native figures are null where the programs ran under the model only. */
static void add_json(struct strbuf *sb, const struct validation *val, const struct val_pair *pairs,
		     size_t np, const struct val_summary *s, const struct kb_machine *m)
{
	strbuf_addstr(sb, "{\n  \"machine\": ");
	json_add_string(sb, m->debian);
	strbuf_addf(sb, ", \"native\": %s,\n  \"programs\": [", val->v[0].runs ? "true" : "false");
	for (size_t i = 0; i < val->nr; i++) {
		strbuf_addstr(sb, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_add_string(sb, val->v[i].name);
		strbuf_addstr(sb, ", \"native_cycles\": ");
		json_add_number(sb, round(val->v[i].native_cycles));
		strbuf_addstr(sb, ", \"native_spread_pct\": ");
		json_add_number(sb, val->v[i].native_spread_pct);
		strbuf_addf(sb, ", \"model_cycles\": %.0f, \"error_pct\": ", val->v[i].model_cycles);
		json_add_number(sb, val->v[i].error_pct);
		strbuf_addstr(sb, ", \"native_runs\": [");
		for (size_t r = 0; r < val->v[i].runs; r++)
			strbuf_addf(sb, "%s%.0f", r ? ", " : "", val->v[i].native[r]);
		strbuf_addstr(sb, "], \"events\": ");
		add_events(sb, val->progs[i].events);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "\n  ],\n  \"pairs\": [");
	for (size_t i = 0; i < np; i++) {
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
		strbuf_addf(sb, ", \"beyond_noise\": %s}", pairs[i].beyond_noise ? "true" : "false");
	}
	strbuf_addstr(sb, np ? "\n  ],\n  \"summary\": {\"spearman\": " :
		      "],\n  \"summary\": {\"spearman\": ");
	json_add_number(sb, s->spearman);
	strbuf_addstr(sb, ", \"mean_abs_speedup_error_points\": ");
	json_add_number(sb, s->mean_abs_speedup_error);
	strbuf_addf(sb, ", \"pairs_beyond_noise\": %zu, \"signs_agree\": %zu, "
		    "\"median_abs_cycle_error_pct\": ", s->beyond_noise, s->signs_agree);
	json_add_number(sb, s->median_abs_cycle_error_pct);
	strbuf_addstr(sb, "}\n}\n");
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

static void add_table(struct strbuf *sb, const struct validation *val, const struct val_pair *pairs,
		      size_t np, const struct val_summary *s, double ghz)
{
	strbuf_addf(sb, "native: core clock %.2f GHz (measured), %zu runs of each\n\n", ghz,
		    val->v[0].runs);
	strbuf_addf(sb, "%-20s %15s %8s %15s %8s %13s %10s\n", "program", "native cycles",
		    "spread", "model cycles", "error", "instructions", "L1d miss");
	for (size_t i = 0; i < val->nr; i++)
		strbuf_addf(sb, "%-20s %15.0f %7.1f%% %15.0f %+7.1f%% %13.0f %10.0f\n",
			    val->v[i].name, val->v[i].native_cycles, val->v[i].native_spread_pct,
			    val->v[i].model_cycles, val->v[i].error_pct,
			    val->progs[i].events[KB_M_instructions],
			    val->progs[i].events[KB_M_l1d_misses]);
	if (np)
		strbuf_addf(sb, "\n%-30s %15s %8s %15s %8s %s\n", "pair (speedup over baseline)",
			    "native", "noise", "model", "error", "beyond noise");
	for (size_t i = 0; i < np; i++) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "%s over %s", pairs[i].p->name, pairs[i].base->name);
		strbuf_addf(sb, "%-30s %+14.1f%% %8.1f %+14.1f%% %+8.1f %s\n", name.buf,
			    pairs[i].native_pct, pairs[i].native_noise, pairs[i].model_pct,
			    pairs[i].error_points,
			    pairs[i].beyond_noise ? "yes" : "no");
		strbuf_release(&name);
	}
	if (isnan(s->spearman))
		strbuf_addstr(sb, "\nrank correlation of the speedups (Spearman): none under two "
			      "pairs\n");
	else
		strbuf_addf(sb, "\nrank correlation of the speedups (Spearman): %.2f\n",
			    s->spearman);
	strbuf_addf(sb, "mean |speedup error|: %.1f points\n"
		    "signs agree: %zu of %zu pairs beyond noise\n"
		    "median |cycle error|: %.1f%%\n", s->mean_abs_speedup_error,
		    s->signs_agree, s->beyond_noise, s->median_abs_cycle_error_pct);
}

static int write_report(const struct val_opts *o, const struct validation *val, double ghz,
			const struct kb_model *md)
{
	struct val_pair *pairs = xcalloc(val->nr, sizeof(*pairs));
	struct val_summary s;
	struct strbuf sb = STRBUF_INIT;
	size_t np = validation_compute(val->v, val->nr, pairs, &s);
	int ret;

	if (o->json)
		add_json(&sb, val, pairs, np, &s, o->m);
	else if (!o->native)
		add_model_table(&sb, val, pairs, np, o->m, md);
	else
		add_table(&sb, val, pairs, np, &s, ghz);
	ret = write_atomically(o->out ? o->out : "-", sb.buf, sb.len);
	strbuf_release(&sb);
	free(pairs);
	return ret;
}

int cmd_validate(int argc, char **argv)
{
	struct validation val = { 0 };
	struct host_run clock = { 0 };
	struct strvec none = STRVEC_INIT;
	struct val_opts o;
	struct kb_model md;
	const char *probe;
	int ret = KB_TROUBLE;

	if (parse_val_options(&o, argc, argv))
		return KB_USAGE;
	/* The plugin and profile first: a missing one is said before any run. */
	if (model_setup(&md, o.profile, o.m))
		return KB_TROUBLE;
	if (load_manifest(&val, o.manifest, o.m))
		goto out;
	if (o.native) {
		probe = probe_path(machine_host(), 1);
		if (access(probe, X_OK)) {
			error_errno("the native probe %s", probe);
			goto out;
		}
		if (host_run_probe(&clock, probe, &none, 1))
			goto out;
	}
	if ((o.native && run_native(&val, o.runs, clock.ghz)) || run_models(&val, &md, o.m, o.jobs)) {
		ret = KB_KERNEL_FAIL;
		goto out;
	}
	ret = write_report(&o, &val, clock.ghz, &md) ? KB_TROUBLE : KB_OK;
out:
	host_run_release(&clock);
	validation_release(&val);
	model_release(&md);
	return ret;
}
