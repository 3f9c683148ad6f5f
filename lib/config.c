// SPDX-License-Identifier: GPL-2.0
#include "config.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct config_key_info config_keys[CFG__COUNT] = {
	[CFG_CC] = { "cc", "CCD_CC", CFGT_STRING, NULL, NULL,
		"backend compiler, optionally with a prefix command (\"distcc gcc\")" },
	[CFG_AS] = { "as", "CCD_AS", CFGT_STRING, NULL, NULL,
		"assembler ccd runs (default: the backend's -print-prog-name=as)" },
	[CFG_PASSES] = { "passes", "CCD_PASSES", CFGT_STRING, NULL, "all",
		"asmfix passes: all, none or a comma-separated list" },
	[CFG_ASSEM] = { "assem", "CCD_ASSEM", CFGT_ENUM, "no|yes|both|0|1", "no",
		"keep repaired assembly as <source>.S (both: also <source>.raw.S)" },
	[CFG_VERBOSE] = { "verbose", "CCD_VERBOSE", CFGT_BOOL, NULL, "no",
		"print each command ccd runs on stderr" },
	[CFG_KEEP_PREFIX] = { "keep_prefix", "CCD_KEEP_PREFIX", CFGT_STRING, NULL, "__ccd_keep_",
		"name prefix of the keep-alive accessors asmfix removes" },
	[CFG_PROFILE_USE] = { "profile_use", "CCD_PROFILE_USE", CFGT_STRING, NULL, NULL,
		"directory of gcda profiles, one per object (profile-guided builds)" },
	[CFG_PROFILE_REPORT] = { "profile_report", "CCD_PROFILE_REPORT", CFGT_STRING, NULL, NULL,
		"file ccd appends each object's profile status to" },
	[CFG_PROFILE] = { "profile", "CCD_PROFILE", CFGT_STRING, NULL, NULL,
		"backend profile: a built-in name or a [profile NAME] (default: ask the compiler)" },
	[CFG_LD] = { "ld", "LKD_LD", CFGT_STRING, NULL, "ld",
		"linker lkd runs" },
	[CFG_LKD_CHECKS] = { "lkd_checks", "LKD_CHECKS", CFGT_STRING, NULL, "all",
		"lkd checks: all, none or a comma-separated list" },
	[CFG_LKD_QUIET] = { "lkd_quiet", "LKD_QUIET", CFGT_BOOL, NULL, "no",
		"lkd does not report the fixes it makes" },
	[CFG_LKD_VERBOSE] = { "lkd_verbose", "LKD_VERBOSE", CFGT_BOOL, NULL, "no",
		"lkd explains what it checks and runs" },
	[CFG_LKD_STRICT] = { "lkd_strict", "LKD_STRICT", CFGT_BOOL, NULL, "no",
		"what lkd cannot interpret fails the link instead of a warning" },
	[CFG_ALTINSTR_LAYOUT] = { "altinstr_layout", "LKD_ALTINSTR_LAYOUT", CFGT_ENUM,
		"auto|linux612|linux6|linux26", "auto",
		".altinstructions record layout: auto (read off each object) or a name" },
};

int config_parse_bool(const char *s)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off", "" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}

static int in_choices(const char *choices, const char *s)
{
	size_t len = strlen(s);

	while (*choices) {
		const char *end = strchrnul(choices, '|');

		if ((size_t)(end - choices) == len && !strncmp(choices, s, len))
			return 1;
		choices = *end ? end + 1 : end;
	}
	return 0;
}

int config_set(struct config *cfg, enum config_key key, const char *value,
	       const char *origin)
{
	const struct config_key_info *k = &config_keys[key];

	if (k->type == CFGT_BOOL && config_parse_bool(value) < 0)
		return error("%s: %s: '%s' is not a boolean (yes/no)", origin, k->name, value);
	if (k->type == CFGT_ENUM && !in_choices(k->choices, value))
		return error("%s: %s: '%s' is not one of %s", origin, k->name, value, k->choices);
	free(cfg->val[key]);
	free(cfg->origin[key]);
	cfg->val[key] = xstrdup(value);
	cfg->origin[key] = xstrdup(origin);
	return 0;
}

