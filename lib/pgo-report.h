/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccd's profile report: one line per compiled object, "STATUS OBJECT",
 * appended by every compile under profile use (ccd(1) "PROFILE USE"),
 * counted by ccd --ccd-profile-summary and by kbench pgo.
 */
#ifndef CCD_PGO_REPORT_H
#define CCD_PGO_REPORT_H

enum pgo_status {
	PGO_OFF,		/* no profile use asked, or not an object of a build */
	PGO_NONE,		/* no profile for this object */
	PGO_UNSUPPORTED,	/* the backend cannot read gcc's profiles */
	PGO_USED,
	PGO_STALE,		/* used, but the source is newer than the profile */
	PGO_MISMATCH,		/* gcc said parts of the profile do not fit */
	PGO_FAILED,		/* the compile failed with it; done again without */
	PGO__COUNT
};

/* The report's word for each status ("used", "none"...). */
extern const char *const pgo_status_word[PGO__COUNT];

struct pgo_counts {
	unsigned long n[PGO__COUNT];
	unsigned long objects;
};

/* Count a report's lines; 0, or -1 after an error naming file and line. */
int pgo_report_read(const char *path, struct pgo_counts *c);

#endif
