// SPDX-License-Identifier: GPL-2.0
#include "backend.h"
#include "llvm.h"
#include "classify.h"
#include "family.h"
#include "options.h"
#include "run-command.h"
#include "warn.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Is path ccd itself, under any name, symlink or hard link?  Compared by
 * device and inode with /proc/self/exe: two stat calls, where realpath
 * would read every link of both paths (ccd's start-up budget is 1 ms).
 */
int is_self(const char *path)
{
	static struct stat self;
	static int known;	/* 1: self is set, -1: /proc unavailable */
	struct stat st;

	if (!known)
		known = stat("/proc/self/exe", &self) ? -1 : 1;
	return known > 0 && !stat(path, &st) &&
	       st.st_dev == self.st_dev && st.st_ino == self.st_ino;
}

/* Like find_in_path(), but a candidate that is ccd is skipped: a masquerade link first in PATH must not find itself. */
char *find_backend_in_path(const char *name)
{
	return find_in_path_skip(name, is_self);
}

/*
 * Behind a prefix ("distcc gcc") the compiler word stays as given when a
 * plain PATH search finds the same program (so not ccd): distcc sends a
 * bare "gcc" as "<triple>-gcc", so that servers compile for our target.
 */
static int keep_word(const struct backend *b, const char *word, const char *path)
{
	char *plain;
	int same;

	if (!b->cmd.nr || strchr(word, '/'))
		return 0;
	plain = find_in_path(word);
	same = plain && !strcmp(plain, path);
	free(plain);
	return same;
}

static int resolve_compiler(struct backend *b, const char *word)
{
	char *path;

	if (strchr(word, '/')) {
		if (access(word, X_OK)) {
			error_errno("backend '%s' (from %s)", word, b->origin);
			return 127;
		}
		path = xstrdup(word);
	} else {
		path = find_backend_in_path(word);
		if (!path) {
			error("backend compiler '%s' not found in PATH (from %s)", word, b->origin);
			return 127;
		}
	}
	if (is_self(path)) {
		error("'%s' is ccd itself; set the backend with --ccd-cc= or CCD_CC (from %s)",
		      path, b->origin);
		free(path);
		return 1;
	}
	strvec_push(&b->cmd, keep_word(b, word, path) ? word : path);
	b->path = path;
	return 0;
}

/* Kbuild's CROSS_COMPILE=aarch64-linux-gnu- names the compiler ${CROSS_COMPILE}gcc. */
static int resolve_cross(struct backend *b, const char *prefix)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	strbuf_addf(&name, "%sgcc", prefix);
	b->origin = "CROSS_COMPILE";
	ret = resolve_compiler(b, name.buf);
	strbuf_release(&name);
	return ret;
}

/*
 * make LLVM=1 names ${LLVM_PREFIX}clang${LLVM_SUFFIX} as the compiler, for
 * every target (CROSS_COMPILE then only gives clang its --target=).
 */
static int resolve_llvm(struct backend *b, char *clang)
{
	int ret;

	b->origin = "LLVM";
	ret = resolve_compiler(b, clang);
	free(clang);
	return ret;
}

int backend_resolve(struct backend *b, const char *spec, const char *origin)
{
	static const char *const candidates[] = { "icc", "icx", "gcc", "clang" };
	const char *cross = getenv("CROSS_COMPILE");
	struct strvec words = STRVEC_INIT;
	struct strbuf empty = STRBUF_INIT;
	char *clang = NULL;
	int ret;

	memset(b, 0, sizeof(*b));
	b->why = empty;
	b->target_why = empty;
	b->origin = origin;
	if ((!spec || !*spec) && (clang = llvm_tool("clang"))) {
		ret = resolve_llvm(b, clang);
		if (ret)
			return ret;
	} else if ((!spec || !*spec) && cross && *cross) {
		ret = resolve_cross(b, cross);
		if (ret)
			return ret;
	} else if (!spec || !*spec) {
		for (size_t i = 0; i < sizeof(candidates) / sizeof(*candidates); i++) {
			char *p = find_backend_in_path(candidates[i]);

			if (p) {
				strvec_push(&b->cmd, p);
				b->path = p;
				break;
			}
		}
		if (!b->cmd.nr) {
			error("no backend compiler: none of icc, icx, gcc, clang is in PATH");
			return 127;
		}
	} else {
		strvec_split(&words, spec);
		if (!words.nr) {
			strvec_clear(&words);
			error("empty backend command (from %s)", origin);
			return 127;
		}
		for (size_t i = 0; i + 1 < words.nr; i++)
			strvec_push(&b->cmd, words.v[i]);
		ret = resolve_compiler(b, words.v[words.nr - 1]);
		strvec_clear(&words);
		if (ret)
			return ret;
	}
	b->compiler = b->cmd.v[b->cmd.nr - 1];
	return 0;
}

