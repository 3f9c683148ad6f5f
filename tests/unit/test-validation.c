// SPDX-License-Identifier: GPL-2.0
/* kbench validate's arithmetic (kbench/compare/validation.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "validation.h"

#include <math.h>

/* One slow run (a neighbour's burst) moves neither the median nor, much, the
 * spread: the range would have grown from 4 % to 62 %. */
static void test_spread_ignores_one_outlier(void **state)
{
	double quiet[] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 100 };
	double noisy[] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 160 };
	struct val_program v[2] = { { .name = "a", .native = quiet, .runs = 11, .model_cycles = 110 },
				    { .name = "b", .native = noisy, .runs = 11, .model_cycles = 110 } };
	struct val_pair pairs[2];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 2, VAL_MEDIAN, pairs, &s), 0);
	assert_true(fabs(v[0].native_cycles - 100) < 1e-9);
	assert_true(fabs(v[1].native_cycles - 100) < 1e-9);
	/* quartiles 99.5 and 100.5; with the slow run 99.5 and 101 */
	assert_true(fabs(v[0].native_spread_pct - 1) < 1e-9);
	assert_true(fabs(v[1].native_spread_pct - 1.5) < 1e-9);
	assert_true(fabs(v[0].error_pct - 10) < 1e-9);
}

/* A pair beyond both spreads, one within them; the quartiles interpolated. */
static void test_pairs_and_noise(void **state)
{
	double base[] = { 100, 104, 96, 100 }, fast[] = { 90, 91, 89, 90 }, same[] = { 99, 101, 97, 103 };
	struct val_program v[3] = {
		{ .name = "base", .native = base, .runs = 4, .model_cycles = 200 },
		{ .name = "fast", .baseline = "base", .native = fast, .runs = 4, .model_cycles = 180 },
		{ .name = "same", .baseline = "base", .native = same, .runs = 4, .model_cycles = 210 },
	};
	struct val_pair pairs[3];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 3, VAL_MEDIAN, pairs, &s), 2);
	/* base sorted 96 100 100 104: quartiles at 1/4 and 3/4 of the way, 99 and 101 */
	assert_true(fabs(v[0].native_spread_pct - 2) < 1e-9);
	assert_true(fabs(pairs[0].native_pct - 100 * (100 / 90.0 - 1)) < 1e-9);
	assert_true(pairs[0].beyond_noise);
	assert_false(pairs[1].beyond_noise);
	assert_int_equal(s.beyond_noise, 1);
	assert_int_equal(s.signs_agree, 1);
}

/*
 * The machine slowed every program of round 2 alike: per round, fast is 10 %
 * ahead of base every time, so the pair is beyond noise, though each
 * program's own spread (over 30 %) is not.
 */
static void test_rounds_paired(void **state)
{
	double base[] = { 110, 150, 100, 105, 120 }, fast[] = { 100, 150 / 1.1, 100 / 1.1, 105 / 1.1,
								 120 / 1.1 };
	struct val_program v[2] = {
		{ .name = "base", .native = base, .runs = 5, .model_cycles = 100 },
		{ .name = "fast", .baseline = "base", .native = fast, .runs = 5, .model_cycles = 90 },
	};
	struct val_pair pairs[1];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 2, VAL_MEDIAN, pairs, &s), 1);
	assert_true(fabs(pairs[0].native_pct - 10) < 1e-9);
	assert_true(pairs[0].native_noise < 1e-9);
	assert_true(pairs[0].beyond_noise);
	assert_true(v[0].native_spread_pct > 5);
}

/* Modelled only (another machine's programs): the model's speedup, and no
 * native figure, error or correlation made up from nothing. */
static void test_modelled_only(void **state)
{
	struct val_program v[3] = {
		{ .name = "base", .model_cycles = 200 },
		{ .name = "fast", .baseline = "base", .model_cycles = 100 },
		{ .name = "slow", .baseline = "base", .model_cycles = 250 },
	};
	struct val_pair pairs[3];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 3, VAL_MEDIAN, pairs, &s), 2);
	assert_true(isnan(v[0].native_cycles) && isnan(v[0].error_pct));
	assert_true(fabs(pairs[0].model_pct - 100) < 1e-9);
	assert_true(fabs(pairs[1].model_pct + 20) < 1e-9);
	assert_true(isnan(pairs[0].native_pct) && isnan(pairs[0].error_points));
	assert_false(pairs[0].beyond_noise);
	assert_true(isnan(s.spearman) && isnan(s.mean_abs_speedup_error));
	assert_true(isnan(s.median_abs_cycle_error_pct));
	assert_int_equal(s.beyond_noise, 0);
	assert_int_equal(s.signs_agree, 0);
}

/*
 * Rounds: each round's figure by the estimator (the machine ran round 2
 * at half speed), the program's the median of the rounds', a pair's
 * speedup the mean of its rounds'.
 */
