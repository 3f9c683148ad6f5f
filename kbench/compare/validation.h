/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model against the host (validation.c): each program's native
 * and modelled cycles, each pair's speedups, and how well the model ranks
 * and signs them.  `kbench validate` fills the programs and shows the rest.
 */
#ifndef KBENCH_VALIDATION_H
#define KBENCH_VALIDATION_H

#include <stddef.h>

struct val_program {
	const char *name, *baseline;	/* baseline: NULL, or another program's name */
	double *native;			/* one figure a run, in core cycles */
	size_t runs;			/* 0: modelled only (native figures NaN) */
	double native_cycles, native_spread_pct;	/* the median; the quartiles' distance / median */
	double model_cycles, error_pct;
};

struct val_pair {
	const struct val_program *p, *base;
	double native_pct, model_pct, error_points;	/* speedups of p over base */
	double native_noise;	/* the per-round speedups' quartiles' distance, points */
	int beyond_noise;	/* the native speedup exceeds it */
};

struct val_summary {
	double spearman;	/* of the pairs' speedups; NaN under two pairs */
	double mean_abs_speedup_error;
	size_t beyond_noise, signs_agree;
	double median_abs_cycle_error_pct;
};

/* Each program's median, spread and error; the pairs (pairs[] holds nr); the summary. */
size_t validation_compute(struct val_program *v, size_t nr, struct val_pair *pairs,
			  struct val_summary *sum);

#endif
