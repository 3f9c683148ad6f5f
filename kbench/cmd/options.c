// SPDX-License-Identifier: GPL-2.0
/* What every subcommand's option parsing shares (cmd.h). */
#include "cmd.h"
#include "strbuf.h"
#include "warn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