static void test_rounds_and_estimators(void **state)
{
	double base[] = { 100, 120, 110, 200, 210, 205 }, fast[] = { 80, 90, 100, 160, 170, 150 };
	struct val_program v[2] = {
		{ .name = "base", .native = base, .runs = 3, .rounds = 2, .model_cycles = 100 },
		{ .name = "fast", .baseline = "base", .native = fast, .runs = 3, .rounds = 2,
		  .model_cycles = 90 },
	};
	struct val_pair pairs[1];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 2, VAL_MEDIAN, pairs, &s), 1);
	assert_true(fabs(v[0].round_cycles[0] - 110) < 1e-9 && fabs(v[0].round_cycles[1] - 205) < 1e-9);
	assert_true(fabs(v[0].native_cycles - 157.5) < 1e-9);
	assert_true(fabs(pairs[0].round_pct[0] - 100 * (110 / 90.0 - 1)) < 1e-9);
	assert_true(fabs(pairs[0].round_pct[1] - 100 * (205 / 160.0 - 1)) < 1e-9);
	assert_true(fabs(pairs[0].native_pct - (pairs[0].round_pct[0] + pairs[0].round_pct[1]) / 2)
		    < 1e-9);
	/* round 1's paired speedups 25, 33.3, 10: quartiles 17.5 and 29.2 */
	assert_true(fabs(pairs[0].round_noise[0] - (100 * (120 / 90.0 - 1) + 25) / 2 + 17.5) < 1e-9);
	assert_false(pairs[0].measured);	/* 22 % is under 3 x 11.7 points */
	assert_true(isnan(s.rounds_spearman));	/* one pair */
	assert_true(fabs(s.rounds_mean_abs_diff - fabs(pairs[0].round_pct[0] - pairs[0].round_pct[1]))
		    < 1e-9);
	assert_int_equal(validation_compute(v, 2, VAL_MIN, pairs, &s), 1);
	assert_true(fabs(v[0].round_cycles[0] - 100) < 1e-9 && fabs(v[0].round_cycles[1] - 200) < 1e-9);
	assert_true(fabs(v[1].round_cycles[0] - 80) < 1e-9 && fabs(v[1].round_cycles[1] - 150) < 1e-9);
	assert_true(fabs(v[1].native_cycles - 115) < 1e-9);
	assert_true(fabs(pairs[0].round_pct[0] - 25) < 1e-9);
}

/*
 * Measured: at least 5 % and 3 x its noise in every round, one sign.  Of
 * four pairs only fast is; the model's figures on it alone.
 */
static void test_measured(void **state)
{
	double base[] = { 100, 100, 100, 100, 200, 200, 200, 200 };
	double fast[] = { 90, 90, 90, 90, 180, 180, 180, 180 };
	double same[] = { 98, 98, 98, 98, 196, 196, 196, 196 };
	double flip[] = { 90, 90, 90, 90, 220, 220, 220, 220 };
	double noisy[] = { 90, 80, 100, 90, 180, 180, 180, 180 };
	struct val_program v[5] = {
		{ .name = "base", .native = base, .runs = 4, .rounds = 2, .model_cycles = 100 },
		{ .name = "fast", .baseline = "base", .native = fast, .runs = 4, .rounds = 2,
		  .model_cycles = 80 },
		{ .name = "same", .baseline = "base", .native = same, .runs = 4, .rounds = 2,
		  .model_cycles = 100 },
		{ .name = "flip", .baseline = "base", .native = flip, .runs = 4, .rounds = 2,
		  .model_cycles = 100 },
		{ .name = "noisy", .baseline = "base", .native = noisy, .runs = 4, .rounds = 2,
		  .model_cycles = 100 },
	};
	struct val_pair pairs[5];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 5, VAL_MEDIAN, pairs, &s), 4);
	assert_true(pairs[0].measured);
	assert_true(pairs[0].round_noise[0] < 1e-9);
	assert_false(pairs[1].measured);	/* 2 % */
	assert_false(pairs[2].measured);	/* +11 % then -9 % */
	assert_false(pairs[3].measured);	/* 11 % under 3 x 6.25 points in round 1 */
	assert_true(fabs(pairs[3].round_noise[0] - 6.25) < 1e-9);
	assert_int_equal(s.measured, 1);
	assert_int_equal(s.measured_signs_agree, 1);
	assert_true(fabs(s.measured_slope - 25 / (100 / 9.0)) < 1e-9);
	assert_true(isnan(s.measured_pearson));
	assert_true(fabs(s.measured_median_rel_error_pct - 125) < 1e-9);
}

/* The rounds against each other over three rounds, and the model on three measured pairs. */
static void test_rounds_agreement(void **state)
{
	double base[] = { 100, 100, 100 }, a[] = { 50, 50, 40 }, b[] = { 80, 80, 80 },
	       c[] = { 125, 125, 125 };
	struct val_program v[4] = {
		{ .name = "base", .native = base, .runs = 1, .rounds = 3, .model_cycles = 1000 },
		{ .name = "a", .baseline = "base", .native = a, .runs = 1, .rounds = 3,
		  .model_cycles = 500 },
		{ .name = "b", .baseline = "base", .native = b, .runs = 1, .rounds = 3,
		  .model_cycles = 900 },
		{ .name = "c", .baseline = "base", .native = c, .runs = 1, .rounds = 3,
		  .model_cycles = 1100 },
	};
	struct val_pair pairs[4];
	struct val_summary s;

	(void)state;
	assert_int_equal(validation_compute(v, 4, VAL_MEDIAN, pairs, &s), 3);
	/* a: +100, +100, +150; the pairs of rounds 1-3 and 2-3 differ by 50 on a */
	assert_true(fabs(s.rounds_spearman - 1) < 1e-9);
	assert_true(fabs(s.rounds_mean_abs_diff - 100 / 9.0) < 1e-9);
	assert_int_equal(s.measured, 3);
	assert_int_equal(s.measured_signs_agree, 3);
	assert_true(fabs(s.measured_slope - 0.8285167100881659) < 1e-9);
	assert_true(fabs(s.measured_pearson - 0.9881627272558708) < 1e-9);
	assert_true(fabs(s.measured_median_rel_error_pct - 54.545454545454525) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_ignores_one_outlier),
		cmocka_unit_test(test_pairs_and_noise),
		cmocka_unit_test(test_rounds_paired),
		cmocka_unit_test(test_modelled_only),
		cmocka_unit_test(test_rounds_and_estimators),
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_rounds_agreement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
