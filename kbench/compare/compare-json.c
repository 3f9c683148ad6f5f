// SPDX-License-Identifier: GPL-2.0
/*
 * kbench compare --json: the comparison as data, for scripts that must not
 * parse the table.
 *
 *   {"kbench_compare": 1, "clock": TEXT, "metric": TEXT, "reference": LABEL,
 *    "kernels": [{"label", "kernel", "compiler"}],
 *    "noise": {"source", "clock", "provenance"},
 *    "rows": [{"name", "unit", "group", "noise": PERCENT, "medians": [...],
 *              "against": [{"label", "percent", "low", "high", "significant"}]}],
 *    "significant": [{"label", "faster": N, "slower": N}],
 *    "trained": GAIN, "held_out": GAIN, "programs": GAIN}
 *
 * "against" has one entry per later kernel that has the row; "percent" is
 * the table's figure (positive: faster than the reference), "low".."high"
 * its spread over the samples, "noise" the threshold of noise.h;
 * "significant" counts the rows of each later kernel but the controls.
 * "trained", "held_out" and "programs" (the rows of run --program, never
 * trained on; only with --trained, two kernels) are
 * pgo-gains.h's: {"rows": N, "mean_pct": PERCENT, "faster": N, "slower": N}.
 * "metric" is "time" (the rows' own figures) or compare --metric's.
 */
#include "atomic-file.h"
#include "comparison.h"
#include "json.h"
#include "noise.h"
#include "train.h"
#include "result.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static void add_kernels(struct strbuf *sb, const struct kb_result *res,
			const char *const *labels, int nr)
{
	strbuf_addstr(sb, "  \"kernels\": [");
	for (int i = 0; i < nr; i++) {
		strbuf_addstr(sb, i ? ",\n    {\"label\": " : "\n    {\"label\": ");
		json_add_string(sb, labels[i]);
		strbuf_addstr(sb, ", \"kernel\": ");
		json_add_string(sb, res[i].kernel);
		strbuf_addstr(sb, ", \"compiler\": ");
		json_add_string(sb, res[i].compiler);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "\n  ],\n  \"noise\": {\"source\": ");
}

static void add_noise(struct strbuf *sb, const struct kb_noise *noise)
{
	json_add_string(sb, noise->source);
	strbuf_addstr(sb, ", \"clock\": ");
	json_add_string(sb, noise->clock);
	strbuf_addstr(sb, ", \"provenance\": ");
	json_add_string(sb, noise->provenance);
	strbuf_addstr(sb, "},\n");
}

/* One later kernel against the reference on row a; counts what is significant. */
static void add_against(struct strbuf *sb, const struct kb_row *a, const struct kb_row *b,
			const char *label, double noise, int *faster, int *slower)
{
	double pct = speedup_pct(a->unit, a->median, b->median), lo, hi;
	int sig = diff_significant(a, b, noise);

	speedup_range(a, b, &lo, &hi);
	strbuf_addstr(sb, "{\"label\": ");
	json_add_string(sb, label);
	if (!speedup_defined(a, b)) {	/* an event count of 0 on one side */
		strbuf_addstr(sb, ", \"percent\": null, \"low\": null, \"high\": null, "
			      "\"significant\": false}");
		return;
	}
	strbuf_addstr(sb, ", \"percent\": ");
	json_add_number(sb, pct);
	strbuf_addstr(sb, ", \"low\": ");
	json_add_number(sb, lo);
	strbuf_addstr(sb, ", \"high\": ");
	json_add_number(sb, hi);
	strbuf_addf(sb, ", \"significant\": %s}", sig ? "true" : "false");
	if (sig && strcmp(a->group, "mem"))	/* the controls are not the kernel's */
		(*(pct > 0 ? faster : slower))++;
}

