// SPDX-License-Identifier: GPL-2.0
/* The noise table: what equivalent builds show, read from JSON (noise.h). */
#include "noise.h"
#include "json.h"
#include "result.h"
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

/* A table proper: its floor, provenance and rows (the top level, or a metric's). */
static int load_table(struct kb_noise *n, const struct json *t, const char *src, const char *what)
{
	const struct json *floor = json_get(t, "floor");
	const char *prov = json_get_str(t, "provenance");

	if (!is_pct(floor))
		return error("%s: the noise table's %s\"floor\" is not a percentage", src, what);
	n->provenance = xstrdup(prov ? prov : "");
	n->floor = floor->num;
	return load_rows(n, json_get(t, "rows"), src);
}

/* "metrics", if there: an object of tables, one per modelled metric. */
static int check_metrics(const struct json *ms, const char *src)
{
	if (!ms)
		return 0;
	if (ms->type != JSON_OBJECT)
		return error("%s: the noise table's \"metrics\" is not an object", src);
	for (size_t i = 0; i < ms->nr; i++) {
		struct kb_noise t = { 0 };
		struct strbuf what = STRBUF_INIT;
		int ret;

		if (metric_named(ms->keys[i]) < 0)
			return error("%s: the noise table has a table for %s, not a metric", src,
				     ms->keys[i]);
		strbuf_addf(&what, "%s ", ms->keys[i]);
		ret = ms->items[i]->type == JSON_OBJECT ?
			load_table(&t, ms->items[i], src, what.buf) :
			error("%s: the noise table's metric %s is not an object", src, ms->keys[i]);
		noise_release(&t);
		strbuf_release(&what);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The table of metric (NULL: the rows' own figures); 1 when the table has
 * none for it.
 */
static int load_json(struct kb_noise *n, const struct json *j, const char *src,
		     const char *metric)
{
	const struct json *version = json_get(j, "kbench_noise"), *ms = json_get(j, "metrics");
	const struct json *cpus = json_get(j, "cpus");
	const char *clock = json_get_str(j, "clock");

	if (!version || version->type != JSON_NUMBER || version->num != 1)
		return error("%s: not a kbench noise table (no \"kbench_noise\": 1)", src);
	if (!clock || (strcmp(clock, "icount") && strcmp(clock, "kvm")))
		return error("%s: the noise table's \"clock\" is icount or kvm", src);
	if (cpus && (cpus->type != JSON_NUMBER || cpus->num < 1 || cpus->num > KB_MAX_CPUS ||
		     cpus->num != (int)cpus->num))
		return error("%s: the noise table's \"cpus\" is not a number from 1 to %d", src,
			     KB_MAX_CPUS);
	if (check_metrics(ms, src))
		return -1;
	n->clock = xstrdup(clock);
	n->cpus = cpus ? (int)cpus->num : 1;
	if (!metric)
		return load_table(n, j, src, "");
	if (!ms || !json_get(ms, metric))
		return 1;
	return load_table(n, json_get(ms, metric), src, "");
}

static int parse(struct kb_noise *n, const char *text, size_t len, const char *src,
		 const char *metric)
{
	struct strbuf err = STRBUF_INIT;
	struct json *j = json_parse(text, len, &err);
	int ret;

	if (!j)
		ret = error("%s: not a kbench noise table (not JSON: %s)", src, err.buf);
	else
		ret = load_json(n, j, src, metric);
	json_free(j);
	strbuf_release(&err);
	return ret;
}

/* As noise_load, for metric: 1 (nothing loaded) when the table has none for it. */
static int load(struct kb_noise *n, const char *path, const char *metric)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	memset(n, 0, sizeof(*n));
	if (!path) {
		n->source = xstrdup("built-in");
		ret = parse(n, builtin_noise, sizeof(builtin_noise) - 1, "the built-in noise table",
			    metric);
	} else if (strbuf_read_file(&text, path, MAX_NOISE_SIZE)) {
		ret = errno == EFBIG ? error("%s: not a kbench noise table (too big)", path) :
			error_errno("cannot open %s", path);
	} else {
		n->source = xstrdup(path);
		ret = parse(n, text.buf, text.len, path, metric);
	}
	strbuf_release(&text);
	if (ret)
		noise_release(n);
	return ret;
}

int noise_load(struct kb_noise *n, const char *path)
{
	return load(n, path, NULL);
}

double noise_threshold(const struct kb_noise *n, const char *name)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->names[i], name))
			return n->pct[i] > n->floor ? n->pct[i] : n->floor;
	return n->floor;
}

/*
 * A metric's table if the table has one; else, from a file the user named,
 * its rows (theirs to choose), and from the built-in one none.
 */
static int load_for(struct kb_noise *n, const char *path, const char *metric)
{
	int ret = load(n, path, metric);

	if (ret <= 0)
		return ret;
	if (path)
		return load(n, path, NULL);
	noise_none(n);
	return 0;
}

int noise_for(struct kb_noise *n, const char *path, const char *clock, const char *metric,
	      int quiet)
{
	if (path && !strcmp(path, "none")) {
		noise_none(n);
		return 0;
	}
	if (load_for(n, path, metric))
		return -1;
	if (*n->clock && strcmp(n->clock, clock)) {
		if (!quiet)
			warning("the noise table (%s) was measured with the %s clock, these "
				"results with %s: only the spread of the samples counts",
				n->source, n->clock, clock);
		noise_release(n);
		noise_none(n);
	}
	return 0;
}
