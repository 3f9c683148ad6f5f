// SPDX-License-Identifier: GPL-2.0
/*
 * Decide, as gcc's driver would, what a command line does.  When in doubt
 * the answer is MODE_PASS: the backend then sees the original argv and
 * answers for itself.
 */
#include "classify.h"
#include "options.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *suffix;
	enum ccd_lang lang;
} suffixes[] = {
	{ "c", LANG_C }, { "i", LANG_CPP_OUTPUT }, { "S", LANG_ASM_CPP },
	{ "sx", LANG_ASM_CPP }, { "s", LANG_ASM }, { "h", LANG_HEADER },
	{ "cc", LANG_OTHER }, { "cp", LANG_OTHER }, { "cxx", LANG_OTHER },
	{ "cpp", LANG_OTHER }, { "c++", LANG_OTHER }, { "C", LANG_OTHER },
	{ "CPP", LANG_OTHER }, { "ii", LANG_OTHER }, { "m", LANG_OTHER },
	{ "mi", LANG_OTHER }, { "M", LANG_OTHER }, { "mm", LANG_OTHER },
	{ "hh", LANG_OTHER }, { "hpp", LANG_OTHER }, { "H", LANG_OTHER },
	{ "f", LANG_OTHER }, { "F", LANG_OTHER }, { "f90", LANG_OTHER },
	{ "F90", LANG_OTHER }, { "for", LANG_OTHER }, { "go", LANG_OTHER },
	{ "d", LANG_OTHER }, { "ads", LANG_OTHER }, { "adb", LANG_OTHER },
};

const char *path_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *suffix_of(const char *path)
{
	const char *base = path_basename(path);
	const char *dot = strrchr(base, '.');

	return dot && dot != base ? dot : NULL;
}

enum ccd_lang lang_from_suffix(const char *path)
{
	const char *dot = suffix_of(path);

	if (!dot)
		return LANG_LINK;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++)
		if (!strcmp(dot + 1, suffixes[i].suffix))
			return suffixes[i].lang;
	return LANG_LINK;
}

enum ccd_lang lang_from_x(const char *name)
{
	if (!strcmp(name, "none"))
		return LANG_LINK;
	if (!strcmp(name, "c"))
		return LANG_C;
	if (!strcmp(name, "cpp-output") || !strcmp(name, "c-cpp-output"))
		return LANG_CPP_OUTPUT;
	if (!strcmp(name, "assembler-with-cpp"))
		return LANG_ASM_CPP;
	if (!strcmp(name, "assembler"))
		return LANG_ASM;
	if (!strcmp(name, "c-header"))
		return LANG_HEADER;
	return LANG_OTHER;
}

char *strip_suffix(const char *path)
{
	const char *dot = suffix_of(path);

	return dot ? xstrndup(path, (size_t)(dot - path)) : xstrdup(path);
}

char *default_output(const struct ccd_cmd *cmd, const struct ccd_input *in)
{
	struct strbuf sb = STRBUF_INIT;
	char *base;

	if (cmd->output)
		return xstrdup(cmd->output);
	base = strip_suffix(path_basename(in->path));
	strbuf_addf(&sb, "%s.%c", base, cmd->action == 'S' ? 's' : 'o');
	free(base);
	return strbuf_detach(&sb, NULL);
}

char *output_stem(const struct ccd_cmd *cmd, const struct ccd_input *in)
{
	return strip_suffix(cmd->output ? cmd->output : path_basename(in->path));
}

char *source_object(const struct ccd_input *in)
{
	struct strbuf sb = STRBUF_INIT;
	char *base = strip_suffix(path_basename(in->path));

	strbuf_addf(&sb, "%s.o", base);
	free(base);
	return strbuf_detach(&sb, NULL);
}

static void set_pass(struct ccd_cmd *cmd, const char *why)
{
	if (!cmd->why)
		cmd->why = why;
}

/*
 * -Wp,a,b,c: the preprocessor's own dependency options, which the driver
 * passes on unseen (so gcc names their target after the source).
 */
static void scan_wp(struct ccd_cmd *cmd, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "-MD") || !strcmp(tok, "-MMD")) {
			if (cmd->deps == DEP_DRIVER)
				set_pass(cmd, "both -Wp,-MD and -MD (which one wins is backend-specific)");
			cmd->deps = DEP_WP;
		} else if (!strncmp(tok, "-MT", 3) || !strncmp(tok, "-MQ", 3)) {
			cmd->has_mt = 1;
		} else if (!strcmp(tok, "-M") || !strcmp(tok, "-MM") || !strcmp(tok, "-E")) {
			set_pass(cmd, "-Wp, preprocessing-only option");
		}
	}
	free(copy);
}

