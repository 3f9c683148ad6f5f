// SPDX-License-Identifier: GPL-2.0
/* The branch record's files (branches.h). */
#include "branches.h"
#include "atomic-file.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "# kbench branch record:"

void branches_init(struct kb_branches *b)
{
	memset(b, 0, sizeof(*b));
	b->first = xcalloc(1, sizeof(*b->first));
}

void branches_release(struct kb_branches *b)
{
	free(b->build_id);
	free(b->kernel);
	free(b->ip);
	free(b->first);
	free(b->br);
	memset(b, 0, sizeof(*b));
}

static void add_branch(struct kb_branches *b, uint64_t from, uint64_t to)
{
	if (b->nr_br == b->alloc_br) {
		b->alloc_br = b->alloc_br ? 2 * b->alloc_br : 1024;
		b->br = xrealloc(b->br, b->alloc_br * sizeof(*b->br));
	}
	b->br[b->nr_br].from = from;
	b->br[b->nr_br++].to = to;
}

static void add_sample(struct kb_branches *b, uint64_t ip)
{
	if (b->nr == b->alloc) {
		b->alloc = b->alloc ? 2 * b->alloc : 256;
		b->ip = xrealloc(b->ip, b->alloc * sizeof(*b->ip));
		b->first = xrealloc(b->first, (b->alloc + 1) * sizeof(*b->first));
	}
	b->ip[b->nr++] = ip;
	b->first[b->nr] = b->nr_br;
}

/* A hexadecimal address, 0x or not: where it ends, or NULL. */
static const char *parse_addr(const char *s, uint64_t *v)
{
	char *e;

	if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
		return NULL;
	errno = 0;
	*v = strtoull(s, &e, 16);
	return errno ? NULL : e;
}

/* "0xFROM/0xTO/flags...": one entry of a sample. */
static int parse_entry(const char *tok, uint64_t *from, uint64_t *to)
{
	const char *p = parse_addr(tok, from);

	if (!p || *p != '/' || !(p = parse_addr(p + 1, to)) || (*p && *p != '/'))
		return -1;
	return 0;
}

static int parse_sample(struct kb_branches *b, char *line)
{
	char *save = NULL, *tok = strtok_r(line, " \t", &save);
	const char *end;
	uint64_t ip = 0, from, to;

	if (tok && !strchr(tok, '/')) {
		if (!(end = parse_addr(tok, &ip)) || *end)
			return -1;
		tok = strtok_r(NULL, " \t", &save);
	}
	for (; tok; tok = strtok_r(NULL, " \t", &save)) {
		if (parse_entry(tok, &from, &to))
			return -1;
		add_branch(b, from, to);
	}
	if (b->nr_br == b->first[b->nr])
		return -1;	/* no branch: not a sample */
	add_sample(b, ip);
	return 0;
}

int branches_add_text(struct kb_branches *b, const char *path, const char *text)
{
	unsigned long lineno = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		char *line = xstrndup(text, len);
		size_t nr_br = b->nr_br;
		int bad;

		lineno++;
		text += len + (text[len] == '\n');
		bad = line[strspn(line, " \t")] && line[0] != '#' && parse_sample(b, line);
		free(line);
		if (bad) {
			b->nr_br = nr_br;
			return error("%s:%lu: not a branch sample (an address, then "
				     "0xFROM/0xTO/... entries)", path, lineno);
		}
	}
	return 0;
}

/* HEADER's fields: build-id=HEX period=N samples=N kernel=PATH (the rest of the line). */
static int parse_header(struct kb_branches *b, const char *path, const char *line,
			size_t *samples)
{
	const char *p = line + strlen(HEADER);
	char id[257];
	int n = 0;

	if (sscanf(p, " build-id=%256s period=%llu samples=%zu kernel=%n", id, &b->period,
		   samples, &n) != 3 || !n)
		return error("%s:1: a damaged header: '%s'", path, line);
	b->build_id = strcmp(id, "unknown") ? xstrdup(id) : NULL;
	b->kernel = xstrdup(p + n);
	return 0;
}

