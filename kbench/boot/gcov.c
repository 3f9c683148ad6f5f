// SPDX-License-Identifier: GPL-2.0
/* Receiving the guest's gcov files and laying them out for ccd (gcov.h). */
#include "gcov.h"
#include "atomic-file.h"
#include "protocol.h"
#include "warn.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void gcov_init(struct gcov_set *g)
{
	memset(g, 0, sizeof(*g));
	strbuf_init(&g->cur.data);
	g->announced = -2;
}

static void drop_current(struct gcov_set *g)
{
	free(g->cur.path);
	strbuf_release(&g->cur.data);
	memset(&g->cur, 0, sizeof(g->cur));
	strbuf_init(&g->cur.data);
	g->receiving = g->broken = 0;
}

void gcov_on_file(struct gcov_set *g, const char *rest)
{
	char *end;
	unsigned long long size = strtoull(rest, &end, 10);

	if (g->receiving) {
		g->bad++;	/* the previous one never ended */
		drop_current(g);
	}
	if (end == rest || *end != ' ' || !end[1] || strstr(end + 1, "..")) {
		g->bad++;
		return;
	}
	g->cur.path = xstrdup(end + 1);
	g->cur_size = (size_t)size;
	g->receiving = 1;
}

static int b64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Append the bytes of one base64 line; -1 if it is not whole base64. */
static int decode(struct strbuf *out, const char *s)
{
	size_t len = strlen(s);

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;
		unsigned char b[3];

		for (int k = 0; k < 4; k++) {
			v[k] = s[i + k] == '=' && k >= 2 && i + 4 == len ? (pad++, 0)
								       : b64_value(s[i + k]);
			if (v[k] < 0)
				return -1;
		}
		b[0] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		b[1] = (unsigned char)(v[1] << 4 | v[2] >> 2);
		b[2] = (unsigned char)(v[2] << 6 | v[3]);
		strbuf_add(out, b, 3 - (size_t)pad);
	}
	return 0;
}

void gcov_on_data(struct gcov_set *g, const char *rest)
{
	if (!g->receiving || g->broken)
		return;
	if (decode(&g->cur.data, rest) || g->cur.data.len > g->cur_size)
		g->broken = 1;
}

void gcov_on_file_end(struct gcov_set *g, const char *rest)
{
	unsigned long want = strtoul(rest, NULL, 16);

	if (!g->receiving)
		return;
	if (g->broken || g->cur.data.len != g->cur_size ||
	    kb_fnv1a((const unsigned char *)g->cur.data.buf, g->cur.data.len) != want) {
		g->bad++;
		drop_current(g);
		return;
	}
	if (g->nr == g->alloc) {
		g->alloc = g->alloc ? 2 * g->alloc : 256;
		g->files = xrealloc(g->files, g->alloc * sizeof(*g->files));
	}
	g->files[g->nr++] = g->cur;
	memset(&g->cur, 0, sizeof(g->cur));
	strbuf_init(&g->cur.data);
	g->receiving = 0;
}

void gcov_on_summary(struct gcov_set *g, const char *rest)
{
	g->announced = strncmp(rest, "files=", 6) ? -1 : atoi(rest + 6);
}

/*
 * The kernel writes its gcda files without the object summary that
 * libgcov writes (runs and the largest counter of the program), and gcc
 * gives up on a profile without one ("Profile info is missing"): every
 * count would be read and none used.  So the summary is added here: one
 * run (the training boot) and the largest arc counter of all the files.
 */
#define TAG_FUNCTION 0x01000000u
#define TAG_ARCS 0x01a10000u
#define TAG_SUMMARY 0xa1000000u

struct gcda_layout {
	size_t header;		/* bytes: 16 with gcc 12's checksum word, else 12 */
	unsigned unit;		/* record lengths in bytes (gcc >= 12) or in words */
};