/*
 * -g options, with gcc 12's semantics (opts.cc set_debug_level): a bare
 * level-less -g/-ggdb/-gdwarf only raises "none" to 2; -gN sets N.
 */
static void scan_g(struct ccd_cmd *cmd, const char *a)
{
	const char *lvl = NULL;

	if (!strcmp(a, "-gz") || !strcmp(a, "-gz=zlib")) {
		cmd->gz_zlib = 1;
		return;
	}
	if (!strcmp(a, "-gz=none")) {
		cmd->gz_none = 1;
		return;
	}
	if (!strcmp(a, "-gz=zlib-gnu")) {
		cmd->gz_zlib_gnu = 1;
		return;
	}
	if (!strcmp(a, "-gsplit-dwarf")) {
		cmd->split_dwarf = cmd->aux = 1;
		return;
	}
	if (!strcmp(a, "-gno-split-dwarf")) {
		cmd->split_dwarf = 0;
		return;
	}
	if (!strncmp(a, "-gdwarf-", 8)) {
		cmd->dwarf_version = atoi(a + 8);
		lvl = "";
	} else if (!strncmp(a, "-ggdb", 5)) {
		lvl = a + 5;
	} else if (!strcmp(a, "-gdwarf")) {
		lvl = "";
	} else if (a[2] == '\0' || (a[2] >= '0' && a[2] <= '9')) {
		lvl = a + 2;
	}
	if (!lvl)
		return;		/* -gcolumn-info, -gstrict-dwarf, ...: no level */
	if (!*lvl) {
		if (!cmd->debug_level)
			cmd->debug_level = 2;
	} else {
		cmd->debug_level = atoi(lvl);
	}
}

static void scan_m(struct ccd_cmd *cmd, const char *a)
{
	if (!strcmp(a, "-m16") || !strcmp(a, "-m32") || !strcmp(a, "-m64") || !strcmp(a, "-mx32"))
		cmd->bits_given = 1;
	if (!strcmp(a, "-m16"))
		cmd->bits = 16;
	else if (!strcmp(a, "-m32"))
		cmd->bits = 32;
	else if (!strcmp(a, "-m64"))
		cmd->bits = 64;
	else if (!strcmp(a, "-mx32"))
		cmd->bits = -32;
	else if (!strcmp(a, "-msse2avx"))
		cmd->sse2avx = 1;
	else if (!strcmp(a, "-mno-sse2avx"))
		cmd->sse2avx = 0;
	else if (!strcmp(a, "-mavx"))
		cmd->avx = 1;
	else if (!strcmp(a, "-mno-avx"))
		cmd->avx = 0;
}

static void add_input(struct ccd_cmd *cmd, const char *path, size_t argi, int x)
{
	struct ccd_input *in;

	cmd->inputs = xrealloc(cmd->inputs, (cmd->nr_inputs + 1) * sizeof(*in));
	in = &cmd->inputs[cmd->nr_inputs++];
	in->path = path;
	in->argi = argi;
	if (x >= 0)
		in->lang = (enum ccd_lang)x;
	else if (!strcmp(path, "-"))
		in->lang = LANG_OTHER;	/* gcc: "-E or -x required" */
	else
		in->lang = lang_from_suffix(path);
}

static struct ccd_arg *push_arg(struct ccd_cmd *cmd, const char *word,
			       enum arg_role role, unsigned dest)
{
	struct ccd_arg *a = &cmd->args[cmd->nr_args++];

	a->word = word;
	a->opt = NULL;
	a->val = NULL;
	a->role = (unsigned char)role;
	a->dest = (unsigned char)dest;
	return a;
}

static void scan_deps_flag(struct ccd_cmd *cmd, const char *a, struct ccd_arg *arg)
{
	if (!strcmp(a, "-MD") || !strcmp(a, "-MMD")) {
		if (cmd->deps == DEP_WP)
			set_pass(cmd, "both -Wp,-MD and -MD (which one wins is backend-specific)");
		cmd->deps = DEP_DRIVER;
	}
	arg->dest |= TO_DEPS;
}

