// SPDX-License-Identifier: GPL-2.0
/*
 * asmfix/linescan.h against a byte loop: every newline, in order, for
 * texts of every length around the 64-byte block size and at every
 * alignment, dense and sparse, taken in windows of 1, 5 and 200 lines;
 * asmfix_ident_span (parse.h) against asmfix_is_ident the same way.  Built twice: with SSE2 and with
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
#include "parse.h"

/*
 * Newlines of [p, end) through the indexer, window after window as the
 * driver takes them (each starting after the last newline of the one
 * before), must be exactly those a byte loop finds.
 */
static void check_want(const char *p, const char *end, size_t want)
{
	uint32_t idx[300 + NL_INDEX_SLACK];
	const char *base = p, *expect = p;

	for (;;) {
		size_t n = nl_index(base, end, idx, want);
		assert_true(n < want + NL_INDEX_SLACK);
		for (size_t k = 0; k < n; k++) {
			while (expect < end && *expect != '\n')
				expect++;
			assert_true(expect < end);
			assert_ptr_equal(base + idx[k], expect);
			expect++;
		}
		if (!n) {
			/* none left: the rest has no newline */
			assert_null(memchr(expect, '\n', (size_t)(end - expect)));
			return;
		}
		base += idx[n - 1] + 1;
		/* Fewer than asked for: the text ended. */
		if (n < want)
			assert_null(memchr(base, '\n', (size_t)(end - base)));
	}
}

static void check(const char *p, const char *end)
{
	check_want(p, end, 1);
	check_want(p, end, 5);
	check_want(p, end, 200);
}

static void test_popcount(void **state)
{
	uint64_t m = 0x8000000000000001ull;
	(void)state;
	assert_int_equal(nl_popcount(0), 0);
	assert_int_equal(nl_popcount(~(uint64_t)0), 64);
	assert_int_equal(nl_popcount(m), 2);
	srand(2);
	for (int i = 0; i < 10000; i++) {
		uint64_t v = (uint64_t)rand() << 40 ^ (uint64_t)rand() << 20 ^ (uint64_t)rand();
		unsigned c = 0;
		for (int b = 0; b < 64; b++)
			c += (unsigned)(v >> b) & 1;
		assert_int_equal(nl_popcount(v), c);
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

/* Identifier spans at every start and limit, against the byte loop. */
static void test_ident_span(void **state)
{
	static const char set[] = "aZ09_.$ :\t\n%,(-\x80\xff";
	static char buf[256];
	(void)state;

	srand(3);
	for (int round = 0; round < 8; round++) {
		/* long identifier runs, broken rarely or often */
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = rand() % (1 + round * 4) ? "az09_.$QZ"[rand() % 9] :
				set[rand() % (sizeof(set) - 1)];
		for (size_t off = 0; off < 64; off++)
			for (size_t lim = off; lim <= off + 80 && lim <= sizeof(buf); lim++) {
				size_t want = 0;
				while (off + want < lim && asmfix_is_ident((unsigned char)buf[off + want]))
					want++;
				assert_int_equal(asmfix_ident_span(buf + off, buf + lim), want);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths_and_alignments),
		cmocka_unit_test(test_all_newlines_and_none),
		cmocka_unit_test(test_popcount),
		cmocka_unit_test(test_ident_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
