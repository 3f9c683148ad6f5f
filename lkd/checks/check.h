/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkd's checks: one file per check under checks/, registered in one table
 * (checks.c).  A check looks at one ELF object at a time; it never keeps
 * pointers into an object after returning, so objects can be unmapped
 * right away and a vmlinux link stays linear in its input size.
 */
#ifndef LKD_CHECK_H
#define LKD_CHECK_H

#include "lkd-elf.h"

enum lkd_mode {
	LKD_VERIFY,		/* --lkd-verify: report, change nothing */
	LKD_LINK_REL,		/* ld -r: partial link (modules, vmlinux.o) */
	LKD_LINK_FINAL,		/* executable / shared object */
};

struct lkd_ctx {
	enum lkd_mode mode;
	int quiet;		/* no notes about fixes */
	int verbose;		/* explain */
	int strict;		/* what a check cannot interpret is an error */
	const char *layout;	/* altinstr layout: auto or a name in altlayout.c */
	/* Results the driver acts on: */
	int define_common;	/* ld must get -d */
	unsigned long commons;	/* SHN_COMMON symbols seen */
	unsigned long objects;	/* objects looked at */
	unsigned long ir_objects;	/* of those, LLVM bitcode: checked after the LTO link */
};

struct lkd_check {
	const char *name;
	const char *help;
	/* An input object (or a --lkd-verify file).  Returns the number of findings (errors). */
	int (*input)(struct lkd_ctx *ctx, struct lkd_obj *obj);
	/* The link's output, after ld succeeded.  NULL: nothing to check. */
	int (*output)(struct lkd_ctx *ctx, struct lkd_obj *obj);
};

extern const struct lkd_check *const lkd_checks[];
extern const size_t lkd_nr_checks;

/* Bit i set: lkd_checks[i] enabled. */
typedef unsigned int lkd_check_mask;

/* Parse "all", "none" or "a,b".  -1 (message printed) on an unknown name. */
int lkd_parse_checks(const char *list, lkd_check_mask *mask);

/* Run the enabled checks on one object; returns findings or -1. */
int lkd_run_input_checks(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj);
int lkd_run_output_checks(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj);

/* Every check's messages: "lkd: error: OBJ: ..." through warn.h. */
extern const struct lkd_check check_common;
extern const struct lkd_check check_altinstr;

#endif
