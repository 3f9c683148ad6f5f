// SPDX-License-Identifier: GPL-2.0
/*
 * lkd: stands where GNU ld stands (make LD=lkd).  Reads every input object
 * with libelf, runs the checks, has ld allocate common symbols in -r
 * links, runs ld, and checks what ld wrote.  Everything it need not
 * understand goes to ld unchanged; queries are exec()ed straight away.
 */
#include "args.h"
#include "checks/check.h"
#include "llvm.h"
#include "order.h"
#include "respfile.h"
#include "settings.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"
#include "ccd-config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Exit codes of --lkd-verify (and of lkd's own usage errors). */
#define EXIT_CLEAN	0
#define EXIT_FINDINGS	1
#define EXIT_TROUBLE	2

struct lkd_opts {
	struct config cfg;
	int verify;
	lkd_check_mask checks;
	struct strvec rest;	/* argv without argv[0] and --lkd-* */
};

static void usage(void)
{
	printf("usage: lkd [--lkd-OPTION...] LD-ARGUMENTS...\n"
	       "       lkd --lkd-verify [--lkd-OPTION...] FILE...\n"
	       "\n"
	       "GNU ld delegate: checks every input object and archive member with libelf,\n"
	       "then runs ld with the same arguments, then checks ld's output.\n"
	       "--help and --version are ld's: they pass through to ld.\n"
	       "\n"
	       "  --lkd-ld=CMD              linker to run (default: ld.lld as make LLVM= names\n"
	       "                            it, else ${CROSS_COMPILE}ld)\n"
	       "  --lkd-checks=LIST         all, none or a comma-separated list of checks\n"
	       "  --lkd-altinstr-layout=L   .altinstructions layout: auto (default: read off\n"
	       "                            each object), linux612, linux6 or linux26\n"
	       "  --lkd-order=FILE          lay out a final link's functions in FILE's order: one\n"
	       "                            symbol a line, hottest first, as ld.lld's\n"
	       "                            --symbol-ordering-file (GNU ld: -ffunction-sections'\n"
	       "                            .text.NAME sections, through a copy of its script)\n"
	       "  --lkd-strict              what lkd cannot interpret is an error, not a warning\n"
	       "  --lkd-quiet               do not report the fixes lkd makes\n"
	       "  --lkd-verbose             explain what is checked and run\n"
	       "  --lkd-verify FILE...      check objects/archives/@lists without linking\n"
	       "  --lkd-help, --lkd-version\n"
	       "\nchecks:\n");
	for (size_t i = 0; i < lkd_nr_checks; i++)
		printf("  %-10s %s\n", lkd_checks[i]->name, lkd_checks[i]->help);
	printf("\nconfiguration (%s, then ~/.config/ccd/ccd.conf, then environment):\n",
	       config_system_path());
	for (size_t k = 0; k < lkd_keys.nr; k++)
		printf("  %-16s %-20s %s\n", lkd_keys.info[k].name, lkd_keys.info[k].env,
		       lkd_keys.info[k].help);
	printf("\nexit status: ld's for links (1 if a check fails);\n"
	       "2: bad lkd option or configuration, unreadable or malformed --lkd-order file;\n"
	       "--lkd-verify: 0 clean, 1 findings, 2 usage error or unreadable/malformed file\n");
}

/* Value of "--lkd-name=value", or NULL if arg is not that option. */
static const char *opt_value(const char *arg, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(arg, name, len) || arg[len] != '=')
		return NULL;
	return arg + len + 1;
}

static int parse_lkd_option(struct lkd_opts *o, const char *a)
{
	const char *v;

	if (!strcmp(a, "--lkd-help")) {
		usage();
		exit(EXIT_CLEAN);
	}
	if (!strcmp(a, "--lkd-version")) {
		printf("lkd (ccd-suite) %s\n", CCD_VERSION);
		exit(EXIT_CLEAN);
	}
	if (!strcmp(a, "--lkd-verify"))
		o->verify = 1;
	else if (!strcmp(a, "--lkd-quiet"))
		return config_set(&o->cfg, LKD_KEY_QUIET, "yes", a);
	else if (!strcmp(a, "--lkd-verbose"))
		return config_set(&o->cfg, LKD_KEY_VERBOSE, "yes", a);
	else if (!strcmp(a, "--lkd-strict"))
		return config_set(&o->cfg, LKD_KEY_STRICT, "yes", a);
	else if ((v = opt_value(a, "--lkd-ld")))
		return config_set(&o->cfg, LKD_KEY_LD, v, "--lkd-ld");
	else if ((v = opt_value(a, "--lkd-checks")))
		return config_set(&o->cfg, LKD_KEY_CHECKS, v, "--lkd-checks");
	else if ((v = opt_value(a, "--lkd-altinstr-layout")))
		return config_set(&o->cfg, LKD_KEY_ALTINSTR_LAYOUT, v, "--lkd-altinstr-layout");
	else if ((v = opt_value(a, "--lkd-order")))
		return config_set(&o->cfg, LKD_KEY_ORDER, v, "--lkd-order");
	else
		return error("unknown option '%s' (see lkd --lkd-help)", a);
	return 0;
}

