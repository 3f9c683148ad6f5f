// SPDX-License-Identifier: GPL-2.0
/* LLVM's text sample profile to gcc 12's AFDO file (afdo.h). */
#include "afdo.h"
#include "atomic-file.h"
#include "protocol.h"
#include "tempfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* gcc's counters are signed 64-bit. */
#define MAX_COUNT ((uint64_t)INT64_MAX)
/* gcc keeps a line's offset in the upper half of a 32-bit word. */
#define MAX_OFFSET 0xffffu
/* Inline stacks deeper than any real one: the recursions below stay shallow. */
#define MAX_DEPTH 256

#define GCOV_DATA_MAGIC 0x67636461u	/* "gcda" */
#define AFDO_VERSION 2u
#define TAG_FILE_NAMES 0xaa000000u
#define TAG_FUNCTION 0xac000000u
/* gcc reads past this section's tag without looking at it. */
#define TAG_MODULE_GROUPING 0xae000000u
/* gcc's value-profile kind for indirect-call targets, the one it reads. */
#define HIST_TYPE_INDIR_CALL 3u

static void *grow(void *v, size_t *alloc, size_t nr, size_t size)
{
	if (nr < *alloc)
		return v;
	*alloc = *alloc ? 2 * *alloc : 8;
	return xrealloc(v, *alloc * size);
}

static uint64_t add(uint64_t a, uint64_t b)
{
	return a > MAX_COUNT - b ? MAX_COUNT : a + b;
}

/* The names: gcc's string table. */

/*
 * gcc 12 keeps a name only up to its first '.', its own names and the
 * profile's alike (foo.constprop.0 is foo), and finds one function of a
 * name.  LLVM's carry suffixes gcc's never do (.llvm.N of ThinLTO's
 * promoted statics, .__uniq.N of -funique-internal-linkage-names): cut
 * here, so that their functions are merged instead of all but one lost.
 */
static size_t base_len(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);

	return dot ? (size_t)(dot - s) : len;
}

static size_t find_slot(const struct afdo_names *n, const char *s, size_t len)
{
	size_t mask = n->nr_slots - 1;
	size_t i = kb_fnv1a((const unsigned char *)s, len) & mask;

	while (n->slots[i]) {
		const char *v = n->v[n->slots[i] - 1];

		if (strlen(v) == len && !memcmp(v, s, len))
			break;
		i = (i + 1) & mask;
	}
	return i;
}

static void rehash(struct afdo_names *n)
{
	free(n->slots);
	n->nr_slots = n->nr_slots ? 2 * n->nr_slots : 64;
	n->slots = xcalloc(n->nr_slots, sizeof(*n->slots));
	for (size_t i = 1; i < n->nr; i++)
		n->slots[find_slot(n, n->v[i], strlen(n->v[i]))] = (uint32_t)i + 1;
}

static uint32_t intern(struct afdo_names *n, const char *s, size_t len)
{
	size_t i;

	if (2 * (n->nr + 1) > n->nr_slots)
		rehash(n);
	i = find_slot(n, s, len);
	if (!n->slots[i]) {
		n->v = grow(n->v, &n->alloc, n->nr, sizeof(*n->v));
		n->v[n->nr++] = xstrndup(s, len);
		n->slots[i] = (uint32_t)n->nr;
	}
	return n->slots[i] - 1;
}

void afdo_init(struct afdo_profile *p)
{
	memset(p, 0, sizeof(*p));
	/*
	 * gcc 12 asserts that an indirect call's target is not name 0 (an
	 * internal compiler error): index 0 is a name no function has.
	 */
	p->names.v = grow(NULL, &p->names.alloc, 0, sizeof(char *));
	p->names.v[p->names.nr++] = xstrdup("");
}

static void fn_free(struct afdo_fn *f)
{
	for (size_t i = 0; i < f->nr_lines; i++)
		free(f->lines[i].targets);
	for (size_t i = 0; i < f->nr_sites; i++)
		fn_free(f->sites[i].fn);
	free(f->lines);
	free(f->sites);
	free(f);
}

void afdo_release(struct afdo_profile *p)
{
	for (size_t i = 0; i < p->nr_fns; i++)
		fn_free(p->fns[i]);
	for (size_t i = 0; i < p->names.nr; i++)
		free(p->names.v[i]);
	free(p->names.v);
	free(p->names.slots);
	free(p->fns);
	memset(p, 0, sizeof(*p));
}

