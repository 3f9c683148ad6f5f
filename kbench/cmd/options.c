// SPDX-License-Identifier: GPL-2.0
/* What every subcommand's option parsing shares (cmd.h). */
#include "cmd.h"
#include "kbench-config.h"
#include "machine.h"
#include "program.h"
#include "train.h"
#include "strbuf.h"
#include "warn.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int usage_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", sb.buf);
	fprintf(stderr, "Try 'kbench --help'.\n");
	strbuf_release(&sb);
	return KB_USAGE;
}

const char *opt_arg(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, len))
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len])
		return NULL;
	if (*i + 1 >= argc) {
		usage_error("%s needs a value", name);
		exit(KB_USAGE);
	}
	return argv[++*i];
}

/* why, which the machinery filled, as a usage error. */
static int usage_why(struct strbuf *why)
{
	usage_error("%s", why->buf);
	strbuf_release(why);
	return KB_USAGE;
}

const struct kb_machine *arch_option(const char *name)
{
	const struct kb_machine *m = machine_named(name);
	struct strbuf why = STRBUF_INIT;

	if (m)
		return m;
	machine_unknown(name, &why);
	usage_why(&why);
	return NULL;
}

int program_option(struct kb_programs *ps, const char *spec)
{
	struct strbuf why = STRBUF_INIT;

	return programs_add(ps, spec, &why) ? usage_why(&why) : 0;
}

int train_option(struct kb_train *t, const char *list, const char *opt)
{
	struct strbuf why = STRBUF_INIT;

	return train_parse(t, list, opt, &why) ? usage_why(&why) : 0;
}

/* The probe for m: beside kbench in the build tree, else installed. */
const char *probe_path(const struct kb_machine *m, int native)
{
	static char path[PATH_MAX];
	const char *suffix = native ? "-native" : m == machine_host() ? "" : "-";
	const char *name = *suffix && !native ? m->name : "";
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	char *slash = n > 0 ? (path[n] = '\0', strrchr(path, '/')) : NULL;

	if (slash) {
		snprintf(slash, 64, "/model/kbench-probe%s%s", suffix, name);
		if (!access(path, X_OK))
			return path;
	}
	snprintf(path, sizeof(path), "%s/kbench-probe%s%s", KBENCH_LIBEXECDIR, suffix, name);
	return path;
}
