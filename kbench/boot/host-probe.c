// SPDX-License-Identifier: GPL-2.0
#include "host-probe.h"
#include "result.h"
#include "run-command.h"
#include "warn.h"

#include "tempfile.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* About 20 ms at 3 GHz: long against the clock's resolution, short against a tick. */
#define CLOCK_ADDS (1l << 26)

/* One run's lines "ARG COUNT NS" into ns[0..nr-1]; clock first. */
static int parse_run(const char *out, const struct strvec *ms, double *ns, double *clock_ns)
{
	const char *line = out;

	for (size_t i = 0; i <= ms->nr; i++) {
		char arg[64];
		long count;
		double t;
		const char *want = i ? ms->v[i - 1] : "clock";

		if (!line || sscanf(line, "%63s %ld %lf", arg, &count, &t) != 3 || !(t > 0) ||
		    strncmp(arg, want, strlen(want)))
			return error("the native probe's line %zu is not '%s COUNT NS'", i + 1,
				     want);
		if (i)
			ns[i - 1] = t;
		else
			*clock_ns = t;
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return 0;
}

static int run_once(const char *probe, const struct strvec *ms, double *ns, double *clock_ns)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int status, ret = -1;

	strvec_pushl(&cp.args, probe, "--native", NULL);
	strvec_pushf(&cp.args, "clock:%ld", CLOCK_ADDS);
	for (size_t i = 0; i < ms->nr; i++)
		strvec_push(&cp.args, ms->v[i]);
	status = capture_command(&cp, &out);
	if (status >= 0 && !status_ok(status))
		error("the native probe %s failed (%s %d)", probe,
		      WIFSIGNALED(status) ? "signal" : "exit status",
		      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	else if (status >= 0)
		ret = parse_run(out.buf ? out.buf : "", ms, ns, clock_ns);
	strbuf_release(&out);
	child_process_clear(&cp);
	return ret;
}

int host_run_probe(struct host_run *h, const char *probe, const struct strvec *ms, int runs)
{
	double *all = xcalloc(ms->nr * (size_t)runs, sizeof(*all)), best = 0;
	int ret = 0;

	memset(h, 0, sizeof(*h));
	for (int r = 0; r < runs && !ret; r++) {
		double clock_ns = 0;

		ret = run_once(probe, ms, all + (size_t)r * ms->nr, &clock_ns);
		if (!ret && (!r || clock_ns < best))
			best = clock_ns;
	}
	if (!ret) {
		double *col = xcalloc((size_t)runs, sizeof(*col));

		h->nr = ms->nr;
		h->ns = xcalloc(ms->nr, sizeof(*h->ns));
		for (size_t i = 0; i < ms->nr; i++) {
			for (int r = 0; r < runs; r++)
				col[r] = all[(size_t)r * ms->nr + i];
			h->ns[i] = median_of(col, (size_t)runs);
		}
		h->ghz = CLOCK_ADDS / best;
		free(col);
	}
	free(all);
	return ret ? -1 : 0;
}

void host_run_release(struct host_run *h)
{
	free(h->ns);
	memset(h, 0, sizeof(*h));
}

#define ERR_TAIL 400	/* the end of a failed program's standard error shown */

static double seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Its standard error's last ERR_TAIL bytes into err. */
static void read_tail(const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 0) >= 0 && sb.len)
		strbuf_addstr(err, sb.buf + (sb.len > ERR_TAIL ? sb.len - ERR_TAIL : 0));
	strbuf_release(&sb);
}

int host_program_start(struct host_program *hp, char *const *argv, const char *stdin_path)
{
	struct child_process init = CHILD_PROCESS_INIT;

	hp->cp = init;
	hp->errpath = NULL;
	hp->cp.err = tempfile_create("kbench-", ".stderr", &hp->errpath);
	hp->cp.out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	hp->cp.in = stdin_path ? open(stdin_path, O_RDONLY | O_CLOEXEC) : -1;
	if (hp->cp.err >= 0 && hp->cp.out >= 0 && (!stdin_path || hp->cp.in >= 0)) {
		strvec_pushv(&hp->cp.args, argv);
		if (!start_command(&hp->cp))
			return 0;
	} else if (stdin_path && hp->cp.in < 0)
		error_errno("cannot read %s", stdin_path);
	host_program_end(hp, NULL);
	return -1;
}

