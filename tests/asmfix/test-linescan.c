// SPDX-License-Identifier: GPL-2.0
/*
 * asmfix/linescan.h against a byte loop: every newline, in order, for
 * texts of every length around the 64-byte block size and at every
 * alignment, dense and sparse.  Built twice: with SSE2 and with
 * -U__SSE2__ (the portable loop).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linescan.h"

/* Newlines of [p, end) through the scanner must be exactly those a byte loop finds. */
static void check(const char *p, const char *end)
{
	struct nl_scan sc;
	const char *want = p, *got;

	nl_scan_init(&sc, p, end);
	for (;;) {
		while (want < end && *want != '\n')
			want++;
		got = nl_scan_next(&sc);
		if (want == end) {
			assert_null(got);
			assert_null(nl_scan_next(&sc));	/* stays at the end */
			return;
		}
		assert_ptr_equal(got, want);
		want++;
	}
}

static void test_lengths_and_alignments(void **state)
{
	static char buf[512];
	(void)state;

	srand(1);
	for (int density = 1; density <= 64; density *= 4) {
		for (int i = 0; i < (int)sizeof(buf); i++)
			buf[i] = rand() % density ? (char)('a' + rand() % 26) : '\n';
		for (size_t off = 0; off < 64; off++)
			for (size_t len = 0; len + off <= 300; len++)
				check(buf + off, buf + off + len);
	}
}

static void test_all_newlines_and_none(void **state)
{
	char nl[200], none[200];
	(void)state;

	memset(nl, '\n', sizeof(nl));
	memset(none, 'x', sizeof(none));
	for (size_t len = 0; len <= sizeof(nl); len++) {
		check(nl, nl + len);
		check(none, none + len);
	}
	/* a newline as the very last byte of a block and of the text */
	none[63] = none[127] = none[199] = '\n';
	check(none, none + sizeof(none));
	check(none, none + 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths_and_alignments),
		cmocka_unit_test(test_all_newlines_and_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