/* Options that are not in the table but matter. */
static void scan_flag(struct ccd_cmd *cmd, struct ccd_arg *arg, int *saw_c, int *saw_s)
{
	const char *a = arg->word;

	if (!strcmp(a, "-c") || !strcmp(a, "-S")) {
		*(a[1] == 'c' ? saw_c : saw_s) = 1;
		arg->role = ARG_ACTION;
	} else if (!strcmp(a, "-w")) {
		cmd->w = 1;
	} else if (!strcmp(a, "-fno-lto")) {
		cmd->lto = 0;
	} else if (!strncmp(a, "-Wp,", 4)) {
		enum dep_kind before = cmd->deps;

		scan_wp(cmd, a + 4);
		arg->dest |= TO_CPP | (cmd->deps != before ? TO_DEPS : 0);
	} else if (!strncmp(a, "-Wa,", 4)) {
		arg->dest |= TO_AS;
	} else if (!strncmp(a, "--prefix=", 9)) {
		cmd->driver_paths = 1;	/* clang's -B (Kbuild's CLANG_FLAGS with LLVM_IAS=0) */
	} else if (!strncmp(a, "-M", 2)) {
		scan_deps_flag(cmd, a, arg);
	} else if (!strncmp(a, "-g", 2)) {
		scan_g(cmd, a);
	} else if (!strncmp(a, "-m", 2)) {
		scan_m(cmd, a);
	} else if (!strcmp(a, "-fdata-sections") || !strcmp(a, "-fno-data-sections")) {
		cmd->data_sections = a[2] == 'd';
	} else if (!strcmp(a, "--coverage") || !strcmp(a, "-ftest-coverage") ||
		   !strcmp(a, "-fprofile-arcs") || !strncmp(a, "-fprofile-generate", 18) ||
		   !strncmp(a, "-fstack-usage", 13)) {
		cmd->aux = 1;
	}
}

/* What an option from the table means for the command. */
static void note_option(struct ccd_cmd *cmd, const struct ccd_arg *arg, size_t i,
			int separate, int *x)
{
	const char *name = arg->opt->name, *val = arg->val;

	if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
		cmd->output = val;
		cmd->o_argi = i;
		cmd->o_joined = !separate;
	} else if (!strcmp(name, "-x") && !separate && val[0] >= 'A' && val[0] <= 'Z') {
		/* -xHost, -xCORE-AVX2: Intel's code-path option, not a language. */
	} else if (!strcmp(name, "-x") || !strcmp(name, "--language")) {
		enum ccd_lang l = lang_from_x(val);

		*x = l == LANG_LINK ? -1 : (int)l;
	} else if (!strcmp(name, "-MF")) {
		cmd->has_mf = 1;
	} else if (!strcmp(name, "-MT") || !strcmp(name, "-MQ")) {
		cmd->has_mt = 1;
	} else if (!strcmp(name, "-B")) {
		cmd->driver_paths = 1;
	}
}

/* An option from the table, and its value word.  Returns how many argv it used. */
static int scan_option(struct ccd_cmd *cmd, const struct gcc_option *o,
		       int argc, char *const *argv, int i, int *x)
{
	int is_out = !strcmp(o->name, "-o") || !strcmp(o->name, "--output");
	unsigned dest = is_out ? 0 : TO_BACKEND | o->dest;
	struct ccd_arg *arg = push_arg(cmd, argv[i], is_out ? ARG_OUTPUT : ARG_FLAG, dest);
	int separate = (o->flags & OPT_SEP) && !strcmp(argv[i], o->name);

	arg->opt = o;
	if (o->flags & OPT_PASS)
		set_pass(cmd, o->why);
	if (!strcmp(o->name, "-flto"))
		cmd->lto = 1;
	else if (!strcmp(o->name, "-E") || !strcmp(o->name, "-M") || !strcmp(o->name, "-MM"))
		cmd->cpp_only = 1;
	if (o->flags & OPT_QUERY)
		cmd->query = 1;
	if (separate && i + 1 >= argc) {
		set_pass(cmd, "option without its argument");
		return 1;
	}
	if (separate)
		arg->val = argv[i + 1];
	else if (o->flags & OPT_JOINED)
		arg->val = argv[i] + strlen(o->name);
	if (arg->val)
		note_option(cmd, arg, (size_t)i, separate, x);
	if (!separate)
		return 1;
	push_arg(cmd, argv[i + 1], ARG_VALUE, dest & ~(unsigned)TO_AS)->opt = o;
	return 2;
}

