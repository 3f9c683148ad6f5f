// SPDX-License-Identifier: GPL-2.0
/*
 * What a backend compiler is, asked of the compiler itself: its
 * predefined macros for an empty C file (-E -dM), which every gcc, clang,
 * icc, icx and pcc answers, say its family and its target (-dumpmachine
 * when the macros do not); a gcc for another machine than x86 is asked
 * once more (-### -c) for the target words its driver gives as, which
 * depend on how it was configured.  The answer is cached per compiler
 * file (path, device, inode, size, mtime), as ccache's
 * compiler_check=mtime does, and per target-choosing words (clang's
 * --target=), so a kernel build asks once; the file name is only the
 * fallback for a compiler that cannot say its family.
 */
#include "family.h"
#include "config.h"
#include "profiles.h"
#include "run-command.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The first line of a cache file: the format and the targets this ccd
 * knows.  Another first line is a stale format or an answer given with
 * another target table ("no target" from a ccd that lacked a row), asked
 * again.
 */
static const char *cache_format(void)
{
	static char line[320];

	if (!line[0])
		snprintf(line, sizeof(line), "ccd-cache 4 (targets %s)", target_names());
	return line;
}

/* Checked in this order: clang, icx and pcc define __GNUC__ too. */
static const struct {
	const char *macro, *family;
} macros[] = {
	{ "__INTEL_LLVM_COMPILER", "icx" },
	{ "__INTEL_COMPILER", "icc" },
	{ "__clang__", "clang" },
	{ "__PCC__", "pcc" },
	{ "__GNUC__", "gcc" },
};

#define N(t) (sizeof(t) / sizeof(*(t)))

/* Family from -E -dM output: "generic" when no known macro is there. */
static const char *family_of_macros(const char *text, struct strbuf *how)
{
	for (size_t i = 0; i < N(macros); i++) {
		if (dm_defines(text, macros[i].macro)) {
			strbuf_addf(how, "predefined macro %s", macros[i].macro);
			return macros[i].family;
		}
	}
	strbuf_addstr(how, "no known compiler macro among its predefined ones");
	return "generic";
}

/* Run cmd (stderr too when both) and capture its output; 0 if it ran and exited 0. */
static int ask_cmd(struct strvec *cmd, struct strbuf *out, int both, int *ran)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int null = both ? -1 : open("/dev/null", O_WRONLY | O_CLOEXEC), status;

	strvec_pushv(&cp.args, strvec_argv(cmd));
	/* err = 1: dup'ed after out, so stderr joins the captured pipe. */
	cp.err = both ? 1 : null;
	status = capture_command(&cp, out);
	if (ran)
		*ran |= status >= 0;
	if (null >= 0)
		close(null);
	child_process_clear(&cp);
	return status_ok(status) ? 0 : -1;
}

/* compiler, then the target-choosing words. */
static void push_compiler(struct strvec *cmd, const char *compiler, const char *const *words)
{
	strvec_push(cmd, compiler);
	for (size_t i = 0; words && words[i]; i++)
		strvec_push(cmd, words[i]);
}

/*
 * "compiler WORDS -dumpmachine": a triple lib/target.c knows, or NULL;
 * *answered: it printed a machine, known or not.
 */
static const struct target *ask_dumpmachine(const char *compiler, const char *const *words,
					    struct strbuf *how, int *answered)
{
	struct strvec cmd = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	const struct target *t = NULL;

	push_compiler(&cmd, compiler, words);
	strvec_push(&cmd, "-dumpmachine");
	if (!ask_cmd(&cmd, &out, 0, NULL) && out.len) {
		strbuf_setlen(&out, strcspn(out.buf, "\r\n"));
		*answered = 1;
		t = target_named(out.buf);
		strbuf_addf(how, "; -dumpmachine says '%s'%s", out.buf,
			    t ? "" : ", a machine ccd does not know");
	}
	strvec_clear(&cmd);
	strbuf_release(&out);
	return t;
}

/* gcc's -### quoting: "..." with \" \\ \$ escapes, or a bare word; clang quotes every word. */
static const char *next_word(const char *p, struct strbuf *w)
{
	strbuf_reset(w);
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return NULL;
	if (*p != '"') {
		size_t n = strcspn(p, " \t\n");

		strbuf_add(w, p, n);
		return p + n;
	}
	for (p++; *p && *p != '"' && *p != '\n'; p++) {
		if (*p == '\\' && p[1] && p[1] != '\n')
			p++;
		strbuf_addch(w, *p);
	}
	return *p == '"' ? p + 1 : NULL;
}

/* Is prog an assembler: ".../as" or ".../TRIPLE-as"? */
static int is_as(const char *prog)
{
	const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
	size_t n = strlen(base);

	return !strcmp(base, "as") || (n > 3 && !strcmp(base + n - 3, "-as"));
}

