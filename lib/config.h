/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one configuration format shared by ccd and lkd (ccd.conf(5)).
 *
 * Precedence, lowest first: built-in defaults, /etc/ccd.conf,
 * $XDG_CONFIG_HOME/ccd/ccd.conf (or ~/.config/ccd/ccd.conf), environment
 * variables, command-line options (--ccd-* / --lkd-*).
 *
 * File syntax: "key = value" per line; '#' starts a comment line; blank
 * lines are ignored; the value runs to the end of the line with
 * surrounding blanks removed.  An unknown key or a bad value is an error
 * naming file:line.  "[profile NAME]" starts a section whose lines go to
 * the config's section handler (ccd's backend profiles); a program
 * without one skips them.  "[global]" returns to the keys above.
 */
#ifndef CCD_CONFIG_H
#define CCD_CONFIG_H

enum config_key {
	CFG_CC,			/* backend compiler command for ccd */
	CFG_AS,			/* assembler for ccd ("" = ask the backend) */
	CFG_PASSES,		/* asmfix passes */
	CFG_ASSEM,		/* no | yes | both */
	CFG_VERBOSE,		/* ccd traces commands */
	CFG_KEEP_PREFIX,	/* used-accessors function prefix */
	CFG_PROFILE_USE,	/* directory of gcda profiles for ccd's compiles */
	CFG_PROFILE_REPORT,	/* file ccd appends one profile status line to per object */
	CFG_PROFILE,		/* backend profile ccd uses ("": detect) */
	CFG_LD,			/* linker lkd runs */
	CFG_LKD_CHECKS,		/* lkd checks */
	CFG_LKD_QUIET,
	CFG_LKD_VERBOSE,
	CFG_LKD_STRICT,		/* what lkd cannot interpret is an error */
	CFG_ALTINSTR_LAYOUT,	/* auto | linux612 | linux6 | linux26 */
	CFG__COUNT
};

enum config_type { CFGT_STRING, CFGT_BOOL, CFGT_ENUM };

struct config_key_info {
	const char *name;	/* key in ccd.conf */
	const char *env;	/* environment variable */
	enum config_type type;
	const char *choices;	/* CFGT_ENUM: '|'-separated */
	const char *def;	/* default value (NULL: unset) */
	const char *help;	/* one line for --help and the man page */
};

extern const struct config_key_info config_keys[CFG__COUNT];

/* One "key = value" line of a [profile NAME] section; -1 after a message. */
typedef int (*config_section_fn)(const char *name, const char *key, const char *value,
				 const char *origin);

struct config {
	char *val[CFG__COUNT];
	char *origin[CFG__COUNT];	/* "file:line", "CCD_CC", "--ccd-cc", "default" */
	config_section_fn section;	/* NULL: section lines are skipped */
};

/* Load defaults, the config files and the environment.  -1 on error. */
int config_load(struct config *cfg);
/* Read one file (missing file is fine).  -1 on error (message printed). */
int config_read_file(struct config *cfg, const char *path);
/* Validate and set; origin names where the value came from. -1 on error. */
int config_set(struct config *cfg, enum config_key key, const char *value,
	       const char *origin);
const char *config_get(const struct config *cfg, enum config_key key);
const char *config_origin(const struct config *cfg, enum config_key key);
/* CFGT_BOOL keys: 1 or 0. */
int config_bool(const struct config *cfg, enum config_key key);
/* Parse a boolean word; -1 if it is not one. */
int config_parse_bool(const char *s);
void config_release(struct config *cfg);

/* Paths of the system and user files (for --help and diagnostics). */
const char *config_system_path(void);
/* Returns an allocated path, or NULL when neither XDG nor HOME is set. */
char *config_user_path(void);

#endif
