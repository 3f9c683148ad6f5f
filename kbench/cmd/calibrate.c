// SPDX-License-Identifier: GPL-2.0
/*
 * kbench calibrate: the cost model's hierarchy as a user sees it.  Runs
 * the probe (model/probe.c) under the model in QEMU's user mode, no
 * kernel needed: a dependent-load chase over working sets from 4 KiB to
 * 64 MiB (cycles per load by size: a step at each cache level the
 * profile has) and a branch loop, regular and random (the mispredict
 * penalty).  With --native the same probe code also runs on the host,
 * timed in core cycles (boot/host-probe.c), beside the model's curve,
 * with a line bounced between two cores beside the profile's
 * coherence_latency, and --profile-out writes a profile of this host.
 */
#include "cmd.h"
#include "json.h"
#include "kbench-config.h"
#include "machine.h"
#include "atomic-file.h"
#include "cost-model.h"
#include "host-probe.h"
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
#define NATIVE_RUNS 5	/* natively the median of these, round-robin */
#define ROUNDS 1000	/* the native ping-pong's, there and back: 2000 transfers */

/* KBENCH_NATIVE_RUNS (1 to 99) for a quicker test; else NATIVE_RUNS. */
static int native_runs(void)
{
	const char *e = getenv("KBENCH_NATIVE_RUNS");
	int n = e ? atoi(e) : 0;

	return n >= 1 && n <= 99 ? n : NATIVE_RUNS;
}

struct cal_opts {
	const struct kb_machine *m;
	const char *model, *probe, *qemu, *profile_out;
	int json, native;
};

static int check_native(const struct cal_opts *o)
{
	if (o->profile_out && !o->native)
		return usage_error("--profile-out needs --native (it writes what the host measured)");
	if (!o->native)
		return 0;
#ifndef __x86_64__
	return usage_error("--native measures x86-64 hosts only (this host: the model side only)");
#endif
	if (o->m != machine_host())
		return usage_error("--native measures the host only (%s), not %s",
				   machine_host()->name, o->m->name);
	return 0;
}

static int parse_cal_options(struct cal_opts *o, int argc, char **argv)
{
	const char *v;

	memset(o, 0, sizeof(*o));
	o->m = machine_host();
	o->model = "";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			o->json = 1;
		else if (!strcmp(argv[i], "--native"))
			o->native = 1;
		else if ((v = opt_arg(argc, argv, &i, "--profile-out")))
			o->profile_out = v;
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
	return check_native(o);
}

/* The measurements, in the model's records' order. */
static void measurements(struct strvec *args)
{
	for (unsigned long s = MIN_SET; s <= MAX_SET; s *= 2)
		strvec_pushf(args, "chase:%lu:%d", s, LOADS);
	strvec_pushf(args, "branch:regular:%d", PASSES);
	strvec_pushf(args, "branch:random:%d", PASSES);
}

static int run_probe(const struct cal_opts *o, const struct kb_model *md, const char *records)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int status;

	strvec_push(&cp.args, o->qemu);
	model_qemu_args(&cp.args, md, records, NULL);
	strvec_push(&cp.args, o->probe);
	measurements(&cp.args);
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

/* "cross_core": the profile's transfer, and the host's (null: one CPU). */
static void json_transfer(struct strbuf *sb, const struct kb_profile *p,
			  const struct host_curve *nc)
{
	strbuf_addstr(sb, "  \"cross_core\": {\"cycles\": ");
	json_add_number(sb, p->coherence_latency);
	if (nc && nc->transfer > 0) {
		strbuf_addstr(sb, ", \"native_cycles\": ");
		json_add_number(sb, nc->transfer);
	} else if (nc) {
		strbuf_addstr(sb, ", \"native_cycles\": null, \"native_note\": "
			      "\"only one CPU available\"");
	}
	strbuf_addstr(sb, "}\n");
}

static void print_json(const struct kb_profile *p, const struct model_records *r,
		       const struct host_curve *nc)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long s = MIN_SET;

	strbuf_addstr(&sb, "{\n  \"chase\": [\n");
	for (size_t i = 0; i < NR_SETS; i++, s *= 2) {
		strbuf_addf(&sb, "    {\"bytes\": %lu, \"cycles_per_load\": ", s);
		json_add_number(&sb, r->v[i].v[KB_M_cycles] / LOADS);
		if (nc) {
			strbuf_addstr(&sb, ", \"native_cycles_per_load\": ");
			json_add_number(&sb, nc->per_load[i]);
		}
		strbuf_addstr(&sb, i + 1 < NR_SETS ? "},\n" : "}\n");
	}
	strbuf_addstr(&sb, "  ],\n");
	json_transfer(&sb, p, nc);
	strbuf_addstr(&sb, "}\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

static void print_chase(const struct model_records *r, const struct host_curve *nc)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long s = MIN_SET;

	printf("%-12s %12s %10s %10s %10s", "working set", "cycles/load", "L1d miss",
	       "L2 miss", "LLC miss");
	printf(nc ? " %10s\n" : "\n", "native");
	for (size_t i = 0; i < NR_SETS; i++, s *= 2) {
		const double *v = r->v[i].v;

		strbuf_reset(&sb);
		size_text(&sb, s);
		printf("%-12s %12.1f %9.0f%% %9.0f%% %9.0f%%", sb.buf, v[KB_M_cycles] / LOADS,
		       100 * v[KB_M_l1d_misses] / LOADS, 100 * v[KB_M_l2_misses] / LOADS,
		       100 * v[KB_M_llc_misses] / LOADS);
		printf(nc ? " %10.1f\n" : "\n", nc ? nc->per_load[i] : 0);
	}
	strbuf_release(&sb);
}

