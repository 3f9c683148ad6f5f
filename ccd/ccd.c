// SPDX-License-Identifier: GPL-2.0
/*
 * ccd: stands where gcc stands.  C compiles go backend -S -> asmfix ->
 * GNU as; everything else is exec'd on the backend with the original argv.
 */
#include "ccd-config.h"
#include "asmfix.h"
#include "backend.h"
#include "classify.h"
#include "check.h"
#include "compile.h"
#include "pgo.h"
#include "settings.h"
#include "respfile.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAFEGUARD "_CCD_SAFEGUARD"

struct ccd_opts {
	int help, version, identity;
	const char *profile_summary;
	const char *check_summary;
	struct strvec args;	/* argv without ccd's own options */
};

static const char usage_text[] =
"usage: ccd [--ccd-OPTION...] [BACKEND] GCC-ARGS...\n"
"\n"
"Compile C like gcc, but through BACKEND -S, the asmfix repair passes and\n"
"GNU as.  Everything that is not a C compile is run by the backend as is.\n"
"\n"
"  --ccd-cc=CMD        backend compiler (may carry a prefix: \"distcc gcc\")\n"
"  --ccd-profile=NAME  backend profile (gcc, clang, icc, icx, pcc, generic or a\n"
"                      ccd.conf [profile NAME]; default: ask the compiler)\n"
"  --ccd-as=AS         assembler (default: the one the backend's driver uses)\n"
"  --ccd-target=T      the backend's target machine (x86_64, aarch64, arm, riscv64,\n"
"                      ppc64le, ppc, s390x, mipsel, mips64el, m68k, ... or a\n"
"                      triple; default: ask the compiler)\n"
"  --ccd-passes=LIST   asmfix passes: all, none or a comma list\n"
"  --ccd-keep-prefix=P used-accessors function prefix\n"
"  --ccd-verbose       print each command on stderr\n"
"  --ccd-strict        GNU as rejecting the repaired assembly fails the compile\n"
"                      (default: use the backend's own assembly and warn)\n"
"  --ccd-profile-use=DIR  give each compile its object's gcda profile from DIR\n"
"  --ccd-profile-report=FILE  append \"STATUS OBJECT\" per compile to FILE\n"
"  --ccd-profile-summary=FILE  count a profile report's lines and exit\n"
"  --ccd-check-report=FILE  append \"STATUS OBJECT\" per object to FILE: is it\n"
"                      the backend's own -c object (same, own, repaired, ...)\n"
"  --ccd-check-summary=FILE  count a check report's lines; exit 1 if any differs\n"
"  --assem[=yes|both]  keep the repaired assembly as <source>.S next to the\n"
"                      object (both: also the backend's <source>.raw.S)\n"
"  --ccd-identity      print ccd, backend, as and pass configuration (for\n"
"                      ccache's compiler_check)\n"
"  --ccd-version       print ccd's version\n"
"  --ccd-help          this text (--help goes to the backend, as for gcc)\n"
"\n"
"Environment (below the options, above the config files):\n"
"  CCD_CC, CCD_PROFILE, CCD_AS, CCD_TARGET, CCD_PASSES, CCD_ASSEM, CCD_VERBOSE,\n"
"  CCD_KEEP_PREFIX, CCD_PROFILE_USE, CCD_PROFILE_REPORT, CCD_STRICT,\n"
"  CCD_CHECK_REPORT\n"
"                      same as the options above\n"
"  CCD_SYSTEM_CONFIG   read this file instead of /etc/ccd.conf\n"
"                      (user file: $XDG_CONFIG_HOME/ccd/ccd.conf)\n"
"  UNCACHED_ERR_FD     descriptor for ccd's own messages (ccache, distcc)\n"
"  LLVM                make LLVM=1 (=-14, =/dir/): with no backend named, the\n"
"                      backend is the clang Kbuild names (clang, clang-14, /dir/clang)\n"
"  CROSS_COMPILE       with no backend named (and no LLVM), the backend is\n"
"                      ${CROSS_COMPILE}gcc; another machine's as is\n"
"                      ${CROSS_COMPILE}as (Kbuild's meaning)\n"
"  XDG_CACHE_HOME      ccd caches compiler families and targets in its ccd/\n"
"                      (else ~/.cache/ccd)\n"
"  TMPDIR              directory of ccd's temporary files\n"
"\n"
"Backend: ccd BACKEND ..., a masquerade name, --ccd-cc, CCD_CC, ccd.conf, the\n"
"clang LLVM names, ${CROSS_COMPILE}gcc, else the first of icc, icx, gcc, clang on\n"
"PATH.  See ccd(1).\n";

