// SPDX-License-Identifier: GPL-2.0
/*
 * One handled compile: backend -S -o <temp .s> with the caller's argv in
 * its order (only -c -> -S and -o -> temp changed, plus what gcc would
 * have derived from the real -o), asmfix in-process, then as -o <object>
 * and gcc's post-steps.  Runs in the caller's cwd, environment untouched.
 */
#include "compile.h"
#include "asmfix.h"
#include "assemble.h"
#include "check.h"
#include "family.h"
#include "fileio.h"
#include "objtrace.h"
#include "pgo.h"
#include "run-command.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The backend writes the object (and the dependency file) itself: compile_own(). */
static int own_object(const struct compile_opts *o)
{
	return o->own_as && o->cmd->action == 'c';
}

/*
 * What gcc's driver derives from "-o obj" and would derive from our temp
 * name instead: the dependency file and target, and the aux file names.
 */
static void add_derived(struct strvec *out, const struct compile_opts *o,
			const struct ccd_input *in)
{
	const struct ccd_cmd *cmd = o->cmd;
	const struct profile *p = o->be->profile;
	char *stem = output_stem(cmd, in);

	/* The backend's own compile wrote the dependency file (compile_own). */
	if (own_object(o))
		;
	else if (cmd->deps == DEP_DRIVER && !cmd->has_mf)
		strvec_pushl(out, "-MF", NULL), strvec_pushf(out, "%s.d", stem);
	if (cmd->deps != DEP_NONE && !cmd->has_mt && p->dep_target && !own_object(o)) {
		/*
		 * -MD: the target is the object gcc writes.  -Wp,-MD: gcc's cpp
		 * names <source-basename>.o whatever -o says; said explicitly,
		 * since distcc rewrites -Wp,-MMD,f to -MMD -MF f, whose target
		 * would be our temp .s.
		 */
		char *target = cmd->deps == DEP_DRIVER && cmd->output ? xstrdup(cmd->output)
								       : source_object(in);

		strvec_pushl(out, "-MQ", target, NULL);
		free(target);
	}
	if (p->dumpbase && (cmd->aux || o->pgo_dir)) {
		/*
		 * Only when something is named from them (side files, the
		 * profile gcc looks up): otherwise they change nothing, and
		 * icecc 1.4 aborts on the empty -dumpdir of an object in the
		 * current directory.  The stem without the source suffix (and
		 * no -dumpbase-ext) names the same aux files, and distcc and
		 * icecc do not take a "f0.c" after -dumpbase for a second input.
		 */
		const char *base = path_basename(stem);

		strvec_push(out, "-dumpdir");
		strvec_pushf(out, "%.*s", cmd->output ? (int)(base - stem) : 0, stem);
		strvec_pushl(out, "-dumpbase", base, NULL);
	}
	/* clang's -fno-integrated-as: not when it assembles its own text. */
	if (!o->own_as)
		profile_push_words(out, p->assembly_last);
	free(stem);
}

/*
 * The backend's run for one input, a filter over the classified words:
 * -S into out_path, or (object) its own compile with -c as given and
 * the dependency options kept (compile_own).
 */
static void backend_run_argv(struct strvec *out, const struct compile_opts *o,
			     const struct ccd_input *in, const char *out_path, int object)
{
	const struct ccd_cmd *cmd = o->cmd;
	const struct profile *p = o->be->profile;

	strvec_pushv(out, o->be->cmd.v);
	if (in->lang == LANG_C)
		strvec_push(out, "-D__CCD__=1");
	for (size_t i = 0; i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		if (i == cmd->o_argi)
			strvec_pushl(out, "-o", out_path, NULL);
		if (object ? !(a->dest & TO_BACKEND) && a->role != ARG_ACTION
			   : !(a->dest & TO_BACKEND) || (own_object(o) && (a->dest & TO_DEPS)))
			continue;
		if (a->role == ARG_INPUT) {
			if (i == in->argi)
				strvec_push(out, a->word);
		} else if (a->role == ARG_ACTION) {
			if (object)
				strvec_push(out, a->word);
			else
				profile_push_words(out, p->assembly);
		} else if (a->role == ARG_VALUE) {
			strvec_push(out, a->word);
		} else {
			profile_translate_word(p, out, a->word);
		}
	}
	if (!cmd->output)
		strvec_pushl(out, "-o", out_path, NULL);
	if (!object)
		add_derived(out, o, in);
}