int backend_profile(struct backend *b, const char *forced)
{
	const char *family;

	if (forced && *forced) {
		b->profile = profile_by_name(forced);
		if (!b->profile) {
			error("no backend profile '%s' (built-in: gcc, clang, icc, icx, pcc, "
			      "generic; or a [profile %s] section in ccd.conf)", forced, forced);
			return 1;
		}
		strbuf_addstr(&b->why, "the 'profile' setting");
		return 0;
	}
	b->profile = user_profile(path_basename(b->path));
	if (b->profile) {
		strbuf_addf(&b->why, "[profile %s] at %s names the compiler file",
			    b->profile->name, b->profile->origin);
		return 0;
	}
	compiler_ask(b->path, NULL, &b->ans);
	strbuf_add(&b->why, b->ans.how.buf, b->ans.how.len);
	b->cached = b->ans.cached;
	family = b->ans.family;
	b->profile = profile_by_name(family);
	if (user_profile(family))
		strbuf_addf(&b->why, "; [profile %s] at %s", family, b->profile->origin);
	return 0;
}

void backend_release(struct backend *b)
{
	if (b->ans.family)
		compiler_answer_release(&b->ans);
	if (b->tans.family)
		compiler_answer_release(&b->tans);
	strbuf_release(&b->target_why);
	strvec_clear(&b->cmd);
	strbuf_release(&b->why);
	free(b->path);
	b->path = NULL;
}

void target_words(const struct ccd_cmd *cmd, struct strvec *out)
{
	for (size_t i = 0; cmd && i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		/* "-target" "X": the value is the next word, an ARG_VALUE of the same row. */
		if (!strncmp(a->word, "--target=", 9) ||
		    (a->opt && !strcmp(a->opt->name, "-target")))
			strvec_push(out, a->word);
	}
}

/*
 * Does a compiler file name carry a triple ("mips-linux-gnu-gcc-12",
 * "arm-none-eabi-cc"): words before the tool's name, once a version
 * suffix is off?  "tcc", "clang-16" and "cc" carry none.
 */
static int name_has_triple(const char *path)
{
	const char *base = path_basename(path);
	size_t n = strlen(base);

	while (n && (isdigit((unsigned char)base[n - 1]) || base[n - 1] == '.'))
		n--;
	if (n && n < strlen(base) && base[n - 1] == '-')
		n--;		/* "-12", "-16.0" */
	while (n && base[n - 1] != '-')
		n--;		/* the tool's own name */
	return n > 1 && memchr(base, '-', n - 1) != NULL;
}

/*
 * A compiler that said nothing of its target (neither -E -dM nor
 * -dumpmachine answered) builds for the machine ccd runs on, unless
 * something names another: its file name, CROSS_COMPILE, --target=.
 */
static int silent_is_host(const struct backend *b, const struct compiler_answer *a,
			  size_t nr_words)
{
	const char *cross = getenv("CROSS_COMPILE");

	return a->target_silent && !nr_words && (!cross || !*cross) &&
	       !name_has_triple(b->path) && target_host();
}

static int target_error(const struct backend *b, const struct compiler_answer *a)
{
	const char *cross = getenv("CROSS_COMPILE");
	const char *other = !a->target_silent ? "" :
			    cross && *cross ? "; CROSS_COMPILE names another machine" :
			    name_has_triple(b->path) ? "; its name carries a triple" :
			    a == &b->tans ? "; --target= names another machine" : "";

	return error("cannot tell the target of backend '%s' (%s%s); set CCD_TARGET=NAME, "
		     "--ccd-target=NAME or 'target = NAME' in ccd.conf (NAME: %s, or a triple)",
		     b->compiler, a->target_how.buf, other, target_names());
}