static const struct {
	const char *opt;
	enum ccd_key key;
} value_opts[] = {
	{ "--ccd-cc=", CCD_KEY_CC },
	{ "--ccd-as=", CCD_KEY_AS },
	{ "--ccd-target=", CCD_KEY_TARGET },
	{ "--ccd-passes=", CCD_KEY_PASSES },
	{ "--ccd-keep-prefix=", CCD_KEY_KEEP_PREFIX },
	{ "--ccd-verbose=", CCD_KEY_VERBOSE },
	{ "--ccd-strict=", CCD_KEY_STRICT },
	{ "--ccd-profile-use=", CCD_KEY_PROFILE_USE },
	{ "--ccd-profile-report=", CCD_KEY_PROFILE_REPORT },
	{ "--ccd-check-report=", CCD_KEY_CHECK_REPORT },
	{ "--ccd-profile=", CCD_KEY_PROFILE },
	{ "--assem=", CCD_KEY_ASSEM },
};

/* Options without a value: the key set to yes. */
static const struct {
	const char *opt;
	enum ccd_key key;
} flag_opts[] = {
	{ "--ccd-verbose", CCD_KEY_VERBOSE },
	{ "--ccd-strict", CCD_KEY_STRICT },
	{ "--assem", CCD_KEY_ASSEM },
};

/* Overrides are collected first and applied after the config is loaded. */
struct override {
	enum ccd_key key;
	const char *val, *origin;
};

static int own_option(struct ccd_opts *o, const char *a, struct override *ov, int *nov)
{
	for (size_t i = 0; i < sizeof(value_opts) / sizeof(*value_opts); i++) {
		size_t len = strlen(value_opts[i].opt);

		if (!strncmp(a, value_opts[i].opt, len)) {
			ov[*nov].key = value_opts[i].key;
			ov[*nov].val = a + len;
			ov[(*nov)++].origin = a;
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof(flag_opts) / sizeof(*flag_opts); i++) {
		if (!strcmp(a, flag_opts[i].opt)) {
			ov[*nov].key = flag_opts[i].key;
			ov[*nov].val = "yes";
			ov[(*nov)++].origin = a;
			return 1;
		}
	}
	if (!strcmp(a, "--ccd-help")) {
		o->help = 1;
	} else if (!strcmp(a, "--ccd-version")) {
		o->version = 1;
	} else if (!strcmp(a, "--ccd-identity")) {
		o->identity = 1;
	} else if (!strncmp(a, "--ccd-profile-summary=", 22)) {
		o->profile_summary = a + 22;
	} else if (!strncmp(a, "--ccd-check-summary=", 20)) {
		o->check_summary = a + 20;
	} else if (!strncmp(a, "--ccd-", 6)) {
		die("unknown option '%s' (see ccd --ccd-help)", a);
	} else {
		return 0;
	}
	return 1;
}

/* distcc's rule (src/implicit.c): a first word that is no option and no file we compile. */
static int looks_like_compiler(const char *a)
{
	char *p;

	if (a[0] == '-' || a[0] == '@' || strchr(path_basename(a), '.'))
		return 0;
	if (strchr(a, '/'))
		return !access(a, X_OK) && !is_self(a);
	p = find_backend_in_path(a);
	free(p);
	return p != NULL;
}

static void use_uncached_err_fd(void)
{
	const char *s = getenv("UNCACHED_ERR_FD");
	char *end;
	long fd;

	if (!s || !*s)
		return;
	fd = strtol(s, &end, 10);
	if (!*end && fd > 2 && fd < 1024 && fcntl((int)fd, F_GETFD) >= 0)
		warn_set_fd((int)fd);
}

static int assem_level(const char *v)
{
	if (!v || !strcmp(v, "no") || !strcmp(v, "0"))
		return 0;
	return !strcmp(v, "both") ? 2 : 1;
}

static void print_first_lines(const char *label, const char *prog, const char *opt)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	strvec_pushl(&cp.args, prog, opt, NULL);
	cp.err = null;
	printf("%s: %s\n", label, prog);
	fflush(stdout);
	if (capture_command(&cp, &out) >= 0 && out.len) {
		const char *nl = strchr(out.buf, '\n');

		printf("%s version: %.*s\n", label, (int)(nl ? nl - out.buf : (long)out.len), out.buf);
	} else {
		printf("%s version: unknown\n", label);
	}
	if (null >= 0)
		close(null);
	child_process_clear(&cp);
	strbuf_release(&out);
}

