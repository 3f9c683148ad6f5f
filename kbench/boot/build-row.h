/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build row's compiler and sources (rows.h "build", guest/build.c):
 * a C compiler for the kernel's machine, carried into the initramfs with
 * its interpreter and libraries at their own paths (elfdeps.h), and
 * KB_BUILD_SOURCES C files made here, the same on every run and machine,
 * that need no header.  Only with --build-cc (Debian's tcc, say): their
 * pages in the guest move other rows (fork_exit by 3 %), so a run without
 * it boots the initramfs it always booted.
 */
#ifndef KBENCH_BUILD_ROW_H
#define KBENCH_BUILD_ROW_H

#include "machine.h"
#include "strbuf.h"

/*
 * Part of kbench's own initramfs, as the guest and busybox are: unlike
 * --program's files, the guest's memory does not grow by them.
 */
struct kb_build_cc {
	char *path;		/* NULL: no compiler, no row */
	struct strvec files;	/* path, its interpreter and libraries */
};

/*
 * Find the compiler opt (a command, in PATH without a slash; NULL: none,
 * no row).  0, or -1 after an error naming opt.
 */
int build_cc_resolve(struct kb_build_cc *b, const char *opt, const struct kb_machine *m);
/* --only's list (NULL: every row) takes the build row, by its name or group. */
int build_row_wanted(const char *only);
/* --only's list names the build row itself. */
int build_row_named(const char *only);
/* Source i (0 <= i < KB_BUILD_SOURCES) appended to sb. */
void build_source(int i, struct strbuf *sb);
void build_cc_release(struct kb_build_cc *b);

#endif
