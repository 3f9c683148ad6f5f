// SPDX-License-Identifier: GPL-2.0
#include "validation.h"
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * The median, and the spread as the interquartile range over it: a run
 * that something else on the machine slowed (one in a few on a shared
 * host) moves neither, where it would set the range.
 */
static void program_figures(struct val_program *p)
{
	double *s;

	if (!p->runs) {	/* modelled only */
		p->native_cycles = p->native_spread_pct = p->error_pct = NAN;
		return;
	}
	s = malloc(p->runs * sizeof(*s));

	p->native_cycles = median_of(p->native, p->runs);
	if (s) {
		memcpy(s, p->native, p->runs * sizeof(*s));
		qsort(s, p->runs, sizeof(*s), cmp_double);
		p->native_spread_pct = 100 * (quantile(s, p->runs, 0.75) -
					      quantile(s, p->runs, 0.25)) / p->native_cycles;
	} else
		p->native_spread_pct = NAN;
	free(s);
	p->error_pct = 100 * (p->model_cycles - p->native_cycles) / p->native_cycles;
}

/* Positive: p takes fewer cycles than its baseline. */
static double speedup(double p, double base)
{
	return 100 * (base / p - 1);
}

/*
 * The runs go round-robin, so run r of a program and of its baseline are
 * seconds apart: whatever slowed the machine then slowed both.  The
 * speedup is the median of the per-round speedups, and it is beyond noise
 * when larger than their quartiles' distance.  Unequal run counts (not
 * from validate) fall back to the medians and both spreads.
 */
static void paired_speedup(struct val_pair *q, const struct val_program *p,
			   const struct val_program *base)
{
	double *r = p->runs && p->runs == base->runs ? malloc(p->runs * sizeof(*r)) : NULL;

	if (!p->runs || !base->runs) {	/* modelled only: nothing to compare with */
		q->native_pct = q->native_noise = NAN;
		q->beyond_noise = 0;
		return;
	}
	if (!r) {
		q->native_pct = speedup(p->native_cycles, base->native_cycles);
		q->native_noise = p->native_spread_pct + base->native_spread_pct;
		q->beyond_noise = fabs(q->native_pct) > q->native_noise;
		return;
	}
	for (size_t k = 0; k < p->runs; k++)
		r[k] = speedup(p->native[k], base->native[k]);
	qsort(r, p->runs, sizeof(*r), cmp_double);
	q->native_pct = quantile(r, p->runs, 0.5);
	q->native_noise = quantile(r, p->runs, 0.75) - quantile(r, p->runs, 0.25);
	q->beyond_noise = fabs(q->native_pct) > q->native_noise;
	free(r);
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
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* Spearman's: the Pearson correlation of the ranks. */
static double spearman(const struct val_pair *pairs, size_t nr)
{
	double *a = calloc(4 * nr + 1, sizeof(*a)), r;

	if (nr < 2 || !a)
		return free(a), NAN;
	for (size_t i = 0; i < nr; i++) {
		if (isnan(pairs[i].native_pct))
			return free(a), NAN;
		a[i] = pairs[i].native_pct;
		a[nr + i] = pairs[i].model_pct;
	}
	ranks(a, nr, a + 2 * nr);
	ranks(a + nr, nr, a + 3 * nr);
	r = pearson(a + 2 * nr, a + 3 * nr, nr);
	free(a);
	return r;
}

static void summarize(const struct val_program *v, size_t nr, const struct val_pair *pairs,
		      size_t np, struct val_summary *sum)
{
	double *err = calloc(nr + 1, sizeof(*err));
	int modelled_only = 0;	/* a program without native runs */

	memset(sum, 0, sizeof(*sum));
	sum->spearman = spearman(pairs, np);
	for (size_t i = 0; i < np; i++) {
		sum->mean_abs_speedup_error += fabs(pairs[i].error_points) / np;
		sum->beyond_noise += pairs[i].beyond_noise;
		sum->signs_agree += pairs[i].beyond_noise &&
				    (pairs[i].native_pct > 0) == (pairs[i].model_pct > 0);
	}
	for (size_t i = 0; err && i < nr; i++) {
		err[i] = fabs(v[i].error_pct);
		modelled_only |= isnan(err[i]);
	}
	sum->median_abs_cycle_error_pct = err && !modelled_only ? median_of(err, nr) : NAN;
	if (!np)
		sum->mean_abs_speedup_error = NAN;
	free(err);
}

size_t validation_compute(struct val_program *v, size_t nr, struct val_pair *pairs,
			  struct val_summary *sum)
{
	size_t np = 0;

	for (size_t i = 0; i < nr; i++)
		program_figures(&v[i]);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; v[i].baseline && j < nr; j++)
			if (!strcmp(v[j].name, v[i].baseline)) {
				struct val_pair *q = &pairs[np++];

				q->p = &v[i];
				q->base = &v[j];
				paired_speedup(q, &v[i], &v[j]);
				q->model_pct = speedup(v[i].model_cycles, v[j].model_cycles);
				q->error_points = q->model_pct - q->native_pct;
				break;
			}
	summarize(v, nr, pairs, np, sum);
	return np;
}
