// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as an LMBench-style table on standard output: one line
 * per benchmark, each kernel's median, the row's noise, and every later
 * kernel's difference to the first in percent, then per kernel the average
 * and the significant rows; with a training's rows, what each half gained.
 * For a sweep of CPU counts each line is a row at one count (its "cpus"
 * column), and each kernel's scaling from 1 CPU follows.
 */
#include "comparison.h"

#include <stdio.h>
#include <string.h>

#define LABEL_WIDTH 12

/* ", cpus 1,2,4": a kernel's CPU counts. */
static void print_cpus(const struct cmp_scaling *s)
{
	printf(", cpus ");
	for (int k = 0; k < s->nr_cpus; k++)
		printf("%s%d", k ? "," : "", s->cpus[k]);
}

static void print_header(const struct comparison *c)
{
	const struct kb_result *res = c->res;

	printf("kbench: %d kernels, clock %s (%s)\n", c->nr, res[0].clock,
	       result_metric_text(&res[0]));
	for (int i = 0; i < c->nr; i++) {
		printf("  %-*s %s (%s)%s%s", LABEL_WIDTH, c->labels[i], res[i].kernel,
		       res[i].compiler, *res[i].append ? " append: " : "", res[i].append);
		if (c->sweep)
			print_cpus(&c->scaling[i]);
		printf("\n");
	}
	printf("Positive: faster than %s (less time, more MB/s).  '*': significant, beyond "
	       "the spread\nof the samples and beyond the noise column, what kernels with "
	       "the same code show\n(noise table: %s); '~': not significant.\n", c->labels[0],
	       c->noise.source);
	if (c->noise_other_cpus)
		printf("The noise table was measured on %d CPU%s: rows at other counts take its "
		       "figures.\n", c->noise.cpus, c->noise.cpus == 1 ? "" : "s");
}

static void print_columns(const struct comparison *c)
{
	printf("\n%-18s %-4s", "benchmark", "unit");
	if (c->sweep)
		printf(" %4s", "cpus");
	for (int i = 0; i < c->nr; i++)
		printf(" %*.*s", LABEL_WIDTH, LABEL_WIDTH, c->labels[i]);
	printf(" %6s", "noise");
	for (int i = 1; i < c->nr; i++)
		printf(" %*.*s", LABEL_WIDTH - 2, LABEL_WIDTH - 2, c->labels[i]);
	printf("\n");
}

/* One benchmark's line: the medians, the noise, the percentages. */
static void print_row(const struct comparison *c, const struct cmp_row *row)
{
	const struct kb_row *a = row->ref;

	printf("%-18s %-4s", a->name, a->unit);
	if (c->sweep)
		printf(" %4d", a->cpus);
	printf(" %*.4g", LABEL_WIDTH, a->median);
	for (int i = 1; i < c->nr; i++) {
		if (row->cells[i].row)
			printf(" %*.4g", LABEL_WIDTH, row->cells[i].row->median);
		else
			printf(" %*s", LABEL_WIDTH, "-");
	}
	printf(" %5.1f%%", row->noise);
	for (int i = 1; i < c->nr; i++) {
		const struct cmp_cell *cell = &row->cells[i];

		if (!cell->row)
			printf(" %*s", LABEL_WIDTH - 2, "-");
		else if (!cell->defined)	/* an event none of one kernel's samples had */
			printf(" %*s", LABEL_WIDTH - 2, "n/a");
		else
			printf(" %+*.1f%%%c", LABEL_WIDTH - 4, cell->pct,
			       cell->significant ? '*' : '~');
	}
	printf("\n");
}

static void print_totals(const struct comparison *c)
{
	int width = 18 + 5 + (c->sweep ? 5 : 0) + c->nr * (LABEL_WIDTH + 1) + 7;

	printf("%-*s", width, "average (all but the controls)");
	for (int i = 1; i < c->nr; i++) {
		const struct cmp_total *t = &c->totals[i];

		printf(" %+*.1f%% ", LABEL_WIDTH - 4, t->count ? t->sum / t->count : 0.0);
	}
	printf("\n%-*s", width, "significant, faster/slower (ditto)");
	for (int i = 1; i < c->nr; i++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%d/%d", c->totals[i].faster, c->totals[i].slower);
		printf(" %*s ", LABEL_WIDTH - 3, buf);
	}
	printf("\n");
}

static void print_half(const char *label, const struct kb_gain *g, const char *none)
{
	printf("%-10s %2d row%s: ", label, g->rows, g->rows == 1 ? "" : "s");
	if (g->rows)
		printf("mean %+.1f %%, significant %d faster / %d slower\n", g->mean_pct,
		       g->faster, g->slower);
	else
		printf("%s\n", none);
}

/* After the table: what the rows trained on and the held-out rows gained. */
static void print_gains(const struct kb_gains *g)
{
	print_half("trained on", &g->trained, "the training ran none of the rows compared");
	print_half("held out", &g->held_out, "the training ran every row compared");
	if (g->programs.rows)
		print_half("programs", &g->programs, "");
}

/* One kernel's rows from 1 CPU to its other counts: speedup (efficiency). */
static void print_scaling(const char *label, const struct cmp_scaling *s)
{
	printf("\nScaling of %s from 1 CPU: speedup (above 1: faster with more CPUs) and, "
	       "in\nparentheses, efficiency (speedup / CPUs)\n%-18s %-4s", label, "benchmark",
	       "unit");
	for (int k = 1; k < s->nr_cpus; k++)
		printf(" %9d CPU%s", s->cpus[k], s->cpus[k] == 1 ? " " : "s");
	printf("\n");
	for (size_t r = 0; r < s->nr_rows; r++) {
		const struct cmp_scale_row *sr = &s->rows[r];

		printf("%-18s %-4s", sr->one->name, sr->one->unit);
		for (int k = 1; k < s->nr_cpus; k++) {
			const struct cmp_point *p = &sr->at[k];

			if (p->row)
				printf(" %6.3f (%3.0f%%)", p->speedup, p->efficiency * 100);
			else
				printf(" %14s", "-");
		}
		printf("\n");
	}
}

void table_print(const struct comparison *c)
{
	const char *group = NULL;

	print_header(c);
	print_columns(c);
	for (size_t r = 0; r < c->nr_rows; r++) {
		const struct kb_row *a = c->rows[r].ref;

		if (!group || strcmp(group, a->group)) {
			printf("%s\n", group_title(a->group));
			group = a->group;
		}
		print_row(c, &c->rows[r]);
	}
	for (size_t k = 0; k < c->nr_only; k++) {
		const struct kb_row *b = c->only[k].row;

		printf("%-18s (only in %s", b->name, c->labels[c->only[k].kernel]);
		if (c->sweep)
			printf(" at %d CPU%s", b->cpus, b->cpus == 1 ? "" : "s");
		printf(": not compared)\n");
	}
	if (c->nr > 1)
		print_totals(c);
	if (c->trained && !c->sweep) {
		printf("\n");
		print_gains(&c->gains);
	}
	for (int k = 0; c->trained && k < c->nr_by_cpus; k++) {
		printf("\nat %d CPU%s:\n", c->by_cpus[k].cpus, c->by_cpus[k].cpus == 1 ? "" : "s");
		print_gains(&c->by_cpus[k].gains);
	}
	for (int i = 0; c->sweep && i < c->nr; i++)
		if (c->scaling[i].nr_rows)
			print_scaling(c->labels[i], &c->scaling[i]);
}
