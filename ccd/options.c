// SPDX-License-Identifier: GPL-2.0
/*
 * gcc 12 / clang 14 options that matter for classification.  Every other
 * option is a plain flag: forwarded, never a value carrier.
 */
#include "options.h"

#include <string.h>

#define SEP OPT_SEP
#define JOIN OPT_JOINED
#define JS (OPT_SEP | OPT_JOINED)

static const struct gcc_option options[] = {
	/* Options whose value is the next argument (or joined to them). */
	{ "-o", JS, NULL },
	{ "-x", JS, NULL },
	{ "-I", JS, NULL },
	{ "-L", JS, NULL },
	{ "-l", JS, NULL },
	{ "-D", JS, NULL },
	{ "-U", JS, NULL },
	{ "-A", JS, NULL },
	{ "-B", JS, NULL },
	{ "-T", JS, NULL },
	{ "-u", JS, NULL },
	{ "-e", JS, NULL },
	{ "-F", JS, NULL },
	{ "-G", JS, NULL },
	{ "-MF", JS, NULL },
	{ "-MT", JS, NULL },
	{ "-MQ", JS, NULL },
	{ "-include", JS, NULL },
	{ "-imacros", JS, NULL },
	{ "-isystem", JS, NULL },
	{ "-idirafter", JS, NULL },
	{ "-iquote", JS, NULL },
	{ "-iprefix", JS, NULL },
	{ "-iwithprefix", JS, NULL },
	{ "-iwithprefixbefore", JS, NULL },
	{ "-isysroot", JS, NULL },
	{ "-imultilib", JS, NULL },
	{ "-imultiarch", JS, NULL },
	{ "-iframework", JS, NULL },
	{ "-Xassembler", SEP, NULL },
	{ "-Xlinker", SEP, NULL },
	{ "-Xpreprocessor", SEP, NULL },
	{ "-Xclang", SEP, NULL },
	{ "-mllvm", SEP, NULL },
	{ "-aux-info", SEP, NULL },
	{ "-z", JS, NULL },
	{ "-V", SEP, NULL },
	{ "-b", SEP, NULL },
	{ "--param", SEP, NULL },
	{ "-target", SEP, NULL },
	{ "-arch", SEP, NULL },
	{ "--sysroot", SEP, NULL },
	{ "-gcc-toolchain", SEP, NULL },
	{ "--include", SEP, NULL },
	{ "--output", SEP, NULL },
	{ "--language", SEP, NULL },
	/* ccd re-derives these for its -S run; a user's own is gcc's business. */
	{ "-dumpdir", SEP | OPT_PASS, "user -dumpdir (ccd derives its own)" },
	{ "-dumpbase", SEP | OPT_PASS, "user -dumpbase (ccd derives its own)" },
	{ "-dumpbase-ext", SEP | OPT_PASS, "user -dumpbase-ext (ccd derives its own)" },
	{ "-wrapper", SEP | OPT_PASS, "-wrapper runs the compiler proper under a tool" },

	/* Modes and whole-command behaviour ccd leaves to the backend. */
	{ "-E", OPT_PASS, "preprocessing" },
	{ "-M", OPT_PASS, "-M implies -E" },
	{ "-MM", OPT_PASS, "-MM implies -E" },
	{ "-fsyntax-only", OPT_PASS, "no output" },
	{ "-save-temps", OPT_PASS | OPT_PREFIX, "-save-temps names its own .i/.s files" },
	{ "-###", OPT_PASS | OPT_QUERY, "query" },
	{ "-v", OPT_PASS, "-v prints the driver's own plan" },
	{ "--version", OPT_PASS | OPT_QUERY, "query" },
	{ "--help", OPT_PASS | OPT_QUERY | OPT_PREFIX, "query" },
	{ "--target-help", OPT_PASS | OPT_QUERY, "query" },
	{ "-dumpversion", OPT_PASS | OPT_QUERY, "query" },
	{ "-dumpfullversion", OPT_PASS | OPT_QUERY, "query" },
	{ "-dumpmachine", OPT_PASS | OPT_QUERY, "query" },
	{ "-dumpspecs", OPT_PASS | OPT_QUERY, "query" },
	{ "-print-", OPT_PASS | OPT_QUERY | OPT_PREFIX, "query" },
	{ "--print-", OPT_PASS | OPT_QUERY | OPT_PREFIX, "query" },
	{ "-fdump-", OPT_PASS | OPT_PREFIX, "-fdump-* files are named from -o" },
	{ "-flto", OPT_PASS | OPT_PREFIX, "LTO objects carry IR, not assembly" },
	{ "-fcallgraph-info", OPT_PASS | OPT_PREFIX, ".ci files are named from -o" },
	{ "-frepo", OPT_PASS, "C++ template repository" },
	{ "-specs=", OPT_PASS | OPT_PREFIX, "spec files may change the as command" },
	{ "-fplugin", OPT_PASS | OPT_PREFIX, "plugins may emit anything" },
};

const struct gcc_option *option_lookup(const char *arg)
{
	const struct gcc_option *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < sizeof(options) / sizeof(*options); i++) {
		const struct gcc_option *o = &options[i];
		size_t len = strlen(o->name);

		if (!strcmp(arg, o->name))
			return o;
		if ((o->flags & (OPT_JOINED | OPT_PREFIX)) &&
		    !strncmp(arg, o->name, len) && len > best_len) {
			best = o;
			best_len = len;
		}
	}
	return best;
}
