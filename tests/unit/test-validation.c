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
	assert_int_equal(validation_compute(v, 2, pairs, &s), 0);
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
	assert_int_equal(validation_compute(v, 3, pairs, &s), 2);
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
	assert_int_equal(validation_compute(v, 2, pairs, &s), 1);
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
	assert_int_equal(validation_compute(v, 3, pairs, &s), 2);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_ignores_one_outlier),
		cmocka_unit_test(test_pairs_and_noise),
		cmocka_unit_test(test_rounds_paired),
		cmocka_unit_test(test_modelled_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