static void add_row(struct strbuf *sb, const struct kb_result *res, const char *const *labels,
		    int nr, const struct kb_row *a, double noise, int *faster, int *slower)
{
	int first = 1;

	strbuf_addstr(sb, "    {\"name\": ");
	json_add_string(sb, a->name);
	strbuf_addstr(sb, ", \"unit\": ");
	json_add_string(sb, a->unit);
	strbuf_addstr(sb, ", \"group\": ");
	json_add_string(sb, a->group);
	strbuf_addstr(sb, ", \"noise\": ");
	json_add_number(sb, noise);
	strbuf_addstr(sb, ",\n     \"medians\": [");
	for (int i = 0; i < nr; i++) {
		const struct kb_row *b = result_find(&res[i], a->name);

		if (i)
			strbuf_addstr(sb, ", ");
		if (b)
			json_add_number(sb, b->median);
		else
			strbuf_addstr(sb, "null");
	}
	strbuf_addstr(sb, "],\n     \"against\": [");
	for (int i = 1; i < nr; i++) {
		const struct kb_row *b = result_find(&res[i], a->name);

		if (!b)
			continue;
		if (!first)
			strbuf_addstr(sb, ", ");
		first = 0;
		add_against(sb, a, b, labels[i], noise, &faster[i], &slower[i]);
	}
	strbuf_addstr(sb, "]}");
}

static void add_totals(struct strbuf *sb, const char *const *labels, int nr,
		       const int *faster, const int *slower)
{
	strbuf_addstr(sb, "  \"significant\": [");
	for (int i = 1; i < nr; i++) {
		strbuf_addstr(sb, i > 1 ? ", {\"label\": " : "{\"label\": ");
		json_add_string(sb, labels[i]);
		strbuf_addf(sb, ", \"faster\": %d, \"slower\": %d}", faster[i], slower[i]);
	}
	strbuf_addstr(sb, "]");
}

static void add_gains(struct strbuf *sb, const struct kb_result *res,
		      const struct kb_noise *noise, const struct kb_train *train)
{
	struct kb_gains g;

	gains_compute(&res[0], &res[1], noise, train, &g);
	strbuf_addstr(sb, ",\n  \"trained\": ");
	gains_json(&g.trained, sb);
	strbuf_addstr(sb, ",\n  \"held_out\": ");
	gains_json(&g.held_out, sb);
	strbuf_addstr(sb, ",\n  \"programs\": ");
	gains_json(&g.programs, sb);
}

int write_compare_json(const char *path, const struct kb_result *res,
		       const char *const *labels, int nr, const struct kb_noise *noise,
		       const struct kb_train *train)
{
	struct strbuf sb = STRBUF_INIT;
	int *faster = xcalloc((size_t)nr, sizeof(int)), *slower = xcalloc((size_t)nr, sizeof(int));
	int ret;

	strbuf_addstr(&sb, "{\n  \"kbench_compare\": 1,\n  \"clock\": ");
	json_add_string(&sb, res[0].clock);
	strbuf_addstr(&sb, ",\n  \"metric\": ");
	json_add_string(&sb, res[0].metric ? res[0].metric : "time");
	strbuf_addstr(&sb, ",\n  \"reference\": ");
	json_add_string(&sb, labels[0]);
	strbuf_addstr(&sb, ",\n");
	add_kernels(&sb, res, labels, nr);
	add_noise(&sb, noise);
	strbuf_addstr(&sb, "  \"rows\": [\n");
	for (size_t r = 0; r < res[0].nr; r++) {
		add_row(&sb, res, labels, nr, &res[0].rows[r],
			noise_threshold(noise, res[0].rows[r].name), faster, slower);
		strbuf_addstr(&sb, r + 1 < res[0].nr ? ",\n" : "\n");
	}
	strbuf_addstr(&sb, "  ],\n");
	add_totals(&sb, labels, nr, faster, slower);
	if (train)
		add_gains(&sb, res, noise, train);
	strbuf_addstr(&sb, "\n}\n");
	ret = write_atomically(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(faster);
	free(slower);
	return ret;
}
