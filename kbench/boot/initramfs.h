/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark initramfs (initramfs.c): /init is the static guest,
 * busybox the shell of the fork_sh row, the optional workload and post
 * programs where the guest looks for them, --program's programs with
 * their interpreters and libraries at their own paths.
 */
#ifndef KBENCH_INITRAMFS_H
#define KBENCH_INITRAMFS_H

/*
 * Every path set: guest_path() and busybox_path() (machine.h) give the
 * defaults.  programs: NULL, or resolved (program.h).
 */
struct kb_programs;
struct kb_build_cc;
struct initramfs_opts {
	const char *guest, *busybox, *workload, *post;
	const struct kb_programs *programs;
	const struct kb_build_cc *build;	/* NULL, or resolved (build-row.h) */
};
/* Write the benchmark initramfs to fd; 0 or -1 (after an error). */
int write_initramfs(int fd, const char *path, const struct initramfs_opts *o);

#endif
