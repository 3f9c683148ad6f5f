// SPDX-License-Identifier: GPL-2.0
/*
 * kbench calibrate: the cost model's hierarchy as a user sees it.  Runs
 * the probe (model/probe.c) under the model in QEMU's user mode, no
 * kernel needed: a dependent-load chase over working sets from 4 KiB to
 * 64 MiB (cycles per load by size: a step at each cache level the
 * profile has) and a branch loop, regular and random (the mispredict
 * penalty).
 */
#include "cmd.h"
#include "json.h"
#include "kbench-config.h"
#include "machine.h"
#include "cost-model.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIN_SET (4ul << 10)
#define MAX_SET (64ul << 20)
#define LOADS 100000
#define PASSES 100000
#define NR_SETS 15	/* 4 KiB to 64 MiB, doubling */

struct cal_opts {
	const struct kb_machine *m;
	const char *model, *probe, *qemu;
	int json;
};

static int parse_cal_options(struct cal_opts *o, int argc, char **argv)
{
	const char *v;

	memset(o, 0, sizeof(*o));
	o->m = machine_host();
	o->model = "";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			o->json = 1;
		else if ((v = opt_arg(argc, argv, &i, "--model"))) {
			if (strcmp(v, "cycles") && strncmp(v, "cycles=", 7))
				return usage_error("--model is cycles or cycles=PROFILE, not '%s'",
						   v);
			o->model = v[6] ? v + 7 : "";
		} else if ((v = opt_arg(argc, argv, &i, "--arch"))) {
			if (!(o->m = arch_option(v)))
				return KB_USAGE;
		} else if ((v = opt_arg(argc, argv, &i, "--probe")))
			o->probe = v;
		else if ((v = opt_arg(argc, argv, &i, "--qemu")))
			o->qemu = v;
		else
			return usage_error("calibrate: unexpected argument '%s'", argv[i]);
	}
	if (!o->qemu)
		o->qemu = o->m->qemu_user;
	return 0;
}

/* The probe for m: beside kbench in the build tree, else installed. */
static const char *probe_path(const struct kb_machine *m)
{
	static char path[PATH_MAX];
	const char *suffix = m == machine_host() ? "" : "-";
	const char *name = *suffix ? m->name : "";
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	char *slash = n > 0 ? (path[n] = '\0', strrchr(path, '/')) : NULL;

	if (slash) {
		snprintf(slash, 64, "/model/kbench-probe%s%s", suffix, name);
		if (!access(path, X_OK))
			return path;
	}
	snprintf(path, sizeof(path), "%s/kbench-probe%s%s", KBENCH_LIBEXECDIR, suffix, name);
	return path;
}

static int run_probe(const struct cal_opts *o, const struct kb_model *md, const char *records)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int status;

	strvec_push(&cp.args, o->qemu);
	model_qemu_args(&cp.args, md, records);
	strvec_push(&cp.args, o->probe);
	for (unsigned long s = MIN_SET; s <= MAX_SET; s *= 2)
		strvec_pushf(&cp.args, "chase:%lu:%d", s, LOADS);
	strvec_pushf(&cp.args, "branch:regular:%d", PASSES);
	strvec_pushf(&cp.args, "branch:random:%d", PASSES);
	status = run_command(&cp);
	child_process_clear(&cp);
	if (status < 0)
		return -1;
	if (!status_ok(status))
		return error("%s with the probe %s under the model failed (%s %d)", o->qemu,
			     o->probe, WIFSIGNALED(status) ? "signal" : "exit status",
			     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 0;
}

static void size_text(struct strbuf *sb, unsigned long bytes)
{
	if (bytes >= 1ul << 20)
		strbuf_addf(sb, "%lu MiB", bytes >> 20);
	else
		strbuf_addf(sb, "%lu KiB", bytes >> 10);
}

static void print_json(const struct model_records *r)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long s = MIN_SET;

	strbuf_addstr(&sb, "[\n");
	for (size_t i = 0; i < NR_SETS; i++, s *= 2) {
		strbuf_addf(&sb, "  {\"bytes\": %lu, \"cycles_per_load\": ", s);
		json_add_number(&sb, r->v[i].v[KB_M_cycles] / LOADS);
		strbuf_addstr(&sb, i + 1 < NR_SETS ? "},\n" : "}\n");
	}
	strbuf_addstr(&sb, "]\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

static void print_table(const struct kb_model *md, const struct model_records *r)
{
	const struct kb_profile *p = &md->profile;
	struct strbuf sb = STRBUF_INIT;
	unsigned long s = MIN_SET;

	printf("cost model: %s (%s)\n", p->name, md->profile_path);
	printf("L1d %lu KiB, L2 %lu KiB, LLC %lu KiB; latencies %g/%g/%g cycles, "
	       "a mispredict %g\n\n", p->l1d.size >> 10, p->l2.size >> 10, p->llc.size >> 10,
	       p->l2_latency, p->llc_latency, p->memory_latency, p->branch_penalty);
	printf("%-12s %12s %10s %10s %10s\n", "working set", "cycles/load", "L1d miss",
	       "L2 miss", "LLC miss");
	for (size_t i = 0; i < NR_SETS; i++, s *= 2) {
		const double *v = r->v[i].v;

		strbuf_reset(&sb);
		size_text(&sb, s);
		printf("%-12s %12.1f %9.0f%% %9.0f%% %9.0f%%\n", sb.buf, v[KB_M_cycles] / LOADS,
		       100 * v[KB_M_l1d_misses] / LOADS, 100 * v[KB_M_l2_misses] / LOADS,
		       100 * v[KB_M_llc_misses] / LOADS);
	}
	printf("\n%-22s %12s %12s\n", "branch loop", "cycles/pass", "mispredicted");
	for (size_t i = NR_SETS; i < NR_SETS + 2; i++)
		printf("%-22s %12.2f %11.1f%%\n", i == NR_SETS ? "regular (1 in 4 taken)" :
		       "random (a coin toss)", r->v[i].v[KB_M_cycles] / PASSES,
		       100 * r->v[i].v[KB_M_branch_misses] / PASSES);
	strbuf_release(&sb);
}

int cmd_calibrate(int argc, char **argv)
{
	struct model_records r = { 0 };
	struct cal_opts o;
	struct kb_model md;
	const char *records = NULL;
	int fd, ret = KB_TROUBLE;

	if (parse_cal_options(&o, argc, argv))
		return KB_USAGE;
	if (!o.probe)
		o.probe = probe_path(o.m);
	if (access(o.probe, X_OK))
		return error_errno("the probe %s (--probe=FILE)", o.probe), KB_TROUBLE;
	if (model_setup(&md, o.model, o.m))
		return KB_TROUBLE;
	fd = tempfile_create("kbench-", ".model", &records);
	if (fd < 0)
		goto out;
	close(fd);
	if (run_probe(&o, &md, records) || model_read(&r, records))
		goto out;
	if (r.nr != NR_SETS + 2) {
		error("the probe under the model gave %zu samples, not %d", r.nr, NR_SETS + 2);
		goto out;
	}
	if (o.json)
		print_json(&r);
	else
		print_table(&md, &r);
	ret = fflush(stdout) || ferror(stdout) ?
		(error_errno("cannot write the standard output"), KB_TROUBLE) : KB_OK;
out:
	if (records)
		tempfile_remove(records);
	model_records_release(&r);
	model_release(&md);
	return ret;
}
