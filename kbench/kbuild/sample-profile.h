/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A branch record into a compiler's sample profile (sample-profile.c):
 * llvm-profgen symbolizes it against the kernel's debug information into
 * LLVM's text form, which clang reads, and which afdo.c turns into gcc's.
 */
#ifndef KBENCH_SAMPLE_PROFILE_H
#define KBENCH_SAMPLE_PROFILE_H

#include "branches.h"

struct profile_stats {
	size_t functions;		/* the profile's (top level) */
	unsigned long long samples;	/* their total */
};

/*
 * b's samples of vmlinux into out: format "llvm" (LLVM's text) or "afdo"
 * (gcc's).  0, or -1 after an error: one naming no function is one.
 */
int sample_profile(const struct kb_branches *b, const char *vmlinux, const char *format,
		   const char *out, struct profile_stats *st);

#endif
