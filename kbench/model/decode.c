// SPDX-License-Identifier: GPL-2.0
/*
 * What the model needs of an instruction's bytes: which kind of branch
 * ends a translation block, and whether it is one of kbench's markers.
 */
#include "marker.h"
#include "sim.h"

static int x86_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67: case 0xf2: case 0xf3:
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
		return 1;
	}
	return (b & 0xf0) == 0x40;	/* REX */
}

static enum exit_kind x86_exit(const uint8_t *b, size_t len)
{
	size_t i = 0;

	while (i < len && x86_prefix(b[i]))
		i++;
	if (i >= len)
		return EXIT_OTHER;
	switch (b[i]) {
	case 0x70 ... 0x7f:
	case 0xe0 ... 0xe3:	/* loop, jrcxz */
		return EXIT_COND;
	case 0x0f:
		return i + 1 < len && (b[i + 1] & 0xf0) == 0x80 ? EXIT_COND : EXIT_OTHER;
	case 0xe8:
		return EXIT_CALL;
	case 0xe9: case 0xeb:
		return EXIT_JUMP;
	case 0xc2: case 0xc3:
		return EXIT_RET;
	case 0xff:
		if (i + 1 >= len)
			return EXIT_OTHER;
		switch ((b[i + 1] >> 3) & 7) {
		case 2: return EXIT_ICALL;
		case 4: return EXIT_IJUMP;
		}
		return EXIT_OTHER;
	}
	return EXIT_OTHER;
}

static uint32_t word(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static enum exit_kind arm64_exit(const uint8_t *b, size_t len)
{
	uint32_t w;

	if (len != 4)
		return EXIT_OTHER;
	w = word(b);
	if ((w & 0xff000010) == 0x54000000 ||	/* b.cond */
	    (w & 0x7e000000) == 0x34000000 ||	/* cbz, cbnz */
	    (w & 0x7e000000) == 0x36000000)	/* tbz, tbnz */
		return EXIT_COND;
	if ((w & 0xfc000000) == 0x14000000)
		return EXIT_JUMP;
	if ((w & 0xfc000000) == 0x94000000)
		return EXIT_CALL;
	switch (w & 0xfffffc1f) {
	case 0xd61f0000: return EXIT_IJUMP;
	case 0xd63f0000: return EXIT_ICALL;
	case 0xd65f0000: return EXIT_RET;
	}
	return EXIT_OTHER;
}

enum exit_kind decode_exit(enum isa isa, const uint8_t *b, size_t len)
{
	switch (isa) {
	case ISA_X86: return x86_exit(b, len);
	case ISA_ARM64: return arm64_exit(b, len);
	case ISA_OTHER: break;
	}
	return EXIT_OTHER;
}

int decode_marker(enum isa isa, const uint8_t *b, size_t len)
{
	for (int m = KB_MARK_START; m <= KB_MARK_ROW; m++) {
		uint32_t disp = KB_MARK_X86_DISP(m);

		if (isa == ISA_X86 && len == 7 && b[0] == 0x0f && b[1] == 0x1f && b[2] == 0x80 &&
		    word(b + 3) == disp)
			return m;
		if (isa == ISA_ARM64 && len == 4 && word(b) == KB_MARK_ARM64_INSN(m))
			return m;
	}
	return KB_MARK_NONE;
}
