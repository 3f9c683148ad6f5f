/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One kernel's results: what `kbench run` writes and `kbench compare`
 * reads.  The file is JSON:
 *
 *   {"clock": "icount"|"kvm", "kernel": PATH, "compiler": TEXT,
 *    "version": TEXT, "runs": N, "quick": BOOL, "append": TEXT,
 *    "benchmarks": [{"name", "unit", "group", "samples": [...], "median"}]}
 */
#ifndef KBENCH_RESULT_H
#define KBENCH_RESULT_H

#include "strbuf.h"
#include <stddef.h>

struct kb_row {
	char *name, *unit, *group;
	double *samples;
	size_t nr;
	double median;
};

struct kb_result {
	char *clock;		/* "icount" or "kvm" */
	char *kernel;		/* the image booted */
	char *compiler;		/* from /proc/version */
	char *version;		/* /proc/version's first line */
	char *append;		/* extra kernel arguments */
	int runs, quick;
	struct kb_row *rows;
	size_t nr, alloc;
};

void result_init(struct kb_result *r);
void result_release(struct kb_result *r);
/* Add a row from the protocol's "s1,s2,..." list; -1 if it is malformed. */
int result_add_row(struct kb_result *r, const char *name, const char *unit,
		   const char *group, const char *samples);
const struct kb_row *result_find(const struct kb_result *r, const char *name);

/* 1 when smaller is better (us, ns), 0 for bandwidths. */
int unit_smaller_is_better(const char *unit);
double median_of(const double *v, size_t nr);

/* The JSON text of r. */
void result_to_json(const struct kb_result *r, struct strbuf *out);
/*
 * Read a result file; on failure print an error naming path (not JSON,
 * not kbench's) and return -1.
 */
int result_load(struct kb_result *r, const char *path);

/* "gcc (Debian 12.2.0-14) 12.2.0" out of a /proc/version line, or NULL. */
char *compiler_from_version(const char *version);

#endif
