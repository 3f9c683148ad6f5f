/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Newline scanning for the driver's per-chunk loop.  -g assembly averages
 * 16 bytes a line, so a memchr call per line costs more in call overhead
 * than in searching; instead one 64-byte block at a time becomes a bit
 * mask of its newlines (SSE2 on x86-64, a byte loop elsewhere) and each
 * line end is one count-trailing-zeros.  Lines are taken in order: the
 * scanner only ever moves forward.
 */
#ifndef ASMFIX_LINESCAN_H
#define ASMFIX_LINESCAN_H

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct nl_scan {
	const char *base;	/* start of the current 64-byte block */
	const char *end;	/* end of the text */
	uint64_t mask;		/* newlines in the block not yet returned */
};

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

static inline void nl_scan_init(struct nl_scan *s, const char *p, const char *end)
{
	s->base = p;
	s->end = end;
	s->mask = p < end ? nl_block(p, end) : 0;
}

/* The next newline, NULL if none is left. */
static inline const char *nl_scan_next(struct nl_scan *s)
{
	const char *nl;

	while (!s->mask) {
		if (s->end - s->base <= 64) {
			s->base = s->end;
			return NULL;
		}
		s->base += 64;
		s->mask = nl_block(s->base, s->end);
	}
	nl = s->base + __builtin_ctzll(s->mask);
	s->mask &= s->mask - 1;
	return nl;
}

#endif