/*
 * For ccache's compiler_check: everything that changes ccd's objects, and
 * nothing that varies between runs.  The target is the backend's own
 * (a --target= on a compile's command line is in ccache's hash anyway).
 */
static int identity(struct backend *be, const struct config *cfg, unsigned passes)
{
	char buf[256], *as;
	struct strbuf cmd = STRBUF_INIT;
	int no_target = backend_target(be, NULL, config_get(cfg, CCD_KEY_TARGET),
				       config_origin(cfg, CCD_KEY_TARGET));

	as = backend_tool(be, "as", config_get(cfg, CCD_KEY_AS), NULL);
	quote_argv(&cmd, be->cmd.v);
	printf("ccd %s\n", CCD_VERSION);
	printf("backend command: %s (profile %s, from %s)\n", cmd.buf, be->profile->name,
	       be->origin);
	printf("family: %s (%s)\n", be->profile->family, be->why.buf);
	printf("target: %s (%s)\n", no_target ? "unknown" : be->target->name,
	       no_target ? "see the error above" : be->target_why.buf);
	print_first_lines("backend", be->compiler, "--version");
	print_first_lines("as", as, "--version");
	asmfix_format_passes(passes, buf, sizeof(buf));
	printf("passes: %s\n", buf);
	printf("assem: %s\n", config_get(cfg, CCD_KEY_ASSEM));
	printf("keep_prefix: %s\n", config_get(cfg, CCD_KEY_KEEP_PREFIX));
	/* A profile changes the objects; its contents are not hashed here. */
	if (config_get(cfg, CCD_KEY_PROFILE_USE))
		printf("profile_use: %s\n", config_get(cfg, CCD_KEY_PROFILE_USE));
	strbuf_release(&cmd);
	free(as);
	return fflush(stdout) ? 1 : 0;
}

static int pass_through(const struct backend *be, const struct ccd_cmd *cmd,
			int argc, char *const *argv, int verbose)
{
	struct strvec args = STRVEC_INIT;

	passthrough_argv(&args, be, cmd, argc, argv);
	if (verbose) {
		struct strbuf sb = STRBUF_INIT;

		quote_argv(&sb, args.v);
		note("exec (%s): %s", cmd->why, sb.buf);
		strbuf_release(&sb);
	}
	exec_command(args.v);
	return errno == ENOENT ? 127 : 126;
}

/* A refused compile leaves no object from an earlier run for make to trust. */
static void refuse_outputs(const struct ccd_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nr_inputs; i++) {
		char *out = default_output(cmd, &cmd->inputs[i]);

		unlink_if_regular(out);
		free(out);
	}
}

static const char *backend_spec(const char *argv0, struct ccd_opts *o,
				const struct config *cfg, const char **origin)
{
	const char *base = path_basename(argv0);

	if (strncmp(base, "ccd", 3)) {
		*origin = "masquerade name";
		return base;
	}
	if (o->args.nr && looks_like_compiler(o->args.v[0])) {
		*origin = "command line";
		return o->args.v[0];
	}
	*origin = config_get(cfg, CCD_KEY_CC) ? config_origin(cfg, CCD_KEY_CC) : "PATH search";
	return config_get(cfg, CCD_KEY_CC);
}

/* The handled path: every input through backend -S, asmfix and as. */
static int compile_cmd(struct backend *be, const struct ccd_cmd *cmd,
		       const struct config *cfg, unsigned passes)
{
	char *pgo_dir, *pgo_build_dir;
	struct compile_opts co = {
		.be = be, .cmd = cmd,
		.as_cfg = config_get(cfg, CCD_KEY_AS), .passes = passes,
		.keep_prefix = config_get(cfg, CCD_KEY_KEEP_PREFIX),
		.assem = assem_level(config_get(cfg, CCD_KEY_ASSEM)),
		.verbose = config_bool(cfg, CCD_KEY_VERBOSE),
		.strict = config_bool(cfg, CCD_KEY_STRICT),
		.pgo_report = config_get(cfg, CCD_KEY_PROFILE_REPORT),
		.check_report = config_get(cfg, CCD_KEY_CHECK_REPORT),
	};
	int ret;

	co.own_as = be->profile->as_style == AS_CLANG && uses_integrated_as(cmd);
	co.target_cfg = config_get(cfg, CCD_KEY_TARGET);
	co.target_origin = config_origin(cfg, CCD_KEY_TARGET);
	pgo_init(config_get(cfg, CCD_KEY_PROFILE_USE), &pgo_dir, &pgo_build_dir);
	co.pgo_dir = pgo_dir;
	co.pgo_build_dir = pgo_build_dir;
	ret = compile_all(&co);
	free(pgo_dir);
	free(pgo_build_dir);
	return ret;
}

