// SPDX-License-Identifier: GPL-2.0
/* The three kernels of kbench pgo (pgo-kernels.h). */
#include "pgo-kernels.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * All three kernels are built -O2, as distributions build theirs: under
 * tinyconfig's -Os gcc optimises every function for size, hot or not, and
 * a profile moved 61 bytes of a 4.4 MB text (Linux 6.1, 2026-11-24).
 * x86_64's and arm64's fragments say -O2 already; the others' do not.
 */
#define PERF_CONFIG "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y\n"
static const char plain_config[] = PERF_CONFIG;
/* The instrumented kernel: the kernel's own gcov, on every file it allows. */
static const char gcov_config[] =
	PERF_CONFIG
	"CONFIG_DEBUG_FS=y\n"
	"CONFIG_GCOV_KERNEL=y\n"
	"CONFIG_GCOV_PROFILE_ALL=y\n";

/* Debug information; 6.1 has no choice of DWARF version but through these. */
static const char debug_config[] =
	PERF_CONFIG
	"CONFIG_DEBUG_KERNEL=y\n"
	"CONFIG_DEBUG_INFO_DWARF5=y\n";
/*
 * clang's lines carry discriminators with this, which its profile reads.
 * (Not -funique-internal-linkage-names, which the kernel's AutoFDO option
 * adds from 6.13 on: 6.1's arch/x86/entry/common.c makes an alias of a
 * static function, and the renamed function leaves the alias undefined.)
 */
#define CLANG_AUTOFDO "-fdebug-info-for-profiling"

int kbuild_cc_is_clang(const char *cc)
{
	const char *base = strrchr(cc, '/');

	return !strncmp(base ? base + 1 : cc, "clang", 5);
}

/* kb with flags before its own KCFLAGS. */
static int build_with(const struct kbuild *kb, const char *cc, const char *dir,
		      const char *config, const char *flags)
{
	struct strbuf sb = STRBUF_INIT;
	struct kbuild k = *kb;
	int ret;

	strbuf_addstr(&sb, flags);
	if (kb->kcflags)
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", kb->kcflags);
	k.kcflags = sb.len ? sb.buf : NULL;
	ret = kbuild_kernel(&k, cc, dir, config);
	strbuf_release(&sb);
	return ret;
}

int kbuild_autofdo_plain(const struct kbuild *kb, const char *cc, const char *dir)
{
	return build_with(kb, cc, dir, debug_config, kbuild_cc_is_clang(cc) ? CLANG_AUTOFDO : "");
}

int kbuild_autofdo(const struct kbuild *kb, const char *cc, const char *dir,
		   const char *profile)
{
	struct strbuf flags = STRBUF_INIT;
	int ret;

	if (kbuild_cc_is_clang(cc))
		strbuf_addf(&flags, CLANG_AUTOFDO " -fprofile-sample-use=%s", profile);
	else
		strbuf_addf(&flags, "-fauto-profile=%s", profile);
	ret = build_with(kb, cc, dir, debug_config, flags.buf);
	strbuf_release(&flags);
	return ret;
}

int kbuild_plain(const struct kbuild *kb, const char *cc, const char *dir)
{
	return kbuild_kernel(kb, cc, dir, plain_config);
}

int kbuild_instrumented(const struct kbuild *kb, const char *cc, const char *dir)
{
	return kbuild_kernel(kb, cc, dir, gcov_config);
}

/*
 * Remove what an earlier loop left: profiles of objects that are gone,
 * and objects Kbuild would not rebuild for a new profile (it does not
 * know gcc reads one).
 */
int kbuild_remove(const struct kbuild *kb, const char *path)
{
	struct strvec args = STRVEC_INIT;
	int ret;

	strvec_pushl(&args, "rm", "-rf", "--", path, NULL);
	ret = kbuild_run(kb, &args);
	strvec_clear(&args);
	return ret;
}

/* The profile-guided build: ccd gets the profiles and reports on each object. */
int kbuild_profiled(const struct kbuild *kb, const char *cc, const char *dir,
		    const char *profile, const char *report)
{
	int ret;

	if (kb->dry_run) {
		printf("CCD_PROFILE_USE=%s CCD_PROFILE_REPORT=%s\n", profile, report);
	} else {
		if (unlink(report) && errno != ENOENT)
			return error_errno("cannot remove the old %s", report);
		setenv("CCD_PROFILE_USE", profile, 1);
		setenv("CCD_PROFILE_REPORT", report, 1);
	}
	ret = kbuild_kernel(kb, cc, dir, plain_config);
	unsetenv("CCD_PROFILE_USE");
	unsetenv("CCD_PROFILE_REPORT");
	return ret;
}
