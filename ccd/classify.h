/* SPDX-License-Identifier: GPL-2.0 */
/*
 * argv -> what the gcc driver would do with it.  A pure function of the
 * argument vector (and of the environment variables gcc reads for
 * dependencies): no file system access, so it is table-tested and fuzzed.
 */
#ifndef CCD_CLASSIFY_H
#define CCD_CLASSIFY_H

#include <stddef.h>

enum ccd_mode {
	MODE_PASS,	/* exec the backend with the original argv */
	MODE_HANDLE,	/* ccd compiles: backend -S, asmfix, as */
};

enum ccd_lang {
	LANG_LINK,	/* object, library, unknown suffix: linker input */
	LANG_C,		/* .c, -x c: preprocessed and compiled */
	LANG_CPP_OUTPUT,	/* .i, -x cpp-output: compiled only */
	LANG_ASM_CPP,	/* .S, .sx, -x assembler-with-cpp */
	LANG_ASM,	/* .s, -x assembler */
	LANG_HEADER,	/* .h, -x c-header */
	LANG_OTHER,	/* any other -x language */
};

struct ccd_input {
	const char *path;
	size_t argi;		/* index in argv */
	enum ccd_lang lang;
};

enum dep_kind { DEP_NONE, DEP_DRIVER, DEP_WP };

struct ccd_cmd {
	enum ccd_mode mode;
	const char *why;	/* reason for MODE_PASS (verbose output, tests) */
	int action;		/* 'c' (object) or 'S' (assembly) */
	int preprocesses;	/* some backend run preprocesses: add -D__CCD__ */
	int query;		/* a pure query (--version, -print-*) */

	struct ccd_input *inputs;
	size_t nr_inputs;

	const char *output;	/* last -o value, NULL if none */
	size_t o_argi;		/* index of the -o option ((size_t)-1: none) */
	int o_joined;		/* "-ofile" rather than "-o" "file" */

	enum dep_kind deps;	/* -MD/-MMD as driver option, or via -Wp, */
	int has_mf;		/* -MF given as a driver option */
	int has_mt;		/* -MT or -MQ anywhere */

	/* Everything the gcc driver's as spec looks at. */
	int bits;		/* 16, 32, 64 (default) or -32 for -mx32 */
	int debug_level;	/* from the last -g* that sets it */
	int dwarf_version;	/* 0: backend default */
	int gz_zlib, gz_none, gz_zlib_gnu;
	int split_dwarf;
	int aux;		/* options naming side files from -o (.gcno, .su, .dwo) */
	int w;			/* -w */
	int sse2avx, avx;
};

/*
 * Classify argv[0..argc) (arguments only, no program name).  The struct
 * points into argv.  Returns 0; the inputs array is allocated.
 */
int classify(struct ccd_cmd *cmd, int argc, char *const *argv);
void ccd_cmd_release(struct ccd_cmd *cmd);

enum ccd_lang lang_from_suffix(const char *path);
/* -x name -> language; LANG_LINK for "none" (back to suffixes). */
enum ccd_lang lang_from_x(const char *name);

/* gcc's output and side-file names (not allocated: written to *buf). */
/* Path with its last suffix (".o" in "dir/a.o") removed, dirs kept. */
char *strip_suffix(const char *path);
/* Basename without dirs. */
const char *path_basename(const char *path);
/* The final output: -o, or <input-basename minus suffix>.o/.s in cwd. */
char *default_output(const struct ccd_cmd *cmd, const struct ccd_input *in);

#endif
