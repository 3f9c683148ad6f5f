// SPDX-License-Identifier: GPL-2.0
#include "tempfile.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A slot is live when path[0] != 0.  Written with signals blocked. */
static char registry[TEMPFILE_MAX][PATH_MAX];

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static void (*signal_hook)(int sig);
static int catching;

static void on_fatal_signal(int sig)
{
	if (signal_hook)
		signal_hook(sig);
	tempfile_cleanup_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++) {
		struct sigaction old;

		/* An ignored signal (nohup) stays ignored, as for gcc. */
		if (!sigaction(fatal_signals[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
	warn_set_die_hook(tempfile_cleanup_all);
	catching = 1;
}

void tempfile_catch_signals(void (*hook)(int sig))
{
	signal_hook = hook;
	if (!catching)
		install_handlers();
}

static void block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/*
 * The first usable of $TMPDIR, $TMP, $TEMP, /tmp, /var/tmp, /usr/tmp: the
 * order gcc picks its own temp directory in (libiberty's choose_tmpdir),
 * so a TMPDIR gcc passes over does not make ccd fail where gcc works (to
 * Kbuild, a failing probe compile means "unsupported").  Unlike gcc, never
 * the current directory.  Decided once; if none is usable, $TMPDIR (or
 * /tmp) is named in the error.
 */
const char *tempfile_dir(void)
{
	static const char *dir;
	const char *const cand[] = {
		getenv("TMPDIR"), getenv("TMP"), getenv("TEMP"), "/tmp", "/var/tmp", "/usr/tmp",
	};

	if (dir)
		return dir;
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (cand[i] && *cand[i] && !access(cand[i], R_OK | W_OK | X_OK)) {
			struct stat st;

			if (!stat(cand[i], &st) && S_ISDIR(st.st_mode))
				return dir = cand[i];
		}
	return cand[0] && *cand[0] ? cand[0] : "/tmp";
}

static char *claim_slot(const char *path)
{
	size_t len = strlen(path);

	if (len >= PATH_MAX) {
		error("path too long: %.64s...", path);
		return NULL;
	}
	/* Called with signals blocked: the handlers are in place before a signal. */
	if (!catching)
		install_handlers();
	for (int i = 0; i < TEMPFILE_MAX; i++) {
		if (!registry[i][0]) {
			memcpy(registry[i], path, len + 1);
			return registry[i];
		}
	}
	error("too many temporary files (limit %d)", TEMPFILE_MAX);
	return NULL;
}

int tempfile_create(const char *prefix, const char *suffix, const char **path)
{
	struct strbuf name = STRBUF_INIT;
	sigset_t old;
	char *slot;
	int fd;

	strbuf_addf(&name, "%s/%sXXXXXX%s", tempfile_dir(), prefix, suffix);
	block_signals(&old);
	fd = mkstemps(name.buf, (int)strlen(suffix));
	if (fd < 0) {
		int err = errno;

		restore_signals(&old);
		errno = err;
		error_errno("cannot create temporary file in %s", tempfile_dir());
		strbuf_release(&name);
		return -1;
	}
	slot = claim_slot(name.buf);
	if (!slot) {
		unlink(name.buf);
		close(fd);
		fd = -1;
	}
	restore_signals(&old);
	strbuf_release(&name);
	if (slot)
		*path = slot;
	return fd;
}

int tempfile_register(const char *path)
{
	sigset_t old;
	char *slot;

	block_signals(&old);
	slot = claim_slot(path);
	restore_signals(&old);
	return slot ? 0 : -1;
}

static int slot_of(const char *path)
{
	for (int i = 0; i < TEMPFILE_MAX; i++)
		if (registry[i][0] && (registry[i] == path || !strcmp(registry[i], path)))
			return i;
	return -1;
}

void tempfile_forget(const char *path)
{
	sigset_t old;
	int i;

	block_signals(&old);
	i = slot_of(path);
	if (i >= 0)
		registry[i][0] = '\0';
	restore_signals(&old);
}

void unlink_if_regular(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		unlink(path);
}

void tempfile_remove(const char *path)
{
	sigset_t old;
	int i;

	block_signals(&old);
	i = slot_of(path);
	if (i >= 0) {
		unlink_if_regular(registry[i]);
		registry[i][0] = '\0';
	}
	restore_signals(&old);
}

void tempfile_cleanup_all(void)
{
	int saved = errno;

	for (int i = 0; i < TEMPFILE_MAX; i++) {
		if (registry[i][0]) {
			unlink_if_regular(registry[i]);
			registry[i][0] = '\0';
		}
	}
	errno = saved;
}
