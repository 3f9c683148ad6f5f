// SPDX-License-Identifier: GPL-2.0
/*
 * gcc 12 / clang 14 options that matter for classification.  Every other
 * option is a plain flag: forwarded, never a value carrier.
 */
#include "options.h"
#include "classify.h"

#include <string.h>

#define SEP OPT_SEP
#define JOIN OPT_JOINED
#define JS (OPT_SEP | OPT_JOINED)
#define CPP TO_CPP
#define AS TO_AS
#define DEPS TO_DEPS

static const struct gcc_option options[] = {
	/* Options whose value is the next argument (or joined to them). */
	{ "-o", JS, 0, NULL },
	{ "-x", JS, 0, NULL },
	{ "-I", JS, CPP | AS, NULL },
	{ "-L", JS, 0, NULL },
	{ "-l", JS, 0, NULL },
	{ "-D", JS, CPP, NULL },
	{ "-U", JS, CPP, NULL },
	{ "-A", JS, CPP, NULL },
	{ "-B", JS, 0, NULL },
	{ "-T", JS, 0, NULL },
	{ "-u", JS, 0, NULL },
	{ "-e", JS, 0, NULL },
	{ "-F", JS, 0, NULL },
	{ "-G", JS, 0, NULL },
	{ "-MF", JS, DEPS, NULL },
	{ "-MT", JS, DEPS, NULL },
	{ "-MQ", JS, DEPS, NULL },
	{ "-include", JS, CPP, NULL },
	{ "-imacros", JS, CPP, NULL },
	{ "-isystem", JS, CPP, NULL },
	{ "-idirafter", JS, CPP, NULL },
	{ "-iquote", JS, CPP, NULL },
	{ "-iprefix", JS, CPP, NULL },
	{ "-iwithprefix", JS, CPP, NULL },
	{ "-iwithprefixbefore", JS, CPP, NULL },
	{ "-isysroot", JS, CPP, NULL },
	{ "-imultilib", JS, CPP, NULL },
	{ "-imultiarch", JS, CPP, NULL },
	{ "-iframework", JS, CPP, NULL },
	{ "-Xassembler", SEP, AS, NULL },
	{ "-Xlinker", SEP, 0, NULL },
	{ "-Xpreprocessor", SEP, CPP, NULL },
	{ "-Xclang", SEP, 0, NULL },
	{ "-mllvm", SEP, 0, NULL },
	{ "-aux-info", SEP, 0, NULL },
	{ "-z", JS, 0, NULL },
	{ "-V", SEP, 0, NULL },
	{ "-b", SEP, 0, NULL },
	{ "--param", SEP, 0, NULL },
	{ "-target", SEP, 0, NULL },
	{ "-arch", SEP, 0, NULL },
	{ "--sysroot", SEP, 0, NULL },
	{ "-gcc-toolchain", SEP, 0, NULL },
	{ "--include", SEP, CPP, NULL },
	{ "--output", SEP, 0, NULL },
	{ "--language", SEP, 0, NULL },
	/* ccd re-derives these for its -S run; a user's own is gcc's business. */
	{ "-dumpdir", SEP | OPT_PASS, 0, "user -dumpdir (ccd derives its own)" },
	{ "-dumpbase", SEP | OPT_PASS, 0, "user -dumpbase (ccd derives its own)" },
	{ "-dumpbase-ext", SEP | OPT_PASS, 0, "user -dumpbase-ext (ccd derives its own)" },
	{ "-wrapper", SEP | OPT_PASS, 0, "-wrapper runs the compiler proper under a tool" },

	/* Modes and whole-command behaviour ccd leaves to the backend. */
	{ "-E", OPT_PASS, 0, "preprocessing" },
	{ "-M", OPT_PASS, 0, "-M implies -E" },
	{ "-MM", OPT_PASS, 0, "-MM implies -E" },
	{ "-fsyntax-only", OPT_PASS, 0, "no output" },
	{ "-save-temps", OPT_PASS | OPT_PREFIX, 0, "-save-temps names its own .i/.s files" },
	{ "-###", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "-v", OPT_PASS, 0, "-v prints the driver's own plan" },
	{ "--version", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "--help", OPT_PASS | OPT_QUERY | OPT_PREFIX, 0, "query" },
	{ "--target-help", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "-dumpversion", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "-dumpfullversion", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "-dumpmachine", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "-dumpspecs", OPT_PASS | OPT_QUERY, 0, "query" },
	{ "-print-", OPT_PASS | OPT_QUERY | OPT_PREFIX, 0, "query" },
	{ "--print-", OPT_PASS | OPT_QUERY | OPT_PREFIX, 0, "query" },
	{ "-fdump-", OPT_PASS | OPT_PREFIX, 0, "-fdump-* files are named from -o" },
	{ "-flto", OPT_PASS | OPT_PREFIX, 0, "LTO objects carry IR, not assembly" },
	{ "-fcallgraph-info", OPT_PASS | OPT_PREFIX, 0, ".ci files are named from -o" },
	{ "-frepo", OPT_PASS, 0, "C++ template repository" },
	{ "-specs=", OPT_PASS | OPT_PREFIX, 0, "spec files may change the as command" },
	{ "-fplugin", OPT_PASS | OPT_PREFIX, 0, "plugins may emit anything" },
};

#define NR_OPTIONS (sizeof(options) / sizeof(*options))

/* Row numbers grouped by the second character of the name (after '-'). */
static unsigned char by_char[NR_OPTIONS];
static unsigned char group_start[257];

static void build_index(void)
{
	unsigned count[256] = { 0 }, next[256];

	for (size_t i = 0; i < NR_OPTIONS; i++)
		count[(unsigned char)options[i].name[1]]++;
	for (unsigned c = 0, at = 0; c < 256; c++) {
		group_start[c] = (unsigned char)at;
		next[c] = at;
		at += count[c];
	}
	group_start[256] = (unsigned char)NR_OPTIONS;
	for (size_t i = 0; i < NR_OPTIONS; i++)
		by_char[next[(unsigned char)options[i].name[1]]++] = (unsigned char)i;
}

const struct gcc_option *option_lookup(const char *arg)
{
	static int indexed;
	const struct gcc_option *best = NULL;
	size_t best_len = 0;
	unsigned c;

	_Static_assert(NR_OPTIONS < 256, "row numbers are bytes");
	if (!indexed) {
		build_index();
		indexed = 1;
	}
	if (arg[0] != '-' || !arg[1])
		return NULL;
	c = (unsigned char)arg[1];
	for (unsigned k = group_start[c]; k < group_start[c + 1]; k++) {
		const struct gcc_option *o = &options[by_char[k]];
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
