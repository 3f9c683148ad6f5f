// SPDX-License-Identifier: GPL-2.0
/*
 * kbench-probe: what `kbench calibrate` runs under the cost model (in
 * qemu-user, no kernel needed).  Each argument is one measurement, one
 * START..END sample for the plugin:
 *
 *   chase:BYTES:LOADS     LOADS dependent loads over a random cycle of
 *                         the 64-byte lines of BYTES of memory (after one
 *                         untimed walk of the whole cycle)
 *   branch:KIND:ITERS     a loop with one conditional branch per pass:
 *                         KIND "regular" (taken every fourth pass) or
 *                         "random" (a coin toss per pass)
 */
#include "model/marker.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return seed >> 33;
}

/* A single random cycle through every line (Sattolo): no prefetchable order. */
static void **make_cycle(size_t lines)
{
	void **mem = aligned_alloc(LINE, lines * LINE);
	size_t *order = malloc(lines * sizeof(*order));
	const size_t step = LINE / sizeof(void *);

	if (!mem || !order) {
		free(mem);
		free(order);
		return NULL;
	}
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = next_random() % i, t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		mem[order[i] * step] = &mem[order[(i + 1) % lines] * step];
	free(order);
	return mem;
}

static void *volatile sink;

static int chase(size_t bytes, long loads)
{
	size_t lines = bytes / LINE;
	void **mem = lines >= 2 ? make_cycle(lines) : NULL, **p;

	if (!mem)
		return -1;
	p = mem;
	for (size_t i = 0; i < lines; i++)
		p = *p;
	kb_mark_start();
	for (long i = 0; i < loads; i++)
		p = *p;
	kb_mark_end();
	sink = p;
	free(mem);
	return 0;
}

static int branch(int random, long iters)
{
	unsigned char *bit = malloc((size_t)iters);
	long taken = 0;

	if (!bit)
		return -1;
	for (long i = 0; i < iters; i++)
		bit[i] = random ? next_random() & 1 : !(i & 3);
	kb_mark_start();
	for (long i = 0; i < iters; i++) {
		if (bit[i]) {
			/* Keeps the branch a branch: no conditional move for this. */
			__asm__ volatile("");
			taken++;
		}
	}
	kb_mark_end();
	sink = (void *)taken;
	free(bit);
	return 0;
}

static int task(const char *arg)
{
	unsigned long long a;
	long n;
	char kind[16];

	if (sscanf(arg, "chase:%llu:%ld", &a, &n) == 2 && a >= 2 * LINE && a <= (1ull << 32) &&
	    n > 0)
		return chase((size_t)a, n);
	if (sscanf(arg, "branch:%15[a-z]:%ld", kind, &n) == 2 && n > 0 && n <= (1l << 30) &&
	    (!strcmp(kind, "regular") || !strcmp(kind, "random")))
		return branch(!strcmp(kind, "random"), n);
	fprintf(stderr, "kbench-probe: bad measurement '%s' (chase:BYTES:LOADS, "
		"branch:regular|random:ITERS)\n", arg);
	return -1;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (task(argv[i])) {
			fprintf(stderr, "kbench-probe: %s failed\n", argv[i]);
			return 1;
		}
	return 0;
}
