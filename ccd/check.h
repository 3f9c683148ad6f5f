/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check report (--ccd-check-report=FILE): one line per object, "STATUS
 * OBJECT[ DETAIL]", saying whether the object is the one the backend's own
 * "-c" makes, so that a whole build is accounted for without a second,
 * plain build (ccd(1) "CHECK REPORT").
 */
#ifndef CCD_CHECK_H
#define CCD_CHECK_H

#include "strbuf.h"

enum check_status {
	CHECK_SAME,	/* no pass changed the assembly; as ran as the driver runs it */
	CHECK_OWN,	/* the backend assembled it itself, unchanged */
	CHECK_REPAIRED,	/* a pass changed it (DETAIL: the passes): meant to differ */
	CHECK_FALLBACK,	/* as rejected the repair: the backend's text, unrepaired */
	CHECK_UNKNOWN,	/* the driver does not say how it assembles (no -###) */
	CHECK_DIFFERS,	/* as ran otherwise than the driver would (DETAIL: how) */
	CHECK__COUNT
};

/* Append one line to path; a write that fails is a warning, never a failed compile. */
void check_report(const char *path, enum check_status st, const char *obj, const char *detail);

/*
 * ours and the driver's: the as program and its words before "-o".  NULL
 * when they are the same (the programs by their real paths), else what
 * differs, to free.
 */
char *check_as_differs(const struct strvec *ours, const struct strvec *driver);

/* --ccd-check-summary: count a report's lines; 0, 1 if any object differs, 2 on a bad report. */
int check_summary(const char *path);

#endif
