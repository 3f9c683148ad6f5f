// SPDX-License-Identifier: GPL-2.0
#include "validation.h"
#include "result.h"
#include "strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A pair's native difference is measured when in every round it is at
 * least MEASURED_MIN_PCT per cent and MEASURED_NOISE_TIMES times that
 * round's noise (the interquartile distance of its paired per-run
 * speedups), all rounds with one sign: a difference the host repeats,
 * not one a round happened to show.
 */
#define MEASURED_MIN_PCT 5.0
#define MEASURED_NOISE_TIMES 3.0

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..nr), interpolated between neighbours. */
static double quantile(const double *v, size_t nr, double q)
{
	double at = q * (double)(nr - 1);
	size_t i = (size_t)at;

	return i + 1 < nr ? v[i] + (at - (double)i) * (v[i + 1] - v[i]) : v[nr - 1];
}

/* The quartiles' distance of v[0..nr), which it sorts. */
static double iqr(double *v, size_t nr)
{
	qsort(v, nr, sizeof(*v), cmp_double);
	return quantile(v, nr, 0.75) - quantile(v, nr, 0.25);
}

double val_estimate(enum val_estimator est, const double *v, size_t nr)
{
	double m;

	if (est == VAL_MEDIAN || !nr)
		return median_of(v, nr);
	m = v[0];
	for (size_t i = 1; i < nr; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static size_t nr_rounds(const struct val_program *p)
{
	return p->rounds ? p->rounds : 1;
}

static const double *round_runs(const struct val_program *p, size_t r)
{
	return p->native + r * p->runs;
}

/*
 * Each round's figure by the estimator, the program's the median of them
 * (a round something disturbed throughout moves it less than a mean).
 * The spread is a round's quartiles' distance over its median, averaged
 * over the rounds: a run that something else on the machine slowed (one
 * in a few on a shared host) moves neither, where it would set the range.
 */
static void program_figures(struct val_program *p, enum val_estimator est)
{
	size_t rounds = nr_rounds(p);
	double *s;

	if (!p->runs || rounds > VAL_MAX_ROUNDS) {	/* modelled only */
		p->native_cycles = p->native_spread_pct = p->error_pct = NAN;
		return;
	}
	s = xmalloc(p->runs * sizeof(*s));
	p->native_spread_pct = 0;
	for (size_t r = 0; r < rounds; r++) {
		p->round_cycles[r] = val_estimate(est, round_runs(p, r), p->runs);
		memcpy(s, round_runs(p, r), p->runs * sizeof(*s));
		p->native_spread_pct += 100 * iqr(s, p->runs) / median_of(s, p->runs) /
					(double)rounds;
	}
	free(s);
	p->native_cycles = median_of(p->round_cycles, rounds);
	p->error_pct = 100 * (p->model_cycles - p->native_cycles) / p->native_cycles;
}

/* Positive: p takes fewer cycles than its baseline. */
static double speedup(double p, double base)
{
	return 100 * (base / p - 1);
}

/*
 * The runs go round-robin, so run k of a program and of its baseline in
 * a round are seconds apart: whatever slowed the machine then slowed
 * both.  A round's speedup is that of the two programs' figures in it;
 * its noise the quartiles' distance of the round's paired per-run
 * speedups (what varies from run to run, which pairing cannot remove).
 * Unequal run counts (not from validate) fall back to both spreads.
 */
static void round_speedup(struct val_pair *q, size_t r, double *s)
{
	const struct val_program *p = q->p, *base = q->base;

	q->round_pct[r] = speedup(p->round_cycles[r], base->round_cycles[r]);
	if (p->runs != base->runs) {
		q->round_noise[r] = p->native_spread_pct + base->native_spread_pct;
		return;
	}
	for (size_t k = 0; k < p->runs; k++)
		s[k] = speedup(round_runs(p, r)[k], round_runs(base, r)[k]);
	q->round_noise[r] = iqr(s, p->runs);
}

static int measured(const struct val_pair *q, size_t rounds)
{
	for (size_t r = 0; r < rounds; r++) {
		double d = fabs(q->round_pct[r]);

		if (!(d >= MEASURED_MIN_PCT && d >= MEASURED_NOISE_TIMES * q->round_noise[r]) ||
		    (q->round_pct[r] > 0) != (q->round_pct[0] > 0))
			return 0;
	}
	return 1;
}

/* The pair's speedup and noise, the means of its rounds'. */
static void paired_speedup(struct val_pair *q)
{
	size_t rounds = nr_rounds(q->p);
	size_t most = q->p->runs > q->base->runs ? q->p->runs : q->base->runs;
	double *s;

	q->beyond_noise = q->measured = 0;
	if (!q->p->runs || !q->base->runs || rounds != nr_rounds(q->base) ||
	    rounds > VAL_MAX_ROUNDS) {	/* modelled only: nothing to compare with */
		q->native_pct = q->native_noise = NAN;
		return;
	}
	s = xmalloc(most * sizeof(*s));
	q->native_pct = q->native_noise = 0;
	for (size_t r = 0; r < rounds; r++) {
		round_speedup(q, r, s);
		q->native_pct += q->round_pct[r] / (double)rounds;
		q->native_noise += q->round_noise[r] / (double)rounds;
	}
	free(s);
	q->beyond_noise = fabs(q->native_pct) > q->native_noise;
	q->measured = measured(q, rounds);
}

/* Each value's rank among v[0..nr), ties sharing their mean rank. */
static void ranks(const double *v, size_t nr, double *rank)
{
	for (size_t i = 0; i < nr; i++) {
		size_t below = 0, equal = 0;

		for (size_t j = 0; j < nr; j++) {
			below += v[j] < v[i];
			equal += v[j] == v[i];
		}
		rank[i] = below + (equal + 1) / 2.0;
	}
}

static double pearson(const double *x, const double *y, size_t nr)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < nr; i++) {
		mx += x[i] / nr;
		my += y[i] / nr;
	}
	for (size_t i = 0; i < nr; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return nr > 1 && sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* Spearman's: the Pearson correlation of the ranks; NaN under two or with a NaN. */
static double spearman(const double *x, const double *y, size_t nr)
{
	double *rx, *ry, r;

	if (nr < 2)
		return NAN;
	for (size_t i = 0; i < nr; i++)
		if (isnan(x[i]) || isnan(y[i]))
			return NAN;
	rx = xcalloc(2 * nr, sizeof(*rx));
	ry = rx + nr;
	ranks(x, nr, rx);
	ranks(y, nr, ry);
	r = pearson(rx, ry, nr);
	free(rx);
	return r;
}

/* The pairs' speedups natively (x) and modelled (y), only measured ones if only_measured. */
static size_t speedups(const struct val_pair *pairs, size_t np, int only_measured, double *x,
		       double *y)
{
	size_t n = 0;

	for (size_t i = 0; i < np; i++)
		if (!only_measured || pairs[i].measured) {
			x[n] = pairs[i].native_pct;
			y[n++] = pairs[i].model_pct;
		}
	return n;
}

/*
 * The rounds against each other: Spearman of the pairs' speedups in one
 * round against another, and their mean absolute difference in points;
 * above two rounds, each the mean over every pair of rounds.
 */
static void rounds_agreement(const struct val_pair *pairs, size_t np, struct val_summary *sum)
{
	size_t rounds = np ? nr_rounds(pairs[0].p) : 0, couples = 0;
	double *x = xcalloc(2 * np + 1, sizeof(*x)), *y = x + np;

	sum->rounds_spearman = sum->rounds_mean_abs_diff = NAN;
	for (size_t i = 0; i < np; i++)
		if (isnan(pairs[i].native_pct))
			rounds = 0;
	if (rounds >= 2) {
		sum->rounds_spearman = sum->rounds_mean_abs_diff = 0;
		couples = rounds * (rounds - 1) / 2;
	}
	for (size_t a = 0; a < rounds; a++)
		for (size_t b = a + 1; b < rounds; b++) {
			for (size_t i = 0; i < np; i++) {
				x[i] = pairs[i].round_pct[a];
				y[i] = pairs[i].round_pct[b];
				sum->rounds_mean_abs_diff += fabs(x[i] - y[i]) / (double)(np * couples);
			}
			sum->rounds_spearman += spearman(x, y, np) / (double)couples;
		}
	free(x);
}

/* Least squares through the origin: a build no different from its baseline is 0 both ways. */
static double slope_through_origin(const double *x, const double *y, size_t nr)
{
	double sxy = 0, sxx = 0;

	for (size_t i = 0; i < nr; i++) {
		sxy += x[i] * y[i];
		sxx += x[i] * x[i];
	}
	return sxx > 0 ? sxy / sxx : NAN;
}

/* The model on the measured pairs: signs, slope, Pearson, median relative error. */
static void measured_agreement(const struct val_pair *pairs, size_t np, struct val_summary *sum)
{
	double *x = xcalloc(3 * np + 1, sizeof(*x)), *y = x + np, *rel = y + np;
	size_t n = speedups(pairs, np, 1, x, y);

	sum->measured = n;
	sum->measured_signs_agree = 0;
	for (size_t i = 0; i < n; i++) {
		sum->measured_signs_agree += (x[i] > 0) == (y[i] > 0);
		rel[i] = 100 * fabs(y[i] - x[i]) / fabs(x[i]);
	}
	sum->measured_slope = slope_through_origin(x, y, n);
	sum->measured_pearson = pearson(x, y, n);
	sum->measured_median_rel_error_pct = median_of(rel, n);	/* NaN if none */
	free(x);
}

static void summarize(const struct val_program *v, size_t nr, const struct val_pair *pairs,
		      size_t np, struct val_summary *sum)
{
	double *err = xcalloc(2 * np + nr + 1, sizeof(*err)), *x = err + nr, *y = x + np;
	int modelled_only = 0;	/* a program without native runs */

	memset(sum, 0, sizeof(*sum));
	speedups(pairs, np, 0, x, y);
	sum->spearman = spearman(x, y, np);
	for (size_t i = 0; i < np; i++) {
		sum->mean_abs_speedup_error += fabs(pairs[i].error_points) / np;
		sum->beyond_noise += pairs[i].beyond_noise;
		sum->signs_agree += pairs[i].beyond_noise &&
				    (pairs[i].native_pct > 0) == (pairs[i].model_pct > 0);
	}
	for (size_t i = 0; i < nr; i++) {
		err[i] = fabs(v[i].error_pct);
		modelled_only |= isnan(err[i]);
	}
	sum->median_abs_cycle_error_pct = !modelled_only ? median_of(err, nr) : NAN;
	if (!np)
		sum->mean_abs_speedup_error = NAN;
	free(err);
	rounds_agreement(pairs, np, sum);
	measured_agreement(pairs, np, sum);
}

size_t validation_compute(struct val_program *v, size_t nr, enum val_estimator est,
			  struct val_pair *pairs, struct val_summary *sum)
{
	size_t np = 0;

	for (size_t i = 0; i < nr; i++)
		program_figures(&v[i], est);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; v[i].baseline && j < nr; j++)
			if (!strcmp(v[j].name, v[i].baseline)) {
				struct val_pair *q = &pairs[np++];

				q->p = &v[i];
				q->base = &v[j];
				paired_speedup(q);
				q->model_pct = speedup(v[i].model_cycles, v[j].model_cycles);
				q->error_points = q->model_pct - q->native_pct;
				break;
			}
	summarize(v, nr, pairs, np, sum);
	return np;
}
