// SPDX-License-Identifier: GPL-2.0
#include "profile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { NAME, REAL, COUNT, CACHE, TIER, TLB, OPCACHE, TAGE };

struct key {
	const char *name;
	enum kind kind;
	size_t off;
};

#define K(n, kind) { #n, kind, offsetof(struct kb_profile, n) }
static const struct key keys[] = {
	/* The front end's keys first: later additions, each optional (see optional()). */
	K(fetch_bytes, COUNT), K(fetch_windows, COUNT), K(btb1, TIER), K(btb2, TIER),
	K(btb_redirect, REAL), K(prefetch, COUNT), K(fetch_misses, COUNT), K(itlb, TLB),
	K(dtlb, TLB), K(tlb_latency, REAL), K(opcache, OPCACHE),
	K(name, NAME), K(cpi, REAL),
	K(l1i, CACHE), K(l1d, CACHE), K(l2, CACHE), K(llc, CACHE),
	K(l2_latency, REAL), K(llc_latency, REAL), K(memory_latency, REAL),
	K(coherence_latency, REAL), K(branch_penalty, REAL),
	K(bp_history, COUNT), K(btb_entries, COUNT), K(ras_depth, COUNT),
	K(width, COUNT), K(rob, COUNT), K(l1_latency, REAL), K(tage, TAGE),
};
#define NKEYS (sizeof(keys) / sizeof(*keys))
/* keys[0..NFRONT) are the front end's. */
#define NFRONT 11