/* The as line of -### output: its program first when prog, then the words before "-o". */
static int parse_as_line(const char *text, struct strvec *out, int prog)
{
	struct strbuf w = STRBUF_INIT;
	struct strvec words = STRVEC_INIT;
	int found = -1;

	for (const char *line = text; found && line && *line; line = strchr(line, '\n')) {
		const char *p = line += *line == '\n';

		if (*line != ' ' || !(p = next_word(p, &w)) || !is_as(w.buf))
			continue;
		if (prog)
			strvec_push(&words, w.buf);
		while ((p = next_word(p, &w)) && strcmp(w.buf, "-o"))
			strvec_push(&words, w.buf);
		/* No "-o": not an as line after all. */
		if (p) {
			found = 0;
			for (size_t i = 0; i < words.nr; i++)
				strvec_push(out, words.v[i]);
		}
		strvec_clear(&words);
	}
	strbuf_release(&w);
	return found;
}

int parse_driver_as_line(const char *text, struct strvec *out)
{
	return parse_as_line(text, out, 0);
}

int driver_as_command(const char *const *cmd_words, struct strvec *out)
{
	struct strvec cmd = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	for (size_t i = 0; cmd_words[i]; i++)
		strvec_push(&cmd, cmd_words[i]);
	strvec_push(&cmd, "-###");
	if (!ask_cmd(&cmd, &text, 1, NULL))
		ret = parse_as_line(text.buf, out, 1);
	strvec_clear(&cmd);
	strbuf_release(&text);
	return ret;
}

int driver_as_words(const char *const *cmd_words, struct strvec *out)
{
	struct strvec cmd = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	const char *empty;
	int fd = tempfile_create("ccd-as", ".c", &empty), ret = -1;

	if (fd < 0)
		return -1;
	close(fd);
	for (size_t i = 0; cmd_words[i]; i++)
		strvec_push(&cmd, cmd_words[i]);
	strvec_pushl(&cmd, "-###", "-c", empty, "-o", "/dev/null", NULL);
	if (!ask_cmd(&cmd, &text, 1, NULL))
		ret = parse_driver_as_line(text.buf, out);
	strvec_clear(&cmd);
	strbuf_release(&text);
	tempfile_remove(empty);
	return ret;
}

/* Family and target from "compiler WORDS -E -dM empty.c"; family NULL: no answer. */
static void ask_macros(const char *compiler, const char *const *words,
		       struct compiler_answer *a, int *ran)
{
	struct strvec cmd = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *empty;
	int fd = tempfile_create("ccd-family", ".c", &empty);

	if (fd < 0)
		return;
	close(fd);
	push_compiler(&cmd, compiler, words);
	strvec_pushl(&cmd, "-E", "-dM", empty, NULL);
	if (!ask_cmd(&cmd, &out, 0, ran) && strstr(out.buf, "#define ")) {
		a->family = family_of_macros(out.buf, &a->how);
		a->target = target_from_macros(out.buf, &a->target_how);
	}
	strvec_clear(&cmd);
	strbuf_release(&out);
	tempfile_remove(empty);
}

/* The driver's default as words, tab-joined (gcc family, not x86). */
static void ask_as_defaults(const char *compiler, const char *const *words,
			    struct compiler_answer *a)
{
	struct strvec cmd = STRVEC_INIT, as = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	push_compiler(&cmd, compiler, words);
	if (!driver_as_words((const char *const *)strvec_argv(&cmd), &as))
		for (size_t i = 0; i < as.nr; i++)
			strbuf_addf(&sb, "%s%s", i ? "\t" : "", as.v[i]);
	a->as_defaults = strbuf_detach(&sb, NULL);
	strvec_clear(&cmd);
	strvec_clear(&as);
}

