// SPDX-License-Identifier: GPL-2.0
/* Receiving the guest's gcov files and laying them out for ccd (gcov.h). */
#include "gcov.h"
#include "kbench.h"
#include "warn.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void gcov_init(struct gcov_set *g)
{
	memset(g, 0, sizeof(*g));
	g->announced = -2;
}

static void drop_current(struct gcov_set *g)
{
	free(g->cur.path);
	strbuf_release(&g->cur.data);
	memset(&g->cur, 0, sizeof(g->cur));
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

static uint32_t fnv1a(const unsigned char *p, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

void gcov_on_file_end(struct gcov_set *g, const char *rest)
{
	unsigned long want = strtoul(rest, NULL, 16);

	if (!g->receiving)
		return;
	if (g->broken || g->cur.data.len != g->cur_size ||
	    fnv1a((const unsigned char *)strbuf_str(&g->cur.data), g->cur.data.len) != want) {
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
	g->receiving = 0;
}

void gcov_on_summary(struct gcov_set *g, const char *rest)
{
	g->announced = strncmp(rest, "files=", 6) ? -1 : atoi(rest + 6);
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
		if (write_atomically(to, strbuf_str(&f->data), f->data.len)) {
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