static int parse_options(struct lkd_opts *o, int argc, char **argv)
{
	if (config_load(&o->cfg))
		return -1;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--lkd-", 6))
			strvec_push(&o->rest, argv[i]);
		else if (parse_lkd_option(o, argv[i]))
			return -1;
	}
	return lkd_parse_checks(config_get(&o->cfg, LKD_KEY_CHECKS), &o->checks);
}

static void init_ctx(struct lkd_ctx *ctx, struct lkd_opts *o, enum lkd_mode mode)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->mode = mode;
	ctx->quiet = config_bool(&o->cfg, LKD_KEY_QUIET);
	ctx->verbose = config_bool(&o->cfg, LKD_KEY_VERBOSE);
	ctx->strict = config_bool(&o->cfg, LKD_KEY_STRICT);
	ctx->layout = config_get(&o->cfg, LKD_KEY_ALTINSTR_LAYOUT);
}

struct walk_data {
	struct lkd_ctx *ctx;
	lkd_check_mask mask;
};

static int input_fn(struct lkd_obj *obj, void *data)
{
	struct walk_data *w = data;

	return lkd_run_input_checks(w->ctx, w->mask, obj);
}

static int output_fn(struct lkd_obj *obj, void *data)
{
	struct walk_data *w = data;

	return lkd_run_output_checks(w->ctx, w->mask, obj);
}

static int verify(struct lkd_opts *o)
{
	struct strvec files = STRVEC_INIT;
	struct lkd_ctx ctx;
	struct walk_data w = { &ctx, o->checks };
	unsigned long findings = 0;
	int trouble = 0;

	init_ctx(&ctx, o, LKD_VERIFY);
	if (respfile_expand(&files, (int)o->rest.nr, o->rest.v))
		return EXIT_TROUBLE;
	if (!files.nr) {
		error("--lkd-verify: no files given");
		return EXIT_TROUBLE;
	}
	for (size_t i = 0; i < files.nr; i++) {
		int r = lkd_for_each_object(files.v[i], 0, input_fn, &w);

		if (r < 0)
			trouble = 1;
		else
			findings += (unsigned long)r;
	}
	if (ctx.verbose)
		note("verified %zu files, %lu objects: %lu findings", files.nr, ctx.objects,
		     findings);
	strvec_clear(&files);
	if (trouble)
		return EXIT_TROUBLE;
	return findings ? EXIT_FINDINGS : EXIT_CLEAN;
}

/*
 * The linker command: the config value split at blanks ("ccache ld" works
 * too); none configured: the linker make LD= would have run without lkd,
 * Kbuild's ${LLVM_PREFIX}ld.lld${LLVM_SUFFIX} under make LLVM=, else
 * ${CROSS_COMPILE}ld.  So lkd --version answers as that linker does, and
 * Kbuild sees the LD_IS_LLD or LD_IS_BFD it would see without lkd.
 */
static void ld_command(struct lkd_opts *o, struct strvec *argv)
{
	const char *cross = getenv("CROSS_COMPILE"), *ld = config_get(&o->cfg, LKD_KEY_LD);
	char *lld;

	if (ld)
		strvec_split(argv, ld);
	if (argv->nr)
		return;
	lld = llvm_tool("ld.lld");
	if (lld)
		strvec_push(argv, lld);
	else
		strvec_pushf(argv, "%sld", cross ? cross : "");
	free(lld);
}

