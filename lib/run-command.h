/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spawning children, after git's run-command.h.  No shell is ever
 * involved: children get an argv array via posix_spawnp().
 *
 * Once run_command_init() was called, SIGINT/SIGTERM/SIGHUP/SIGQUIT to us
 * are forwarded to every running child and we wait for it; then
 * tempfile.h's handler removes the temp files and outputs and we die of
 * the same signal.
 */
#ifndef CCD_RUN_COMMAND_H
#define CCD_RUN_COMMAND_H

#include "strbuf.h"
#include <sys/types.h>

struct child_process {
	struct strvec args;
	char **env;	/* NULL: inherit our environment */
	int in;		/* -1: inherit; else dup'ed onto 0 and closed in child */
	int out;	/* -1: inherit; else dup'ed onto 1 */
	int err;	/* -1: inherit; else dup'ed onto 2 */
	pid_t pid;
};

#define CHILD_PROCESS_INIT { STRVEC_INIT, NULL, -1, -1, -1, 0 }

/* Forward fatal signals to children; once, early in main(), before any child. */
void run_command_init(void);

/* Start cp; on failure print "cannot run 'prog': reason" and return -1. */
int start_command(struct child_process *cp);
/*
 * Wait for cp.  Returns the raw wait status (use WIFEXITED etc.), or -1
 * if waiting failed.
 */
int finish_command(struct child_process *cp);
/*
 * Wait for whichever of the started children in cps (NULL entries skipped)
 * ends first; *which says which one.  The wait status, or -1.  Every
 * running child of the process must be in cps: another that ends is reaped
 * unseen.
 */
int finish_any_command(struct child_process **cps, size_t n, size_t *which);
/* start + finish; -1 if it could not start. */
int run_command(struct child_process *cp);
/* Run and capture stdout into out (stderr inherited). */
int capture_command(struct child_process *cp, struct strbuf *out);
void child_process_clear(struct child_process *cp);

/* True when status is a clean exit 0. */
int status_ok(int status);
/*
 * Leave the way the child left: exit with its code, or die of its signal
 * (after cleaning up temp files).  Never returns.
 */
__attribute__((noreturn)) void exit_like(int status);

/* Replace this process with argv (passthrough).  Returns only on failure. */
int exec_command(char *const *argv);

/* Render argv for CCD_VERBOSE-style tracing, shell-quoted where needed. */
void quote_argv(struct strbuf *sb, char *const *argv);

/* Search PATH for an executable name (no slash); NULL if absent. */
char *find_in_path(const char *name);
/* The same, skipping candidates for which skip(path) is true (ccd itself). */
char *find_in_path_skip(const char *name, int (*skip)(const char *path));

#endif
