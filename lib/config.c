// SPDX-License-Identifier: GPL-2.0
#include "config.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int config_set(struct config *cfg, int key, const char *value,
	       const char *origin)
{
	const struct config_key_info *k = &cfg->keys->info[key];

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

const char *config_get(const struct config *cfg, int key)
{
	return cfg->val[key];
}

const char *config_origin(const struct config *cfg, int key)
{
	return cfg->origin[key] ? cfg->origin[key] : "default";
}

int config_bool(const struct config *cfg, int key)
{
	return cfg->val[key] && config_parse_bool(cfg->val[key]) == 1;
}

static char *config_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

static int lookup_key(const struct config_keys *keys, const char *name)
{
	for (size_t i = 0; i < keys->nr; i++)
		if (!strcmp(keys->info[i].name, name))
			return (int)i;
	return -1;
}

/* Another program's key: the file is shared, so it is skipped. */
static int foreign_key(const struct config *cfg, const char *name)
{
	for (size_t p = 0; config_programs[p]; p++)
		if (config_programs[p] != cfg->keys && lookup_key(config_programs[p], name) >= 0)
			return 1;
	return 0;
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
	s = config_trim(s + 1);
	free(*section);
	*section = NULL;
	if (!strcmp(s, "global"))
		return 0;
	if (strncmp(s, "profile", 7) || (s[7] != ' ' && s[7] != '\t'))
		return error("%s: unknown section '[%s]' (sections: [profile NAME], [global])",
			     origin, s);
	name = config_trim(s + 8);
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
	key = config_trim(s);
	val = config_trim(eq + 1);
	if (section)
		return cfg->section ? cfg->section(section, key, val, origin) : 0;
	k = lookup_key(cfg->keys, key);
	if (k >= 0)
		return config_set(cfg, k, val, origin);
	if (foreign_key(cfg, key))
		return 0;
	return error("%s: unknown key '%s'", origin, key);
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
		char *s = config_trim(line);

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

char *xdg_path(const char *var, const char *home_dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *xdg = getenv(var);
	const char *home = getenv("HOME");

	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/%s", xdg, name);
	else if (home && *home)
		strbuf_addf(&sb, "%s/%s/%s", home, home_dir, name);
	else
		return NULL;
	return strbuf_detach(&sb, NULL);
}

char *config_user_path(void)
{
	return xdg_path("XDG_CONFIG_HOME", ".config", "ccd/ccd.conf");
}

int config_load(struct config *cfg)
{
	const struct config_key_info *info = cfg->keys->info;
	char *user;
	int ret;

	for (size_t i = 0; i < cfg->keys->nr; i++)
		if (info[i].def && config_set(cfg, (int)i, info[i].def, "default"))
			return -1;
	if (config_read_file(cfg, config_system_path()))
		return -1;
	user = config_user_path();
	ret = user ? config_read_file(cfg, user) : 0;
	free(user);
	if (ret)
		return -1;
	for (size_t i = 0; i < cfg->keys->nr; i++) {
		const char *v = getenv(info[i].env);

		if (v && config_set(cfg, (int)i, v, info[i].env))
			return -1;
	}
	return 0;
}

void config_release(struct config *cfg)
{
	for (size_t i = 0; i < CONFIG_MAX_KEYS; i++) {
		free(cfg->val[i]);
		free(cfg->origin[i]);
		cfg->val[i] = cfg->origin[i] = NULL;
	}
}
