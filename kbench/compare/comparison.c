// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison, computed once (comparison.h): the results loaded and
 * checked, then per row (by name and CPUs) and later kernel the percentage,
 * its spread and whether it is significant, per kernel the totals and, for
 * a sweep of CPU counts, its scaling from 1 CPU; with a training's rows the
 * gains of both halves.
 */
#include "comparison.h"
#include "kbench.h"
#include "warn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *group, *title;
} groups[] = {
	{ "proc", "Processes (us)" },
	{ "ipc-lat", "Communication latency (us)" },
	{ "ipc-bw", "Communication bandwidth (MB/s)" },
	{ "ctx", "Context switch (us per hand-over)" },
	{ "fs-vm", "File and VM latency (us)" },
	{ "smp", "On every CPU (us per operation of one copy; noise per quantum)" },
	{ "mem", "Memory, controls: should not move" },
	{ KB_PROGRAM_GROUP, "Programs (us per run)" },
};

const char *group_title(const char *group)
{
	for (size_t g = 0; g < sizeof(groups) / sizeof(*groups); g++)
		if (!strcmp(groups[g].group, group))
			return groups[g].title;
	return group;
}

static double speedup_pct(const char *unit, double a, double b)
{
	/* Event counts can be 0 on both sides: no change, not 0/0. */
	if (a == b)
		return 0;
	return (unit_smaller_is_better(unit) ? a / b : b / a) * 100 - 100;
}

static void min_max(const struct kb_row *r, double *mn, double *mx)
{
	*mn = *mx = r->samples[0];
	for (size_t i = 1; i < r->nr; i++) {
		if (r->samples[i] < *mn)
			*mn = r->samples[i];
		if (r->samples[i] > *mx)
			*mx = r->samples[i];
	}
}

static void speedup_range(const struct kb_row *a, const struct kb_row *b, double *lo, double *hi)
{
	double amin, amax, bmin, bmax, x, y;

	min_max(a, &amin, &amax);
	min_max(b, &bmin, &bmax);
	x = speedup_pct(a->unit, amin, bmax);
	y = speedup_pct(a->unit, amax, bmin);
	*lo = x < y ? x : y;
	*hi = x < y ? y : x;
}

/* b against a on one row, with a's noise threshold. */
static void compute_cell(struct cmp_cell *cell, const struct kb_row *a, const struct kb_row *b,
			 double noise)
{
	cell->row = b;
	if (!b)
		return;
	cell->pct = speedup_pct(a->unit, a->median, b->median);
	speedup_range(a, b, &cell->lo, &cell->hi);
	cell->defined = isfinite(cell->pct) && isfinite(cell->lo) && isfinite(cell->hi);
	cell->significant = (cell->lo > 0 || cell->hi < 0) && fabs(cell->pct) > noise &&
			    fabs(cell->pct) >= 0.05;
}

/* A defined cell of a row but the controls, into its kernel's totals. */
static void add_total(struct cmp_total *t, const struct cmp_cell *cell)
{
	t->sum += cell->pct;
	t->count++;
	if (cell->significant && cell->pct > 0)
		t->faster++;
	else if (cell->significant)
		t->slower++;
}

/* The half of row: a program's (whatever the list: no training runs them), or by t. */
static struct kb_gain *half(struct kb_gains *g, const struct kb_train *t, const struct kb_row *row)
{
	if (!strcmp(row->group, KB_PROGRAM_GROUP))
		return &g->programs;
	return train_has(t, row->name) ? &g->trained : &g->held_out;
}

static void mean(struct kb_gain *g)
{
	if (g->rows)
		g->mean_pct /= g->rows;
}

/* A sweep's gains at cpus, a new entry (counts ascending) if need be. */
static struct kb_gains *count_gains(struct comparison *c, int cpus)
{
	int k = 0;