void host_program_end(struct host_program *hp, struct strbuf *err)
{
	if (err && hp->errpath)
		read_tail(hp->errpath, err);
	if (hp->cp.in >= 0)
		close(hp->cp.in);
	if (hp->cp.out >= 0)
		close(hp->cp.out);
	if (hp->cp.err >= 0)
		close(hp->cp.err);
	if (hp->errpath)
		tempfile_remove(hp->errpath);
	hp->errpath = NULL;
	hp->cp.in = hp->cp.out = hp->cp.err = -1;
	child_process_clear(&hp->cp);
}

/*
 * The children's rusage before and after: kbench waits for one child at
 * a time, so the difference is that child's, as wait4 reports it.
 */
int host_run_program(char *const *argv, const char *stdin_path, double *user, double *sys,
		     struct strbuf *err)
{
	struct host_program hp;
	struct rusage before, after;
	int status;

	getrusage(RUSAGE_CHILDREN, &before);
	if (host_program_start(&hp, argv, stdin_path))
		return -1;
	status = finish_command(&hp.cp);
	getrusage(RUSAGE_CHILDREN, &after);
	*user = seconds(&after.ru_utime) - seconds(&before.ru_utime);
	*sys = seconds(&after.ru_stime) - seconds(&before.ru_stime);
	host_program_end(&hp, err);
	return status;
}

int host_cpus(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof(set), &set) ? (int)online : CPU_COUNT(&set);

	return online > 0 && online < n ? (int)online : n;
}

double host_branch_penalty(const struct host_curve *c)
{
	double p = (c->random - c->regular) / 0.5;

	return p > 0 ? p : 0;
}

/* The host's caches: what CPUID or sysfs says, and which of them said it. */
struct host_caches {
	struct kb_cache_geom l1i, l1d, l2, llc;
	char source[64];
};

static void put_cache(struct host_caches *hc, int level, int instruction,
		      const struct kb_cache_geom *g)
{
	struct kb_cache_geom *to = level == 1 ? (instruction ? &hc->l1i : &hc->l1d) :
				   level == 2 ? &hc->l2 : level == 3 ? &hc->llc : NULL;

	if (to && !to->size)
		*to = *g;
}

#if defined(__x86_64__) || defined(__i386__)
/* AMD's L2 and L3 associativity codes; 0 where the code gives no number. */
static const unsigned char amd_ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96,
					    128, 64 };

static void amd_legacy_cache(struct host_caches *hc, int level, int instruction,
			     unsigned long size, unsigned ways, unsigned line)
{
	struct kb_cache_geom g = { size, ways, line };

	if (size && line)
		put_cache(hc, level, instruction, &g);
}

/*
 * AMD's older leaves 0x80000005 (L1) and 0x80000006 (L2, L3), which VMs
 * without topology extensions still fill.
 */
static void amd_legacy_caches(struct host_caches *hc)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0x80000000, NULL) < 0x80000006)
		return;
	__cpuid(0x80000005, a, b, c, d);
	amd_legacy_cache(hc, 1, 0, (c >> 24) << 10, (c >> 16) & 0xff, c & 0xff);
	amd_legacy_cache(hc, 1, 1, (d >> 24) << 10, (d >> 16) & 0xff, d & 0xff);
	__cpuid(0x80000006, a, b, c, d);
	amd_legacy_cache(hc, 2, 0, (c >> 16) << 10, amd_ways[(c >> 12) & 15], c & 0xff);
	amd_legacy_cache(hc, 3, 0, (unsigned long)(d >> 18) << 19, amd_ways[(d >> 12) & 15],
			 d & 0xff);
	if (hc->l1d.size)
		snprintf(hc->source, sizeof(hc->source), "CPUID leaves 0x80000005-6 (AMD)");
}
#endif

/* Deterministic cache parameters: AMD's leaf 0x8000001d, Intel's leaf 4. */
static void cpuid_caches(struct host_caches *hc)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d, leaf = 4;
	char vendor[13] = "";

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
		leaf = 0x8000001d;
	if (__get_cpuid_max(leaf & 0x80000000, NULL) < leaf)
		return;
	for (unsigned i = 0; i < 16; i++) {
		struct kb_cache_geom g;

		__cpuid_count(leaf, i, a, b, c, d);
		if (!(a & 31))
			break;
		g.line = (b & 0xfff) + 1;
		g.ways = (b >> 22) + 1;
		g.size = g.ways * g.line * (((b >> 12) & 0x3ff) + 1) * ((unsigned long)c + 1);
		put_cache(hc, (a >> 5) & 7, (a & 31) == 2, &g);
	}
	if (hc->l1d.size)
		snprintf(hc->source, sizeof(hc->source), "CPUID leaf %#x (%s)", leaf, vendor);
	else if (leaf == 0x8000001d)
		amd_legacy_caches(hc);
#else
	(void)hc;
#endif
}