int backend_target(struct backend *b, const struct ccd_cmd *cmd, const char *forced,
		   const char *forced_origin)
{
	struct strvec words = STRVEC_INIT;
	struct compiler_answer *a = &b->ans;

	if (forced && *forced) {
		b->target = target_named(forced);
		if (!b->target)
			return error("unknown target '%s' (from %s; known: %s, or a triple)", forced,
				     forced_origin, target_names());
		strbuf_addf(&b->target_why, "from %s", forced_origin);
		b->as_defaults = "";
		/* The driver's defaults still apply if it is the same machine. */
		if (!a->family)
			compiler_ask(b->path, NULL, a);
		if (a->target == b->target)
			b->as_defaults = a->as_defaults;
		return 0;
	}
	target_words(cmd, &words);
	if (words.nr) {
		compiler_ask(b->path, (const char *const *)strvec_argv(&words), &b->tans);
		a = &b->tans;
	} else if (!a->family) {
		compiler_ask(b->path, NULL, a);
	}
	if (!a->target && silent_is_host(b, a, words.nr)) {
		strvec_clear(&words);
		b->target = target_host();
		b->as_defaults = "";
		strbuf_addf(&b->target_why, "%s; neither its name nor CROSS_COMPILE names "
			    "another machine: the machine ccd runs on", a->target_how.buf);
		return 0;
	}
	strvec_clear(&words);
	if (!a->target)
		return target_error(b, a);
	b->target = a->target;
	b->as_defaults = a->as_defaults;
	/* Not "cached": --ccd-identity's output must not change from run to run. */
	strbuf_addstr(&b->target_why, a->target_how.buf);
	return 0;
}

/* Ask the driver (costs one driver run; only when -B, gcc env vars or a foreign target say so). */
static char *ask_driver(const struct backend *b, const char *tool, const struct ccd_cmd *cmd)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int status;

	strvec_push(&cp.args, b->compiler);
	for (size_t i = 0; cmd && i < cmd->nr_args; i++) {
		const struct ccd_arg *a = &cmd->args[i];

		/* With its value word, if separate: -B dir, -target X. */
		if (a->opt && (!strcmp(a->opt->name, "-B") || !strcmp(a->opt->name, "-target")))
			strvec_push(&cp.args, a->word);
		else if (!strncmp(a->word, "--prefix", 8) || !strncmp(a->word, "--target=", 9))
			strvec_push(&cp.args, a->word);	/* clang's -B and target */
	}
	strvec_pushf(&cp.args, "-print-prog-name=%s", tool);
	status = capture_command(&cp, &out);
	child_process_clear(&cp);
	while (out.len && (out.buf[out.len - 1] == '\n' || out.buf[out.len - 1] == '\r'))
		strbuf_setlen(&out, out.len - 1);
	if (!status_ok(status) || !out.len) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

static int wants_driver(const struct ccd_cmd *cmd)
{
	return getenv("COMPILER_PATH") || getenv("GCC_EXEC_PREFIX") ||
	       (cmd && cmd->driver_paths);
}

/*
 * Another machine's tool: Kbuild's ${CROSS_COMPILE}TOOL when it is on
 * PATH, else what the driver runs (gcc and clang --target= name the
 * cross as); NULL if neither says.
 */
static char *foreign_tool(const struct backend *b, const char *tool, const struct ccd_cmd *cmd)
{
	const char *cross = getenv("CROSS_COMPILE");
	char *name;

	if (cross && *cross) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s%s", cross, tool);
		name = strchr(sb.buf, '/') ? (access(sb.buf, X_OK) ? NULL : xstrdup(sb.buf))
					   : find_in_path(sb.buf);
		strbuf_release(&sb);
		if (name)
			return name;
	}
	name = ask_driver(b, tool, cmd);
	if (name && !strcmp(name, tool)) {
		free(name);	/* the bare name: the host's tool */
		return NULL;
	}
	return name;
}

/*
 * Without -B or the gcc search variables, the gcc and clang drivers on a
 * native system find as on PATH (a cross "<triple>-gcc" finds
 * "<triple>-as"): no driver run is needed for that.
 */
char *backend_tool(const struct backend *b, const char *tool, const char *cfg,
		   const struct ccd_cmd *cmd)
{
	const char *base = path_basename(b->compiler);
	const char *dash = strrchr(base, '-');
	char *name = NULL, *found;

	if (cfg && *cfg)
		name = xstrdup(cfg);
	else if (wants_driver(cmd))
		name = ask_driver(b, tool, cmd);
	if (!name && dash && dash != base) {
		/* "x86_64-linux-gnu-gcc-12": the triple is what precedes the tool name. */
		const char *p = strstr(base, "-gcc");

		if (!p)
			p = strstr(base, "-clang");
		if (p && p != base) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%.*s-%s", (int)(p - base), base, tool);
			found = find_in_path(sb.buf);
			strbuf_release(&sb);
			if (found)
				return found;
		}
	}
	if (!name && b->target && b->target != target_host())
		name = foreign_tool(b, tool, cmd);
	if (!name)
		name = xstrdup(tool);
	if (strchr(name, '/'))
		return name;
	found = find_in_path(name);
	if (found) {
		free(name);
		return found;
	}
	return name;
}
