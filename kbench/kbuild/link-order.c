// SPDX-License-Identifier: GPL-2.0
/*
 * Call-chain clustering (link-order.h).  A function's heat is the bytes
 * the record ran straight through in it; a call is a sampled branch to a
 * function's first instruction from another function.  Hottest first,
 * each function joins the end of its most frequent caller's cluster,
 * unless the two together would outgrow a cluster or thin the caller's
 * too much; then clusters go hottest per byte first.  Callee after
 * caller keeps the pair's lines and pages together, and the hot text in
 * as few pages as it fills.
 */
#include "link-order.h"

#include <stdlib.h>
#include <string.h>

/* A cluster no bigger than this: the hot text's pages, not all of the text. */
#define MAX_CLUSTER_BYTES (1u << 20)
/* A merge may leave a cluster a few times thinner, not more. */
#define MAX_THINNING 8

struct edge {
	long from, to;
	uint64_t n;
};

struct order_state {
	const struct kb_funcs *f;
	uint64_t *heat;
	long *caller;		/* each function's most frequent caller, or -1 */
	uint64_t *caller_n;
	long *head, *next, *tail;	/* clusters: head[f], members by next[], tail[head] */
	uint64_t *size, *weight;	/* by head */
};

/* Straight runs between two branches of a sample, as the autofdo text counts them. */
static void add_heat(struct order_state *s, const struct kb_branch *e, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		uint64_t start = e[i + 1].to, end = e[i].from;
		long fn;

		if (!end || start > end || (fn = funcs_find(s->f, start)) < 0)
			continue;
		s->heat[fn] += end - start + 1;
	}
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *p = a, *q = b;

	if (p->to != q->to)
		return p->to < q->to ? -1 : 1;
	return p->from < q->from ? -1 : p->from > q->from;
}

/* Each function's heaviest caller, from the calls the samples hold. */
static uint64_t find_callers(struct order_state *s, const struct kb_branches *b)
{
	struct edge *v = NULL;
	size_t nr = 0, alloc = 0;
	uint64_t calls = 0;

	for (size_t i = 0; i < b->nr_br; i++) {
		long from = b->br[i].from ? funcs_find(s->f, b->br[i].from) : -1;
		long to = funcs_find(s->f, b->br[i].to);

		if (from < 0 || to < 0 || from == to || s->f->v[to].addr != b->br[i].to)
			continue;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[nr++] = (struct edge){ from, to, 1 };
	}
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_edge);
	for (size_t i = 0, j; i < nr; i = j) {
		uint64_t n = 0;

		for (j = i; j < nr && !cmp_edge(&v[i], &v[j]); j++)
			n++;
		calls += n;
		if (n > s->caller_n[v[i].to]) {
			s->caller_n[v[i].to] = n;
			s->caller[v[i].to] = v[i].from;
		}
	}
	free(v);
	return calls;
}

static const struct order_state *sort_state;

static int cmp_heat(const void *a, const void *b)
{
	long p = *(const long *)a, q = *(const long *)b;
	uint64_t hp = sort_state->heat[p], hq = sort_state->heat[q];

	if (hp != hq)
		return hp > hq ? -1 : 1;
	return p < q ? -1 : p > q;
}

/* Cluster a's density beats b's: weight / size, compared without dividing. */
static int cmp_density(const void *a, const void *b)
{
	long p = *(const long *)a, q = *(const long *)b;
	const struct order_state *s = sort_state;
	unsigned __int128 x = (unsigned __int128)s->weight[p] * s->size[q];
	unsigned __int128 y = (unsigned __int128)s->weight[q] * s->size[p];

	if (x != y)
		return x > y ? -1 : 1;
	return p < q ? -1 : p > q;
}

/* b's cluster after a's, if that keeps within the limits. */
static void merge(struct order_state *s, long a, long b)
{
	uint64_t size = s->size[a] + s->size[b], weight = s->weight[a] + s->weight[b];

	if (size > MAX_CLUSTER_BYTES ||
	    (unsigned __int128)s->weight[a] * size >
	    (unsigned __int128)weight * s->size[a] * MAX_THINNING)
		return;
	s->next[s->tail[a]] = b;
	s->tail[a] = s->tail[b];
	for (long m = b; m >= 0; m = s->next[m])
		s->head[m] = a;
	s->size[a] = size;
	s->weight[a] = weight;
}

static void state_init(struct order_state *s, const struct kb_funcs *f)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->heat = xcalloc(f->nr, sizeof(*s->heat));
	s->caller = xcalloc(f->nr, sizeof(*s->caller));
	s->caller_n = xcalloc(f->nr, sizeof(*s->caller_n));
	s->head = xcalloc(f->nr, sizeof(*s->head));
	s->next = xcalloc(f->nr, sizeof(*s->next));
	s->tail = xcalloc(f->nr, sizeof(*s->tail));
	s->size = xcalloc(f->nr, sizeof(*s->size));
	s->weight = xcalloc(f->nr, sizeof(*s->weight));
	for (size_t i = 0; i < f->nr; i++) {
		s->caller[i] = -1;
		s->head[i] = s->tail[i] = (long)i;
		s->next[i] = -1;
		s->size[i] = f->v[i].size;
	}
}

static void state_release(struct order_state *s)
{
	free(s->heat);
	free(s->caller);
	free(s->caller_n);
	free(s->head);
	free(s->next);
	free(s->tail);
	free(s->size);
	free(s->weight);
}

void link_order(const struct kb_branches *b, const struct kb_funcs *f, struct strvec *names,
		struct link_order_stats *st)
{
	struct order_state s;
	long *hot = xcalloc(f->nr ? f->nr : 1, sizeof(*hot)), *heads;
	size_t nr = 0, nr_heads = 0;

	memset(st, 0, sizeof(*st));
	state_init(&s, f);
	for (size_t i = 0; i < b->nr; i++)
		add_heat(&s, b->br + b->first[i], b->first[i + 1] - b->first[i]);
	st->calls = find_callers(&s, b);
	for (size_t i = 0; i < f->nr; i++) {
		s.weight[i] = s.heat[i];
		if (s.heat[i])
			hot[nr++] = (long)i;
	}
	sort_state = &s;
	qsort(hot, nr, sizeof(*hot), cmp_heat);
	for (size_t i = 0; i < nr; i++) {
		long fn = hot[i], c = s.caller[fn];

		if (c >= 0 && s.heat[c] && s.head[c] != s.head[fn] && s.head[fn] == fn)
			merge(&s, s.head[c], fn);
	}
	heads = hot;	/* each hot function once: room for every head */
	for (size_t i = 0; i < nr; i++)
		if (s.head[hot[i]] == hot[i])
			heads[nr_heads++] = hot[i];
	qsort(heads, nr_heads, sizeof(*heads), cmp_density);
	for (size_t i = 0; i < nr_heads; i++)
		for (long m = heads[i]; m >= 0; m = s.next[m]) {
			strvec_push(names, f->v[m].name);
			st->functions++;
		}
	st->clusters = nr_heads;
	sort_state = NULL;
	free(hot);
	state_release(&s);
}
