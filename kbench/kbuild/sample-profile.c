// SPDX-License-Identifier: GPL-2.0
/* A branch record into a sample profile (sample-profile.h). */
#include "sample-profile.h"
#include "afdo.h"
#include "atomic-file.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* LLVM's text into gcc's AFDO file (afdo.c); the functions it has, merged as gcc names them. */
static int afdo_profile(const char *text, const char *out, struct profile_stats *st)
{
	struct strbuf err = STRBUF_INIT;
	struct afdo_stats as;
	int ret = afdo_from_llvm_text(text, out, &as, &err);

	if (ret && err.len)
		error("%s", err.buf);
	else if (!ret)
		st->functions = as.functions;
	strbuf_release(&err);
	return ret;
}

/* KBENCH_LLVM_PROFGEN, or the first of Debian's that is installed. */
static char *profgen(void)
{
	static const char *const names[] = { "llvm-profgen-19", "llvm-profgen" };
	const char *env = getenv("KBENCH_LLVM_PROFGEN");
	char *p;

	if (env && *env)
		return xstrdup(env);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if ((p = find_in_path(names[i])))
			return p;
	error("no llvm-profgen (Debian's llvm-19; or KBENCH_LLVM_PROFGEN=PATH)");
	return NULL;
}

/* llvm-profgen record -> text; its stderr shown only when it fails. */
static int run_profgen(const char *record, const char *vmlinux, const char *text)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	const char *log;
	char *prog = profgen();
	int fd, status, ret = 0;

	if (!prog)
		return -1;
	if ((fd = tempfile_create("kbench-", ".profgen", &log)) < 0) {
		free(prog);
		return -1;
	}
	strvec_pushl(&cp.args, prog, NULL);
	strvec_pushf(&cp.args, "--perfscript=%s", record);
	strvec_pushf(&cp.args, "--binary=%s", vmlinux);
	strvec_pushf(&cp.args, "--output=%s", text);
	strvec_push(&cp.args, "--format=text");
	cp.err = fd;
	status = run_command(&cp);
	if (!status_ok(status)) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_read_file(&sb, log, 1 << 16);
		ret = error("%s failed on %s%s%s", prog, vmlinux, sb.len ? ":\n" : "",
			    sb.len ? sb.buf : "");
		strbuf_release(&sb);
	}
	close(fd);
	tempfile_remove(log);
	child_process_clear(&cp);
	free(prog);
	return ret;
}

/* Top-level "name:total:head" lines: the functions, their samples. */
static void count_functions(const char *text, struct profile_stats *st)
{
	for (const char *p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		const char *colon = memchr(p, ':', len);

		if (len && p[0] != ' ' && colon) {
			st->functions++;
			st->samples += strtoull(colon + 1, NULL, 10);
		}
		p += len + (p[len] == '\n');
	}
}

int sample_profile(const struct kb_branches *b, const char *vmlinux, const char *format,
		   const char *out, struct profile_stats *st)
{
	struct strbuf sb = STRBUF_INIT;
	const char *rec = NULL, *text = NULL;
	int fd, ret = -1;

	memset(st, 0, sizeof(*st));
	if ((fd = tempfile_create("kbench-", ".perf", &rec)) < 0)
		return -1;
	close(fd);
	if ((fd = tempfile_create("kbench-", ".prof", &text)) < 0)
		goto out;
	close(fd);
	if (branches_write(b, rec, "perf") || run_profgen(rec, vmlinux, text))
		goto out;
	if (strbuf_read_file(&sb, text, 0)) {
		error_errno("cannot read %s", text);
		goto out;
	}
	count_functions(sb.buf, st);
	if (!st->functions) {
		error("the record names no function of %s that its debug information knows "
		      "(a kernel built without CONFIG_DEBUG_INFO?)", vmlinux);
		goto out;
	}
	if (!strcmp(format, "afdo"))
		ret = afdo_profile(text, out, st);
	else
		ret = write_atomically(out, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	if (text)
		tempfile_remove(text);
	tempfile_remove(rec);
	return ret;
}