struct parse {
	const char *path;
	int line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(const struct parse *ps, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (ps->line)
		n = (size_t)snprintf(ps->err, ps->errlen, "%s:%d: ", ps->path, ps->line);
	else
		n = (size_t)snprintf(ps->err, ps->errlen, "%s: ", ps->path);
	if (n < ps->errlen) {
		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_pow2(unsigned long v)
{
	return v && !(v & (v - 1));
}

/* A whole number with an optional K or M; 0 on a malformed one. */
static unsigned long number(const char *s, char **end)
{
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		return 0;
	v = strtoul(s, end, 10);
	if (errno || v > (1ul << 40))
		return 0;
	if (**end == 'K' || **end == 'M') {
		v <<= **end == 'K' ? 10 : 20;
		++*end;
	}
	return v;
}

static int parse_cache(const struct parse *ps, const char *key, const char *v,
		       struct kb_cache_geom *g)
{
	unsigned long f[3];
	char *end = (char *)v;

	for (int i = 0; i < 3; i++) {
		while (*end == ' ' || *end == '\t')
			end++;
		f[i] = number(end, &end);
		if (!f[i] || (*end && *end != ' ' && *end != '\t'))
			return fail(ps, "%s takes SIZE WAYS LINE (e.g. 32K 8 64), not '%s'",
				    key, v);
	}
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return fail(ps, "%s takes SIZE WAYS LINE (e.g. 32K 8 64), not '%s'", key, v);
	g->size = f[0];
	g->ways = f[1];
	g->line = f[2];
	if (!is_pow2(g->line) || g->line < 8 || g->line > 4096)
		return fail(ps, "%s: the line size must be a power of two from 8 to 4096, not %lu",
			    key, g->line);
	if (g->size % (g->ways * g->line) || !is_pow2(g->size / (g->ways * g->line)))
		return fail(ps, "%s: SIZE / (WAYS x LINE) must be a power of two (the number of "
			    "sets), not %lu / (%lu x %lu)", key, g->size, g->ways, g->line);
	if (g->ways > 64)
		return fail(ps, "%s: at most 64 ways, not %lu", key, g->ways);
	return 0;
}

/*
 * n whole numbers, the last one (a bubble) may be 0; a TLB's too are
 * checked as caches of pages (the sets a power of two).
 */
static int parse_numbers(const struct parse *ps, const struct key *k, const char *v,
			 unsigned long *f, int n, const char *form)
{
	char *end = (char *)v;

	for (int i = 0; i < n; i++) {
		while (*end == ' ' || *end == '\t')
			end++;
		int zero_ok = k->kind == TIER && i == n - 1 && *end == '0';

		f[i] = zero_ok ? (end++, 0) : number(end, &end);
		if ((!f[i] && !zero_ok) || (*end && *end != ' ' && *end != '\t'))
			return fail(ps, "%s takes %s, not '%s'", k->name, form, v);
	}
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return fail(ps, "%s takes %s, not '%s'", k->name, form, v);
	for (int i = 0; k->kind != TAGE && i + 1 < n; i += 2)
		if (f[i] % f[i + 1] || !is_pow2(f[i] / f[i + 1]) || f[i + 1] > 256)
			return fail(ps, "%s: ENTRIES / WAYS must be a power of two (the number of "
				    "sets) and WAYS at most 256, not %lu / %lu", k->name, f[i],
				    f[i + 1]);
	return 0;
}

/* TAGE's tables: as many as the model keeps, each indexed by 6 to 20 bits. */
static int parse_tage(const struct parse *ps, const struct key *k, const char *v,
		      unsigned long *f)
{
	if (parse_numbers(ps, k, v, f, 4, "TABLES BITS MIN MAX (e.g. 8 11 4 640)"))
		return -1;
	if (f[0] > 16 || f[1] < 6 || f[1] > 15)
		return fail(ps, "tage takes 1 to 16 tables of 6 to 15 index bits, not %lu of %lu",
			    f[0], f[1]);
	if (f[2] < 2 || f[3] < f[2] || f[3] > 2048 || (f[0] > 1 && f[3] == f[2]))
		return fail(ps, "tage's histories run from MIN to a longer MAX, 2 to 2048 "
			    "outcomes, not %lu to %lu", f[2], f[3]);
	return 0;
}

static int parse_value(const struct parse *ps, const struct key *k, const char *v,
		       struct kb_profile *p)
{
	char *base = (char *)p + k->off, *end;

	switch (k->kind) {
	case NAME:
		if (!*v || strlen(v) >= sizeof(p->name))
			return fail(ps, "name takes 1 to %zu characters", sizeof(p->name) - 1);
		strcpy(p->name, v);
		return 0;
	case REAL: {
		double d;

		errno = 0;
		d = strtod(v, &end);
		if (errno || end == v || *end || !(d >= 0) || d > 1e6)
			return fail(ps, "%s takes a number of cycles from 0 to 1000000, not '%s'",
				    k->name, v);
		*(double *)base = d;
		return 0;
	}
	case COUNT: {
		unsigned long n = number(v, &end);

		if (!n || *end || n > (1ul << 24))
			return fail(ps, "%s takes a whole number from 1 to 16777216, not '%s'",
				    k->name, v);
		if (k->off == offsetof(struct kb_profile, bp_history) && n > 30)
			return fail(ps, "bp_history takes 1 to 30 bits, not %lu", n);
		*(unsigned long *)base = n;
		return 0;
	}
	case CACHE:
		return parse_cache(ps, k->name, v, (struct kb_cache_geom *)(void *)base);
	case TIER:
		return parse_numbers(ps, k, v, (unsigned long *)(void *)base, 3,
				     "ENTRIES WAYS BUBBLE (e.g. 1536 6 0)");
	case OPCACHE:
		return parse_numbers(ps, k, v, (unsigned long *)(void *)base, 3,
				     "WINDOWS WAYS PER_CYCLE (e.g. 512 8 2)");
	case TLB:
		return parse_numbers(ps, k, v, (unsigned long *)(void *)base, 4,
				     "L1ENTRIES L1WAYS L2ENTRIES L2WAYS (e.g. 64 64 512 8)");
	case TAGE:
		return parse_tage(ps, k, v, (unsigned long *)(void *)base);
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_line(struct parse *ps, char *buf, struct kb_profile *p, int *seen)
{
	char *s = buf, *eq, *key, *val;
	size_t i;

	s[strcspn(s, "#")] = '\0';
	s = trim(s);
	if (!*s)
		return 0;
	eq = strchr(s, '=');
	if (!eq)
		return fail(ps, "expected 'key = value', not '%s'", s);
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	for (i = 0; i < NKEYS && strcmp(keys[i].name, key); i++)
		;
	if (i == NKEYS)
		return fail(ps, "unknown key '%s'", key);
	if (seen[i])
		return fail(ps, "'%s' given twice (first on line %d)", key, seen[i]);
	seen[i] = ps->line;
	return parse_value(ps, &keys[i], val, p);
}

/* The line a key was given on (check_whole's errors about one key name it). */
static int line_of(const char *key, const int *seen)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, key))
			return seen[i];
	return 0;
}

/* Keys a profile may leave out: later additions, which older profiles lack. */
static int optional(const char *key)
{
	static const char *const later[] = { "coherence_latency", "width", "rob", "l1_latency",
					     "tage", NULL };

	for (const char *const *k = later; *k; k++)
		if (!strcmp(*k, key))
			return 1;
	for (size_t i = 0; i < NFRONT; i++)
		if (!strcmp(keys[i].name, key))
			return 1;
	return 0;
}

/* The front end's keys that go together, and what they need. */
/*
 * Without the core's timing they change nothing (the additive formula has
 * no front end): a profile stripped of width, rob and l1_latency for it
 * still loads.
 */
static int check_front_end(struct parse *ps, const struct kb_profile *p, const int *seen)
{
	ps->line = 0;
	if (!!line_of("btb1", seen) != !!line_of("btb_redirect", seen) ||
	    (line_of("btb2", seen) && !line_of("btb1", seen)))
		return fail(ps, "btb1 and btb_redirect go together (btb2 only with them)");
	if (!!(line_of("itlb", seen) || line_of("dtlb", seen)) != !!line_of("tlb_latency", seen))
		return fail(ps, "itlb or dtlb and tlb_latency go together");
	ps->line = line_of("fetch_bytes", seen);
	if (p->fetch_bytes && (!is_pow2(p->fetch_bytes) || p->fetch_bytes < 16 ||
			       p->fetch_bytes > p->l1i.line))
		return fail(ps, "fetch_bytes must be a power of two from 16 to l1i's line (%lu), "
			    "not %lu", p->l1i.line, p->fetch_bytes);
	ps->line = line_of("fetch_windows", seen);
	if (p->fetch_windows && !p->fetch_bytes)
		return fail(ps, "fetch_windows needs fetch_bytes");
	if (p->fetch_windows && p->width && p->fetch_windows > p->width)
		return fail(ps, "fetch_windows takes at most width (%lu) windows, not %lu",
			    p->width, p->fetch_windows);
	ps->line = line_of("prefetch", seen);
	if (p->prefetch > 256)
		return fail(ps, "prefetch takes 1 to 256 blocks, not %lu", p->prefetch);
	ps->line = line_of("opcache", seen);
	if (p->opcache[0] && (!p->fetch_bytes || !p->opcache[2] || p->opcache[2] > 8))
		return fail(ps, "opcache needs fetch_bytes, and takes 1 to 8 windows a cycle");
	ps->line = line_of("fetch_misses", seen);
	if (p->fetch_misses && (!p->prefetch || p->fetch_misses > 64))
		return fail(ps, "fetch_misses needs prefetch, and takes 1 to 64, not %lu",
			    p->fetch_misses);
	ps->line = 0;
	return 0;
}

int kb_profile_front_end(const struct kb_profile *p)
{
	return p->fetch_bytes || p->prefetch || p->btb1[0] || p->itlb[0] || p->dtlb[0];
}

static int check_whole(struct parse *ps, struct kb_profile *p, const int *seen)
{
	ps->line = 0;
	int timing = !!line_of("width", seen) + !!line_of("rob", seen) +
		     !!line_of("l1_latency", seen);

	for (size_t i = 0; i < NKEYS; i++)
		if (!seen[i] && !optional(keys[i].name))
			return fail(ps, "no '%s' line (a profile names every key)", keys[i].name);
	if (timing && timing < 3)
		return fail(ps, "width, rob and l1_latency go together (the core's timing), or "
			    "none of them");
	ps->line = line_of("rob", seen);
	if (timing && (p->width > 16 || p->rob < p->width))
		return fail(ps, "the core's timing needs width from 1 to 16 and rob at least "
			    "width, not %lu and %lu", p->width, p->rob);
	ps->line = line_of("l1_latency", seen);
	if (timing && p->l1_latency > p->l2_latency)
		return fail(ps, "the latencies must grow outwards (l1 <= l2 <= llc <= memory)");
	if (check_front_end(ps, p, seen))
		return -1;
	ps->line = 0;
	/*
	 * Profiles written before the key (calibrate --profile-out's too)
	 * still load: another core's line then costs what an LLC hit does.
	 */
	if (!line_of("coherence_latency", seen))
		p->coherence_latency = p->llc_latency;
	if (p->l1i.line != p->l1d.line || p->l2.line < p->l1d.line || p->llc.line < p->l2.line)
		return fail(ps, "the line sizes must grow outwards (l1i = l1d <= l2 <= llc)");
	if (p->llc_latency < p->l2_latency || p->memory_latency < p->llc_latency)
		return fail(ps, "the latencies must grow outwards (l2 <= llc <= memory)");
	/* Another core's line comes from beyond the L2, not always beyond the LLC. */
	ps->line = line_of("coherence_latency", seen);
	if (p->coherence_latency < p->l2_latency)
		return fail(ps, "coherence_latency (%g) must be at least l2_latency (%g): the line "
			    "comes from beyond the L2", p->coherence_latency, p->l2_latency);
	return 0;
}

int kb_profile_load(struct kb_profile *p, const char *path, char *err, size_t errlen)
{
	struct parse ps = { path, 0, err, errlen };
	int seen[NKEYS] = { 0 }, ret = 0;
	char buf[1024];
	FILE *f = fopen(path, "r");

	memset(p, 0, sizeof(*p));
	if (!f)
		return fail(&ps, "cannot read the profile: %s", strerror(errno));
	while (!ret && fgets(buf, sizeof(buf), f)) {
		ps.line++;
		if (!strchr(buf, '\n') && !feof(f))
			ret = fail(&ps, "line longer than %zu characters", sizeof(buf) - 2);
		else
			ret = parse_line(&ps, buf, p, seen);
	}
	if (!ret && ferror(f))
		ret = fail(&ps, "read error");
	fclose(f);
	return ret ? ret : check_whole(&ps, p, seen);
}