/* The parser: one line at a time, the inline stack from the indentation. */

struct parse {
	struct afdo_profile *p;
	const char *in;
	unsigned long lineno;
	struct strbuf *err;
	struct afdo_fn *stack[MAX_DEPTH + 1];	/* [0]: the function of the header */
	size_t depth;				/* entries of stack in use */
};

__attribute__((format(printf, 2, 3)))
static int bad(struct parse *ps, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(ps->err, "%s:%lu: ", ps->in, ps->lineno);
	va_start(ap, fmt);
	strbuf_vaddf(ps->err, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal digits at *s, at most max; -1 if none or too many. */
static int number(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;

	if (!is_digit(*p))
		return -1;
	for (; is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	*s = p;
	return 0;
}

/* A count that is the rest of s (up to a blank when to_blank). */
static int count_at(const char **s, int to_blank, uint64_t *v)
{
	const char *p = *s;

	if (number(&p, MAX_COUNT, v) || (*p && !(to_blank && *p == ' ')))
		return -1;
	*s = p;
	return 0;
}

static int name_at(struct parse *ps, const char *s, size_t len, uint32_t *name)
{
	len = base_len(s, len);
	if (!len)
		return bad(ps, "an empty function name (before its first '.')");
	*name = intern(&ps->p->names, s, len);
	return 0;
}

static struct afdo_fn *fn_new(uint32_t name, uint64_t head, uint64_t total)
{
	struct afdo_fn *f = xcalloc(1, sizeof(*f));

	f->name = name;
	f->head = head;
	f->total = total;
	return f;
}

/* NAME:TOTAL:HEAD, NAME up to the last two colons (names may hold colons). */
static int parse_head(struct parse *ps, const char *s)
{
	const char *c2 = strrchr(s, ':'), *c1 = NULL, *q;
	struct afdo_profile *p = ps->p;
	uint64_t total, head;
	uint32_t name;

	if (*s == '[')
		return bad(ps, "a context-sensitive profile ('[caller @ callee]' headers): "
			   "gcc takes one function per header");
	for (q = s; c2 && q < c2; q++)
		if (*q == ':')
			c1 = q;
	if (!c1 || (q = c1 + 1, number(&q, MAX_COUNT, &total)) || q != c2 ||
	    (q = c2 + 1, count_at(&q, 0, &head)))
		return bad(ps, "expected a function's header NAME:TOTAL:HEAD");
	if (name_at(ps, s, (size_t)(c1 - s), &name))
		return -1;
	p->fns = grow(p->fns, &p->alloc_fns, p->nr_fns, sizeof(*p->fns));
	p->fns[p->nr_fns++] = ps->stack[0] = fn_new(name, head, total);
	ps->depth = 1;
	return 0;
}

/* The colon ending the target's name at s: the first one a count follows. */
static const char *target_colon(const char *s, const char **end, uint64_t *count)
{
	const char *c = strchr(s, ':');

	for (; c && c > s; c = strchr(c + 1, ':')) {
		*end = c + 1;
		if (!count_at(end, 1, count))
			return c;
	}
	return NULL;
}

/* The calls made at a line: " TARGET:COUNT" pairs. */
static int parse_targets(struct parse *ps, struct afdo_line *l, const char *s)
{
	for (s += strspn(s, " "); *s; s += strspn(s, " ")) {
		const char *end, *colon;
		uint64_t count;
		uint32_t name;

		colon = target_colon(s, &end, &count);
		if (!colon)
			return bad(ps, "expected call targets NAME:COUNT after the line's count");
		if (name_at(ps, s, (size_t)(colon - s), &name))
			return -1;
		l->targets = grow(l->targets, &l->alloc_targets, l->nr_targets,
				  sizeof(*l->targets));
		l->targets[l->nr_targets].name = name;
		l->targets[l->nr_targets++].count = count;
		s = end;
	}
	return 0;
}

static int parse_count_line(struct parse *ps, struct afdo_fn *f, uint32_t line, uint32_t disc,
			    const char *s)
{
	struct afdo_line *l;

	f->lines = grow(f->lines, &f->alloc_lines, f->nr_lines, sizeof(*f->lines));
	l = memset(&f->lines[f->nr_lines++], 0, sizeof(*l));
	l->line = line;
	l->disc = disc;
	if (count_at(&s, 1, &l->count))
		return bad(ps, "expected a count (0 to %llu)", (unsigned long long)MAX_COUNT);
	return parse_targets(ps, l, s);
}

/* CALLEE:TOTAL: a copy of CALLEE inlined there; its lines follow, deeper. */
static int parse_site(struct parse *ps, struct afdo_fn *f, uint32_t line, uint32_t disc,
		      const char *s)
{
	const char *colon = strrchr(s, ':'), *q = colon ? colon + 1 : NULL;
	uint64_t total;
	uint32_t name;

	if (!colon || count_at(&q, 0, &total))
		return bad(ps, "expected an inlined call site CALLEE:TOTAL");
	if (ps->depth > MAX_DEPTH)
		return bad(ps, "calls inlined more than %d deep", MAX_DEPTH);
	if (name_at(ps, s, (size_t)(colon - s), &name))
		return -1;
	f->sites = grow(f->sites, &f->alloc_sites, f->nr_sites, sizeof(*f->sites));
	f->sites[f->nr_sites].line = line;
	f->sites[f->nr_sites].disc = disc;
	f->sites[f->nr_sites++].fn = ps->stack[ps->depth++] = fn_new(name, 0, total);
	return 0;
}

/* OFFSET[.DISC]: then a line's count or an inlined call site. */
static int parse_body(struct parse *ps, const char *s)
{
	struct afdo_fn *f = ps->stack[ps->depth - 1];
	uint64_t line, disc = 0;

	if (number(&s, MAX_OFFSET, &line))
		return bad(ps, "expected a line offset (0 to %u)", MAX_OFFSET);
	if (*s == '.' && (++s, number(&s, UINT32_MAX, &disc)))
		return bad(ps, "expected a discriminator (0 to %u) after the '.'", UINT32_MAX);
	if (s[0] != ':' || s[1] != ' ')
		return bad(ps, "expected ': ' after the line offset");
	s += 2;
	if (is_digit(*s))
		return parse_count_line(ps, f, (uint32_t)line, (uint32_t)disc, s);
	return parse_site(ps, f, (uint32_t)line, (uint32_t)disc, s);
}

static int parse_line(struct parse *ps, const char *s)
{
	size_t depth = strspn(s, " ");

	if (!s[depth] || s[depth] == '#')
		return 0;
	if (!depth)
		return parse_head(ps, s);
	if (!ps->depth)
		return bad(ps, "a line of samples before any function's header");
	if (depth > ps->depth)
		return bad(ps, "indented %zu spaces where at most %zu can be "
			   "(one more than the inlined call site above)", depth, ps->depth);
	ps->depth = depth;
	/* Metadata (!CFGChecksum, !Attributes, !Flat): nothing gcc reads. */
	if (s[depth] == '!')
		return 0;
	return parse_body(ps, s + depth);
}

int afdo_parse(struct afdo_profile *p, const char *text, size_t len, const char *in,
	       struct strbuf *err)
{
	struct parse ps = { .p = p, .in = in, .err = err };
	struct strbuf line = STRBUF_INIT;
	const char *end = text + len;
	size_t before = p->nr_fns;
	int ret = 0;

	for (const char *s = text; s < end && !ret;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (nl ? nl : end) - s;

		ps.lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, s, n);
		if (memchr(s, '\0', n))
			ret = bad(&ps, "a NUL byte: not a text profile "
				  "(llvm-profdata merge --sample --text makes one)");
		else
			ret = parse_line(&ps, line.buf);
		s += n + 1;
	}
	strbuf_release(&line);
	if (!ret && p->nr_fns == before) {
		strbuf_addf(err, "%s: no function's samples in it", in);
		ret = -1;
	}
	return ret;
}

/* Merging what gcc 12 cannot tell apart. */

static int cmp_line(const void *a, const void *b)
{
	const struct afdo_line *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->disc < y->disc ? -1 : x->disc > y->disc;
}

static int cmp_target(const void *a, const void *b)
{
	const struct afdo_target *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

static int cmp_site(const void *a, const void *b)
{
	const struct afdo_site *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->fn->name < y->fn->name ? -1 : x->fn->name > y->fn->name;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct afdo_fn *x = *(struct afdo_fn *const *)a, *y = *(struct afdo_fn *const *)b;

	return x->name < y->name ? -1 : x->name > y->name;
}

static void take_targets(struct afdo_line *to, struct afdo_line *from)
{
	for (size_t i = 0; i < from->nr_targets; i++) {
		to->targets = grow(to->targets, &to->alloc_targets, to->nr_targets,
				   sizeof(*to->targets));
		to->targets[to->nr_targets++] = from->targets[i];
	}
	free(from->targets);
}

static void merge_targets(struct afdo_line *l)
{
	size_t n = 0;

	if (l->nr_targets)
		qsort(l->targets, l->nr_targets, sizeof(*l->targets), cmp_target);
	for (size_t i = 0; i < l->nr_targets; i++) {
		if (n && l->targets[n - 1].name == l->targets[i].name)
			l->targets[n - 1].count = add(l->targets[n - 1].count, l->targets[i].count);
		else
			l->targets[n++] = l->targets[i];
	}
	l->nr_targets = n;
}

/* Runs of equal lines become one: equal by line and discriminator, or by line. */
static void squeeze_lines(struct afdo_fn *f, int by_line)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nr_lines; i++) {
		struct afdo_line *l = &f->lines[i], *k = n ? &f->lines[n - 1] : NULL;

		if (k && k->line == l->line && (by_line || k->disc == l->disc)) {
			if (!by_line)
				k->count = add(k->count, l->count);
			else if (l->count > k->count)
				k->count = l->count;
			take_targets(k, l);
		} else {
			f->lines[n++] = *l;
		}
	}
	f->nr_lines = n;
}

/*
 * Equal lines (one line and discriminator, as in copies of one function)
 * add up.  Then a line's discriminators become one: gcc 12 locates every
 * statement by its line alone, and of a line's several records it keeps
 * the last it reads.  LLVM counts a block, and a line its hottest block;
 * so the line keeps the largest count, and all its calls.
 */
static void merge_lines(struct afdo_fn *f)
{
	if (f->nr_lines)
		qsort(f->lines, f->nr_lines, sizeof(*f->lines), cmp_line);
	squeeze_lines(f, 0);
	squeeze_lines(f, 1);
	for (size_t i = 0; i < f->nr_lines; i++) {
		f->lines[i].disc = 0;
		merge_targets(&f->lines[i]);
	}
}

/* from's samples added to to's; from freed. */
static void take_fn(struct afdo_fn *to, struct afdo_fn *from)
{
	to->head = add(to->head, from->head);
	to->total = add(to->total, from->total);
	for (size_t i = 0; i < from->nr_lines; i++) {
		to->lines = grow(to->lines, &to->alloc_lines, to->nr_lines, sizeof(*to->lines));
		to->lines[to->nr_lines++] = from->lines[i];
	}
	for (size_t i = 0; i < from->nr_sites; i++) {
		to->sites = grow(to->sites, &to->alloc_sites, to->nr_sites, sizeof(*to->sites));
		to->sites[to->nr_sites++] = from->sites[i];
	}
	free(from->lines);
	free(from->sites);
	free(from);
}

static void merge_fn(struct afdo_fn *f);

/* gcc 12 finds an inlined copy by its line and callee, never its discriminator. */
static void merge_sites(struct afdo_fn *f)
{
	size_t n = 0;

	if (f->nr_sites)
		qsort(f->sites, f->nr_sites, sizeof(*f->sites), cmp_site);
	for (size_t i = 0; i < f->nr_sites; i++) {
		struct afdo_site *s = &f->sites[i], *k = n ? &f->sites[n - 1] : NULL;

		if (k && k->line == s->line && k->fn->name == s->fn->name)
			take_fn(k->fn, s->fn);
		else
			f->sites[n++] = *s;
	}
	f->nr_sites = n;
	for (size_t i = 0; i < n; i++) {
		f->sites[i].disc = 0;
		merge_fn(f->sites[i].fn);
	}
}

static void merge_fn(struct afdo_fn *f)
{
	/* The lines first: a line from two merged copies is one (line, disc) again. */
	merge_lines(f);
	merge_sites(f);
}

void afdo_merge(struct afdo_profile *p, struct afdo_stats *stats)
{
	size_t n = 0;

	if (p->nr_fns)
		qsort(p->fns, p->nr_fns, sizeof(*p->fns), cmp_fn);
	memset(stats, 0, sizeof(*stats));
	for (size_t i = 0; i < p->nr_fns; i++) {
		if (n && p->fns[n - 1]->name == p->fns[i]->name) {
			take_fn(p->fns[n - 1], p->fns[i]);
			stats->merged++;
		} else {
			p->fns[n++] = p->fns[i];
		}
	}
	p->nr_fns = n;
	for (size_t i = 0; i < n; i++) {
		merge_fn(p->fns[i]);
		stats->samples = add(stats->samples, p->fns[i]->total);
	}
	stats->functions = n;
}

/* gcc 12's AFDO file. */

/* gcc reads its words in its host's byte order, as it writes them. */
static void put32(struct strbuf *o, uint32_t v)
{
	strbuf_add(o, &v, sizeof(v));
}

/* A counter: two words, the low one first. */
static void put64(struct strbuf *o, uint64_t v)
{
	put32(o, (uint32_t)v);
	put32(o, (uint32_t)(v >> 32));
}

/* gcc 12 counts a string's bytes with its NUL, and pads nothing after it. */
static void put_string(struct strbuf *o, const char *s)
{
	size_t len = strlen(s) + 1;

	put32(o, (uint32_t)len);
	strbuf_add(o, s, len);
}

/* A section: its tag and its length in bytes (gcc skips them). */
static size_t section_begin(struct strbuf *o, uint32_t tag)
{
	put32(o, tag);
	put32(o, 0);
	return o->len;
}

static void section_end(struct strbuf *o, size_t start)
{
	uint32_t len = (uint32_t)(o->len - start);

	memcpy(o->buf + start - sizeof(len), &len, sizeof(len));
}

/* A function or an inlined copy: its line counts, then its call sites'. */
static void put_fn(struct strbuf *o, const struct afdo_fn *f)
{
	put32(o, f->name);
	put32(o, (uint32_t)f->nr_lines);
	put32(o, (uint32_t)f->nr_sites);
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct afdo_line *l = &f->lines[i];

		put32(o, l->line << 16 | (l->disc & 0xffff));
		put32(o, (uint32_t)l->nr_targets);
		put64(o, l->count);
		for (size_t t = 0; t < l->nr_targets; t++) {
			put32(o, HIST_TYPE_INDIR_CALL);
			put64(o, l->targets[t].name);
			put64(o, l->targets[t].count);
		}
	}
	for (size_t i = 0; i < f->nr_sites; i++) {
		put32(o, f->sites[i].line << 16 | (f->sites[i].disc & 0xffff));
		put_fn(o, f->sites[i].fn);
	}
}

