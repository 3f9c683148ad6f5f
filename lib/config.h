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

#include <stddef.h>

enum config_type { CFGT_STRING, CFGT_BOOL, CFGT_ENUM };

struct config_key_info {
	const char *name;	/* key in ccd.conf */
	const char *env;	/* environment variable */
	enum config_type type;
	const char *choices;	/* CFGT_ENUM: '|'-separated */
	const char *def;	/* default value (NULL: unset) */
	const char *help;	/* one line for --help and the man page */
};

/* One program's keys; settings.h has ccd's and lkd's. */
struct config_keys {
	const char *program;
	const struct config_key_info *info;
	size_t nr;
};

/* Every program's keys (NULL-terminated): a key of another is skipped, not an error. */
extern const struct config_keys *const config_programs[];

#define CONFIG_MAX_KEYS 16

/* One "key = value" line of a [profile NAME] section; -1 after a message. */
typedef int (*config_section_fn)(const char *name, const char *key, const char *value,
				 const char *origin);

struct config {
	const struct config_keys *keys;	/* the program's own */
	char *val[CONFIG_MAX_KEYS];	/* by the program's key number */
	char *origin[CONFIG_MAX_KEYS];	/* "file:line", "CCD_CC", "--ccd-cc", "default" */
	config_section_fn section;	/* NULL: section lines are skipped */
};

/* Load defaults, the config files and the environment.  -1 on error. */
int config_load(struct config *cfg);
/* Read one file (missing file is fine).  -1 on error (message printed). */
int config_read_file(struct config *cfg, const char *path);
/* Validate and set; origin names where the value came from. -1 on error. */
int config_set(struct config *cfg, int key, const char *value,
	       const char *origin);
const char *config_get(const struct config *cfg, int key);
const char *config_origin(const struct config *cfg, int key);
/* CFGT_BOOL keys: 1 or 0. */
int config_bool(const struct config *cfg, int key);
/* Parse a boolean word; -1 if it is not one. */
int config_parse_bool(const char *s);
void config_release(struct config *cfg);

/* Paths of the system and user files (for --help and diagnostics). */
const char *config_system_path(void);
/* Returns an allocated path, or NULL when neither XDG nor HOME is set. */
char *config_user_path(void);
/*
 * $VAR/NAME, else $HOME/HOME_DIR/NAME (the XDG base directories:
 * XDG_CONFIG_HOME and .config, XDG_CACHE_HOME and .cache); NULL when
 * neither is set.  Allocated.
 */
char *xdg_path(const char *var, const char *home_dir, const char *name);

#endif
