/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host as the cost model's machine (host-probe.c): the probe run
 * natively and timed (`kbench calibrate --native`), the core clock, the
 * caches CPUID describes, and a profile of this host from them.
 */
#ifndef KBENCH_HOST_PROBE_H
#define KBENCH_HOST_PROBE_H

#include "cost-model.h"
#include "run-command.h"
#include "strbuf.h"

/* What one measurement took natively, the median of the runs. */
struct host_run {
	double ghz;		/* the core clock, from the clock chain */
	double *ns;		/* per measurement, in the order given */
	size_t nr;
};

/*
 * Runs probe --native runs times over measurements (round-robin: every
 * measurement once per run).  0, or -1 after an error naming the probe.
 */
int host_run_probe(struct host_run *h, const char *probe, const struct strvec *measurements,
		   int runs);
void host_run_release(struct host_run *h);

/*
 * Runs argv natively (standard input from stdin_path unless NULL, output
 * discarded) and says its user and system CPU time in seconds.  The
 * raw wait status, or -1 if it could not run; err gets the end of its
 * standard error.
 */
int host_run_program(char *const *argv, const char *stdin_path, double *user, double *sys,
		     struct strbuf *err);

/*
 * The same in two steps, for programs run side by side: start (0, or -1
 * after an error; nothing left to end), wait with finish_command or
 * finish_any_command, then end (err, unless NULL, gets the end of its
 * standard error; its temporary file is removed).
 */
struct host_program {
	struct child_process cp;
	const char *errpath;
};
int host_program_start(struct host_program *hp, char *const *argv, const char *stdin_path);
void host_program_end(struct host_program *hp, struct strbuf *err);

/* The probe's curve natively, in core cycles. */
struct host_curve {
	const unsigned long *bytes;	/* the chase's working sets, doubling */
	const double *per_load;		/* cycles per load at each */
	size_t nr;
	double regular, random;		/* the branch loops' cycles per pass */
	double ghz;
	double transfer;	/* a line's cycles from another core; 0: not measured */
};

/* The CPUs kbench may run on: online and in its affinity mask. */
int host_cpus(void);

/*
 * A mispredict's cost: the random loop mispredicts half its passes, the
 * regular one (a period of four) about none on any current predictor.
 */
double host_branch_penalty(const struct host_curve *c);

/*
 * A profile of this host in model/profile.h's format, each figure with a
 * comment saying where it came from: the caches from CPUID (sysfs if it
 * says nothing), the latencies, the cross-core transfer and the branch
 * penalty from c, what the probes cannot measure (or did not: with one
 * CPU there is no cross-core transfer) from base (the profile at
 * base_path).  -1 after an error saying what could not be found.
 */
int host_profile(struct strbuf *out, const struct host_curve *c, const struct kb_profile *base,
		 const char *base_path);

#endif
