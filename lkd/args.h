/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lkd needs to know about a GNU ld command line: the input files,
 * the output, whether the link is relocatable, whether it is only a
 * query, its linker scripts.  The command line itself goes to ld untouched
 * (but for the script --lkd-order rewrites, order.h); this is analysis.
 */
#ifndef LKD_ARGS_H
#define LKD_ARGS_H

#include "respfile.h"
#include "strbuf.h"

struct ld_cmdline {
	struct strvec inputs;	/* objects and archives (and ld scripts) to check */
	struct strvec libdirs;	/* -L */
	char *output;		/* -o, default "a.out" */
	int relocatable;	/* -r, -i, -Ur, --relocatable */
	int define_common;	/* -d, -dc, -dp given */
	int query;		/* --help, --version, ...: ld prints and exits */
	int verbose_version;	/* -v / -V: ld prints its version (and links) */
	int unknown;		/* options lkd did not recognise (passed on anyway) */
	struct strvec args;	/* the command line with @files expanded, as ld reads it */
	/* -T, --script, -dT, --default-script: where each names its file */
	struct ld_script_ref *scripts;
	size_t nr_scripts;
	/* The options that pick GNU ld's built-in script (-m, -z, -shared, -pie, -N...) */
	struct strvec script_opts;
};

/* A linker script's name: args.v[arg] + off (off > 0: "-Tfile", "--script=file"). */
struct ld_script_ref {
	size_t arg;
	size_t off;
};

#define LD_CMDLINE_INIT { STRVEC_INIT, STRVEC_INIT, NULL, 0, 0, 0, 0, 0, STRVEC_INIT, NULL, 0, \
			  STRVEC_INIT }

/*
 * Analyse argv (without argv[0]).  @file arguments are expanded as ld
 * does (respfile.h): a missing file leaves the argument as it is.
 * Returns 0, or -1 with a message for an option missing its argument.
 */
int ld_parse(struct ld_cmdline *cl, int argc, char *const *argv);
void ld_cmdline_release(struct ld_cmdline *cl);

/* respfile_expand() under the name lkd's unit tests use. */
static inline int expand_response_files(struct strvec *out, int argc, char *const *argv)
{
	return respfile_expand(out, argc, argv);
}

#endif
