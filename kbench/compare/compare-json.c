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
 * trained on; only with --trained, two kernels) are the gains of
 * comparison.h: {"rows": N, "mean_pct": PERCENT, "faster": N, "slower": N}.
 * "metric" is "time" (the rows' own figures) or compare --metric's.
 *
 * For a sweep of CPU counts (some row not at 1 CPU) each kernel also has
 * "cpus": [its counts], each row "cpus": N (rows are per name and count),
 * "noise" has "cpus" (what the table was measured on) and "other_cpus"
 * (rows at other counts took its figures), and after "significant":
 *
 *    "scaling": [{"label", "cpus": [...], "rows": [{"name", "unit",
 *                 "at": [{"cpus": N, "speedup": X, "efficiency": Y}]}]}]
 *
 * one entry per kernel with rows at 1 CPU and another count; "at" lists
 * the counts above 1 the row was measured at.  speedup is the row's figure
 * at 1 / at N for times, at N / at 1 for MB/s (above 1: faster with N
 * CPUs); efficiency is speedup / N.
 */
#include "comparison.h"
#include "atomic-file.h"
#include "json.h"

/* , "cpus": [1, 2, 4] */
static void add_cpus(struct strbuf *sb, const struct cmp_scaling *s)
{
	strbuf_addstr(sb, ", \"cpus\": [");
	for (int k = 0; k < s->nr_cpus; k++)
		strbuf_addf(sb, "%s%d", k ? ", " : "", s->cpus[k]);
	strbuf_addch(sb, ']');
}

static void add_kernels(struct strbuf *sb, const struct comparison *c)
{
	strbuf_addstr(sb, "  \"kernels\": [");
	for (int i = 0; i < c->nr; i++) {
		strbuf_addstr(sb, i ? ",\n    {\"label\": " : "\n    {\"label\": ");
		json_add_string(sb, c->labels[i]);
		strbuf_addstr(sb, ", \"kernel\": ");
		json_add_string(sb, c->res[i].kernel);
		strbuf_addstr(sb, ", \"compiler\": ");
		json_add_string(sb, c->res[i].compiler);
		if (c->sweep)
			add_cpus(sb, &c->scaling[i]);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "\n  ],\n  \"noise\": {\"source\": ");
}

static void add_noise(struct strbuf *sb, const struct comparison *c)
{
	const struct kb_noise *noise = &c->noise;

	json_add_string(sb, noise->source);
	strbuf_addstr(sb, ", \"clock\": ");
	json_add_string(sb, noise->clock);
	strbuf_addstr(sb, ", \"provenance\": ");
	json_add_string(sb, noise->provenance);
	if (c->sweep)
		strbuf_addf(sb, ", \"cpus\": %d, \"other_cpus\": %s", noise->cpus,
			    c->noise_other_cpus ? "true" : "false");
	strbuf_addstr(sb, "},\n");
}

/* One later kernel against the reference on a row. */
static void add_against(struct strbuf *sb, const struct cmp_cell *cell, const char *label)
{
	strbuf_addstr(sb, "{\"label\": ");
	json_add_string(sb, label);
	if (!cell->defined) {	/* an event count of 0 on one side */
		strbuf_addstr(sb, ", \"percent\": null, \"low\": null, \"high\": null, "
			      "\"significant\": false}");
		return;
	}
	strbuf_addstr(sb, ", \"percent\": ");
	json_add_number(sb, cell->pct);
	strbuf_addstr(sb, ", \"low\": ");
	json_add_number(sb, cell->lo);
	strbuf_addstr(sb, ", \"high\": ");
	json_add_number(sb, cell->hi);
	strbuf_addf(sb, ", \"significant\": %s}", cell->significant ? "true" : "false");
}

static void add_row(struct strbuf *sb, const struct comparison *c, const struct cmp_row *row)
{
	const struct kb_row *a = row->ref;
	int first = 1;

	strbuf_addstr(sb, "    {\"name\": ");
	json_add_string(sb, a->name);
	strbuf_addstr(sb, ", \"unit\": ");
	json_add_string(sb, a->unit);
	strbuf_addstr(sb, ", \"group\": ");
	json_add_string(sb, a->group);
	if (c->sweep)
		strbuf_addf(sb, ", \"cpus\": %d", a->cpus);
	strbuf_addstr(sb, ", \"noise\": ");
	json_add_number(sb, row->noise);
	strbuf_addstr(sb, ",\n     \"medians\": [");
	for (int i = 0; i < c->nr; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		if (row->cells[i].row)
			json_add_number(sb, row->cells[i].row->median);
		else
			strbuf_addstr(sb, "null");
	}
	strbuf_addstr(sb, "],\n     \"against\": [");
	for (int i = 1; i < c->nr; i++) {
		if (!row->cells[i].row)
			continue;
		if (!first)
			strbuf_addstr(sb, ", ");
		first = 0;
		add_against(sb, &row->cells[i], c->labels[i]);
	}
	strbuf_addstr(sb, "]}");
}

static void add_totals(struct strbuf *sb, const struct comparison *c)
{
	strbuf_addstr(sb, "  \"significant\": [");
	for (int i = 1; i < c->nr; i++) {
		strbuf_addstr(sb, i > 1 ? ", {\"label\": " : "{\"label\": ");
		json_add_string(sb, c->labels[i]);
		strbuf_addf(sb, ", \"faster\": %d, \"slower\": %d}", c->totals[i].faster,
			    c->totals[i].slower);
	}
	strbuf_addstr(sb, "]");
}

/* {"name", "unit", "at": [{"cpus", "speedup", "efficiency"}]} */
static void add_scale_row(struct strbuf *sb, const struct cmp_scaling *s,
			  const struct cmp_scale_row *sr)
{
	int first = 1;

	strbuf_addstr(sb, "      {\"name\": ");
	json_add_string(sb, sr->one->name);
	strbuf_addstr(sb, ", \"unit\": ");
	json_add_string(sb, sr->one->unit);
	strbuf_addstr(sb, ", \"at\": [");
	for (int k = 1; k < s->nr_cpus; k++) {
		if (!sr->at[k].row)
			continue;
		strbuf_addf(sb, "%s{\"cpus\": %d, \"speedup\": ", first ? "" : ", ", s->cpus[k]);
		json_add_number(sb, sr->at[k].speedup);
		strbuf_addstr(sb, ", \"efficiency\": ");
		json_add_number(sb, sr->at[k].efficiency);
		strbuf_addch(sb, '}');
		first = 0;
	}
	strbuf_addstr(sb, "]}");
}

/* ,\n  "scaling": [...]: the kernels that have rows at 1 CPU and another count. */
static void add_scaling(struct strbuf *sb, const struct comparison *c)
{
	int first = 1;

	strbuf_addstr(sb, ",\n  \"scaling\": [");
	for (int i = 0; i < c->nr; i++) {
		const struct cmp_scaling *s = &c->scaling[i];

		if (!s->nr_rows)
			continue;
		strbuf_addstr(sb, first ? "\n    {\"label\": " : ",\n    {\"label\": ");
		json_add_string(sb, c->labels[i]);
		add_cpus(sb, s);
		strbuf_addstr(sb, ", \"rows\": [\n");
		for (size_t r = 0; r < s->nr_rows; r++) {
			add_scale_row(sb, s, &s->rows[r]);
			strbuf_addstr(sb, r + 1 < s->nr_rows ? ",\n" : "\n");
		}
		strbuf_addstr(sb, "    ]}");
		first = 0;
	}
	strbuf_addstr(sb, first ? "]" : "\n  ]");
}

/* {"rows": N, "mean_pct": X, "faster": A, "slower": B} */
static void add_gain(struct strbuf *sb, const struct kb_gain *g)
{
	strbuf_addf(sb, "{\"rows\": %d, \"mean_pct\": ", g->rows);
	json_add_number(sb, g->mean_pct);
	strbuf_addf(sb, ", \"faster\": %d, \"slower\": %d}", g->faster, g->slower);
}

/* "trained": GAIN, "held_out": GAIN, "programs": GAIN, after sep each but the first. */
static void add_halves(struct strbuf *sb, const struct kb_gains *g, const char *sep)
{
	strbuf_addstr(sb, "\"trained\": ");
	add_gain(sb, &g->trained);
	strbuf_addf(sb, "%s\"held_out\": ", sep);
	add_gain(sb, &g->held_out);
	strbuf_addf(sb, "%s\"programs\": ", sep);
	add_gain(sb, &g->programs);
}

void compare_json_gains(const struct comparison *c, struct strbuf *sb)
{
	add_halves(sb, &c->gains, ",\n  ");
	if (!c->sweep)
		return;
	strbuf_addstr(sb, ",\n  \"by_cpus\": [");
	for (int k = 0; k < c->nr_by_cpus; k++) {
		strbuf_addf(sb, "%s\n    {\"cpus\": %d, ", k ? "," : "", c->by_cpus[k].cpus);
		add_halves(sb, &c->by_cpus[k].gains, ", ");
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "\n  ]");
}

int compare_json_write(const char *path, const struct comparison *c)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, "{\n  \"kbench_compare\": 1,\n  \"clock\": ");
	json_add_string(&sb, c->res[0].clock);
	strbuf_addstr(&sb, ",\n  \"metric\": ");
	json_add_string(&sb, c->metric);
	strbuf_addstr(&sb, ",\n  \"reference\": ");
	json_add_string(&sb, c->labels[0]);
	strbuf_addstr(&sb, ",\n");
	add_kernels(&sb, c);
	add_noise(&sb, c);
	strbuf_addstr(&sb, "  \"rows\": [\n");
	for (size_t r = 0; r < c->nr_rows; r++) {
		add_row(&sb, c, &c->rows[r]);
		strbuf_addstr(&sb, r + 1 < c->nr_rows ? ",\n" : "\n");
	}
	strbuf_addstr(&sb, "  ],\n");
	add_totals(&sb, c);
	if (c->sweep)
		add_scaling(&sb, c);
	if (c->trained) {
		strbuf_addstr(&sb, ",\n  ");
		compare_json_gains(c, &sb);
	}
	strbuf_addstr(&sb, "\n}\n");
	ret = write_atomically(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
