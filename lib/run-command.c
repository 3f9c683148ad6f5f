// SPDX-License-Identifier: GPL-2.0
#include "run-command.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_CHILDREN 16
/* The signals tempfile.c catches: a child starts with them at default. */
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static volatile pid_t children[MAX_CHILDREN];

/*
 * Run by tempfile's handler before it removes the temp files and dies of
 * sig: the children get the signal too, and are waited for, so none is
 * left writing a file being removed.
 */
static void forward_signal(int sig)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			kill(children[i], sig);
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
				;
}

void run_command_init(void)
{
	tempfile_catch_signals(forward_signal);
}

static void track(pid_t pid, pid_t old)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] == old) {
			children[i] = pid;
			return;
		}
	}
}

int start_command(struct child_process *cp)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t all, old, def;
	char **argv = strvec_argv(&cp->args);
	int err;

	if (!argv[0])
		return error("internal error: empty command");
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	if (cp->in >= 0) {
		posix_spawn_file_actions_adddup2(&fa, cp->in, 0);
		if (cp->in > 2)
			posix_spawn_file_actions_addclose(&fa, cp->in);
	}
	if (cp->out >= 0)
		posix_spawn_file_actions_adddup2(&fa, cp->out, 1);
	if (cp->err >= 0)
		posix_spawn_file_actions_adddup2(&fa, cp->err, 2);
	/* The child starts with default dispositions for the signals we catch. */
	sigemptyset(&def);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++) {
		struct sigaction sa;

		if (!sigaction(fatal_signals[i], NULL, &sa) && sa.sa_handler != SIG_IGN)
			sigaddset(&def, fatal_signals[i]);
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setsigmask(&attr, &old);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	err = posix_spawnp(&cp->pid, argv[0], &fa, &attr, argv,
			   cp->env ? cp->env : environ);
	if (!err)
		track(cp->pid, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (err) {
		cp->pid = 0;
		errno = err;
		return error_errno("cannot run '%s'", argv[0]);
	}
	return 0;
}

int finish_command(struct child_process *cp)
{
	sigset_t all, old;
	int status;
	pid_t r;

	do
		r = waitpid(cp->pid, &status, 0);
	while (r < 0 && errno == EINTR);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	track(0, cp->pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	cp->pid = 0;
	if (r < 0)
		return error_errno("waitpid");
	return status;
}

int finish_any_command(struct child_process **cps, size_t n, size_t *which)
{
	sigset_t all, old;
	int status;
	pid_t r;

	for (;;) {
		size_t i = 0;

		do
			r = waitpid(-1, &status, 0);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return error_errno("waitpid");
		while (i < n && (!cps[i] || cps[i]->pid != r))
			i++;
		if (i == n)
			continue;	/* a child someone else started: not ours to report */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		track(0, r);
		sigprocmask(SIG_SETMASK, &old, NULL);
		cps[i]->pid = 0;
		*which = i;
		return status;
	}
}

int run_command(struct child_process *cp)
{
	if (start_command(cp))
		return -1;
	return finish_command(cp);
}

int capture_command(struct child_process *cp, struct strbuf *out)
{
	int fds[2], status;

	if (pipe(fds))
		return error_errno("pipe");
	cp->out = fds[1];
	if (start_command(cp)) {
		close(fds[0]);
		close(fds[1]);
		cp->out = -1;
		return -1;
	}
	close(fds[1]);
	cp->out = -1;
	/* A read error only shortens what was captured; the status tells. */
	(void)strbuf_read_fd(out, fds[0]);
	close(fds[0]);
	status = finish_command(cp);
	return status;
}

void child_process_clear(struct child_process *cp)
{
	strvec_clear(&cp->args);
}

int status_ok(int status)
{
	return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void exit_like(int status)
{
	tempfile_cleanup_all();
	if (status >= 0 && WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		signal(sig, SIG_DFL);
		raise(sig);
		/* Not fatal by default (or blocked): fall back to the shell's 128+sig. */
		exit(128 + sig);
	}
	if (status >= 0 && WIFEXITED(status))
		exit(WEXITSTATUS(status));
	exit(1);
}

int exec_command(char *const *argv)
{
	execvp(argv[0], argv);
	return error_errno("cannot run '%s'", argv[0]);
}

static int needs_quote(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_=+,./:@%^", *s))
			return 1;
	return 0;
}

void quote_argv(struct strbuf *sb, char *const *argv)
{
	for (int i = 0; argv[i]; i++) {
		const char *s = argv[i];

		if (i)
			strbuf_addch(sb, ' ');
		if (!needs_quote(s)) {
			strbuf_addstr(sb, s);
			continue;
		}
		strbuf_addch(sb, '\'');
		for (; *s; s++) {
			if (*s == '\'')
				strbuf_addstr(sb, "'\\''");
			else
				strbuf_addch(sb, *s);
		}
		strbuf_addch(sb, '\'');
	}
}

char *find_in_path(const char *name)
{
	return find_in_path_skip(name, NULL);
}

char *find_in_path_skip(const char *name, int (*skip)(const char *path))
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	if (strchr(name, '/'))
		return NULL;
	if (!path)
		path = "/usr/bin:/bin";	/* execvp's default */
	while (*path) {
		const char *end = strchrnul(path, ':');
		struct stat st;

		strbuf_reset(&sb);
		if (end == path)
			strbuf_addch(&sb, '.');
		else
			strbuf_add(&sb, path, (size_t)(end - path));
		strbuf_addf(&sb, "/%s", name);
		if (!stat(sb.buf, &st) && S_ISREG(st.st_mode) && !access(sb.buf, X_OK) &&
		    !(skip && skip(sb.buf)))
			return strbuf_detach(&sb, NULL);
		path = *end ? end + 1 : end;
	}
	strbuf_release(&sb);
	return NULL;
}