/*
 * Classify the @file-expanded words once and do what they say; args is
 * the user's argv as given (pass-through keeps its @files).
 */
static int dispatch(struct backend *be, const struct config *cfg, unsigned passes,
		    const struct strvec *expanded, int argc, char *const *argv)
{
	struct backend_caps caps;
	struct ccd_cmd cmd;
	int ret = 1;

	if (config_bool(cfg, CCD_KEY_VERBOSE))
		note("backend %s: profile %s, family %s (%s%s)", be->compiler, be->profile->name,
		     be->profile->family, be->why.buf, be->cached ? ", cached" : "");
	profile_caps(be->profile, &caps);
	classify_for(&cmd, (int)expanded->nr, expanded->v, &caps);
	if (cmd.mode == MODE_REFUSE) {
		error("backend '%s' (profile %s): %s", be->compiler, be->profile->name, cmd.why);
		refuse_outputs(&cmd);
	} else if (cmd.mode == MODE_PASS) {
		ret = pass_through(be, &cmd, argc, argv, config_bool(cfg, CCD_KEY_VERBOSE));
	} else {
		ret = compile_cmd(be, &cmd, cfg, passes);
	}
	ccd_cmd_release(&cmd);
	return ret;
}

static int run(const char *argv0, struct ccd_opts *o, struct config *cfg,
	       struct override *ov, int nov)
{
	struct backend be;
	struct strvec expanded = STRVEC_INIT;
	const char *spec, *origin;
	unsigned passes = 0;
	int skip, ret;

	if (config_load(cfg))
		return 1;
	for (int i = 0; i < nov; i++)
		if (config_set(cfg, ov[i].key, ov[i].val, ov[i].origin))
			return 1;
	if (asmfix_parse_passes(config_get(cfg, CCD_KEY_PASSES), &passes) < 0)
		return 1;
	spec = backend_spec(argv0, o, cfg, &origin);
	skip = !strcmp(origin, "command line");
	ret = backend_resolve(&be, spec, origin);
	if (!ret)
		ret = backend_profile(&be, config_get(cfg, CCD_KEY_PROFILE));
	if (ret)
		goto out;
	/* Every child inherits it: a backend that is ccd again stops in main instead of recursing. */
	setenv(SAFEGUARD, "1", 1);
	if (o->identity)
		ret = identity(&be, cfg, passes);
	else if (respfile_expand(&expanded, (int)o->args.nr - skip, o->args.v + skip))
		ret = 1;
	else
		ret = dispatch(&be, cfg, passes, &expanded, (int)o->args.nr - skip,
			       o->args.v + skip);
out:
	strvec_clear(&expanded);
	backend_release(&be);
	return ret;
}

int main(int argc, char **argv)
{
	struct ccd_opts o = { 0, 0, 0, NULL, NULL, STRVEC_INIT };
	struct override *ov = xcalloc((size_t)argc + 1, sizeof(*ov));
	struct config cfg = { .keys = &ccd_keys, .section = profile_config };
	int nov = 0, ret = 0;

	warn_set_progname("ccd");
	use_uncached_err_fd();
	run_command_init();
	for (int i = 1; i < argc; i++)
		if (!own_option(&o, argv[i], ov, &nov))
			strvec_push(&o.args, argv[i]);
	if (o.help)
		fputs(usage_text, stdout);
	else if (o.version)
		printf("ccd %s\n", CCD_VERSION);
	else if (o.profile_summary)
		ret = pgo_summary(o.profile_summary);
	else if (o.check_summary)
		ret = check_summary(o.check_summary);
	else if (getenv(SAFEGUARD))
		ret = !!error("ccd started itself as its backend compiler (recursion); check "
			      "CCD_CC, the ccd.conf 'cc' key and masquerade links in PATH");
	else
		ret = run(argv[0], &o, &cfg, ov, nov);
	strvec_clear(&o.args);
	config_release(&cfg);
	profiles_release();
	free(ov);
	return ret;
}
