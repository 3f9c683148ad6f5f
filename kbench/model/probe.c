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
 *
 * Built a second time with KB_PROBE_NATIVE (kbench-probe-native), it takes
 * --native first (`kbench calibrate --native`, no QEMU) and times each
 * measurement itself, pinned to the CPU it starts on, and prints a line
 * "ARG COUNT NANOSECONDS" for each; one more measurement is then allowed:
 *
 *   clock:ADDS            ADDS dependent integer adds (one cycle each on
 *                         any current core), the best of five trials:
 *                         the core's clock, which the TSC does not tell
 *   pingpong:ROUNDS       a line bounced ROUNDS times there and back
 *                         between this CPU and another core's (a thread
 *                         pinned there), the best of twenty trials: twice
 *                         ROUNDS transfers of a line another core wrote
 *
 * The markers are no-op instructions natively (marker.h).  The clock
 * readings sit outside them, and the model's build has none of it: its
 * code and its memory's addresses (which decide conflict misses) stay the
 * same.
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

#ifdef KB_PROBE_NATIVE
static void lap(void);
#else
#define lap() do { } while (0)
#endif

static int chase(size_t bytes, long loads)
{
	size_t lines = bytes / LINE;
	void **mem = lines >= 2 ? make_cycle(lines) : NULL, **p;

	if (!mem)
		return -1;
	p = mem;
	for (size_t i = 0; i < lines; i++)
		p = *p;
	lap();
	kb_mark_start();
	for (long i = 0; i < loads; i++)
		p = *p;
	kb_mark_end();
	lap();
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
	lap();
	kb_mark_start();
	for (long i = 0; i < iters; i++) {
		if (bit[i]) {
			/* Keeps the branch a branch: no conditional move for this. */
			__asm__ volatile("");
			taken++;
		}
	}
	kb_mark_end();
	lap();
	sink = (void *)taken;
	free(bit);
	return 0;
}

#ifdef KB_PROBE_NATIVE
#include <pthread.h>
#include <sched.h>
#include <time.h>

#define CLOCK_TRIALS 5
#define ADDS_PER_PASS 64
#define PINGPONG_TRIALS 20

static int native;
static double timed_ns;	/* the last measurement's, natively */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Natively the time since the previous call; under the model nothing. */
static void lap(void)
{
	static double t0;

	if (native) {
		double t = now_ns();

		timed_ns = t - t0;
		t0 = t;
	}
}

/* passes x ADDS_PER_PASS adds, each waiting for the one before it. */
static void add_chain(long passes)
{
	unsigned long x = 0;

#if defined(__x86_64__)
	unsigned long one = 1;

	/*
	 * A register operand, not an immediate: Intel's cores since Golden
	 * Cove fold a chain of immediate adds at rename, several a cycle (a
	 * Xeon of that family measured 20 GHz with them, 3.7 with these).
	 */
	__asm__ volatile("1:\n\t.rept 64\n\tadd %2, %0\n\t.endr\n\tdec %1\n\tjnz 1b"
			 : "+r"(x), "+r"(passes) : "r"(one) : "cc");
#elif defined(__aarch64__)
	__asm__ volatile("1:\n\t.rept 64\n\tadd %0, %0, #1\n\t.endr\n\t"
			 "subs %1, %1, #1\n\tb.ne 1b" : "+r"(x), "+r"(passes) : : "cc");
#else
	for (long i = 0; i < passes * ADDS_PER_PASS; i++)
		__asm__ volatile("" : "+r"(x));
#endif
	sink = (void *)x;
}

/* The fastest of a few trials: the others met an interrupt or a slower clock. */
static int core_clock(long adds)
{
	double best = 0;

	for (int t = 0; t < CLOCK_TRIALS; t++) {
		lap();
		add_chain(adds / ADDS_PER_PASS);
		lap();
		if (!t || timed_ns < best)
			best = timed_ns;
	}
	timed_ns = best;
	return 0;
}

static cpu_set_t allowed;	/* the CPUs the probe may use, before pin() */

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* One CPU throughout: a migration would restart the caches mid-chase. */
static void pin(void)
{
	int cpu = sched_getcpu();

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	if (cpu >= 0)
		pin_to(cpu);
}