static void backend_argv(struct strvec *out, const struct compile_opts *o,
			 const struct ccd_input *in, const char *asm_out)
{
	backend_run_argv(out, o, in, asm_out, 0);
}

void passthrough_argv(struct strvec *out, const struct backend *be,
		      const struct ccd_cmd *cmd, int argc, char *const *argv)
{
	const struct profile *p = be->profile;

	strvec_pushv(out, be->cmd.v);
	if (cmd->preprocesses)
		strvec_push(out, "-D__CCD__=1");
	/*
	 * The user's words as they are (an @file stays an @file), unless the
	 * profile translates: then the classified words, @files expanded.
	 */
	if (profile_translates(p))
		profile_translate(p, out, cmd);
	else
		for (int i = 0; i < argc; i++)
			strvec_push(out, argv[i]);
}

static void trace(const struct compile_opts *o, struct strvec *args)
{
	struct strbuf sb = STRBUF_INIT;

	if (!o->verbose)
		return;
	quote_argv(&sb, strvec_argv(args));
	note("run: %s", sb.buf);
	strbuf_release(&sb);
}

/* Signals a terminal or job control sends us too: no message, as for gcc. */
static int is_user_signal(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP ||
	       sig == SIGQUIT || sig == SIGPIPE;
}

/*
 * Run a child, its stderr to err (-1: ours); a child killed by a signal
 * takes us with it, after saying so: otherwise the shell reports ccd
 * itself as crashed.
 */
static int run_err(const struct compile_opts *o, struct strvec *args, int err)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int status;

	trace(o, args);
	strvec_pushv(&cp.args, strvec_argv(args));
	cp.err = err;
	status = run_command(&cp);
	child_process_clear(&cp);
	if (status < 0)
		return -1;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (!is_user_signal(sig))
			error("'%s' terminated by signal %d (%s)", args->v[0], sig, strsignal(sig));
		exit_like(status);
	}
	return status;
}

static int run(const struct compile_opts *o, struct strvec *args)
{
	return run_err(o, args, -1);
}

/* Our exit code for a failed child's status (-1: it did not start). */
static int exit_code(int status)
{
	if (status < 0)
		return 127;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

/* dir(out) + basename(source) + sfx: fs/file.o from fs/file.c -> fs/file.c.S */
static char *keep_name(const char *out, const struct ccd_input *in, const char *sfx)
{
	struct strbuf sb = STRBUF_INIT;
	const char *base = path_basename(out);

	strbuf_addf(&sb, "%.*s%s%s", (int)(base - out), out, path_basename(in->path), sfx);
	return strbuf_detach(&sb, NULL);
}

static int open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0)
		error_errno("cannot write %s", path);
	return fd;
}

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, failed;

	if (in < 0)
		return error_errno("cannot read %s", from);
	out = open_out(to);
	if (out < 0) {
		close(in);
		return -1;
	}
	failed = copy_fd(in, out);
	close(in);
	if (close(out) || failed) {
		error_errno("cannot write %s", to);
		unlink_if_regular(to);	/* never a truncated copy */
		return -1;
	}
	return 0;
}

/* The passes that changed something, as a mask of the pass table. */
static unsigned changed_passes(const struct asmfix_stats *st)
{
	unsigned mask = 0;

	for (size_t i = 0; i < asmfix_pass_count(); i++)
		if (st->changes[i])
			mask |= 1u << i;
	return mask;
}

