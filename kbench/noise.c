// SPDX-License-Identifier: GPL-2.0
/* The noise table: what equivalent builds show, read from JSON (noise.h). */
#include "noise.h"
#include "json.h"
#include "strbuf.h"
#include "warn.h"
#include "kbench-noise.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A noise table bigger than this is not one. */
#define MAX_NOISE_SIZE (1 << 20)

static const char builtin_noise[] = KBENCH_NOISE_TEXT;

void noise_none(struct kb_noise *n)
{
	memset(n, 0, sizeof(*n));
	n->source = xstrdup("none");
	n->clock = xstrdup("");
	n->provenance = xstrdup("no table: only the spread of the samples counts");
}

void noise_release(struct kb_noise *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->names[i]);
	free(n->names);
	free(n->pct);
	free(n->source);
	free(n->clock);
	free(n->provenance);
	memset(n, 0, sizeof(*n));
}

/* A percentage the table may hold: a finite number from 0 to 100. */
static int is_pct(const struct json *v)
{
	return v && v->type == JSON_NUMBER && v->num >= 0 && v->num <= 100;
}

static int load_rows(struct kb_noise *n, const struct json *rows, const char *src)
{
	if (!rows || rows->type != JSON_OBJECT)
		return error("%s: not a kbench noise table (no \"rows\" object)", src);
	n->names = xcalloc(rows->nr ? rows->nr : 1, sizeof(*n->names));
	n->pct = xcalloc(rows->nr ? rows->nr : 1, sizeof(*n->pct));
	for (size_t i = 0; i < rows->nr; i++) {
		if (!is_pct(rows->items[i]))
			return error("%s: row %s: not a percentage from 0 to 100", src,
				     rows->keys[i]);
		n->names[n->nr] = xstrdup(rows->keys[i]);
		n->pct[n->nr++] = rows->items[i]->num;
	}
	return 0;
}

static int load_json(struct kb_noise *n, const struct json *j, const char *src)
{
	const struct json *version = json_get(j, "kbench_noise"), *floor = json_get(j, "floor");
	const char *clock = json_get_str(j, "clock"), *prov = json_get_str(j, "provenance");

	if (!version || version->type != JSON_NUMBER || version->num != 1)
		return error("%s: not a kbench noise table (no \"kbench_noise\": 1)", src);
	if (!clock || (strcmp(clock, "icount") && strcmp(clock, "kvm")))
		return error("%s: the noise table's \"clock\" is icount or kvm", src);
	if (!is_pct(floor))
		return error("%s: the noise table's \"floor\" is not a percentage", src);
	n->clock = xstrdup(clock);
	n->provenance = xstrdup(prov ? prov : "");
	n->floor = floor->num;
	return load_rows(n, json_get(j, "rows"), src);
}

static int parse(struct kb_noise *n, const char *text, size_t len, const char *src)
{
	struct strbuf err = STRBUF_INIT;
	struct json *j = json_parse(text, len, &err);
	int ret;

	if (!j)
		ret = error("%s: not a kbench noise table (not JSON: %s)", src, err.buf);
	else
		ret = load_json(n, j, src);
	json_free(j);
	strbuf_release(&err);
	return ret;
}

int noise_load(struct kb_noise *n, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	memset(n, 0, sizeof(*n));
	if (!path) {
		n->source = xstrdup("built-in");
		ret = parse(n, builtin_noise, sizeof(builtin_noise) - 1, "the built-in noise table");
	} else if (strbuf_read_file(&text, path, MAX_NOISE_SIZE)) {
		ret = errno == EFBIG ? error("%s: not a kbench noise table (too big)", path) :
			error_errno("cannot open %s", path);
	} else {
		n->source = xstrdup(path);
		ret = parse(n, text.buf, text.len, path);
	}
	strbuf_release(&text);
	if (ret)
		noise_release(n);
	return ret;
}

double noise_threshold(const struct kb_noise *n, const char *name)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->names[i], name))
			return n->pct[i] > n->floor ? n->pct[i] : n->floor;
	return n->floor;
}

int noise_for_clock(struct kb_noise *n, const char *path, const char *clock, int quiet)
{
	if (path && !strcmp(path, "none")) {
		noise_none(n);
		return 0;
	}
	if (noise_load(n, path))
		return -1;
	if (strcmp(n->clock, clock)) {
		if (!quiet)
			warning("the noise table (%s) was measured with the %s clock, these "
				"results with %s: only the spread of the samples counts",
				n->source, n->clock, clock);
		noise_release(n);
		noise_none(n);
	}
	return 0;
}
