/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which QEMU a run uses when --qemu names none (qemu-choice.c): the
 * machine's own in PATH, then the same name in each directory of
 * KBENCH_QEMU_DIRS (by default where scripts/install-deps unpacks
 * bookworm-backports' QEMU), the first that can run what the run asks.
 * A QEMU is judged on what is known of it: its version against the limits
 * of QEMU's icount with several CPUs (kbench(1), BUGS), and under the cost
 * model whether the boot's command line with the plugin sets up in it
 * (qemu_probe()).  Judging and picking are pure: the caller reads the
 * versions and runs the probes.
 */
#ifndef KBENCH_QEMU_CHOICE_H
#define KBENCH_QEMU_CHOICE_H

#include "machine.h"
#include "strbuf.h"

#include <stddef.h>

/* KBENCH_QEMU_DIRS's default: bookworm-backports' QEMU as scripts/install-deps lays it out. */
#define KB_QEMU_DIRS "/opt/ccd-suite/qemu-backports/usr/bin"

/* What a run asks of its QEMU. */
struct qemu_request {
	const struct kb_machine *m;
	int cpus;	/* the most CPUs a boot of the run has */
	int icount;	/* the icount clock: under KVM no limit below applies */
	int model;	/* the cost model: its plugin must load */
};

/* Where QEMU older than before_qemu falls short with several CPUs under icount. */
struct qemu_limit {
	unsigned short elf_machine;
	int most;		/* the most CPUs that boot (or whose boots repeat) */
	int before_qemu;	/* in a QEMU older than this (0: in any) */
	const char *what;	/* what m's guests do above most */
	const char *package;	/* bookworm-backports' QEMU that does better, or NULL */
};

/* m's guests of more than ->most CPUs do not run under QEMU 7.2's icount: or NULL. */
const struct qemu_limit *qemu_smp_limit(const struct kb_machine *m);
/* The limits on m's boots repeating, one per call from *i = 0; NULL after the last. */
const struct qemu_limit *qemu_repeat_limit(const struct kb_machine *m, size_t *i);

enum qemu_fit {
	QEMU_UNFIT,		/* cannot run the request (or not looked at yet) */
	QEMU_UNREPEATABLE,	/* runs it, but two boots of one image can differ */
	QEMU_PROBE,		/* nothing known against it: try the boot's command line */
	QEMU_FIT,
};

struct qemu_candidate {
	char *path;		/* PATH's finding, DIR/NAME, or the bare name if PATH has none */
	int in_path;		/* PATH's (else a directory's) */
	int found;		/* an executable file */
	char *version;		/* its `--version` ("10.0.2"), or NULL: says none */
	int probed;		/* qemu_probe() ran */
	char *probe_error;	/* then: NULL if the command line set up, else QEMU's words */
	enum qemu_fit fit;
	struct strbuf why;	/* why it is not QEMU_FIT */
};

struct qemu_candidates {
	struct qemu_candidate *v;
	size_t nr;
};

/*
 * PATH's m->qemu, then DIR/m->qemu for each DIR of dirs (':' between;
 * NULL: KB_QEMU_DIRS), a file named twice (the same real path) once.
 */
void qemu_candidates(struct qemu_candidates *cs, const struct kb_machine *m, const char *dirs);
void qemu_candidates_release(struct qemu_candidates *cs);
/* The major version of "10.0.2", or -1 for NULL. */
int qemu_major(const char *version);
/* c's fit for r from what is known of c; why gets the reason (emptied first). */
enum qemu_fit qemu_judge(const struct qemu_request *r, const struct qemu_candidate *c,
			 struct strbuf *why);
/* The first QEMU_FIT candidate, else the first QEMU_UNREPEATABLE; -1 if none. */
int qemu_pick(const struct qemu_candidates *cs);
/* The refusal: what r asks, then a line per candidate and its reason. */
void qemu_refusal(const struct qemu_request *r, const struct qemu_candidates *cs,
		  struct strbuf *out);

#endif
