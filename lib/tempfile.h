/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private temporary files and "remove this if we fail" outputs.
 *
 * Temp files are created only with mkstemps() in $TMPDIR (if unusable,
 * the next of gcc's candidates, see tempfile_dir()):
 * mode 0600, O_EXCL, so a planted file or symlink is never followed.
 * Every registered path is unlinked by tempfile_cleanup_all(), which
 * die() and a fatal signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) run: the
 * first registration installs the handlers, so no exit path leaves one
 * behind and no program has to ask.  A signal ignored when the handlers
 * are installed (nohup) stays ignored.  The registry is a fixed static
 * table because the signal handler must not allocate.
 */
#ifndef CCD_TEMPFILE_H
#define CCD_TEMPFILE_H

#define TEMPFILE_MAX 64

/*
 * Create <tempfile_dir()>/<prefix>XXXXXX<suffix>.  Returns an fd open for reading
 * and writing and sets *path to the registry's copy of the name (valid
 * until tempfile_remove()).  On failure prints an error and returns -1.
 */
int tempfile_create(const char *prefix, const char *suffix, const char **path);

/*
 * Register an output path (an object being written) to be unlinked if we
 * die or are killed.  Only regular files are ever unlinked: a path that is
 * not a regular file at cleanup time (/dev/null) is left alone.
 */
int tempfile_register(const char *path);
/* Forget a path without unlinking it (the output is complete). */
void tempfile_forget(const char *path);
/* Unlink (if a regular file) and forget. */
void tempfile_remove(const char *path);
/* Unlink every registered path; async-signal-safe. */
void tempfile_cleanup_all(void);
/*
 * The directory temp files go to: the first usable directory of $TMPDIR,
 * $TMP, $TEMP, /tmp, /var/tmp, /usr/tmp (gcc's order).
 */
const char *tempfile_dir(void);

/*
 * Install the handlers now (they are otherwise installed by the first
 * registration), with hook run first on a fatal signal, before the files
 * are removed and we die of the signal.  run-command's hook forwards the
 * signal to its children and waits for them.  hook must be
 * async-signal-safe.
 */
void tempfile_catch_signals(void (*hook)(int sig));

/* Unlink path only if it is a regular file (never /dev/null). */
void unlink_if_regular(const char *path);

#endif