static void print_branches(const struct kb_profile *p, const struct model_records *r,
			   const struct host_curve *nc)
{
	printf("\n%-22s %12s %12s", "branch loop", "cycles/pass", "mispredicted");
	printf(nc ? " %10s\n" : "\n", "native");
	for (size_t i = NR_SETS; i < NR_SETS + 2; i++) {
		printf("%-22s %12.2f %11.1f%%", i == NR_SETS ? "regular (1 in 4 taken)" :
		       "random (a coin toss)", r->v[i].v[KB_M_cycles] / PASSES,
		       100 * r->v[i].v[KB_M_branch_misses] / PASSES);
		printf(nc ? " %10.2f\n" : "\n", nc ? i == NR_SETS ? nc->regular : nc->random : 0);
	}
	if (nc)
		printf("\na mispredict: %g cycles modelled, %.1f measured natively "
		       "((random - regular) / 0.5)\n", p->branch_penalty, host_branch_penalty(nc));
}

static void print_transfer(const struct kb_profile *p, const struct host_curve *nc)
{
	if (nc && nc->transfer > 0)
		printf("a cross-core transfer: %g cycles modelled, %.1f measured natively "
		       "(a line bounced between two cores)\n", p->coherence_latency, nc->transfer);
	else if (nc)
		printf("a cross-core transfer: %g cycles modelled, not measured natively "
		       "(only one CPU available)\n", p->coherence_latency);
}

static void print_table(const struct kb_model *md, const struct model_records *r,
			const struct host_curve *nc)
{
	const struct kb_profile *p = &md->profile;

	printf("cost model: %s (%s)\n", p->name, md->profile_path);
	printf("L1d %lu KiB, L2 %lu KiB, LLC %lu KiB; latencies %g/%g/%g cycles, "
	       "another core's line %g, a mispredict %g\n", p->l1d.size >> 10, p->l2.size >> 10,
	       p->llc.size >> 10, p->l2_latency, p->llc_latency, p->memory_latency,
	       p->coherence_latency, p->branch_penalty);
	if (nc)
		printf("native: this host, core clock %.2f GHz (measured by a chain of dependent "
		       "adds), the median of %d runs on one CPU\n", nc->ghz, native_runs());
	printf("\n");
	print_chase(r, nc);
	print_branches(p, r, nc);
	print_transfer(p, nc);
}

/* The native runs as a curve in core cycles, and its profile under --profile-out. */
static int run_native(const struct cal_opts *o, const struct kb_model *md,
		      struct host_run *h, struct host_curve *nc)
{
	static unsigned long bytes[NR_SETS];
	static double per_load[NR_SETS];
	struct strvec ms = STRVEC_INIT;
	struct strbuf prof = STRBUF_INIT;
	const char *probe = probe_path(o->m, 1);
	int ret, two = host_cpus() > 1;

	if (access(probe, X_OK))
		return error_errno("the native probe %s", probe);
	measurements(&ms);
	if (two)
		strvec_pushf(&ms, "pingpong:%d", ROUNDS);
	else
		warning("only one CPU available: no cross-core transfer to measure%s",
			o->profile_out ? " (the profile keeps coherence_latency)" : "");
	ret = host_run_probe(h, probe, &ms, native_runs());
	strvec_clear(&ms);
	if (ret)
		return -1;
	for (size_t i = 0; i < NR_SETS; i++) {
		bytes[i] = MIN_SET << i;
		per_load[i] = h->ns[i] * h->ghz / LOADS;
	}
	*nc = (struct host_curve){ bytes, per_load, NR_SETS, h->ns[NR_SETS] * h->ghz / PASSES,
				   h->ns[NR_SETS + 1] * h->ghz / PASSES, h->ghz,
				   two ? h->ns[NR_SETS + 2] * h->ghz / (2 * ROUNDS) : 0 };
	if (!o->profile_out)
		return 0;
	ret = host_profile(&prof, nc, &md->profile, md->profile_path) ||
	      write_atomically(o->profile_out, prof.buf, prof.len) ? -1 : 0;
	strbuf_release(&prof);
	return ret;
}

int cmd_calibrate(int argc, char **argv)
{
	struct model_records r = { 0 };
	struct host_run h = { 0 };
	struct host_curve nc;
	struct cal_opts o;
	struct kb_model md;
	const char *records = NULL;
	int fd, ret = KB_TROUBLE;

	if (parse_cal_options(&o, argc, argv))
		return KB_USAGE;
	if (!o.probe)
		o.probe = probe_path(o.m, 0);
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
	if (o.native && run_native(&o, &md, &h, &nc))
		goto out;
	if (o.json)
		print_json(&md.profile, &r, o.native ? &nc : NULL);
	else
		print_table(&md, &r, o.native ? &nc : NULL);
	ret = fflush(stdout) || ferror(stdout) ?
		(error_errno("cannot write the standard output"), KB_TROUBLE) : KB_OK;
out:
	if (records)
		tempfile_remove(records);
	model_records_release(&r);
	host_run_release(&h);
	model_release(&md);
	return ret;
}