/* asmfix from the backend's .s to dst; 0 or 1 (message printed). */
static int repair(const struct compile_opts *o, const char *src, const char *dst,
		  const char *name, unsigned *changed)
{
	struct asmfix_options opt;
	struct asmfix_stats st;
	int in, out, rc;

	memset(&opt, 0, sizeof(opt));
	opt.filename = name;
	opt.passes = o->passes;
	opt.keep_prefix = o->keep_prefix;
	opt.data_sections = o->cmd->data_sections;
	opt.small_data = asspec_small_data(o->be->target, o->be->profile->as_style, o->cmd);
	opt.target = o->be->target ? o->be->target->name : NULL;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		error_errno("cannot read %s", src);
		return 1;
	}
	out = open_out(dst);
	if (out < 0) {
		close(in);
		return 1;
	}
	if (o->verbose)
		note("asmfix: %s -> %s", src, dst);
	memset(&st, 0, sizeof(st));
	rc = asmfix_filter(&opt, in, out, &st);
	*changed = changed_passes(&st);
	close(in);
	if (close(out) && !rc)
		rc = error_errno("cannot write %s", dst);
	if (rc < 0)
		error("%s: cannot repair assembly", name);
	return rc ? 1 : 0;
}

/*
 * as's arguments; a target word the spec cannot derive (asspec.h) is
 * asked of the driver: "BACKEND <-m, -f, --target words> -### -c".
 */
static int as_argv(const struct compile_opts *o, struct strvec *args, const char *obj,
		   const char *asm_path)
{
	struct as_target tg = { o->be->target, o->be->as_defaults, NULL };
	struct strvec ask = STRVEC_INIT, words = STRVEC_INIT;
	int ret;

	if (!assemble_args(args, o->be->profile, o->cmd, &tg, obj, asm_path))
		return 0;
	strvec_pushv(&ask, o->be->cmd.v);
	asspec_driver_words(o->be->target, o->cmd, &ask);
	/* clang's -fno-integrated-as, as for the -S: without it its driver names no as. */
	profile_push_words(&ask, o->be->profile->assembly_last);
	if (o->verbose)
		note("asking the driver for the as words of target %s", o->be->target->name);
	ret = driver_as_words((const char *const *)strvec_argv(&ask), &words);
	if (ret) {
		struct strbuf sb = STRBUF_INIT;

		quote_argv(&sb, strvec_argv(&ask));
		error("cannot tell the %s assembler's options: '%s -### -c' named no as command",
		      o->be->target->name, sb.buf);
		strbuf_release(&sb);
	} else {
		tg.asked = &words;
		ret = assemble_args(args, o->be->profile, o->cmd, &tg, obj, asm_path);
	}
	strvec_clear(&ask);
	strvec_clear(&words);
	return ret;
}

/* as, its stderr to err (-1: ours), then the -gsplit-dwarf steps; 0 or 1. */
static int assemble(const struct compile_opts *o, const char *as, const char *asm_path,
		    const char *obj, const struct ccd_input *in, int err)
{
	struct strvec args = STRVEC_INIT;
	int status;

	strvec_push(&args, as);
	if (as_argv(o, &args, obj, asm_path)) {
		strvec_clear(&args);
		return 1;
	}
	status = run_err(o, &args, err);
	strvec_clear(&args);
	if (!status_ok(status))
		return 1;
	if (o->cmd->split_dwarf) {
		char *dwo = dwo_name(o->cmd, in);
		char *objcopy = backend_tool(o->be, "objcopy", NULL, o->cmd);

		strvec_pushl(&args, objcopy, "--extract-dwo", obj, dwo, NULL);
		status = run(o, &args);
		strvec_clear(&args);
		if (status_ok(status)) {
			strvec_pushl(&args, objcopy, "--strip-dwo", obj, NULL);
			status = run(o, &args);
			strvec_clear(&args);
		}
		free(objcopy);
		free(dwo);
		if (!status_ok(status))
			return 1;
	}
	return 0;
}

/* Paths of one compile; kept and temp files are registered while written. */
struct job {
	char *out;		/* object, or assembly for -S */
	char *keep;		/* <dir-of-out>/<source-basename>.S (--assem) */
	char *keep_raw;		/* ... .raw.S (--assem=both; asmfix's diagnostics name) */
	const char *raw;	/* temp: the backend's -S output */
	const char *fixed;	/* repaired assembly: out (-S), keep, or a temp */
	int fixed_is_temp;
	unsigned changed;	/* passes that changed the backend's assembly */
	int fallback;		/* as rejected the repair: the object is unrepaired */
	struct pgo_job pgo;
};