	while (k < c->nr_by_cpus && c->by_cpus[k].cpus < cpus)
		k++;
	if (k < c->nr_by_cpus && c->by_cpus[k].cpus == cpus)
		return &c->by_cpus[k].gains;
	if (c->nr_by_cpus == KB_MAX_CPUS)	/* rows have at most that many counts */
		return NULL;
	memmove(&c->by_cpus[k + 1], &c->by_cpus[k], (c->nr_by_cpus - k) * sizeof(*c->by_cpus));
	memset(&c->by_cpus[k], 0, sizeof(*c->by_cpus));
	c->by_cpus[k].cpus = cpus;
	c->nr_by_cpus++;
	return &c->by_cpus[k].gains;
}

static void add_to(struct kb_gain *g, const struct cmp_cell *cell)
{
	g->rows++;
	g->mean_pct += cell->pct;	/* the sum, until mean() divides */
	if (cell->significant && cell->pct > 0)
		g->faster++;
	else if (cell->significant)
		g->slower++;
}

static void means(struct kb_gains *g)
{
	mean(&g->trained);
	mean(&g->held_out);
	mean(&g->programs);
}

/*
 * The second kernel's gains on the rows both have, but the controls, halved
 * by t; of a sweep also by CPU count (a profile trained at one count may
 * hold at another, or not).
 */
static void compute_gains(struct comparison *c, const struct kb_train *t)
{
	for (size_t r = 0; r < c->nr_rows; r++) {
		const struct cmp_row *row = &c->rows[r];
		const struct cmp_cell *cell = &row->cells[1];
		struct kb_gains *at;

		if (!cell->row || row->control || !cell->defined)
			continue;
		add_to(half(&c->gains, t, row->ref), cell);
		if (c->sweep && (at = count_gains(c, row->ref->cpus)))
			add_to(half(at, t, row->ref), cell);
	}
	means(&c->gains);
	for (int k = 0; k < c->nr_by_cpus; k++)
		means(&c->by_cpus[k].gains);
}

/* Some row measured on other than 1 CPU: the results are of a sweep. */
static int is_sweep(const struct comparison *c)
{
	for (int i = 0; i < c->nr; i++)
		for (size_t r = 0; r < c->res[i].nr; r++)
			if (c->res[i].rows[r].cpus != 1)
				return 1;
	return 0;
}

struct row_key {
	size_t first;	/* where the row's name first appears */
	int cpus;
	size_t idx;
};

static int cmp_key(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->cpus != y->cpus)
		return x->cpus < y->cpus ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * The order of r's rows in the comparison: the file's; for a sweep, each
 * name's rows together by CPUs (a sweep's file has them boot by boot).
 */
static size_t *row_order(const struct kb_result *r, int sweep)
{
	struct row_key *keys = xcalloc(r->nr ? r->nr : 1, sizeof(*keys));
	size_t *order = xcalloc(r->nr ? r->nr : 1, sizeof(*order));

	for (size_t i = 0; i < r->nr; i++) {
		keys[i].idx = i;
		keys[i].cpus = r->rows[i].cpus;
		keys[i].first = i;
		for (size_t k = 0; sweep && k < i; k++) {
			if (!strcmp(r->rows[k].name, r->rows[i].name)) {
				keys[i].first = k;
				break;
			}
		}
	}
	if (sweep)
		qsort(keys, r->nr, sizeof(*keys), cmp_key);
	for (size_t i = 0; i < r->nr; i++)
		order[i] = keys[i].idx;
	free(keys);
	return order;
}

static void compute_row(struct comparison *c, struct cmp_row *row, const struct kb_row *ref)
{
	row->ref = ref;
	row->noise = noise_threshold(&c->noise, ref->name);
	/* No table measured at these CPUs: the one there is stands in. */
	if (c->noise.cpus && ref->cpus != c->noise.cpus)
		c->noise_other_cpus = 1;
	row->control = !strcmp(ref->group, KB_CONTROL_GROUP);
	row->cells = xcalloc((size_t)c->nr, sizeof(*row->cells));
	row->cells[0].row = result_find(&c->res[0], ref->name, ref->cpus);
	for (int i = 1; i < c->nr; i++) {
		struct cmp_cell *cell = &row->cells[i];

		compute_cell(cell, ref, result_find(&c->res[i], ref->name, ref->cpus), row->noise);
		if (cell->row && cell->defined && !row->control)
			add_total(&c->totals[i], cell);
	}
}

