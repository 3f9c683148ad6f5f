/* SPDX-License-Identifier: GPL-2.0 */
/* The arithmetic of a comparison, shared by the table and the chart. */
#ifndef KBENCH_COMPARISON_H
#define KBENCH_COMPARISON_H

#include "result.h"

/*
 * How much faster b is than a, in percent: for times a/b - 1, for
 * bandwidths b/a - 1 (so +10 means b does 10 % more work per second).
 */
double speedup_pct(const char *unit, double a, double b);
/* Do a's and b's medians and samples give a finite percentage (event counts can be 0)? */
int speedup_defined(const struct kb_row *a, const struct kb_row *b);

/*
 * The spread of that figure over the samples: from b's worst sample
 * against a's best to b's best against a's worst.
 */
void speedup_range(const struct kb_row *a, const struct kb_row *b, double *lo, double *hi);

/*
 * Whether b differs from a beyond chance: the spread of the samples
 * excludes 0 and the difference is larger than noise, the percentage
 * kernels with the same code show on this row (noise.h).
 */
int diff_significant(const struct kb_row *a, const struct kb_row *b, double noise);

/* The SVG chart of a comparison (chart.c), its JSON (compare-json.c). */
struct kb_noise;
struct kb_train;
int write_chart(const char *path, const struct kb_result *res, const char *const *labels,
		int nr, const struct kb_noise *noise);
/* train: the "trained" and "held_out" gains of two kernels (train.h), or NULL. */
int write_compare_json(const char *path, const struct kb_result *res,
		       const char *const *labels, int nr, const struct kb_noise *noise,
		       const struct kb_train *train);

/* "Processes (us)" for "proc": the heading of a group of rows. */
const char *group_title(const char *group);

#endif
