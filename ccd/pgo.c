// SPDX-License-Identifier: GPL-2.0
/*
 * Profile use (profile-guided optimisation): find the object's gcda, hand
 * it to gcc, keep what gcc says about it, and count.  A missing, stale or
 * mismatched profile is a warning naming the object, never a failed build:
 * a compile that fails with its profile is done again without it.
 */
#include "pgo.h"
#include "compile.h"
#include "report-line.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * gcc's name for the profile of aux name "kernel/fork" (relative to the
 * build directory): each '/' becomes '#', each ".." component '^'.
 */
static void mangle(struct strbuf *sb, const char *name)
{
	while (*name) {
		size_t len = strcspn(name, "/");

		if (len == 2 && !strncmp(name, "..", 2))
			strbuf_addch(sb, '^');
		else
			strbuf_add(sb, name, len);
		name += len;
		if (*name == '/') {
			strbuf_addch(sb, '#');
			name++;
		}
	}
}

/* gcc's getpwd(): $PWD when it names the current directory, else getcwd(). */
static char *current_dir(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;

	if (pwd && pwd[0] == '/' && !stat(pwd, &a) && !stat(".", &b) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return xstrdup(pwd);
	return getcwd(NULL, 0);
}

int pgo_init(const char *dir, char **abs_dir, char **build_dir)
{
	struct stat st;

	*abs_dir = *build_dir = NULL;
	if (!dir || !*dir)
		return 0;
	if (stat(dir, &st)) {
		warning("profile directory %s: %s; compiling without profiles", dir,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		warning("profile directory %s: not a directory; compiling without profiles", dir);
		return -1;
	}
	*abs_dir = realpath(dir, NULL);
	*build_dir = current_dir();
	if (*abs_dir && *build_dir)
		return 0;
	warning("profile directory %s: %s; compiling without profiles", dir, strerror(errno));
	free(*abs_dir);
	free(*build_dir);
	*abs_dir = *build_dir = NULL;
	return -1;
}

/* Compiles that build no object of a build: Kbuild's probes read /dev/null or stdin. */
static int is_probe(const struct ccd_input *in)
{
	return !strcmp(in->path, "/dev/null") || !strcmp(in->path, "-");
}

void pgo_prepare(const struct compile_opts *o, const struct ccd_input *in,
		 const char *obj, struct pgo_job *pj)
{
	const char *base = path_basename(obj);
	struct strbuf sb = STRBUF_INIT;
	struct stat src, prof;
	char *stem;

	pj->status = PGO_OFF;
	pj->profile = NULL;
	if (!o->pgo_dir || o->cmd->action != 'c' || is_probe(in))
		return;
	if (strcmp(o->be->profile->family, "gcc") || !o->be->profile->dumpbase) {
		pj->status = PGO_UNSUPPORTED;
		return;
	}
	if (obj[0] == '/') {
		/* gcc would look for DIR//abs/path.gcda: no layout holds that. */
		pj->status = PGO_NONE;
		return;
	}
	stem = strip_suffix(base);
	strbuf_addf(&sb, "%s/", o->pgo_dir);
	mangle(&sb, obj);
	strbuf_setlen(&sb, sb.len - strlen(base));
	strbuf_addf(&sb, "%s.gcda", stem);
	free(stem);
	pj->profile = strbuf_detach(&sb, NULL);
	if (stat(pj->profile, &prof) || !S_ISREG(prof.st_mode)) {
		pj->status = PGO_NONE;
		return;
	}
	pj->status = PGO_USED;
	if (!stat(in->path, &src) && src.st_mtime > prof.st_mtime)
		pj->status = PGO_STALE;
}

int pgo_active(const struct pgo_job *pj)
{
	return pj->status == PGO_USED || pj->status == PGO_STALE;
}

void pgo_args(struct strvec *out, const struct compile_opts *o)
{
	strvec_pushf(out, "-fprofile-use=%s", o->pgo_dir);
	strvec_pushf(out, "-fprofile-prefix-path=%s", o->pgo_build_dir);
	/* Counters of concurrent CPUs may disagree a little: repaired, not fatal. */
	strvec_push(out, "-fprofile-correction");
	/*
	 * A kernel's training runs part of what it will run: code the
	 * training never reached is compiled as without a profile, not for
	 * size (held-out work lost up to 12 % without this).
	 */
	strvec_push(out, "-fprofile-partial-training");
	/* gcc makes a function whose profile does not fit an error. */
	strvec_push(out, "-Wno-error=coverage-mismatch");
	/* Functions the trained kernel lacked: counted per object, not per function. */
	strvec_push(out, "-Wno-missing-profile");
}

/* What gcc says when a profile, or part of one, does not fit. */
static int says_mismatch(const char *text)
{
	return strstr(text, "[-Wcoverage-mismatch]") || strstr(text, "not a gcov data file") ||
	       strstr(text, "profile data may be corrupted");
}

static void report(const struct compile_opts *o, const char *obj, enum pgo_status st)
{
	struct strbuf line = STRBUF_INIT;

	if (!o->pgo_report)
		return;
	strbuf_addf(&line, "%s %s\n", pgo_status_word[st], obj);
	append_report_line(o->pgo_report, "profile report", line.buf, line.len);
	strbuf_release(&line);
}

void pgo_finish(const struct compile_opts *o, const char *obj, struct pgo_job *pj,
		const char *backend_stderr)
{
	if (pj->status == PGO_OFF)
		return;
	if (pgo_active(pj) && backend_stderr && says_mismatch(backend_stderr))
		pj->status = PGO_MISMATCH;
	switch (pj->status) {
	case PGO_NONE:
		warning("%s: no profile (%s)", obj, pj->profile ? pj->profile : "absolute path");
		break;
	case PGO_UNSUPPORTED:
		warning("%s: profile use needs gcc 11 or later as the backend (profile %s); "
			"compiled without", obj, o->be->profile->name);
		break;
	case PGO_STALE:
		warning("%s: the source is newer than its profile %s (stale)", obj, pj->profile);
		break;
	case PGO_MISMATCH:
		warning("%s: the profile %s does not fit the source (see gcc's message above)",
			obj, pj->profile);
		break;
	case PGO_FAILED:
		warning("%s: the compile failed with the profile %s; compiled without it",
			obj, pj->profile);
		break;
	default:
		break;
	}
	report(o, obj, pj->status);
}

void pgo_release(struct pgo_job *pj)
{
	free(pj->profile);
	pj->profile = NULL;
}

int pgo_summary(const char *path)
{
	struct pgo_counts c;

	if (pgo_report_read(path, &c))
		return 1;
	printf("%lu objects: %lu with a profile (%lu stale), %lu mismatched, %lu without, "
	       "%lu failed with it, %lu unsupported\n", c.objects,
	       c.n[PGO_USED] + c.n[PGO_STALE], c.n[PGO_STALE], c.n[PGO_MISMATCH],
	       c.n[PGO_NONE], c.n[PGO_FAILED], c.n[PGO_UNSUPPORTED]);
	return fflush(stdout) ? 1 : 0;
}