/* Rows a later kernel has and the reference lacks (by name and CPUs). */
static void find_only(struct comparison *c)
{
	for (int i = 1; i < c->nr; i++) {
		for (size_t r = 0; r < c->res[i].nr; r++) {
			const struct kb_row *b = &c->res[i].rows[r];

			if (result_find(&c->res[0], b->name, b->cpus))
				continue;
			c->only = xrealloc(c->only, (c->nr_only + 1) * sizeof(*c->only));
			c->only[c->nr_only].kernel = i;
			c->only[c->nr_only++].row = b;
		}
	}
}

/* Above 1: faster at more CPUs (cmp_scaling in comparison.h). */
static double scale_speedup(const char *unit, double one, double at)
{
	return unit_smaller_is_better(unit) ? one / at : at / one;
}

/* Row one (at 1 CPU) against its figures at s's other counts, if r has any. */
static void add_scale_row(struct cmp_scaling *s, const struct kb_result *r,
			  const struct kb_row *one)
{
	struct cmp_scale_row *sr = &s->rows[s->nr_rows];
	int any = 0;

	sr->one = one;
	sr->at = xcalloc((size_t)s->nr_cpus, sizeof(*sr->at));
	for (int k = 1; k < s->nr_cpus; k++) {
		struct cmp_point *p = &sr->at[k];

		p->row = result_find(r, one->name, s->cpus[k]);
		if (!p->row)
			continue;
		p->speedup = scale_speedup(one->unit, one->median, p->row->median);
		p->efficiency = p->speedup / s->cpus[k];
		any = 1;
	}
	if (any)
		s->nr_rows++;
	else
		free(sr->at);
}

/* One kernel's scaling: every row it has at 1 CPU and at another count. */
static void compute_scaling(struct cmp_scaling *s, const struct kb_result *r)
{
	s->nr_cpus = result_cpu_counts(r, s->cpus);
	if (s->nr_cpus < 2 || s->cpus[0] != 1)
		return;
	s->rows = xcalloc(r->nr, sizeof(*s->rows));
	for (size_t i = 0; i < r->nr; i++) {
		const struct kb_row *one = &r->rows[i];

		if (one->cpus == 1 && result_find(r, one->name, 1) == one)
			add_scale_row(s, r, one);
	}
}

static void compute(struct comparison *c, const struct kb_train *t)
{
	const struct kb_result *ref = &c->res[0];
	size_t *order;

	c->sweep = is_sweep(c);
	order = row_order(ref, c->sweep);
	c->nr_rows = ref->nr;
	c->rows = xcalloc(ref->nr, sizeof(*c->rows));
	c->totals = xcalloc((size_t)c->nr, sizeof(*c->totals));
	for (size_t r = 0; r < ref->nr; r++)
		compute_row(c, &c->rows[r], &ref->rows[order[r]]);
	free(order);
	find_only(c);
	if (c->sweep) {
		c->scaling = xcalloc((size_t)c->nr, sizeof(*c->scaling));
		for (int i = 0; i < c->nr; i++)
			compute_scaling(&c->scaling[i], &c->res[i]);
	}
	c->trained = t != NULL;
	if (t)
		compute_gains(c, t);
}

/* The column heads: file names without directory and ".json". */
static char **make_labels(char **files, int nr)
{
	char **labels = xcalloc((size_t)nr, sizeof(*labels));

	for (int i = 0; i < nr; i++) {
		const char *base = strrchr(files[i], '/');
		size_t len;

		base = base ? base + 1 : files[i];
		len = strlen(base);
		if (len > 5 && !strcmp(base + len - 5, ".json"))
			len -= 5;
		labels[i] = xstrndup(base, len);
	}
	return labels;
}