void afdo_encode(const struct afdo_profile *p, struct strbuf *o)
{
	size_t start;

	put32(o, GCOV_DATA_MAGIC);
	put32(o, AFDO_VERSION);
	put32(o, 0);
	start = section_begin(o, TAG_FILE_NAMES);
	put32(o, (uint32_t)p->names.nr);
	for (size_t i = 0; i < p->names.nr; i++)
		put_string(o, p->names.v[i]);
	section_end(o, start);
	start = section_begin(o, TAG_FUNCTION);
	put32(o, (uint32_t)p->nr_fns);
	for (size_t i = 0; i < p->nr_fns; i++) {
		put64(o, p->fns[i]->head);
		put_fn(o, p->fns[i]);
	}
	section_end(o, start);
	/* No modules: gcc insists on none. */
	start = section_begin(o, TAG_MODULE_GROUPING);
	put32(o, 0);
	section_end(o, start);
}

int afdo_from_llvm_text(const char *in, const char *out, struct afdo_stats *stats,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, afdo = STRBUF_INIT;
	struct afdo_profile p;
	int ret = -1;

	afdo_init(&p);
	if (strbuf_read_file(&text, in, 0)) {
		strbuf_addf(err, "cannot read %s: %s", in, strerror(errno));
	} else if (!afdo_parse(&p, text.buf, text.len, in, err)) {
		afdo_merge(&p, stats);
		afdo_encode(&p, &afdo);
		ret = write_atomically(out, afdo.buf, afdo.len);
	}
	if (ret && strcmp(out, "-"))
		unlink_if_regular(out);
	afdo_release(&p);
	strbuf_release(&text);
	strbuf_release(&afdo);
	return ret;
}