static uint32_t get32(const struct strbuf *d, size_t off)
{
	const unsigned char *p = (const unsigned char *)d->buf + off;

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The layout, or -1 if this is not a gcda file kbench can read. */
static int gcda_layout(const struct strbuf *d, struct gcda_layout *l)
{
	if (d->len < 16 || get32(d, 0) != 0x67636461)	/* "gcda" */
		return -1;
	/* gcc 12 added a checksum word; before it a record starts at 12. */
	l->header = get32(d, 12) == TAG_FUNCTION || get32(d, 12) == TAG_SUMMARY ? 12 : 16;
	l->unit = l->header == 16 ? 1 : 4;
	return 0;
}

/* Walk the records: the largest arc counter into *max; 1 if a summary exists, -1 if malformed. */
static int gcda_scan(const struct strbuf *d, const struct gcda_layout *l, uint64_t *max)
{
	size_t off = l->header;
	int summary = 0;

	while (off + 4 <= d->len) {
		uint32_t tag = get32(d, off);
		int32_t raw;

		/* libgcov ends a file with a zero word; the kernel does not. */
		if (!tag && off + 4 == d->len) {
			off += 4;
			break;
		}
		if (off + 8 > d->len)
			return -1;
		raw = (int32_t)get32(d, off + 4);
		/* gcc 12's libgcov writes all-zero counters as a negative length, no data. */
		size_t len = raw < 0 ? 0 : (size_t)raw * l->unit;

		if (len > d->len - off - 8)
			return -1;
		if (tag == TAG_SUMMARY)
			summary = 1;
		for (size_t i = 0; tag == TAG_ARCS && i + 8 <= len; i += 8) {
			uint64_t v = get32(d, off + 8 + i) | (uint64_t)get32(d, off + 12 + i) << 32;

			if (v > *max)
				*max = v;
		}
		off += 8 + len;
	}
	return off == d->len ? summary : -1;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8 & 0xff;
	p[2] = v >> 16 & 0xff;
	p[3] = v >> 24;
}

void gcov_add_summaries(struct gcov_set *g)
{
	uint64_t max = 0;
	int bad = 0;

	for (size_t i = 0; i < g->nr; i++) {
		struct gcda_layout l;

		if (gcda_layout(&g->files[i].data, &l) || gcda_scan(&g->files[i].data, &l, &max) < 0)
			bad++;
	}
	for (size_t i = 0; i < g->nr; i++) {
		struct strbuf *d = &g->files[i].data, out = STRBUF_INIT;
		struct gcda_layout l;
		unsigned char rec[16];
		uint64_t unused = 0;

		if (gcda_layout(d, &l) || gcda_scan(d, &l, &unused) != 0)
			continue;
		put32(rec, TAG_SUMMARY);
		put32(rec + 4, 8 / l.unit);
		put32(rec + 8, 1);
		put32(rec + 12, max > UINT32_MAX ? UINT32_MAX : (uint32_t)max);
		strbuf_add(&out, d->buf, l.header);
		strbuf_add(&out, rec, sizeof(rec));
		strbuf_add(&out, d->buf + l.header, d->len - l.header);
		strbuf_release(d);
		*d = out;
	}
	if (bad)
		warning("%d profile file(s) are no gcda kbench can read; written as they came", bad);
}

/* dir/<path below objtree, '/' as '#'>; NULL if path is not below objtree. */
static char *target(const char *dir, const char *objtree, const char *path)
{
	size_t len = strlen(objtree);
	struct strbuf sb = STRBUF_INIT;

	while (*objtree == '/') {
		objtree++;
		len--;
	}
	while (len && objtree[len - 1] == '/')
		len--;
	if (strncmp(path, objtree, len) || path[len] != '/')
		return NULL;
	strbuf_addf(&sb, "%s/", dir);
	for (const char *p = path + len + 1; *p; p++)
		strbuf_addch(&sb, *p == '/' ? '#' : *p);
	return strbuf_detach(&sb, NULL);
}

int gcov_write(const struct gcov_set *g, const char *dir, const char *objtree)
{
	int written = 0, elsewhere = 0;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return error_errno("cannot create %s", dir);
	for (size_t i = 0; i < g->nr; i++) {
		const struct gcov_file *f = &g->files[i];
		char *to = target(dir, objtree, f->path);

		if (!to) {
			elsewhere++;
			continue;
		}
		if (write_atomically(to, f->data.buf, f->data.len)) {
			free(to);
			return -1;
		}
		free(to);
		written++;
	}
	if (elsewhere)
		warning("%d profile(s) from outside the build tree /%s skipped (--gcov-objtree)",
			elsewhere, objtree[0] == '/' ? objtree + 1 : objtree);
	return written;
}

void gcov_release(struct gcov_set *g)
{
	for (size_t i = 0; i < g->nr; i++) {
		free(g->files[i].path);
		strbuf_release(&g->files[i].data);
	}
	free(g->files);
	drop_current(g);
}
