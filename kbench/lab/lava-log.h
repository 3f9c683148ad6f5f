/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A LAVA job's log (lava-log.c): the YAML list LAVA keeps, one record a
 * line, `- {"dt": "...", "lvl": "target", "msg": "..."}`, every scalar
 * double-quoted.  The target's lines are the guest's console: fed to a
 * struct console they give the rows `kbench run` would have read (the
 * console read after the test action ended is "feedback": fed too).
 */
#ifndef KBENCH_LAVA_LOG_H
#define KBENCH_LAVA_LOG_H

#include "console.h"

struct lava_log {
	size_t records, target;		/* all records; the target's lines */
	char *qemu_version;		/* what LAVA found its QEMU to be, or NULL */
	char *last_error;		/* the log's last "error" record, or NULL */
	/* The job's own result (LAVA's last "results" record, case "job"), or NULL. */
	char *job_result, *error_type, *error_msg;
};

/*
 * Feed the target's lines of text (the log of job) to c.  -1 after an
 * error naming the job and the line when text is not a LAVA log.
 */
int lava_log_feed(const char *text, size_t len, const char *job, struct console *c,
		  struct lava_log *log);
void lava_log_release(struct lava_log *log);

#endif
