/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Newline indexing for the driver's windows of lines.  -g assembly
 * averages 16 bytes a line, so a memchr call per line costs more in call
 * overhead than in searching; instead one 64-byte block at a time becomes
 * a bit mask of its newlines (SSE2 on x86-64, a byte loop elsewhere), and
 * the mask becomes offsets in an array without a branch per line (how
 * many lines a block holds varies unpredictably; a loop over its bits
 * would mispredict its end once per block).
 */
#ifndef ASMFIX_LINESCAN_H
#define ASMFIX_LINESCAN_H

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifdef __SSE2__
static inline uint64_t nl_mask16x4(const char *p)
{
	const __m128i nl = _mm_set1_epi8('\n');
	uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), nl));
	uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), nl));
	uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), nl));
	uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), nl));
	return m0 | m1 << 16 | m2 << 32 | m3 << 48;
}
#else
static inline uint64_t nl_mask16x4(const char *p)
{
	uint64_t m = 0;
	for (int i = 0; i < 64; i++)
		m |= (uint64_t)(p[i] == '\n') << i;
	return m;
}
#endif

/* Newlines in [p, p + 64), clipped to end: the tail goes through a padded copy. */
static inline uint64_t nl_block(const char *p, const char *end)
{
	char tail[64];
	size_t n = (size_t)(end - p);

	if (n >= 64)
		return nl_mask16x4(p);
	memset(tail, 0, sizeof(tail));
	memcpy(tail, p, n);
	return nl_mask16x4(tail);
}

/* Bits set in m (no popcnt instruction in the x86-64 baseline: SWAR). */
static inline unsigned nl_popcount(uint64_t m)
{
	m -= (m >> 1) & 0x5555555555555555ull;
	m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((m * 0x0101010101010101ull) >> 56);
}

/*
 * Append off + the index of each bit of m to out[n...], in order; returns
 * the new count.  Six entries are written whatever m holds, so the common
 * block costs no branch on its number of lines (3 to 5 in 95 % of the
 * blocks of -g output, more than 6 in 0.1 %); entries past the count are
 * garbage the next block overwrites.  out needs NL_INDEX_SLACK entries
 * after n.
 */
#define NL_INDEX_SLACK 64
#define NL_UNCOND 6
static inline size_t nl_flatten(uint32_t *out, size_t n, uint32_t off, uint64_t m)
{
	/* The top bit keeps ctz defined once m runs out; it is never the lowest of a real bit. */
	const uint64_t top = (uint64_t)1 << 63;
	unsigned cnt = nl_popcount(m);
	uint32_t *o = out + n;
	int i;

	for (i = 0; i < NL_UNCOND; i++) {
		o[i] = off + (uint32_t)__builtin_ctzll(m | top);
		m &= m - 1;
	}
	if (cnt > NL_UNCOND)
		for (; m; i++) {
			o[i] = off + (uint32_t)__builtin_ctzll(m);
			m &= m - 1;
		}
	return n + cnt;
}

/*
 * Index the newlines of [base, end) into out[] as offsets from base, 64
 * bytes at a time, until at least want of them are found or the text
 * ends.  Every newline before the last one indexed is indexed; the text
 * after it is left for the next call (which starts there).  Returns the
 * count, at most want + NL_INDEX_SLACK - 1; out needs want +
 * NL_INDEX_SLACK entries.  The text must be shorter than 4 GiB.
 */
static inline size_t nl_index(const char *base, const char *end, uint32_t *out, size_t want)
{
	const char *b = base;
	size_t n = 0;

	while (n < want && b < end) {
		n = nl_flatten(out, n, (uint32_t)(b - base), nl_block(b, end));
		if (end - b <= 64)
			break;
		b += 64;
	}
	return n;
}

#endif