const char *config_get(const struct config *cfg, enum config_key key)
{
	return cfg->val[key];
}

const char *config_origin(const struct config *cfg, enum config_key key)
{
	return cfg->origin[key] ? cfg->origin[key] : "default";
}

int config_bool(const struct config *cfg, enum config_key key)
{
	return cfg->val[key] && config_parse_bool(cfg->val[key]) == 1;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

static int lookup_key(const char *name)
{
	for (int i = 0; i < CFG__COUNT; i++)
		if (!strcmp(config_keys[i].name, name))
			return i;
	return -1;
}

/*
 * "[profile NAME]" or "[global]": sets *section to NAME (allocated) or
 * NULL.  -1 on a malformed header.
 */
static int section_header(char *s, char **section, const char *origin)
{
	size_t len = strlen(s);
	char *name;

	if (len < 2 || s[len - 1] != ']')
		return error("%s: expected '[profile NAME]' or '[global]'", origin);
	s[len - 1] = '\0';
	s = trim(s + 1);
	free(*section);
	*section = NULL;
	if (!strcmp(s, "global"))
		return 0;
	if (strncmp(s, "profile", 7) || (s[7] != ' ' && s[7] != '\t'))
		return error("%s: unknown section '[%s]' (sections: [profile NAME], [global])",
			     origin, s);
	name = trim(s + 8);
	if (!*name || strpbrk(name, " \t"))
		return error("%s: a profile's NAME is one word: [profile NAME]", origin);
	*section = xstrdup(name);
	return 0;
}

/* One "key = value" line, in the section or at the top.  -1 on error. */
static int config_line(struct config *cfg, char *s, const char *section, const char *origin)
{
	char *eq = strchr(s, '='), *key, *val;
	int k;

	if (!eq)
		return error("%s: expected 'key = value'", origin);
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (section)
		return cfg->section ? cfg->section(section, key, val, origin) : 0;
	k = lookup_key(key);
	if (k < 0)
		return error("%s: unknown key '%s'", origin, key);
	return config_set(cfg, (enum config_key)k, val, origin);
}

int config_read_file(struct config *cfg, const char *path)
{
	char *section = NULL;
	struct strbuf origin = STRBUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int ret = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return error_errno("cannot read %s", path);
	}
	while (getline(&line, &cap, f) > 0) {
		char *s = trim(line);

		lineno++;
		if (!*s || *s == '#')
			continue;
		strbuf_reset(&origin);
		strbuf_addf(&origin, "%s:%lu", path, lineno);
		ret = *s == '[' ? section_header(s, &section, origin.buf)
				: config_line(cfg, s, section, origin.buf);
		if (ret) {
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f))
		ret = error_errno("cannot read %s", path);
	free(section);
	free(line);
	fclose(f);
	strbuf_release(&origin);
	return ret;
}

const char *config_system_path(void)
{
	/* Tests point this elsewhere; documented in ccd.conf(5). */
	const char *p = getenv("CCD_SYSTEM_CONFIG");

	return p && *p ? p : "/etc/ccd.conf";
}

char *config_user_path(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/ccd/ccd.conf", xdg);
	else if (home && *home)
		strbuf_addf(&sb, "%s/.config/ccd/ccd.conf", home);
	else
		return NULL;
	return strbuf_detach(&sb, NULL);
}

int config_load(struct config *cfg)
{
	char *user;
	int ret;

	for (int i = 0; i < CFG__COUNT; i++)
		if (config_keys[i].def && config_set(cfg, (enum config_key)i,
						     config_keys[i].def, "default"))
			return -1;
	if (config_read_file(cfg, config_system_path()))
		return -1;
	user = config_user_path();
	ret = user ? config_read_file(cfg, user) : 0;
	free(user);
	if (ret)
		return -1;
	for (int i = 0; i < CFG__COUNT; i++) {
		const char *v = getenv(config_keys[i].env);

		if (v && config_set(cfg, (enum config_key)i, v, config_keys[i].env))
			return -1;
	}
	return 0;
}

void config_release(struct config *cfg)
{
	for (int i = 0; i < CFG__COUNT; i++) {
		free(cfg->val[i]);
		free(cfg->origin[i]);
		cfg->val[i] = cfg->origin[i] = NULL;
	}
}
