/* SPDX-License-Identifier: GPL-2.0 */
/* The hot directives of -g output, found without a branch per name (the driver's). */
#ifndef ASMFIX_HOTDIR_H
#define ASMFIX_HOTDIR_H

#include <stdint.h>
#include <string.h>

/*
 * The directives of -g output (85 % of the lines: .debug_* data, .loc) as
 * gcc and clang spell them: a tab, the name, a blank.  A hash of the line's first
 * five bytes picks the one table entry the line can be, and one masked
 * compare of its first 16 bytes decides, without a branch per name (line
 * kinds alternate unpredictably in debug data).  Everything here is an
 * optimisation: a line it does not recognise takes the general path.
 */
struct hot_dir {
	uint64_t text[2];	/* "\t.name" and a 0 where the blank goes, little-endian words */
	uint64_t mask[2];	/* the bits of the 16 bytes that must equal text */
};

/*
 * After the name comes a blank: any byte whose bits 7, 6, 4, 2 and 1 are
 * clear.  That is tab and space; also '!', '(' and ')', which end a
 * directive name just as well (".long(x)" is .long); NUL, ^A and ^H,
 * which no fast chunk holds or which gas rejects anyway.  Never ':' (a
 * label), a letter, a digit or a newline.
 */
#define BLANK_BITS 0xd6u
/* Bytes [0, n) of a little-endian word, and the blank test on byte n of it. */
#define LE_HEAD(n) ((n) >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * ((n) & 7))) - 1)
#define LE_BLANK(n) ((n) < 8 ? (uint64_t)BLANK_BITS << (8 * ((n) & 7)) : 0)
/* The five bytes a..e as the low bytes of a little-endian word. */
#define KEY5(a, b, c, d, e) ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | \
			     (uint64_t)(d) << 24 | (uint64_t)(e) << 32)
#define HOT_KEY_MASK 0xffffffffffull
/* A multiplier that gives each name its own slot (found by search; checked below). */
#define HOT_SLOT(key) ((unsigned)(((key) * 0x9e3779b97f4a7c15ull) >> 59))
/* 8 bytes of s from offset o, little-endian; s is padded to 16 bytes with zeros. */
#define LE_BYTES(s, o) ((uint64_t)(unsigned char)(s)[(o)] | (uint64_t)(unsigned char)(s)[(o) + 1] << 8 | \
	(uint64_t)(unsigned char)(s)[(o) + 2] << 16 | (uint64_t)(unsigned char)(s)[(o) + 3] << 24 | \
	(uint64_t)(unsigned char)(s)[(o) + 4] << 32 | (uint64_t)(unsigned char)(s)[(o) + 5] << 40 | \
	(uint64_t)(unsigned char)(s)[(o) + 6] << 48 | (uint64_t)(unsigned char)(s)[(o) + 7] << 56)
#define PAD16(s) s "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"

/*
 * The names, once: "\t.name", its first five bytes spelled out (a
 * literal's bytes are no constant expression for an index), and 1 for
 * .long/.quad (an alternative record may use them).
 */
#define HOT_NAMES(X) \
	X("\t.byte", '\t', '.', 'b', 'y', 't', 0) \
	X("\t.uleb128", '\t', '.', 'u', 'l', 'e', 0) \
	X("\t.sleb128", '\t', '.', 's', 'l', 'e', 0) \
	X("\t.long", '\t', '.', 'l', 'o', 'n', 1) \
	X("\t.loc", '\t', '.', 'l', 'o', 'c', 0) \
	X("\t.string", '\t', '.', 's', 't', 'r', 0) \
	X("\t.value", '\t', '.', 'v', 'a', 'l', 0) \
	X("\t.quad", '\t', '.', 'q', 'u', 'a', 1) \
	X("\t.short", '\t', '.', 's', 'h', 'o', 0)	/* clang's .value */ \
	X("\t.asciz", '\t', '.', 'a', 's', 'c', 0)	/* clang's .string */

#define HOT_ENTRY(s, a, b, c, d, e, dat) [HOT_SLOT(KEY5(a, b, c, d, e))] = { \
	{ LE_BYTES(PAD16(s), 0), LE_BYTES(PAD16(s), 8) }, \
	{ LE_HEAD(sizeof(s) - 1) | LE_BLANK(sizeof(s) - 1), \
	  sizeof(s) - 1 >= 8 ? LE_HEAD(sizeof(s) - 9) | LE_BLANK(sizeof(s) - 9) : 0 } },
#define HOT_DATA(s, a, b, c, d, e, dat) [HOT_SLOT(KEY5(a, b, c, d, e))] = dat,
#define HOT_BIT(s, a, b, c, d, e, dat) | (uint64_t)1 << HOT_SLOT(KEY5(a, b, c, d, e))
#define HOT_ONE(s, a, b, c, d, e, dat) + 1
_Static_assert(__builtin_popcountll(0 HOT_NAMES(HOT_BIT)) == 0 HOT_NAMES(HOT_ONE),
	       "two hot names share a slot");

/* Empty slots compare all 16 bytes with zeros: no line of a chunk without NULs matches. */
#define NO_HOT { { 0, 0 }, { ~(uint64_t)0, ~(uint64_t)0 } }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const struct hot_dir hot_dirs[32] = {
	[0 ... 31] = NO_HOT,	/* the named ones override it */
	HOT_NAMES(HOT_ENTRY)
};
#pragma GCC diagnostic pop
static const unsigned char hot_data[32] = { HOT_NAMES(HOT_DATA) };

/* 8 bytes at p as a little-endian word. */
static inline uint64_t load64le(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/*
 * The entry line p would be and whether it is it (0: it is).  The caller
 * guarantees 16 readable bytes at p: compares may run past the line's
 * newline, never past the chunk.
 */
static inline uint64_t hot_diff(const char *p, unsigned *slot)
{
	uint64_t w0 = load64le(p), w1 = load64le(p + 8);
	const struct hot_dir *h = &hot_dirs[*slot = HOT_SLOT(w0 & HOT_KEY_MASK)];

	return ((w0 ^ h->text[0]) & h->mask[0]) | ((w1 ^ h->text[1]) & h->mask[1]);
}

/* Is line p a hot directive?  -1 if not, else 1 for .long/.quad, 0 for the others. */
static inline int hot_directive(const char *p)
{
	unsigned slot;

	return hot_diff(p, &slot) ? -1 : hot_data[slot];
}

/*
 * 1 if line p is not a hot directive, without a branch: for a whole
 * window of lines at a time, where a mispredicted branch per line would
 * cost more than the compare.
 */
static inline unsigned not_hot(const char *p)
{
	unsigned slot;

	return hot_diff(p, &slot) != 0;
}

#endif
