// SPDX-License-Identifier: GPL-2.0
/*
 * Which compiler family a backend is, asked of the compiler itself: its
 * predefined macros for an empty C file (-E -dM), which every gcc, clang,
 * icc, icx and pcc answers.  The answer is cached per compiler file
 * (path, device, inode, size, mtime), as ccache's compiler_check=mtime
 * does, so a kernel build asks once; the file name is only the fallback
 * for a compiler that cannot say.
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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int defines(const char *text, const char *macro)
{
	size_t len = strlen(macro);

	for (const char *p = text; (p = strstr(p, "#define ")); p++) {
		p += 8;
		if (!strncmp(p, macro, len) && (p[len] == ' ' || p[len] == '\n'))
			return 1;
	}
	return 0;
}

/* Family from -E -dM output: "generic" when no known macro is there. */
static const char *family_of_macros(const char *text, struct strbuf *how)
{
	for (size_t i = 0; i < N(macros); i++) {
		if (defines(text, macros[i].macro)) {
			strbuf_addf(how, "predefined macro %s", macros[i].macro);
			return macros[i].family;
		}
	}
	strbuf_addstr(how, "no known compiler macro among its predefined ones");
	return "generic";
}

/*
 * Run "compiler -E -dM empty.c"; NULL when it did not answer (*ran: it
 * did run, so a name guess is as good as it gets and may be cached).
 */
static const char *ask(const char *compiler, struct strbuf *how, int *ran)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *empty, *family = NULL;
	int fd = tempfile_create("ccd-family", ".c", &empty), null, status;

	if (fd < 0)
		return NULL;
	close(fd);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	strvec_pushl(&cp.args, compiler, "-E", "-dM", empty, NULL);
	cp.err = null;
	status = capture_command(&cp, &out);
	*ran = status >= 0;
	if (status_ok(status) && strstr(out.buf, "#define "))
		family = family_of_macros(out.buf, how);
	if (null >= 0)
		close(null);
	child_process_clear(&cp);
	strbuf_release(&out);
	tempfile_remove(empty);
	return family;
}


/* <cache>/family-<hash of the compiler file's identity>, or NULL. */
static char *cache_path(const char *compiler)
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
	for (size_t i = 0; i < key.len; i++)
		h = (h ^ (unsigned char)key.buf[i]) * 1099511628211ULL;
	strbuf_reset(&key);
	strbuf_addf(&key, "%s/family-%016jx", dir, (uintmax_t)h);
	free(dir);
	path = strbuf_detach(&key, NULL);
	return path;
}

/*
 * A cache file is "FAMILY\nHOW\n"; anything else (a write cut short, a
 * file from elsewhere) is no answer and gets written again.
 */
static const char *cache_read(const char *path, struct strbuf *how)
{
	struct strbuf sb = STRBUF_INIT;
	const char *family = NULL;
	char *nl;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (!strbuf_read_fd(&sb, fd) && sb.len && sb.buf[sb.len - 1] == '\n' &&
	    (nl = strchr(sb.buf, '\n')) && nl + 1 < sb.buf + sb.len) {
		*nl = '\0';
		for (size_t i = 0; i < N(macros); i++)
			if (!strcmp(sb.buf, macros[i].family))
				family = macros[i].family;
		if (!strcmp(sb.buf, "generic"))
			family = "generic";
		if (family)
			strbuf_add(how, nl + 1, (size_t)(sb.buf + sb.len - nl - 2));
	}
	close(fd);
	strbuf_release(&sb);
	if (!family)
		unlink(path);
	return family;
}

/* Best effort: a cache that cannot be written only costs the next run a question. */
static void cache_write(const char *path, const char *family, const char *how)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int fd;

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
	strbuf_addf(&sb, "%s\n%s\n", family, how);
	if (write(fd, sb.buf, sb.len) != (ssize_t)sb.len)
		unlink(path);
	close(fd);
	strbuf_release(&sb);
}

const char *compiler_family(const char *compiler, struct strbuf *how, int *cached)
{
	char *cache = cache_path(compiler);
	const char *family = cache ? cache_read(cache, how) : NULL;
	int ran = 0;

	*cached = family != NULL;
	if (family) {
		free(cache);
		return family;
	}
	family = ask(compiler, how, &ran);
	if (!family) {
		family = family_from_name(compiler);
		strbuf_addf(how, "no answer to -E -dM; guessed from the name '%s'",
			    path_basename(compiler));
	}
	if (cache && ran)
		cache_write(cache, family, how->buf);
	free(cache);
	return family;
}