static int check_clocks(const struct kb_result *res, char **files, int nr)
{
	for (int i = 1; i < nr; i++)
		if (strcmp(res[i].clock, res[0].clock))
			return error("%s was measured with the %s clock and %s with %s: "
				     "compare results of one clock", files[0], res[0].clock,
				     files[i], res[i].clock);
	return 0;
}

static int check_units(const struct kb_result *res, char **files, int nr)
{
	for (size_t r = 0; r < res[0].nr; r++) {
		for (int i = 1; i < nr; i++) {
			const struct kb_row *b = result_find(&res[i], res[0].rows[r].name,
							     res[0].rows[r].cpus);

			if (b && strcmp(b->unit, res[0].rows[r].unit))
				return error("%s: benchmark %s is in %s, in %s it is in %s", files[i],
					     b->name, b->unit, files[0], res[0].rows[r].unit);
		}
	}
	return 0;
}

/* The names of r's program rows (--program), "none" without any. */
static void program_rows(const struct kb_result *r, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < r->nr; i++)
		if (r->rows[i].group && !strcmp(r->rows[i].group, "programs"))
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", r->rows[i].name);
	if (!sb->len)
		strbuf_addstr(sb, "none");
}

/*
 * Programs carried into the guest change the initramfs, and with it what
 * the page allocator hands the other rows: up to 4 % in instructions.
 */
static void warn_programs(const struct kb_result *res, char **files, int nr)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	program_rows(&res[0], &a);
	for (int i = 1; i < nr; i++) {
		program_rows(&res[i], &b);
		if (strcmp(a.buf, b.buf)) {
			warning("the guests ran different programs (%s: %s; %s: %s): their "
				"initramfs differ, which moves other rows too; compare runs "
				"with the same --program", files[0], a.buf, files[i], b.buf);
			break;
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Every result, in the metric asked for; -1 after the first that is not. */
static int load_results(struct comparison *c, const struct comparison_spec *s)
{
	for (int i = 0; i < s->nr; i++)
		if (result_load(&c->res[i], s->files[i]) ||
		    (s->metric >= 0 && result_use_metric(&c->res[i], s->metric, s->files[i])))
			return -1;
	return 0;
}

int comparison_load(struct comparison *c, const struct comparison_spec *s)
{
	const char *metric = s->metric < 0 ? NULL : kb_metric_names[s->metric];
	int ret = KB_OK;

	memset(c, 0, sizeof(*c));
	c->nr = s->nr;
	c->res = xcalloc((size_t)s->nr, sizeof(*c->res));
	if (load_results(c, s) || check_clocks(c->res, s->files, s->nr) ||
	    check_units(c->res, s->files, s->nr) ||
	    noise_for(&c->noise, s->noise, c->res[0].clock, metric, 0))
		ret = KB_TROUBLE;
	c->labels = make_labels(s->files, s->nr);
	if (ret != KB_OK)
		return ret;
	warn_programs(c->res, s->files, s->nr);
	c->metric = c->res[0].metric ? c->res[0].metric : "time";
	compute(c, s->train);
	return KB_OK;
}

void comparison_release(struct comparison *c)
{
	for (int i = 0; i < c->nr; i++) {
		result_release(&c->res[i]);
		if (c->labels)
			free(c->labels[i]);
	}
	for (size_t r = 0; r < c->nr_rows; r++)
		free(c->rows[r].cells);
	for (int i = 0; c->scaling && i < c->nr; i++) {
		for (size_t r = 0; r < c->scaling[i].nr_rows; r++)
			free(c->scaling[i].rows[r].at);
		free(c->scaling[i].rows);
	}
	free(c->scaling);
	noise_release(&c->noise);
	free(c->labels);
	free(c->res);
	free(c->rows);
	free(c->totals);
	free(c->only);
	memset(c, 0, sizeof(*c));
}