/* A topology number of cpu from sysfs, or -1. */
static int topology(int cpu, const char *what)
{
	char path[96];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * The CPU to bounce a line with: another core of this package (an SMT
 * sibling shares the L1 and L2: no transfer), else any other; -1 if none.
 */
static int partner_cpu(int cpu)
{
	int core = topology(cpu, "core_id"), pkg = topology(cpu, "physical_package_id");
	int best = -1, best_rank = 3;

	for (int c = 0; c < CPU_SETSIZE; c++) {
		int rank;

		if (c == cpu || !CPU_ISSET(c, &allowed))
			continue;
		if (topology(c, "physical_package_id") != pkg)
			rank = 1;
		else
			rank = topology(c, "core_id") == core && core >= 0 ? 2 : 0;
		if (rank < best_rank) {
			best = c;
			best_rank = rank;
		}
	}
	return best;
}

/* The line bounced: odd values are the prober's, even the partner's. */
static struct {
	unsigned long n;
	char pad[LINE - sizeof(unsigned long)];
} ball __attribute__((aligned(LINE)));
static int partner_state __attribute__((aligned(LINE)));	/* 1 pinned, -1 not */
static long bounces;	/* the partner's: every trial's rounds */
static int partner_at;

static void *partner(void *arg)
{
	int pinned = !pin_to(partner_at);

	(void)arg;
	__atomic_store_n(&partner_state, pinned ? 1 : -1, __ATOMIC_RELEASE);
	for (unsigned long i = 0; pinned && i < (unsigned long)bounces; i++) {
		while (__atomic_load_n(&ball.n, __ATOMIC_ACQUIRE) != 2 * i + 1)
			;
		__atomic_store_n(&ball.n, 2 * i + 2, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* rounds there and back, from the value next on; the value after them. */
static unsigned long bounce(unsigned long next, long rounds)
{
	for (long i = 0; i < rounds; i++, next += 2) {
		__atomic_store_n(&ball.n, next, __ATOMIC_RELEASE);
		while (__atomic_load_n(&ball.n, __ATOMIC_ACQUIRE) != next + 1)
			;
	}
	return next;
}

/* The fastest trial: the others lost a CPU to other work midway. */
static int pingpong(long rounds)
{
	pthread_t t;
	unsigned long next = 1;
	double best = 0;

	partner_at = partner_cpu(sched_getcpu());
	if (partner_at < 0) {
		fprintf(stderr, "kbench-probe: pingpong needs a second CPU\n");
		return -1;
	}
	bounces = (PINGPONG_TRIALS + 1) * rounds;
	partner_state = 0;
	if (pthread_create(&t, NULL, partner, NULL))
		return -1;
	while (!__atomic_load_n(&partner_state, __ATOMIC_ACQUIRE))
		sched_yield();
	if (partner_state < 0) {
		pthread_join(t, NULL);
		fprintf(stderr, "kbench-probe: cannot run a thread on CPU %d\n", partner_at);
		return -1;
	}
	next = bounce(next, rounds);	/* both threads running, the line warm */
	for (int i = 0; i < PINGPONG_TRIALS; i++) {
		lap();
		next = bounce(next, rounds);
		lap();
		if (!i || timed_ns < best)
			best = timed_ns;
	}
	pthread_join(t, NULL);
	timed_ns = best;
	return 0;
}

/* The count a measurement's line reports: loads, passes or adds. */
static long count_of(const char *arg)
{
	const char *c = strrchr(arg, ':');

	return c ? atol(c + 1) : 0;
}

#endif

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
#ifdef KB_PROBE_NATIVE
	if (native && sscanf(arg, "clock:%ld", &n) == 1 && n >= ADDS_PER_PASS)
		return core_clock(n);
	if (native && sscanf(arg, "pingpong:%ld", &n) == 1 && n > 0 && n <= (1l << 24))
		return pingpong(n);
#endif
	fprintf(stderr, "kbench-probe: bad measurement '%s' (chase:BYTES:LOADS, "
		"branch:regular|random:ITERS)\n", arg);
	return -1;
}

int main(int argc, char **argv)
{
	int i = 1;

#ifdef KB_PROBE_NATIVE
	if (argc > 1 && !strcmp(argv[1], "--native")) {
		native = 1;
		pin();
		i++;
	}
#endif
	for (; i < argc; i++) {
		if (task(argv[i])) {
			fprintf(stderr, "kbench-probe: %s failed\n", argv[i]);
			return 1;
		}
#ifdef KB_PROBE_NATIVE
		if (native)
			printf("%s %ld %.0f\n", argv[i], count_of(argv[i]), timed_ns);
#endif
	}
	return 0;
}
