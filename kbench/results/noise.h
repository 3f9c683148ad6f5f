/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How far each row moves between kernels whose code is the same (built
 * twice, differing only in what does not change code: the build's host,
 * user and time): a difference no larger is not the compiler's doing.
 * The table is JSON (kbench/noise.json is compiled in, --noise=FILE
 * replaces it):
 *
 *   {"kbench_noise": 1, "clock": "icount", "cpus": N, "provenance": TEXT,
 *    "floor": PERCENT, "rows": {"NAME": PERCENT, ...},
 *    "metrics": {"cycles": {"provenance": TEXT, "floor": PERCENT,
 *                           "rows": {...}}, ...}}
 *
 * "metrics" (optional) holds tables for the cost model's figures (kbench
 * compare --metric): the top level's rows are the rows' own figures.
 *
 * "cpus" (optional, 1 when absent) is the CPUs the guests had when it was
 * measured; rows of other CPU counts take its figures all the same, and
 * compare says so.
 *
 * A row's threshold is the larger of its own figure and the floor; a row
 * the table lacks gets the floor.
 */
#ifndef KBENCH_NOISE_H
#define KBENCH_NOISE_H

#include <stddef.h>

struct kb_noise {
	char *source;		/* the file, or "built-in" */
	char *clock;		/* the clock it was measured with */
	int cpus;		/* the guests' CPUs it was measured with (0: no table) */
	char *provenance;	/* what was measured, when, how */
	double floor;		/* percent */
	char **names;
	double *pct;
	size_t nr;
};

/* The table in path, or the built-in one for NULL; -1 after an error naming path. */
int noise_load(struct kb_noise *n, const char *path);
/*
 * The table for results of clock, in metric (KB_METRICS; NULL: the rows'
 * own figures): path's, the built-in one for NULL, none for "none".  For a
 * metric, the table's own for it ("metrics"); else a named file's rows, or
 * none from the built-in table.  None too (with a warning unless quiet)
 * when it was measured with another clock: KVM's real time and icount's
 * instructions vary differently.  -1 after an error naming path.
 */
int noise_for(struct kb_noise *n, const char *path, const char *clock, const char *metric,
	      int quiet);
/* No table: every threshold 0, only the spread of the samples counts. */
void noise_none(struct kb_noise *n);
void noise_release(struct kb_noise *n);
/* The threshold of row name, in percent. */
double noise_threshold(const struct kb_noise *n, const char *name);

#endif
