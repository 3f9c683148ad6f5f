/* SPDX-License-Identifier: GPL-2.0 */
/* Each program's ccd.conf keys (see config.h for the format). */
#ifndef CCD_SETTINGS_H
#define CCD_SETTINGS_H

#include "config.h"

enum ccd_key {
	CCD_KEY_CC,		/* backend compiler command */
	CCD_KEY_PROFILE,	/* backend profile ("": ask the compiler) */
	CCD_KEY_AS,		/* assembler ("" = ask the backend) */
	CCD_KEY_PASSES,		/* asmfix passes */
	CCD_KEY_ASSEM,		/* no | yes | both */
	CCD_KEY_VERBOSE,	/* trace commands */
	CCD_KEY_KEEP_PREFIX,	/* used-accessors function prefix */
	CCD_KEY_PROFILE_USE,	/* directory of gcda profiles */
	CCD_KEY_PROFILE_REPORT,	/* file of one profile status line per object */
	CCD_KEY_STRICT,		/* as rejecting repaired assembly fails the compile */
	CCD_KEY_TARGET,		/* the backend's target ("": ask the compiler) */
	CCD_KEY_CHECK_REPORT,	/* file of one check line per object */
	CCD_KEY__COUNT
};

enum lkd_key {
	LKD_KEY_LD,		/* linker lkd runs */
	LKD_KEY_CHECKS,		/* lkd checks */
	LKD_KEY_QUIET,
	LKD_KEY_VERBOSE,
	LKD_KEY_STRICT,		/* what lkd cannot interpret is an error */
	LKD_KEY_ALTINSTR_LAYOUT,	/* auto | linux612 | linux6 | linux26 */
	LKD_KEY_ORDER,		/* a final link's functions in this file's order */
	LKD_KEY__COUNT
};

extern const struct config_keys ccd_keys, lkd_keys;

#endif