/*
 * The backend with the object's profile, its stderr kept to read what gcc
 * says about the profile and then passed on.  A compile that fails with
 * the profile is done again without it (with its messages), so a profile
 * never fails a build that compiles without one.
 */
static int run_profiled(const struct compile_opts *o, const struct ccd_input *in,
			struct job *j)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf said = STRBUF_INIT;
	const char *err_path;
	int fd = tempfile_create("ccd", ".err", &err_path), status;

	if (fd < 0)
		return 1 << 8;	/* a wait status: exit 1 (tempfile_create said why) */
	backend_argv(&args, o, in, j->raw);
	pgo_args(&args, o);
	status = run_err(o, &args, fd);
	strvec_clear(&args);
	if (lseek(fd, 0, SEEK_SET) || strbuf_read_fd(&said, fd))
		warning("cannot read back %s: %s", err_path, strerror(errno));
	close(fd);
	tempfile_remove(err_path);
	if (status_ok(status)) {
		/* Our stderr gone: nothing left to tell, as for gcc. */
		if (said.len)
			(void)!write_in_full(2, said.buf, said.len);
		pgo_finish(o, j->out, &j->pgo, said.buf);
	} else {
		j->pgo.status = PGO_FAILED;
		backend_argv(&args, o, in, j->raw);
		status = run(o, &args);
		strvec_clear(&args);
		if (status_ok(status))
			pgo_finish(o, j->out, &j->pgo, NULL);
	}
	strbuf_release(&said);
	return status;
}

/*
 * Backend -S into a temp file (with the object's profile unless own: the
 * backend's own compile had it); 0, or the exit status to return.
 */
static int job_backend(const struct compile_opts *o, const struct ccd_input *in, struct job *j,
		       int own)
{
	struct strvec args = STRVEC_INIT;
	int fd = tempfile_create("ccd", ".s", &j->raw), status;

	if (fd < 0)
		return 1;
	close(fd);
	if (!own)
		pgo_prepare(o, in, j->out, &j->pgo);
	if (!own && pgo_active(&j->pgo)) {
		status = run_profiled(o, in, j);
	} else {
		backend_argv(&args, o, in, j->raw);
		status = run(o, &args);
		strvec_clear(&args);
		if (status_ok(status) && !own)
			pgo_finish(o, j->out, &j->pgo, NULL);
	}
	if (status_ok(status))
		return 0;
	/* The backend said why; leave no stale output for make to trust. */
	unlink_if_regular(j->out);
	return exit_code(status);
}

/* asmfix into out (-S), the --assem file, or a temp; 0 or 1. */
static int job_repair(const struct compile_opts *o, struct job *j, int assem)
{
	if (assem == 2 && copy_file(j->raw, j->keep_raw))
		return 1;
	if (o->cmd->action == 'S' || assem) {
		j->fixed = o->cmd->action == 'S' ? j->out : j->keep;
		tempfile_register(j->fixed);
	} else {
		int fd = tempfile_create("ccd", ".s", &j->fixed);

		if (fd < 0)
			return 1;
		close(fd);
		j->fixed_is_temp = 1;
	}
	if (repair(o, j->raw, j->fixed, j->keep_raw, &j->changed)) {
		/* Never a truncated output (preamble: bad input). */
		if (!j->fixed_is_temp)
			tempfile_remove(j->fixed);
		unlink_if_regular(j->out);
		return 1;
	}
	if (!j->fixed_is_temp)
		tempfile_forget(j->fixed);
	return 0;
}

/* The first line of what as said, for a one-line warning. */
static void first_line(struct strbuf *sb, const char *said)
{
	const char *p = strstr(said, "Error: ");
	size_t n;

	p = p ? p + 7 : said;
	n = strcspn(p, "\n");
	strbuf_add(sb, p, n);
}