/* <cache>/family-<hash of the compiler file's identity and the words>, or NULL. */
static char *cache_path(const char *compiler, const char *const *words)
{
	struct strbuf key = STRBUF_INIT;
	struct stat st;
	uint64_t h = 14695981039346656037ULL;
	char *dir, *path;

	if (stat(compiler, &st))
		return NULL;
	dir = xdg_path("XDG_CACHE_HOME", ".cache", "ccd");
	if (!dir)
		return NULL;
	strbuf_addf(&key, "%s:%ju:%ju:%jd:%jd.%09ld", compiler, (uintmax_t)st.st_dev,
		    (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
		    st.st_mtim.tv_nsec);
	for (size_t i = 0; words && words[i]; i++)
		strbuf_addf(&key, "%c%s", 0, words[i]);
	for (size_t i = 0; i < key.len; i++)
		h = (h ^ (unsigned char)key.buf[i]) * 1099511628211ULL;
	strbuf_reset(&key);
	strbuf_addf(&key, "%s/family-%016jx", dir, (uintmax_t)h);
	free(dir);
	path = strbuf_detach(&key, NULL);
	return path;
}

static const char *known_family(const char *name)
{
	for (size_t i = 0; i < N(macros); i++)
		if (!strcmp(name, macros[i].family))
			return macros[i].family;
	return !strcmp(name, "generic") ? "generic" : NULL;
}

/* The cache file's target line when the compiler said nothing of its target. */
#define SILENT "?"

/* The cache file's lines, in order. */
enum { L_FORMAT, L_FAMILY, L_TARGET, L_AS, L_HOW, L_TARGET_HOW, NR_LINES };

/*
 * A cache file is cache_format(), family, target ("-": none, SILENT: none
 * and nothing answered), the as
 * defaults, how, how the target was found, one per line; anything else
 * (a write cut short, an older format, a file from elsewhere) is no
 * answer and gets written again.
 */
static int cache_read(const char *path, struct compiler_answer *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *line[NR_LINES];
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 0;

	if (fd < 0)
		return 0;
	if (!strbuf_read_fd(&sb, fd) && sb.len && sb.buf[sb.len - 1] == '\n') {
		for (char *p = sb.buf; n < NR_LINES && p < sb.buf + sb.len; n++) {
			line[n] = p;
			p = strchr(p, '\n');
			*p++ = '\0';
		}
		ok = n == NR_LINES && line[L_TARGET_HOW] + strlen(line[L_TARGET_HOW]) + 1 ==
			sb.buf + sb.len && !strcmp(line[L_FORMAT], cache_format()) &&
		     known_family(line[L_FAMILY]) &&
		     (!strcmp(line[L_TARGET], "-") || !strcmp(line[L_TARGET], SILENT) ||
		      target_named(line[L_TARGET]));
	}
	if (ok) {
		a->family = known_family(line[L_FAMILY]);
		a->target_silent = !strcmp(line[L_TARGET], SILENT);
		a->target = strcmp(line[L_TARGET], "-") && !a->target_silent ?
			    target_named(line[L_TARGET]) : NULL;
		a->as_defaults = xstrdup(line[L_AS]);
		strbuf_addstr(&a->how, line[L_HOW]);
		strbuf_addstr(&a->target_how, line[L_TARGET_HOW]);
	}
	close(fd);
	strbuf_release(&sb);
	if (!ok)
		unlink(path);
	return ok;
}

/* Best effort: a cache that cannot be written only costs the next run a question. */
static void cache_write(const char *path, const struct compiler_answer *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int fd;

	if (strchr(a->as_defaults, '\n') || strchr(a->how.buf, '\n') ||
	    strchr(a->target_how.buf, '\n')) {
		free(dir);
		return;		/* not one line each: not cached */
	}
	*slash = '\0';
	if (mkdir(dir, 0777) && errno == ENOENT) {
		char *up = strrchr(dir, '/');

		if (up && up != dir) {
			*up = '\0';
			(void)mkdir(dir, 0777);
			*up = '/';
		}
		(void)mkdir(dir, 0777);
	}
	free(dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return;
	strbuf_addf(&sb, "%s\n%s\n%s\n%s\n%s\n%s\n", cache_format(), a->family,
		    a->target ? a->target->name : a->target_silent ? SILENT : "-",
		    a->as_defaults, a->how.buf,
		    a->target_how.buf);
	if (write(fd, sb.buf, sb.len) != (ssize_t)sb.len)
		unlink(path);
	close(fd);
	strbuf_release(&sb);
}

void compiler_ask(const char *compiler, const char *const *words, struct compiler_answer *a)
{
	char *cache = cache_path(compiler, words);
	int ran = 0, macros, dumped = 0;

	memset(a, 0, sizeof(*a));
	strbuf_init(&a->how);
	strbuf_init(&a->target_how);
	if (cache && cache_read(cache, a)) {
		a->cached = 1;
		free(cache);
		return;
	}
	ask_macros(compiler, words, a, &ran);
	macros = a->family != NULL;
	if (!a->family) {
		a->family = family_from_name(compiler);
		strbuf_addf(&a->how, "no answer to -E -dM; guessed from the name '%s'",
			    path_basename(compiler));
		strbuf_addstr(&a->target_how, "no answer to -E -dM");
	}
	if (!a->target) {
		a->target = ask_dumpmachine(compiler, words, &a->target_how, &dumped);
		a->target_silent = !macros && !dumped;
		if (a->target_silent)
			strbuf_addstr(&a->target_how, " or -dumpmachine");
	}
	if (a->target && a->target->arch != TARGET_X86 && !strcmp(a->family, "gcc"))
		ask_as_defaults(compiler, words, a);
	else
		a->as_defaults = xstrdup("");
	if (cache && ran)
		cache_write(cache, a);
	free(cache);
}

void compiler_answer_release(struct compiler_answer *a)
{
	free(a->as_defaults);
	a->as_defaults = NULL;
	strbuf_release(&a->how);
	strbuf_release(&a->target_how);
}
