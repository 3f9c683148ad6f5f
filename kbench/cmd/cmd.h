/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench's subcommands, one file of cmd/ each (main.c's table), and what
 * their option parsing shares (options.c).  Nothing below cmd/ calls up
 * into it: the machinery returns what went wrong, a command says it.
 */
#ifndef KBENCH_CMD_H
#define KBENCH_CMD_H

#include "kbench.h"

#include <stddef.h>

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_initramfs(int argc, char **argv);
int cmd_backends(int argc, char **argv);
int cmd_pgo(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_lava(int argc, char **argv);

/*
 * Before backends or pgo build anything: run's options (run_args, and
 * --model=model if model) taken as a run on m's kernel would take them,
 * and the CPU counts m's board and the QEMU chosen can boot (the checks
 * a run makes before QEMU starts).  KB_OK, or the exit status after an
 * error.
 */
struct kb_machine;
struct strvec;
int run_precheck(const struct strvec *run_args, const char *model, const struct kb_machine *m);

/*
 * kbench profile's work (profile.c): record, taken on vmlinux's build,
 * into out as format (llvm, afdo or order), refused with fewer than
 * min_samples samples.  KB_OK, or the exit status after an error; made
 * (if not NULL) gets the record's samples and the profile's functions.
 */
#define PROFILE_MIN_SAMPLES 500
struct profile_made {
	size_t samples, functions;
};
int profile_make(const char *record, const char *vmlinux, const char *format, const char *out,
		 unsigned long min_samples, struct profile_made *made);

/*
 * kbench lava job's boot (run.c): run's options (argv as run's) for one
 * boot, checked as run checks them but for QEMU, which is the lab's; the
 * boot described into job, its initramfs written to files->initrd, and
 * the kernel's and device tree's paths (dtb: NULL for none) into files.
 * KB_OK, or the exit status after an error.
 */
struct lab_job;
struct lab_files {
	const char *initrd;	/* where the initramfs goes */
	const char *kernel;	/* job's */
	char *dtb;		/* the board's device tree, or NULL */
};
int run_lab_job(int argc, char **argv, struct lab_job *job, struct lab_files *files);

/* The help page, every command's options (help.c). */
void usage(void);

/* A usage error: the message, a pointer to --help; returns KB_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The value of "--name=value" or of "--name value" (advancing *i). */
const char *opt_arg(int argc, char **argv, int *i, const char *name);

/*
 * Values the machinery judges, which says why it refuses one: here that
 * becomes the usage error.  arch_option(): the machine --arch names, or
 * NULL; program_option() (--program, program.h) and train_option()
 * (--trained, --train-rows, train.h): 0, or KB_USAGE.
 */
struct kb_machine;
struct kb_programs;
struct kb_train;
const struct kb_machine *arch_option(const char *name);
/* calibrate's probe for m (native: its native build), in the build tree or installed. */
const char *probe_path(const struct kb_machine *m, int native);
int program_option(struct kb_programs *ps, const char *spec);
int train_option(struct kb_train *t, const char *list, const char *opt);

#endif
