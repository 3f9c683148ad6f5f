/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model against the host (validation.c): each program's native
 * and modelled cycles, each pair's speedups, and how well the model ranks
 * and signs them.  `kbench validate` fills the programs and shows the rest.
 */
#ifndef KBENCH_VALIDATION_H
#define KBENCH_VALIDATION_H

#include <stddef.h>

#define VAL_MAX_ROUNDS 99

/* A program's figure in a round, over its runs in that round. */
enum val_estimator { VAL_MEDIAN, VAL_MIN };

struct val_program {
	const char *name, *baseline;	/* baseline: NULL, or another program's name */
	double *native;			/* rounds x runs figures in core cycles, round by
					 * round: run k of round r at native[r * runs + k] */
	size_t runs;			/* per round; 0: modelled only (native figures NaN) */
	size_t rounds;			/* 1 to VAL_MAX_ROUNDS; 0 counts as 1 */
	double round_cycles[VAL_MAX_ROUNDS];	/* each round's figure, by the estimator */
	double native_cycles;		/* the median of round_cycles */
	double native_spread_pct;	/* a round's quartiles' distance / its median, the rounds' mean */
	double model_cycles, error_pct;
};

struct val_pair {
	const struct val_program *p, *base;
	double native_pct, model_pct, error_points;	/* speedups of p over base; native:
							 * the mean of round_pct */
	double round_pct[VAL_MAX_ROUNDS];	/* of p's round figure over base's */
	double round_noise[VAL_MAX_ROUNDS];	/* the round's paired per-run speedups'
						 * quartiles' distance, points */
	double native_noise;	/* round_noise's mean */
	int beyond_noise;	/* the native speedup exceeds it */
	int measured;		/* every round at least 5 % and 3 x its noise, one sign */
};

struct val_summary {
	double spearman;	/* of the pairs' speedups; NaN under two pairs */
	double mean_abs_speedup_error;
	size_t beyond_noise, signs_agree;
	double median_abs_cycle_error_pct;
	/* The rounds against each other (above two: the mean over pairs of rounds). */
	double rounds_spearman, rounds_mean_abs_diff;
	/* The measured pairs only; NaN without one (Pearson: under two). */
	size_t measured, measured_signs_agree;
	double measured_slope;		/* modelled on native, least squares through 0 */
	double measured_pearson;
	double measured_median_rel_error_pct;	/* |model - native| / |native| */
};

/* est over v[0..nr); NaN if nr is 0. */
double val_estimate(enum val_estimator est, const double *v, size_t nr);

/* Each program's figures and error; the pairs (pairs[] holds nr); the summary. */
size_t validation_compute(struct val_program *v, size_t nr, enum val_estimator est,
			  struct val_pair *pairs, struct val_summary *sum);

#endif