/* assemble() with as's messages kept in said; 0 or 1. */
static int assemble_said(const struct compile_opts *o, const char *as, const char *asm_path,
			 const struct job *j, const struct ccd_input *in, struct strbuf *said)
{
	const char *err_path;
	int fd = tempfile_create("ccd", ".err", &err_path), ret;

	if (fd < 0)
		return 1;
	ret = assemble(o, as, asm_path, j->out, in, fd);
	if (lseek(fd, 0, SEEK_SET) || strbuf_read_fd(said, fd))
		warning("cannot read back %s: %s", err_path, strerror(errno));
	close(fd);
	tempfile_remove(err_path);
	return ret;
}

static void say(const struct strbuf *said)
{
	if (said->len)
		(void)!write_in_full(2, said->buf, said->len);
}

/*
 * The safety net: when GNU as rejects what the passes made of the
 * backend's assembly but takes the backend's own, the object is the
 * backend's own and the user hears once which pass broke it (strict:
 * an error).  A rewrite bug costs a warning, never a failed build.
 */
static int assemble_repaired(const struct compile_opts *o, const char *as, struct job *j,
			     const struct ccd_input *in)
{
	struct strbuf said = STRBUF_INIT, own = STRBUF_INIT, why = STRBUF_INIT;
	char passes[128];
	int ret;

	if (!j->changed)
		return assemble(o, as, j->fixed, j->out, in, -1);
	ret = assemble_said(o, as, j->fixed, j, in, &said);
	asmfix_format_passes(j->changed, passes, sizeof(passes));
	if (ret && !o->strict && !assemble_said(o, as, j->raw, j, in, &own)) {
		first_line(&why, said.buf);
		warning("%s: GNU as rejected the assembly as repaired by %s (%s); "
			"the object is the backend's own assembly, unrepaired",
			in->path, passes, why.buf);
		say(&own);
		j->fallback = 1;
		ret = 0;
	} else {
		say(&said);
		if (ret && o->strict)
			error("%s: GNU as rejected the assembly as repaired by %s (strict: "
			      "no fallback to the backend's own)", in->path, passes);
	}
	strbuf_release(&why);
	strbuf_release(&own);
	strbuf_release(&said);
	return ret;
}

/*
 * The target decides asmfix's syntax and as's words; asked once the
 * backend has compiled (a backend that fails says so first).  0, or 1
 * after a message naming what to set.
 */
static int need_target(const struct compile_opts *o)
{
	if (o->be->target)
		return 0;
	if (backend_target(o->be, o->cmd, o->target_cfg, o->target_origin))
		return 1;
	if (o->verbose)
		note("target %s (%s)", o->be->target->name, o->be->target_why.buf);
	return 0;
}

int uses_integrated_as(const struct ccd_cmd *cmd)
{
	int ias = 1;

	for (size_t i = 0; i < cmd->nr_args; i++) {
		const char *w = cmd->args[i].word;

		if (cmd->args[i].role != ARG_FLAG)
			continue;
		if (!strcmp(w, "-fintegrated-as") || !strcmp(w, "-integrated-as"))
			ias = 1;
		else if (!strcmp(w, "-fno-integrated-as") || !strcmp(w, "-no-integrated-as"))
			ias = 0;
	}
	return ias;
}

/*
 * Words of the compile that shape clang's assembling of a .s: the
 * target, machine options, -Wa, and debug-info options.  The others are
 * C options it would warn about as unused (-Qunused-arguments).
 */
