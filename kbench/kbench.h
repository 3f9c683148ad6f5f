/* SPDX-License-Identifier: GPL-2.0 */
/* kbench's subcommands and what they share. */
#ifndef KBENCH_H
#define KBENCH_H

#include <stddef.h>

/* Exit statuses (kbench(1) EXIT STATUS). */
#define KB_OK		0
#define KB_KERNEL_FAIL	1	/* the kernel did not boot, panicked, hung, a benchmark failed */
#define KB_USAGE	2
#define KB_TROUBLE	3	/* kbench's own trouble: QEMU, files, bad input */

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_initramfs(int argc, char **argv);
int cmd_backends(int argc, char **argv);
int cmd_pgo(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/* A usage error: the message, a pointer to --help; returns KB_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The value of "--name=value" or of "--name value" (advancing *i). */
const char *opt_arg(int argc, char **argv, int *i, const char *name);

/*
 * Every path set: guest_path() and busybox_path() (machine.h) give the
 * defaults.  programs: NULL, or resolved (program.h).
 */
struct kb_programs;
struct initramfs_opts {
	const char *guest, *busybox, *workload, *post;
	const struct kb_programs *programs;
};
/* Write the benchmark initramfs to fd; 0 or -1 (after an error). */
int write_initramfs(int fd, const char *path, const struct initramfs_opts *o);

/*
 * Writing path atomically: atomic_create() opens a temp file beside it
 * (removed on every exit path); atomic_commit() closes it and renames it
 * over path, or removes it when failed is set or anything goes wrong.
 * So no reader ever sees a partial file.
 */
int atomic_create(const char *path, char **tmp);
int atomic_commit(int fd, char *tmp, const char *path, int failed);
/* The whole of text to path that way; "-" is standard output. */
int write_atomically(const char *path, const char *text, size_t len);

/* The SVG chart of a comparison (chart.c), its JSON (compare-json.c). */
struct kb_result;
struct kb_noise;
struct kb_train;
int write_chart(const char *path, const struct kb_result *res, const char *const *labels,
		int nr, const struct kb_noise *noise);
/* train: the "trained" and "held_out" gains of two kernels (pgo-gains.h), or NULL. */
int write_compare_json(const char *path, const struct kb_result *res,
		       const char *const *labels, int nr, const struct kb_noise *noise,
		       const struct kb_train *train);

#endif
