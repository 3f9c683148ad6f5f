/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernels of a profile-guided build (kbench pgo), all from one tree
 * through ccd at -O2: plain, instrumented with the kernel's own gcov, and
 * profile-guided (ccd giving each compile its object's profile).  Each
 * returns 0, or -1 after an error; with dry_run they print what they do.
 */
#ifndef KBENCH_PGO_KERNELS_H
#define KBENCH_PGO_KERNELS_H

#include "kbuild.h"

int kbuild_plain(const struct kbuild *kb, const char *cc, const char *dir);
/* CONFIG_GCOV_PROFILE_ALL: Kbuild knows which files must not be instrumented. */
int kbuild_instrumented(const struct kbuild *kb, const char *cc, const char *dir);
/* With CCD_PROFILE_USE=profile; ccd reports on each object into report. */
int kbuild_profiled(const struct kbuild *kb, const char *cc, const char *dir,
		    const char *profile, const char *report);
/*
 * AutoFDO's kernels: with debug information (a record's addresses become
 * source lines through it), and clang's -fdebug-info-for-profiling (the
 * discriminators a sample profile tells blocks of a line apart by).
 * kbuild_autofdo builds with profile (sample_profile()'s, of cc's kind:
 * clang's text or gcc's AFDO).  Each kernel takes kb's kcflags and
 * link_order too (the order's: -ffunction-sections and lkd's order).
 */
int kbuild_autofdo_plain(const struct kbuild *kb, const char *cc, const char *dir);
int kbuild_autofdo(const struct kbuild *kb, const char *cc, const char *dir,
		   const char *profile);
/* cc is a clang (its flags, its profile format); else gcc's are used. */
int kbuild_cc_is_clang(const char *cc);
/*
 * rm -rf path: what an earlier loop left (profiles of objects that are
 * gone, objects Kbuild would not rebuild for a new profile).
 */
int kbuild_remove(const struct kbuild *kb, const char *path);

#endif