static int as_word(const char *w)
{
	static const char *const prefixes[] = {
		"-m", "--target=", "-target", "-Wa,", "-Xassembler", "-g", "-fdebug-prefix-map=",
		"-ffile-prefix-map=", "-fdebug-compilation-dir", "-fPIC", "-fpic", "-fPIE",
		"-fpie", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE", "-B", "--sysroot",
		"--gcc-toolchain", "-G", "-no-canonical-prefixes",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (!strncmp(w, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void own_as_argv(struct strvec *out, const struct compile_opts *o, const char *asm_path,
			const char *obj)
{
	int keep = 0;

	strvec_pushv(out, o->be->cmd.v);
	for (size_t i = 0; i < o->cmd->nr_args; i++) {
		const struct ccd_arg *a = &o->cmd->args[i];

		if (a->role == ARG_FLAG)
			keep = as_word(a->word);
		else if (a->role != ARG_VALUE)
			keep = 0;
		if (keep && (a->role == ARG_FLAG || a->role == ARG_VALUE))
			strvec_push(out, a->word);
	}
	strvec_pushl(out, "-Qunused-arguments", "-c", "-x", "assembler", asm_path, "-o", obj, NULL);
}

/*
 * The repaired text assembled by the backend into a temp object that
 * replaces its own only when it assembled: else (not strict) its own
 * object stays, with one warning naming the pass.  0 or 1.
 */
static int own_assemble_repaired(const struct compile_opts *o, struct job *j,
				 const struct ccd_input *in)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf said = STRBUF_INIT, why = STRBUF_INIT;
	const char *tmp, *err_path;
	char passes[128];
	int fd = tempfile_create("ccd", ".o", &tmp), efd, status, ret = 1;

	if (fd < 0)
		return 1;
	close(fd);
	efd = tempfile_create("ccd", ".err", &err_path);
	if (efd < 0) {
		tempfile_remove(tmp);
		return 1;
	}
	own_as_argv(&args, o, j->fixed, tmp);
	status = run_err(o, &args, efd);
	strvec_clear(&args);
	if (lseek(efd, 0, SEEK_SET) || strbuf_read_fd(&said, efd))
		warning("cannot read back %s: %s", err_path, strerror(errno));
	close(efd);
	tempfile_remove(err_path);
	asmfix_format_passes(j->changed, passes, sizeof(passes));
	if (status_ok(status)) {
		say(&said);
		/* $TMPDIR may be another file system than the object's. */
		if (!rename(tmp, j->out) || (errno == EXDEV && !copy_file(tmp, j->out)))
			ret = 0;
		else if (errno != EXDEV)
			error_errno("cannot rename %s to %s", tmp, j->out);
	} else if (!o->strict) {
		first_line(&why, said.buf);
		warning("%s: the backend's assembler rejected the assembly as repaired by %s (%s); "
			"the object is the backend's own, unrepaired", in->path, passes, why.buf);
		j->fallback = 1;
		ret = 0;
	} else {
		say(&said);
		error("%s: the backend's assembler rejected the assembly as repaired by %s "
		      "(strict: no fallback to the backend's own)", in->path, passes);
	}
	tempfile_remove(tmp);
	strbuf_release(&why);
	strbuf_release(&said);
	return ret;
}

/*
 * --ccd-check-report: is the object the backend's own -c object?  Asked
 * of the driver only for an unchanged text that ccd's as assembled.
 */
static void check_object(const struct compile_opts *o, const struct ccd_input *in,
			 const struct job *j, const char *as)
{
	struct strvec ours = STRVEC_INIT, cmd = STRVEC_INIT, driver = STRVEC_INIT;
	char passes[128], *why = NULL;
	enum check_status st = CHECK_SAME;

	if (j->changed) {
		asmfix_format_passes(j->changed, passes, sizeof(passes));
		check_report(o->check_report, j->fallback ? CHECK_FALLBACK : CHECK_REPAIRED,
			     j->out, passes);
		return;
	}
	if (own_object(o)) {
		check_report(o->check_report, CHECK_OWN, j->out, NULL);
		return;
	}
	strvec_push(&ours, as);
	backend_run_argv(&cmd, o, in, j->out, 1);
	if (as_argv(o, &ours, j->out, in->path) || ours.nr < 4) {
		st = CHECK_DIFFERS, why = xstrdup("ccd cannot tell its own as words");
	} else if (driver_as_command((const char *const *)strvec_argv(&cmd), &driver)) {
		st = CHECK_UNKNOWN, why = xstrdup("the driver names no as command for -###");
	} else {
		/* ... -o OBJ ASM: the words before -o are what the driver gives too. */
		for (int k = 0; k < 3; k++)
			strvec_remove(&ours, ours.nr - 1);
		why = check_as_differs(&ours, &driver);
		st = why ? CHECK_DIFFERS : CHECK_SAME;
	}
	check_report(o->check_report, st, j->out, why);
	free(why);
	strvec_clear(&ours);
	strvec_clear(&cmd);
	strvec_clear(&driver);
}

/*
 * The backend compiles to its own object; its assembly goes through
 * asmfix only when the object shows a trace of what a pass repairs (or
 * --assem keeps it), and replaces the object only when a pass changed it.
 */
static int compile_own(const struct compile_opts *o, const struct ccd_input *in, struct job *j,
		       int assem)
{
	struct strvec args = STRVEC_INIT;
	struct objtrace_opts to = { o->keep_prefix, o->cmd->data_sections, 0 };
	struct stat st;
	unsigned need;
	int status, ret;

	/* gcc's profiles only: says so for clang and icx. */
	pgo_prepare(o, in, j->out, &j->pgo);
	backend_run_argv(&args, o, in, j->out, 1);
	tempfile_register(j->out);
	status = run(o, &args);
	strvec_clear(&args);
	if (!status_ok(status)) {
		tempfile_remove(j->out);
		return exit_code(status);
	}
	pgo_finish(o, j->out, &j->pgo, NULL);
	if (need_target(o)) {
		tempfile_remove(j->out);
		return 1;
	}
	/* -o /dev/null: nothing to repair, and nothing to rename over. */
	if (stat(j->out, &st) || !S_ISREG(st.st_mode)) {
		tempfile_forget(j->out);
		return 0;
	}
	to.records = o->be->target->arch == TARGET_X86;
	need = objtrace_passes(objtrace_read(j->out, &to)) & o->passes;
	if (o->verbose)
		note("%s: the backend's own object%s", j->out,
		     need ? "; a pass may apply: asmfix reads its assembly" : ", no pass applies");
	ret = 0;
	if (need || assem) {
		ret = job_backend(o, in, j, 1);
		if (!ret)
			ret = job_repair(o, j, assem);
		if (!ret && j->changed)
			ret = own_assemble_repaired(o, j, in);
	}
	if (ret) {
		tempfile_remove(j->out);
	} else {
		tempfile_forget(j->out);
		if (o->check_report)
			check_object(o, in, j, NULL);
	}
	return ret;
}

static int compile_one(const struct compile_opts *o, const struct ccd_input *in, char **as)
{
	struct job j = { default_output(o->cmd, in), NULL, NULL, NULL, NULL, 0, 0, 0,
			 { PGO_OFF, NULL } };
	int ret, assem = o->assem;
	struct stat st;

	j.keep = keep_name(j.out, in, ".S");
	j.keep_raw = keep_name(j.out, in, ".raw.S");
	/* -o /dev/null: no /dev/file.c.S either. */
	if (!stat(j.out, &st) && !S_ISREG(st.st_mode))
		assem = 0;
	if (own_object(o)) {
		ret = compile_own(o, in, &j, assem);
		goto done;
	}
	ret = job_backend(o, in, &j, 0);
	if (!ret && need_target(o))
		ret = 1, unlink_if_regular(j.out);
	if (!ret)
		ret = job_repair(o, &j, assem);
	if (!ret && o->cmd->action == 'c') {
		if (!*as)
			*as = backend_tool(o->be, "as", o->as_cfg, o->cmd);
		/* as writes the object in place; removed if anything fails, as gcc does. */
		tempfile_register(j.out);
		ret = assemble_repaired(o, *as, &j, in);
		if (ret) {
			tempfile_remove(j.out);
		} else {
			tempfile_forget(j.out);
			if (o->check_report)
				check_object(o, in, &j, *as);
		}
	}
done:
	if (j.fixed_is_temp)
		tempfile_remove(j.fixed);
	if (j.raw)
		tempfile_remove(j.raw);
	pgo_release(&j.pgo);
	free(j.keep_raw);
	free(j.keep);
	free(j.out);
	return ret;
}

int compile_all(const struct compile_opts *o)
{
	char *as = NULL;
	int failed = 0, ret = 0;

	for (size_t i = 0; i < o->cmd->nr_inputs; i++) {
		/* gcc goes on after a failed input and exits 1. */
		ret = compile_one(o, &o->cmd->inputs[i], &as);
		if (ret)
			failed++;
	}
	free(as);
	if (o->cmd->nr_inputs > 1)
		return failed ? 1 : 0;
	return ret;
}