int branches_read(struct kb_branches *b, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t samples, len;
	char *line;
	int ret;

	if (strbuf_read_file(&sb, path, 0))
		return error_errno("cannot read %s", path);
	len = strcspn(sb.buf, "\n");
	if (strncmp(sb.buf, HEADER, strlen(HEADER))) {
		strbuf_release(&sb);
		return error("%s:1: not a branch record of kbench's (kbench run "
			     "--record-branches writes one)", path);
	}
	line = xstrndup(sb.buf, len);
	ret = parse_header(b, path, line, &samples);
	free(line);
	if (!ret)
		ret = branches_add_text(b, path, sb.buf);
	if (!ret && b->nr != samples)
		ret = error("%s: %zu samples where its header says %zu: cut short?", path, b->nr,
			    samples);
	strbuf_release(&sb);
	return ret;
}

static void write_perf(const struct kb_branches *b, struct strbuf *sb)
{
	strbuf_addf(sb, HEADER " build-id=%s period=%llu samples=%zu kernel=%s\n",
		    b->build_id ? b->build_id : "unknown", b->period, b->nr,
		    b->kernel ? b->kernel : "");
	for (size_t s = 0; s < b->nr; s++) {
		strbuf_addf(sb, " %" PRIx64, b->ip[s]);
		for (size_t i = b->first[s]; i < b->first[s + 1]; i++)
			strbuf_addf(sb, " 0x%" PRIx64 "/0x%" PRIx64 "/P/-/-/0", b->br[i].from,
				    b->br[i].to);
		strbuf_addch(sb, '\n');
	}
}

/* A counted pair of addresses (a range, a branch; an address has b 0). */
struct count {
	uint64_t a, b, n;
};

struct counts {
	struct count *v;
	size_t nr, alloc;
};

static void count_add(struct counts *c, uint64_t a, uint64_t b)
{
	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 1024;
		c->v = xrealloc(c->v, c->alloc * sizeof(*c->v));
	}
	c->v[c->nr].a = a;
	c->v[c->nr].b = b;
	c->v[c->nr++].n = 1;
}

static int cmp_count(const void *x, const void *y)
{
	const struct count *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* Sorted, each pair once with how many times it came. */
static void count_merge(struct counts *c)
{
	size_t out = 0;

	if (c->nr)
		qsort(c->v, c->nr, sizeof(*c->v), cmp_count);
	for (size_t i = 0; i < c->nr; i++)
		if (out && !cmp_count(&c->v[out - 1], &c->v[i]))
			c->v[out - 1].n++;
		else
			c->v[out++] = c->v[i];
	c->nr = out;
}

static void write_counts(struct strbuf *sb, struct counts *c, const char *sep, uint64_t base)
{
	count_merge(c);
	strbuf_addf(sb, "%zu\n", c->nr);
	for (size_t i = 0; i < c->nr; i++) {
		strbuf_addf(sb, "%" PRIx64, c->v[i].a - base);
		if (*sep)
			strbuf_addf(sb, "%s%" PRIx64, sep, c->v[i].b - base);
		strbuf_addf(sb, ":%" PRIu64 "\n", c->v[i].n);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/*
 * Between an older branch's target and the next one's source the code
 * ran straight through: that range counts once.  One that goes backwards
 * or leaves the kernel (a source of 0) is no such range; addresses below
 * base are no binary's.
 */
static void write_autofdo(const struct kb_branches *b, struct strbuf *sb)
{
	struct counts ranges = { 0 }, addrs = { 0 }, branches = { 0 };

	for (size_t s = 0; s < b->nr; s++) {
		const struct kb_branch *e = b->br + b->first[s];
		size_t n = b->first[s + 1] - b->first[s];

		if (b->ip[s] >= b->base)
			count_add(&addrs, b->ip[s], 0);
		for (size_t i = 0; i < n; i++) {
			if (e[i].from >= b->base && e[i].from && e[i].to >= b->base)
				count_add(&branches, e[i].from, e[i].to);
			if (i + 1 < n && e[i].from && e[i + 1].to >= b->base &&
			    e[i + 1].to <= e[i].from)
				count_add(&ranges, e[i + 1].to, e[i].from);
		}
	}
	write_counts(sb, &ranges, "-", b->base);
	write_counts(sb, &addrs, "", b->base);
	write_counts(sb, &branches, "->", b->base);
}

int branches_format_known(const char *name)
{
	return !strcmp(name, "perf") || !strcmp(name, "autofdo");
}

int branches_write(const struct kb_branches *b, const char *path, const char *format)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!strcmp(format, "autofdo"))
		write_autofdo(b, &sb);
	else
		write_perf(b, &sb);
	ret = write_atomically(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
