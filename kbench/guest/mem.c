// SPDX-License-Identifier: GPL-2.0
/*
 * The controls: reading, writing and chasing pointers through memory run
 * in user space only, so a kernel built by another compiler should leave
 * them where they are.  A control that moves says the comparison itself
 * moved (another machine, another clock, a loaded host under kvm).
 */
#include "bench.h"

#include <stdint.h>
#include <stdlib.h>

#define MB (1L << 20)

static volatile uint64_t mem_sink;

/*
 * One buffer for every run of a benchmark (each runs in its own process):
 * setting it up is not what is measured, and under icount it would cost
 * as much as the measurement.
 */
static uint64_t *buffer(long bytes)
{
	static uint64_t *p;

	if (p)
		return p;
	p = malloc((size_t)bytes);
	if (!p) {
		kb_fail("out of memory");
		return NULL;
	}
	/* Touched once before timing: no page faults in the loop. */
	for (long i = 0; i < bytes / 8; i++)
		p[i] = (uint64_t)i;
	return p;
}

/* arg1: buffer size in MB; iters: passes over it. */
static int mem_read(const struct bench *b, long n, double *out)
{
	long bytes = b->arg1 * MB, words = bytes / 8;
	uint64_t *p = buffer(bytes), s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	double t0, mb;

	if (!p)
		return -1;
	t0 = kb_sample_begin();
	for (long r = 0; r < n; r++) {
		for (long i = 0; i < words; i += 4) {
			s0 += p[i];
			s1 += p[i + 1];
			s2 += p[i + 2];
			s3 += p[i + 3];
		}
	}
	mb = (double)n * bytes / MB;
	*out = mb / ((kb_sample_end(mb) - t0) / 1e6);
	mem_sink = s0 + s1 + s2 + s3;
	return 0;
}

static int mem_write(const struct bench *b, long n, double *out)
{
	long bytes = b->arg1 * MB, words = bytes / 8;
	volatile uint64_t *p = buffer(bytes);
	double t0, mb;

	if (!p)
		return -1;
	t0 = kb_sample_begin();
	for (long r = 0; r < n; r++) {
		/* Through a volatile pointer: stores, not a call to memset. */
		for (long i = 0; i < words; i += 4) {
			p[i] = (uint64_t)r;
			p[i + 1] = (uint64_t)r;
			p[i + 2] = (uint64_t)r;
			p[i + 3] = (uint64_t)r;
		}
	}
	mb = (double)n * bytes / MB;
	*out = mb / ((kb_sample_end(mb) - t0) / 1e6);
	return 0;
}

/*
 * A pointer chase through a random cycle over the buffer (Sattolo's
 * shuffle with a fixed generator: the same walk on every boot).
 */
static int mem_latency(const struct bench *b, long n, double *out)
{
	long bytes = b->arg1 * MB, words = bytes / 8;
	static uint64_t *p;
	uint64_t seed = 42;
	uintptr_t cur;
	double t0;

	if (p)
		goto walk;
	p = buffer(bytes);
	if (!p)
		return -1;
	for (long i = words - 1; i > 0; i--) {
		long j;
		uint64_t t;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (long)((seed >> 33) % (uint64_t)i);
		t = p[i], p[i] = p[j], p[j] = t;
	}
	for (long i = 0; i < words; i++)
		p[i] = (uint64_t)(uintptr_t)&p[p[i]];
walk:
	cur = (uintptr_t)p;
	t0 = kb_sample_begin();
	for (long i = 0; i < n; i += 8) {
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
		cur = *(uintptr_t *)cur;
	}
	*out = (kb_sample_end(n) - t0) * 1e3 / n;
	mem_sink = cur;
	return 0;
}

/* The rows: rows.h. */
const struct bench kb_mem[] = {
	KB_ROWS_MEM(KB_BENCH)
	KB_BENCH_END
};
