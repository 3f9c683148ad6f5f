/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A line of a report file (ccd's profile report, its check report): its
 * own file, apart from fileio, because it warns and warn.c writes through
 * fileio.
 */
#ifndef CCD_REPORT_LINE_H
#define CCD_REPORT_LINE_H

#include <stddef.h>

/*
 * Append line to path in one write (O_APPEND keeps the lines of parallel
 * compiles whole); a failure is a warning naming what (a report), never
 * an error: a report must not fail a build.
 */
void append_report_line(const char *path, const char *what, const char *line, size_t len);

#endif
