// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of ccd.conf, one table per program: each program reads its own
 * set and skips the others' (one file serves both), so a typo is still an
 * error naming file:line.
 */
#include "settings.h"

static const struct config_key_info ccd_info[CCD_KEY__COUNT] = {
	[CCD_KEY_CC] = { "cc", "CCD_CC", CFGT_STRING, NULL, NULL,
		"backend compiler, optionally with a prefix command (\"distcc gcc\")" },
	[CCD_KEY_PROFILE] = { "profile", "CCD_PROFILE", CFGT_STRING, NULL, NULL,
		"backend profile: a built-in name or a [profile NAME] (default: ask the compiler)" },
	[CCD_KEY_AS] = { "as", "CCD_AS", CFGT_STRING, NULL, NULL,
		"assembler ccd runs (default: the backend's -print-prog-name=as)" },
	[CCD_KEY_PASSES] = { "passes", "CCD_PASSES", CFGT_STRING, NULL, "all",
		"asmfix passes: all, none or a comma-separated list" },
	[CCD_KEY_ASSEM] = { "assem", "CCD_ASSEM", CFGT_ENUM, "no|yes|both|0|1", "no",
		"keep repaired assembly as <source>.S (both: also <source>.raw.S)" },
	[CCD_KEY_VERBOSE] = { "verbose", "CCD_VERBOSE", CFGT_BOOL, NULL, "no",
		"print each command ccd runs on stderr" },
	[CCD_KEY_KEEP_PREFIX] = { "keep_prefix", "CCD_KEEP_PREFIX", CFGT_STRING, NULL, "__ccd_keep_",
		"name prefix of the keep-alive accessors asmfix removes" },
	[CCD_KEY_PROFILE_USE] = { "profile_use", "CCD_PROFILE_USE", CFGT_STRING, NULL, NULL,
		"directory of gcda profiles, one per object (profile-guided builds)" },
	[CCD_KEY_PROFILE_REPORT] = { "profile_report", "CCD_PROFILE_REPORT", CFGT_STRING, NULL, NULL,
		"file ccd appends each object's profile status to" },
	[CCD_KEY_STRICT] = { "strict", "CCD_STRICT", CFGT_BOOL, NULL, "no",
		"GNU as rejecting the repaired assembly fails the compile (default: the "
		"backend's own assembly is used, with a warning)" },
	[CCD_KEY_TARGET] = { "target", "CCD_TARGET", CFGT_STRING, NULL, NULL,
		"backend's target machine: a name (aarch64, arm, ...) or triple (default: ask the compiler)" },
	[CCD_KEY_CHECK_REPORT] = { "check_report", "CCD_CHECK_REPORT", CFGT_STRING, NULL, NULL,
		"file ccd appends each object's check line to: is it the backend's own -c object" },
};

static const struct config_key_info lkd_info[LKD_KEY__COUNT] = {
	[LKD_KEY_LD] = { "ld", "LKD_LD", CFGT_STRING, NULL, NULL,
		"linker lkd runs (default: make LLVM='s ld.lld, else ${CROSS_COMPILE}ld)" },
	[LKD_KEY_CHECKS] = { "lkd_checks", "LKD_CHECKS", CFGT_STRING, NULL, "all",
		"lkd checks: all, none or a comma-separated list" },
	[LKD_KEY_QUIET] = { "lkd_quiet", "LKD_QUIET", CFGT_BOOL, NULL, "no",
		"lkd does not report the fixes it makes" },
	[LKD_KEY_VERBOSE] = { "lkd_verbose", "LKD_VERBOSE", CFGT_BOOL, NULL, "no",
		"lkd explains what it checks and runs" },
	[LKD_KEY_STRICT] = { "lkd_strict", "LKD_STRICT", CFGT_BOOL, NULL, "no",
		"what lkd cannot interpret fails the link instead of a warning" },
	[LKD_KEY_ALTINSTR_LAYOUT] = { "altinstr_layout", "LKD_ALTINSTR_LAYOUT", CFGT_ENUM,
		"auto|linux612|linux6|linux26", "auto",
		".altinstructions record layout: auto (read off each object) or a name" },
	[LKD_KEY_ORDER] = { "lkd_order", "LKD_ORDER", CFGT_STRING, NULL, NULL,
		"file of function names: a final link lays them out in its order" },
};

_Static_assert(CCD_KEY__COUNT <= CONFIG_MAX_KEYS && LKD_KEY__COUNT <= CONFIG_MAX_KEYS,
	       "struct config holds CONFIG_MAX_KEYS values");

const struct config_keys ccd_keys = { "ccd", ccd_info, CCD_KEY__COUNT };
const struct config_keys lkd_keys = { "lkd", lkd_info, LKD_KEY__COUNT };

const struct config_keys *const config_programs[] = { &ccd_keys, &lkd_keys, NULL };
