// SPDX-License-Identifier: GPL-2.0
/*
 * kbench profile --record=REC --vmlinux=ELF --format=F -o OUT: a branch
 * record (kbench run --record-branches) into what a build reads:
 *   llvm    a sample profile for clang's -fprofile-sample-use (llvm-profgen
 *           reads the record as perf's branch samples), in LLVM's text form
 *   afdo    the same for gcc's -fauto-profile, in gcc's own format (afdo.c)
 *   order   a link order (link-order.c) for lkd --lkd-order or ld.lld's
 *           --symbol-ordering-file
 *   autofdo-text  the record as autofdo's text profile (create_gcov,
 *           create_llvm_prof --profiler=text), as run --record-format=autofdo
 * The record must come from ELF's build (the build IDs agree) and hold
 * enough samples; a profile that names none of ELF's functions is an error,
 * never an empty file a build would take for a plain one.
 */
#include "cmd.h"
#include "atomic-file.h"
#include "branches.h"
#include "elf-info.h"
#include "link-order.h"
#include "sample-profile.h"
#include "run-command.h"
#include "strbuf.h"
#include "symbols.h"
#include "tempfile.h"
#include "warn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


struct profile_opts {
	const char *record, *vmlinux, *format, *out;
	unsigned long min_samples;
};

static int parse_min(const char *v, unsigned long *out)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!*v || *end || *v == '-' || n > 100000000)
		return usage_error("--min-samples takes a number from 0 to 100000000, not '%s'", v);
	*out = n;
	return 0;
}

static int parse_profile_options(struct profile_opts *o, int argc, char **argv)
{
	const char *v;

	memset(o, 0, sizeof(*o));
	o->min_samples = PROFILE_MIN_SAMPLES;
	for (int i = 1; i < argc; i++) {
		if ((v = opt_arg(argc, argv, &i, "--record")))
			o->record = v;
		else if ((v = opt_arg(argc, argv, &i, "--vmlinux")))
			o->vmlinux = v;
		else if ((v = opt_arg(argc, argv, &i, "--format")))
			o->format = v;
		else if ((v = opt_arg(argc, argv, &i, "--min-samples"))) {
			if (parse_min(v, &o->min_samples))
				return -1;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			o->out = argv[++i];
		else if ((v = opt_arg(argc, argv, &i, "--output")))
			o->out = v;
		else
			return usage_error("profile: unexpected argument '%s'", argv[i]);
	}
	if (!o->record || !o->vmlinux || !o->format || !o->out)
		return usage_error("profile: --record=REC --vmlinux=ELF --format=llvm|afdo|order "
				   "-o OUT are all needed");
	if (strcmp(o->format, "llvm") && strcmp(o->format, "afdo") && strcmp(o->format, "order") &&
	    strcmp(o->format, "autofdo-text"))
		return usage_error("--format is llvm, afdo, order or autofdo-text, not '%s'",
				   o->format);
	return 0;
}

/* The record is the build's, and holds enough samples; KB_OK or why not. */
static int check_record(const struct profile_opts *o, const struct kb_branches *b)
{
	char *id;

	if (build_id_of(o->vmlinux, &id))
		return KB_TROUBLE;
	if (id && b->build_id && strcmp(id, b->build_id)) {
		error("%s was recorded on the build %s (%s), %s is the build %s: a profile "
		      "must come from the build it goes to", o->record, b->build_id,
		      b->kernel ? b->kernel : "?", o->vmlinux, id);
		free(id);
		return KB_USAGE;
	}
	if (!id || !b->build_id)
		warning("%s: no build ID to check the record against (%s has %s)", o->record,
			id ? "the record" : o->vmlinux, "none");
	free(id);
	if (b->nr < o->min_samples) {
		error("%s has %zu branch samples; a profile needs at least %lu (more training "
		      "rows, or a smaller --record-period)", o->record, b->nr, o->min_samples);
		return KB_USAGE;
	}
	return KB_OK;
}

static int write_order(const struct profile_opts *o, const struct kb_branches *b,
		       struct profile_stats *st)
{
	struct kb_funcs f;
	struct strvec names = STRVEC_INIT;
	struct link_order_stats ls;
	struct strbuf sb = STRBUF_INIT;
	int ret = KB_OK;

	if (funcs_read(&f, o->vmlinux))
		return KB_TROUBLE;
	link_order(b, &f, &names, &ls);
	if (!ls.functions) {
		error("%s: none of its branches is in a function of %s", o->record, o->vmlinux);
		ret = KB_USAGE;
	} else {
		for (size_t i = 0; i < names.nr; i++)
			strbuf_addf(&sb, "%s\n", names.v[i]);
		if (write_atomically(o->out, sb.buf, sb.len))
			ret = KB_TROUBLE;
		st->functions = ls.functions;
		note("%zu functions in %zu clusters (%llu sampled calls) in %s", ls.functions,
		     ls.clusters, (unsigned long long)ls.calls, o->out);
	}
	strbuf_release(&sb);
	strvec_clear(&names);
	funcs_release(&f);
	return ret;
}

int profile_make(const char *record, const char *vmlinux, const char *format, const char *out,
		 unsigned long min_samples, struct profile_made *made)
{
	struct profile_opts o = { record, vmlinux, format, out, min_samples };
	struct profile_stats st = { 0 };
	struct kb_branches b;
	int ret;

	branches_init(&b);
	if (branches_read(&b, o.record))
		ret = KB_USAGE;
	else if ((ret = check_record(&o, &b)) != KB_OK)
		;
	else if (!strcmp(o.format, "order"))
		ret = write_order(&o, &b, &st);
	else if (!strcmp(o.format, "autofdo-text"))
		ret = load_base_of(o.vmlinux, &b.base) || branches_write(&b, o.out, "autofdo") ?
		      KB_TROUBLE : KB_OK;
	else if (sample_profile(&b, o.vmlinux, o.format, o.out, &st))
		ret = KB_TROUBLE;
	else
		note("%zu functions, %llu samples in %s", st.functions, st.samples, o.out);
	if (made) {
		made->samples = b.nr;
		made->functions = st.functions;
	}
	/* No older profile may stand in for the one refused. */
	if (ret != KB_OK)
		unlink_if_regular(o.out);
	branches_release(&b);
	return ret;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_opts o;

	if (parse_profile_options(&o, argc, argv))
		return KB_USAGE;
	return profile_make(o.record, o.vmlinux, o.format, o.out, o.min_samples, NULL);
}