static void decide(struct ccd_cmd *cmd, int saw_c, int saw_s)
{
	cmd->action = saw_s ? 'S' : 'c';
	for (size_t i = 0; i < cmd->nr_inputs; i++) {
		enum ccd_lang l = cmd->inputs[i].lang;
		const char *p = cmd->inputs[i].path;

		if (l == LANG_C || l == LANG_ASM_CPP || l == LANG_HEADER)
			cmd->preprocesses = 1;
		if (!strcmp(p, "-"))
			set_pass(cmd, "input from stdin");
		else if (!strcmp(p, "/dev/null"))
			set_pass(cmd, "probe on /dev/null");
		else if (l != LANG_C && l != LANG_CPP_OUTPUT)
			set_pass(cmd, "input is not C");
	}
	/*
	 * An LTO object is the compiler's IR, and clang's records where each
	 * inline asm stands as an offset that counts the predefined text: a
	 * -D__CCD__ would move every one.  Only a preprocessing run says ccd.
	 */
	if (cmd->lto && !cmd->cpp_only)
		cmd->preprocesses = 0;
	if (!saw_c && !saw_s)
		set_pass(cmd, "no -c or -S: link or query");
	else if (!cmd->nr_inputs)
		set_pass(cmd, "no input file");
	if (cmd->output && !strcmp(cmd->output, "-"))
		set_pass(cmd, "output to stdout");
	if (cmd->output && cmd->nr_inputs > 1)
		set_pass(cmd, "-o with several inputs (the backend's error)");
	/* gcc's cpp writes dependencies as a side effect of these. */
	if (getenv("DEPENDENCIES_OUTPUT") || getenv("SUNPRO_DEPENDENCIES"))
		set_pass(cmd, "DEPENDENCIES_OUTPUT/SUNPRO_DEPENDENCIES set");
	cmd->mode = cmd->why ? MODE_PASS : MODE_HANDLE;
}

/*
 * A backend that cannot be told the dependency target names it after the
 * source, as gcc's cpp does: right only when that is gcc's target too.
 */
static int target_differs(const struct ccd_cmd *cmd)
{
	int differs = 0;

	if (cmd->deps != DEP_DRIVER || cmd->has_mt || !cmd->output)
		return 0;
	for (size_t i = 0; i < cmd->nr_inputs; i++) {
		char *own = source_object(&cmd->inputs[i]);

		differs |= strcmp(own, cmd->output) != 0;
		free(own);
	}
	return differs;
}

static void refuse(struct ccd_cmd *cmd, const char *why)
{
	cmd->mode = MODE_REFUSE;
	cmd->why = why;
}

/* What the backend cannot do for this command (after decide()). */
static void check_caps(struct ccd_cmd *cmd, const struct backend_caps *caps)
{
	if (cmd->mode != MODE_HANDLE || !caps)
		return;
	if (!caps->dumpbase && cmd->aux) {
		cmd->mode = MODE_PASS;
		cmd->why = "side files named from -o and no -dumpbase in this backend";
	} else if (caps->deps == DEPS_NO && cmd->deps != DEP_NONE) {
		refuse(cmd, "ccd cannot vouch for the dependency file -MD, -MMD or -Wp,-MD asks "
			    "for: the profile does not say this compiler writes gcc-style ones "
			    "('deps = yes' in a [profile NAME] section of ccd.conf says it does)");
	} else if (caps->deps == DEPS_DRIVER && cmd->deps == DEP_WP) {
		refuse(cmd, "its preprocessor does not take -Wp,-MD,FILE or -Wp,-MMD,FILE; "
			    "give the driver -MD -MF FILE instead");
	} else if (!caps->dep_target && target_differs(cmd)) {
		refuse(cmd, "it cannot be told the dependency target (-MQ), and names it after "
			    "the source, not after -o: compile to SOURCE-NAME.o");
	}
}

int classify_for(struct ccd_cmd *cmd, int argc, char *const *argv,
		 const struct backend_caps *caps)
{
	int saw_c = 0, saw_s = 0, x = -1;

	memset(cmd, 0, sizeof(*cmd));
	cmd->o_argi = (size_t)-1;
	cmd->bits = 64;
	cmd->args = xcalloc((size_t)argc + 1, sizeof(*cmd->args));
	for (int i = 0; i < argc;) {
		const char *a = argv[i];
		const struct gcc_option *o;

		if (a[0] != '-' || !a[1]) {
			push_arg(cmd, a, ARG_INPUT, TO_BACKEND);
			add_input(cmd, a, (size_t)i, x);
			i++;
			continue;
		}
		o = option_lookup(a);
		if (o) {
			i += scan_option(cmd, o, argc, argv, i, &x);
			continue;
		}
		scan_flag(cmd, push_arg(cmd, a, ARG_FLAG, TO_BACKEND), &saw_c, &saw_s);
		i++;
	}
	decide(cmd, saw_c, saw_s);
	check_caps(cmd, caps);
	return 0;
}

int classify(struct ccd_cmd *cmd, int argc, char *const *argv)
{
	return classify_for(cmd, argc, argv, NULL);
}

void ccd_cmd_release(struct ccd_cmd *cmd)
{
	free(cmd->args);
	cmd->args = NULL;
	cmd->nr_args = 0;
	free(cmd->inputs);
	cmd->inputs = NULL;
	cmd->nr_inputs = 0;
}
