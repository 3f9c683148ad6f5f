/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private temporary files and "remove this if we fail" outputs.
 *
 * Temp files are created only with mkstemps() in $TMPDIR (if unusable,
 * the next of gcc's candidates, see tempfile_dir()):
 * mode 0600, O_EXCL, so a planted file or symlink is never followed.
 * Every registered path is unlinked by tempfile_cleanup_all(), which the
 * run-command signal handler and die() call, so no exit path leaves one
 * behind.  The registry is a fixed static table because the signal
 * handler must not allocate.
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

/* Unlink path only if it is a regular file (never /dev/null). */
void unlink_if_regular(const char *path);

#endif
