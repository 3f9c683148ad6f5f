/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kbench boot as a LAVA job (job.c): the job's YAML, checked against
 * LAVA's own schema, and read back for what kbench lava fetch needs.
 *
 * On a QEMU device type the job carries kbench's own QEMU options in its
 * context (extra_options), so that the lab's QEMU boots the board kbench
 * boots: under icount the samples are the ones `kbench run` gets.  On a
 * board the device type's own deploy (tftp) and boot (u-boot, grub) run,
 * and the guest's clock is the board's.  What the result file needs
 * (the kernel's path here, the clock, runs, CPUs) rides in the job's
 * metadata, under kbench.* keys, as JSON strings.
 */
#ifndef KBENCH_LAB_JOB_H
#define KBENCH_LAB_JOB_H

#include "strbuf.h"

struct kb_machine;

struct lab_job {
	/* The boot. */
	const struct kb_machine *m;
	char *kernel;			/* the image's path here */
	const char *clock;		/* "icount", "kvm"; "board" on a board */
	int cpus, runs, quick, timeout;	/* timeout: seconds the rows may take */
	char *append, *only;		/* run's --append and --only, or NULL */
	struct strvec qemu;		/* kbench's QEMU options (QEMU device types) */
	struct strbuf cmdline;		/* the kernel's command line */
	unsigned long memory;		/* the guest's MB */
	/* The lab. */
	const char *device_type;	/* "qemu", or a board's device type */
	const char *boot;		/* a board's boot method (u-boot, grub); NULL on QEMU */
	const char *name, *priority;	/* the job's name; high, medium, low */
	struct strvec tags;		/* devices the job may run on */
	char *kernel_url, *initrd_url, *dtb_url;	/* dtb_url: NULL for none */
};

void lab_job_init(struct lab_job *j);
void lab_job_release(struct lab_job *j);
/* 1 if LAVA's qemu device type can start m's QEMU; its "arch" in *arch. */
int lab_qemu_arch(const struct kb_machine *m, const char **arch);
/* The job's YAML. */
void lab_job_yaml(const struct lab_job *j, struct strbuf *out);
/*
 * LAVA's schema (lava-common's, run by python3) on the job text: 0, or
 * -1 after an error naming path and what the schema says.
 */
int lab_job_check(const char *text, const char *path);

/* What kbench wrote into a job's metadata. */
struct lab_meta {
	char *kernel, *machine, *clock, *append;
	int cpus, runs, quick;
};
/*
 * The metadata of a job's definition (as LAVA keeps it); -1 after an
 * error naming job when it has none of kbench's (not a kbench job).
 */
int lab_meta_read(const char *definition, const char *job, struct lab_meta *meta);
void lab_meta_release(struct lab_meta *meta);

#endif
