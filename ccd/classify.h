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
	MODE_REFUSE,	/* ccd would have to compile but cannot do it right: why says */
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

/* What a word of the command line is. */
enum arg_role {
	ARG_FLAG,	/* an option (or an unknown word starting with '-') */
	ARG_VALUE,	/* the value of the option before it ("-MF" "x.d") */
	ARG_INPUT,	/* a file to compile or link */
	ARG_OUTPUT,	/* -o, --output: ccd names its own */
	ARG_ACTION,	/* -c, -S: ccd asks the backend for assembly instead */
};

/* Where a word goes on the handled path (bits). */
enum arg_dest {
	TO_BACKEND = 1 << 0,	/* the backend's -S run (inputs: their own run only) */
	TO_CPP = 1 << 1,	/* it is a preprocessor option */
	TO_AS = 1 << 2,		/* it makes arguments of the as command */
	TO_DEPS = 1 << 3,	/* it shapes the dependency output */
};

/* One word of argv, classified once; the command lines are filters over these. */
struct ccd_arg {
	const char *word;
	const struct gcc_option *opt;	/* its option-table row, or NULL */
	const char *val;	/* an option's value: joined, or the next word */
	unsigned char role;	/* enum arg_role */
	unsigned char dest;	/* enum arg_dest bits; 0: dropped */
};

/* Which gcc-style dependency options a backend takes. */
enum deps_support {
	DEPS_NO,	/* none: ccd refuses a compile that asks for a dependency file */
	DEPS_DRIVER,	/* -MD, -MMD, -MF, -MT, -MQ as driver options, not -Wp,-MD,FILE */
	DEPS_YES,	/* those and -Wp,-MD,FILE (gcc, clang) */
};

/* What the backend can do, as its profile says (NULL: what gcc can). */
struct backend_caps {
	int dumpbase;		/* names side files from -dumpdir/-dumpbase */
	enum deps_support deps;
	int dep_target;		/* takes -MQ for the dependency target */
	const char *name;	/* profile name, for messages */
};

struct ccd_cmd {
	enum ccd_mode mode;
	const char *why;	/* reason for MODE_PASS (verbose output, tests) */
	int action;		/* 'c' (object) or 'S' (assembly) */
	int preprocesses;	/* some backend run preprocesses: add -D__CCD__ */
	int lto;		/* -flto* not undone by a later -fno-lto: the object is IR */
	int cpp_only;		/* -E, -M or -MM: preprocessing only */
	int query;		/* a pure query (--version, -print-*) */

	struct ccd_arg *args;	/* argv, one entry per word */
	size_t nr_args;
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
	int bits_given;		/* one of -m16, -m32, -m64, -mx32: else the target's own */
	int debug_level;	/* from the last -g* that sets it */
	int dwarf_version;	/* 0: backend default */
	int gz_zlib, gz_none, gz_zlib_gnu;
	int split_dwarf;
	int aux;		/* options naming side files from -o (.gcno, .su, .dwo) */
	int w;			/* -w */
	int sse2avx, avx;
	int data_sections;	/* -fdata-sections, not undone by -fno-data-sections */
	int driver_paths;	/* -B given: the driver finds its tools elsewhere */
};

/*
 * Classify argv[0..argc) (arguments only, no program name) for a backend
 * that can do what caps says (NULL: gcc).  The struct points into argv.
 * Returns 0; the args and inputs arrays are allocated.
 */
int classify_for(struct ccd_cmd *cmd, int argc, char *const *argv,
		 const struct backend_caps *caps);
/* classify_for() with gcc's capabilities. */
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
/*
 * gcc's stem for what it names after the output: -o without its suffix,
 * else the input's basename without its suffix ("dir/a.o" -> "dir/a").
 */
char *output_stem(const struct ccd_cmd *cmd, const struct ccd_input *in);
/* <input-basename minus suffix>.o: cpp's dependency target without -MT. */
char *source_object(const struct ccd_input *in);

#endif
