/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One place for diagnostics, so every message of every ccd-suite program
 * reads the same (after objtool's warn.h):
 *
 *   prog: error: message
 *   prog: warning: message
 *   file:line: topic: message        (located diagnostics, e.g. asmfix passes)
 *
 * Messages go to stderr, or to the descriptor set with warn_set_fd()
 * (ccd uses ccache's UNCACHED_ERR_FD for its own notices), in one write
 * each.  They are formatted in a fixed buffer (cut beyond 16 KiB) and
 * allocate nothing, so die() works when memory has run out; this module
 * uses no other part of lib/ but fileio.
 */
#ifndef CCD_WARN_H
#define CCD_WARN_H

#include <stdarg.h>

void warn_set_progname(const char *argv0);
const char *warn_progname(void);
void warn_set_fd(int fd);

/* Exit status used by die(): 1 unless changed (ccd keeps gcc's 1). */
extern int die_status;

__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);
/* die() with ": strerror(errno)" appended. */
__attribute__((noreturn, format(printf, 1, 2)))
void die_errno(const char *fmt, ...);
/* Both return -1 so callers can write "return error(...)". */
__attribute__((format(printf, 1, 2)))
int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
int error_errno(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void warning(const char *fmt, ...);
/* Unprefixed informational line ("prog: message"). */
__attribute__((format(printf, 1, 2)))
void note(const char *fmt, ...);

/* "file:line: topic: message"; line 0 omits the line number. */
__attribute__((format(printf, 4, 5)))
void diag_at(const char *file, unsigned long line, const char *topic,
	     const char *fmt, ...);
void vdiag_at(const char *file, unsigned long line, const char *topic,
	      const char *fmt, va_list ap);

/* Hook run by die() before exiting (temp file cleanup, child reaping). */
void warn_set_die_hook(void (*hook)(void));

#endif