static unsigned long sysfs_number(const char *dir, const char *file)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	unsigned long v = 0;
	char *end;

	strbuf_addf(&path, "%s/%s", dir, file);
	if (strbuf_read_file(&sb, path.buf, 64) >= 0 && sb.buf) {
		v = strtoul(sb.buf, &end, 10);
		if (*end == 'K')
			v <<= 10;
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return v;
}

static void sysfs_caches(struct host_caches *hc)
{
	for (int i = 0; i < 10; i++) {
		struct strbuf dir = STRBUF_INIT, type = STRBUF_INIT;
		struct kb_cache_geom g;
		int level;

		strbuf_addf(&dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		g.size = sysfs_number(dir.buf, "size");
		g.ways = sysfs_number(dir.buf, "ways_of_associativity");
		g.line = sysfs_number(dir.buf, "coherency_line_size");
		level = (int)sysfs_number(dir.buf, "level");
		strbuf_addstr(&dir, "/type");
		if (g.size && g.ways && g.line && strbuf_read_file(&type, dir.buf, 64) >= 0 &&
		    type.buf)
			put_cache(hc, level, !strncmp(type.buf, "Instruction", 11), &g);
		strbuf_release(&dir);
		strbuf_release(&type);
	}
	if (hc->l1d.size)
		snprintf(hc->source, sizeof(hc->source), "sysfs (cpu0/cache)");
}

/* The processor's name (CPUID's brand string), "" where there is none. */
static void host_brand(char *buf, size_t len)
{
	char brand[49] = "";
#if defined(__x86_64__) || defined(__i386__)
	unsigned r[12];

	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000004) {
		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
		memcpy(brand, r, 48);
	}
#endif
	snprintf(buf, len, "%s", brand + strspn(brand, " "));
	buf[strcspn(buf, "\n")] = '\0';
	for (size_t n = strlen(buf); n && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
}

/*
 * What the profile's parser takes: at most 64 ways and a power of two of
 * sets (a VM or an odd part may report otherwise).  Says what it changed.
 */
static void fit_geom(struct kb_cache_geom *g, struct strbuf *note)
{
	unsigned long sets;

	if (!g->ways) {
		g->ways = 16;
		strbuf_addstr(note, "; no associativity given: 16 ways assumed");
	}
	if (g->ways > 64) {
		g->ways = 64;
		strbuf_addstr(note, "; at most 64 ways for the model");
	}
	sets = g->size / (g->ways * g->line);
	while (sets & (sets - 1))
		sets &= sets - 1;
	if (!sets)
		sets = 1;
	if (sets * g->ways * g->line != g->size) {
		g->size = sets * g->ways * g->line;
		strbuf_addstr(note, "; rounded down to a power of two of sets");
	}
}

static void add_cache(struct strbuf *out, const char *key, struct kb_cache_geom g,
		      const char *source)
{
	struct strbuf note = STRBUF_INIT;
	int shift;

	fit_geom(&g, &note);
	shift = g.size % (1ul << 20) ? g.size % 1024 ? 0 : 10 : 20;
	strbuf_addf(out, "%s = %lu%s %lu %lu", key, g.size >> shift,
		    shift == 20 ? "M" : shift ? "K" : "", g.ways, g.line);
	strbuf_addf(out, "  # %s%s\n", source, note.buf ? note.buf : "");
	strbuf_release(&note);
}

/* The working set well inside a level: the largest at most half its size, past from. */
static size_t plateau(const struct host_curve *c, unsigned long size, size_t from)
{
	size_t i = from;

	while (i + 1 < c->nr && c->bytes[i + 1] <= size / 2)
		i++;
	return i;
}

static size_t index_past(const struct host_curve *c, unsigned long size)
{
	size_t i = 0;

	while (i + 1 < c->nr && c->bytes[i] <= size)
		i++;
	return i;
}

static void add_bytes(struct strbuf *sb, unsigned long bytes)
{
	if (bytes >= 1ul << 20)
		strbuf_addf(sb, "%lu MiB", bytes >> 20);
	else
		strbuf_addf(sb, "%lu KiB", bytes >> 10);
}

/*
 * A level's latency: with the core's timing, a load's whole latency, the
 * chase's cycles a load there; without it, what the additive model adds
 * for a miss, over the hit (l1) whose cost is in cpi.  At least floor,
 * which the parser requires (latencies growing outwards).
 */
static double add_latency(struct strbuf *out, const char *key, const struct host_curve *c,
			  size_t at, ssize_t l1, double floor, const char *date)
{
	double v = c->per_load[at] - (l1 >= 0 ? c->per_load[l1] : 0);

	strbuf_addf(out, "%s = %.1f", key, v > floor ? v : floor);
	strbuf_addf(out, "  # measured on this host %s: the chase at ", date);
	add_bytes(out, c->bytes[at]);
	strbuf_addf(out, " (%.1f cycles a load)", c->per_load[at]);
	if (l1 >= 0) {
		strbuf_addstr(out, " minus at ");
		add_bytes(out, c->bytes[l1]);
		strbuf_addf(out, " (%.1f, an L1 hit)", c->per_load[l1]);
	}
	strbuf_addf(out, "%s\n", v < floor ? ", raised to the level before's" : "");
	return v > floor ? v : floor;
}

/* The latencies of the levels (l1_latency too when timed); l2_latency's value. */
static double add_latencies(struct strbuf *out, const struct host_curve *c,
			    const struct host_caches *hc, int timed, const char *date)
{
	size_t l1 = plateau(c, hc->l1d.size, 0);
	size_t l2 = plateau(c, hc->l2.size, index_past(c, hc->l1d.size));
	size_t llc = plateau(c, hc->llc.size, index_past(c, hc->l2.size));
	ssize_t minus = timed ? -1 : (ssize_t)l1;
	double v = 0, l2_latency;

	if (timed)
		v = add_latency(out, "l1_latency", c, l1, -1, 0, date);
	v = l2_latency = add_latency(out, "l2_latency", c, l2, minus, v, date);
	v = add_latency(out, "llc_latency", c, llc, minus, v, date);
	add_latency(out, "memory_latency", c, c->nr - 1, minus, v, date);
	if (c->bytes[c->nr - 1] <= hc->llc.size)
		strbuf_addstr(out, "#   (the probe's largest working set is inside the LLC CPUID "
			      "reports: llc_latency and memory_latency are not measured apart)\n");
	return l2_latency;
}

/*
 * The ping-pong's time per transfer is the whole load to use of a line
 * another core wrote, as the model's coherence_latency is.  At least
 * l2_latency, which the parser requires.
 */
static void add_coherence(struct strbuf *out, const struct host_curve *c, double l2_latency,
			  const struct kb_profile *base, const char *base_path, const char *date)
{
	if (!(c->transfer > 0)) {
		int raise = base->coherence_latency < l2_latency;

		strbuf_addf(out, "coherence_latency = %g  # %s's%s: not measured, only one CPU "
			    "available\n", raise ? l2_latency : base->coherence_latency,
			    base_path, raise ? ", raised to l2_latency" : "");
		return;
	}
	strbuf_addf(out, "coherence_latency = %.1f  # measured on this host %s: a line bounced "
		    "between two cores, %.1f cycles (%.0f ns) a transfer%s\n",
		    c->transfer > l2_latency ? c->transfer : l2_latency, date, c->transfer,
		    c->transfer / c->ghz, c->transfer < l2_latency ? ", raised to l2_latency" : "");
}

/*
 * An LLC as large as the chase's largest working set or larger (a VM's
 * CPUID may report a socket's, or more) hides where memory begins.  The
 * curve shows it: past the L2, its steepest step (at least twice the
 * cycles a load) is the level's end.  The largest working set before that
 * step becomes the LLC's size, said in source.
 */
static void fit_llc(struct host_caches *hc, const struct host_curve *c, struct strbuf *source)
{
	size_t from = index_past(c, hc->l2.size), step = 0;
	double best = 2;

	if (c->bytes[c->nr - 1] > hc->llc.size)
		return;
	for (size_t i = from + 1; i < c->nr; i++)
		if (c->per_load[i] >= best * c->per_load[i - 1]) {
			best = c->per_load[i] / c->per_load[i - 1];
			step = i;
		}
	if (!step)
		return;
	strbuf_addf(source, "%s reports ", hc->source);
	add_bytes(source, hc->llc.size);
	strbuf_addstr(source, "; the chase steps from ");
	add_bytes(source, c->bytes[step - 1]);
	strbuf_addf(source, " (%.1f cycles a load) to ", c->per_load[step - 1]);
	add_bytes(source, c->bytes[step]);
	strbuf_addf(source, " (%.1f): the level as this host's loads see it", c->per_load[step]);
	hc->llc.size = c->bytes[step - 1];
}

/* The base's front end, each part it has: none of it is measured here. */
static void add_front_end(struct strbuf *out, const struct kb_profile *p, const char *base_path)
{
	strbuf_addf(out, "# The front end is %s's, not measured here.\n", base_path);
	if (p->fetch_bytes)
		strbuf_addf(out, "fetch_bytes = %lu\n", p->fetch_bytes);
	if (p->fetch_windows)
		strbuf_addf(out, "fetch_windows = %lu\n", p->fetch_windows);
	if (p->btb1[0])
		strbuf_addf(out, "btb1 = %lu %lu %lu\nbtb_redirect = %g\n", p->btb1[0], p->btb1[1],
			    p->btb1[2], p->btb_redirect);
	if (p->btb2[0])
		strbuf_addf(out, "btb2 = %lu %lu %lu\n", p->btb2[0], p->btb2[1], p->btb2[2]);
	if (p->prefetch)
		strbuf_addf(out, "prefetch = %lu\n", p->prefetch);
	if (p->fetch_misses)
		strbuf_addf(out, "fetch_misses = %lu\n", p->fetch_misses);
	if (p->itlb[0])
		strbuf_addf(out, "itlb = %lu %lu %lu %lu\n", p->itlb[0], p->itlb[1], p->itlb[2],
			    p->itlb[3]);
	if (p->dtlb[0])
		strbuf_addf(out, "dtlb = %lu %lu %lu %lu\n", p->dtlb[0], p->dtlb[1], p->dtlb[2],
			    p->dtlb[3]);
	if (p->itlb[0] || p->dtlb[0])
		strbuf_addf(out, "tlb_latency = %g\n", p->tlb_latency);
}

int host_profile(struct strbuf *out, const struct host_curve *c, const struct kb_profile *base,
		 const char *base_path)
{
	struct strbuf llc_source = STRBUF_INIT;
	struct host_caches hc = { 0 };
	char date[32], brand[49];
	time_t now = time(NULL);
	int no_l3, timed = base->width > 0;
	double wait, penalty;

	cpuid_caches(&hc);
	if (!hc.l1d.size || !hc.l1i.size || !hc.l2.size)
		sysfs_caches(&hc);
	if (!hc.l1d.size || !hc.l1i.size || !hc.l2.size)
		return error("neither CPUID nor sysfs describes this host's L1 and L2 caches");
	no_l3 = !hc.llc.size;
	if (no_l3)
		hc.llc = hc.l2;
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	host_brand(brand, sizeof(brand));
	strbuf_addf(out, "# This host as the cost model's machine: `kbench calibrate --native\n"
		    "# --profile-out` on %s, the core clock measured at %.2f GHz.\n", date,
		    c->ghz);
	strbuf_addf(out, "name = host %.50s\n", *brand ? brand : "(no CPUID brand)");
	strbuf_addf(out, "cpi = %g  # %s's: the probes time dependent chains, not throughput, "
		    "so no honest fit\n", base->cpi, base_path);
	if (timed)
		strbuf_addf(out, "# The core's width and window are %s's, not measurable here.\n"
			    "width = %lu\nrob = %lu\n", base_path, base->width, base->rob);
	add_cache(out, "l1i", hc.l1i, hc.source);
	add_cache(out, "l1d", hc.l1d, hc.source);
	add_cache(out, "l2", hc.l2, hc.source);
	if (!no_l3)
		fit_llc(&hc, c, &llc_source);
	add_cache(out, "llc", hc.llc, no_l3 ? "no level 3: the L2's" :
		  llc_source.len ? llc_source.buf : hc.source);
	strbuf_release(&llc_source);
	add_coherence(out, c, add_latencies(out, c, &hc, timed, date), base, base_path, date);
	wait = timed ? c->per_load[plateau(c, hc.l1d.size, 0)] + 2 : 0;
	penalty = host_branch_penalty(c) > wait ? host_branch_penalty(c) - wait : 0;
	strbuf_addf(out, "branch_penalty = %.1f  # measured on this host %s: (random - regular "
		    "loop's cycles a pass, %.2f - %.2f) / 0.5", penalty, date, c->random,
		    c->regular);
	if (timed)
		strbuf_addf(out, ", less the %.1f cycles its branch waits for its load and compare "
			    "(l1_latency + 2), which the core's timing counts itself", wait);
	strbuf_addch(out, '\n');
	strbuf_addf(out, "# The predictor's sizes are the model's own, not measurable here: "
		    "%s's.\nbp_history = %lu\nbtb_entries = %lu\nras_depth = %lu\n", base_path,
		    base->bp_history, base->btb_entries, base->ras_depth);
	if (base->tage[0])
		strbuf_addf(out, "tage = %lu %lu %lu %lu\n", base->tage[0], base->tage[1],
			    base->tage[2], base->tage[3]);
	if (timed && kb_profile_front_end(base))
		add_front_end(out, base, base_path);
	return 0;
}