__attribute__((noreturn))
static void passthrough(struct strvec *ld)
{
	exec_command(strvec_argv(ld));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int check_inputs(struct lkd_ctx *ctx, lkd_check_mask mask, struct ld_cmdline *cl)
{
	struct walk_data w = { ctx, mask };
	int failed = 0;
	unsigned long findings = 0;

	for (size_t i = 0; i < cl->inputs.nr; i++) {
		/* Inputs that are neither ELF nor archives are ld scripts: ld's business. */
		int r = lkd_for_each_object(cl->inputs.v[i], LKD_SKIP_NON_ELF, input_fn, &w);

		if (r < 0)
			failed = 1;
		else
			findings += (unsigned long)r;
	}
	return failed || findings ? -1 : 0;
}

static int check_output(struct lkd_ctx *ctx, lkd_check_mask mask, const char *out)
{
	struct walk_data w = { ctx, mask };
	struct stat st;

	if (stat(out, &st) || !S_ISREG(st.st_mode))
		return 0;
	return lkd_for_each_object(out, LKD_SKIP_NON_ELF, output_fn, &w) ? -1 : 0;
}

static int do_link(struct lkd_opts *o)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct ld_cmdline cl = LD_CMDLINE_INIT;
	struct lkd_order ord = LKD_ORDER_INIT;
	const char *order = config_get(&o->cfg, LKD_KEY_ORDER);
	struct lkd_ctx ctx;
	double t0 = now();
	size_t nr_cmd;
	int status;

	ld_command(o, &cp.args);
	nr_cmd = cp.args.nr;
	strvec_pushv(&cp.args, strvec_argv(&o->rest));
	if (ld_parse(&cl, (int)o->rest.nr, o->rest.v))
		exit(1);
	/* Only a final link has a layout to order: -r links go to ld as they are. */
	if (!order || !*order || cl.relocatable)
		order = NULL;
	/* Queries, links with no inputs (ld -v), no checks and no order: ld alone. */
	if (cl.query || !cl.inputs.nr || (!o->checks && !order))
		passthrough(&cp.args);
	init_ctx(&ctx, o, cl.relocatable ? LKD_LINK_REL : LKD_LINK_FINAL);
	ord.strict = ctx.strict;
	ord.verbose = ctx.verbose;
	if (order && order_read(&ord, order)) {
		unlink_if_regular(cl.output);
		exit(EXIT_TROUBLE);
	}
	if (o->checks && check_inputs(&ctx, o->checks, &cl)) {
		/* As ld does on error: no old output that looks up to date. */
		unlink_if_regular(cl.output);
		exit(1);
	}
	if (ctx.define_common && !cl.define_common)
		strvec_insert(&cp.args, cp.args.nr - o->rest.nr, "-d");
	/* A final link's: ld's arguments are cl's again, never with a -d added above. */
	if (order && order_apply(&ord, &cp.args, nr_cmd, &cl)) {
		unlink_if_regular(cl.output);
		exit(EXIT_TROUBLE);
	}
	if (ctx.verbose) {
		struct strbuf sb = STRBUF_INIT;

		quote_argv(&sb, cp.args.v);
		note("checked %zu inputs (%lu objects, %lu of them LLVM bitcode: checked in "
		     "the output) in %.3fs; running: %s", cl.inputs.nr, ctx.objects,
		     ctx.ir_objects, now() - t0, sb.buf);
		strbuf_release(&sb);
	}
	/* ld removes its output on failure; so do we if a check of it fails, or if killed. */
	tempfile_register(cl.output);
	status = run_command(&cp);
	order_release(&ord);
	if (!status_ok(status))
		exit_like(status);
	if (o->checks && check_output(&ctx, o->checks, cl.output)) {
		error("%s: removed: the linked output failed lkd's checks", cl.output);
		tempfile_remove(cl.output);
		exit(1);
	}
	tempfile_forget(cl.output);
	ld_cmdline_release(&cl);
	child_process_clear(&cp);
	return 0;
}

int main(int argc, char **argv)
{
	struct lkd_opts o = { .cfg = { .keys = &lkd_keys }, .rest = STRVEC_INIT };
	int ret;

	warn_set_progname("lkd");
	run_command_init();
	lkd_elf_init();
	if (parse_options(&o, argc, argv))
		ret = EXIT_TROUBLE;
	else if (o.verify)
		ret = verify(&o);
	else
		ret = do_link(&o);
	config_release(&o.cfg);
	strvec_clear(&o.rest);
	return ret;
}
