// SPDX-License-Identifier: GPL-2.0
/*
 * kbench compare: the LMBench-style table (one row per benchmark, each kernel's
 * median, the difference of every later kernel to the first in percent)
 * and, with -o, the chart; with --trained, what a profile-guided kernel
 * gained on the rows it was trained on and on the others (pgo-gains.h).
 */
#include "cmd.h"
#include "comparison.h"
#include "noise.h"
#include "train.h"
#include "result.h"
#include "strbuf.h"
#include "warn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_WIDTH 12

/* Per kernel: the sum and count of percentages, the significant rows. */
struct tally {
	double *sum;
	int *count, *faster, *slower;
};

static const struct {
	const char *group, *title;
} groups[] = {
	{ "proc", "Processes (us)" },
	{ "ipc-lat", "Communication latency (us)" },
	{ "ipc-bw", "Communication bandwidth (MB/s)" },
	{ "ctx", "Context switch (us per hand-over)" },
	{ "fs-vm", "File and VM latency (us)" },
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

double speedup_pct(const char *unit, double a, double b)
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

void speedup_range(const struct kb_row *a, const struct kb_row *b, double *lo, double *hi)
{
	double amin, amax, bmin, bmax, x, y;

	min_max(a, &amin, &amax);
	min_max(b, &bmin, &bmax);
	x = speedup_pct(a->unit, amin, bmax);
	y = speedup_pct(a->unit, amax, bmin);
	*lo = x < y ? x : y;
	*hi = x < y ? y : x;
}

int speedup_defined(const struct kb_row *a, const struct kb_row *b)
{
	double lo, hi;

	speedup_range(a, b, &lo, &hi);
	return isfinite(speedup_pct(a->unit, a->median, b->median)) && isfinite(lo) && isfinite(hi);
}

int diff_significant(const struct kb_row *a, const struct kb_row *b, double noise)
{
	double pct = speedup_pct(a->unit, a->median, b->median), lo, hi;

	speedup_range(a, b, &lo, &hi);
	return (lo > 0 || hi < 0) && fabs(pct) > noise && fabs(pct) >= 0.05;
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
			const struct kb_row *b = result_find(&res[i], res[0].rows[r].name);

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

static void print_header(const struct kb_result *res, char **labels, int nr,
			 const struct kb_noise *noise)
{
	printf("kbench: %d kernels, clock %s (%s)\n", nr, res[0].clock,
	       result_metric_text(&res[0]));
	for (int i = 0; i < nr; i++)
		printf("  %-*s %s (%s)%s%s\n", LABEL_WIDTH, labels[i], res[i].kernel,
		       res[i].compiler, *res[i].append ? " append: " : "", res[i].append);
	printf("Positive: faster than %s (less time, more MB/s).  '*': significant, beyond "
	       "the spread\nof the samples and beyond the noise column, what kernels with "
	       "the same code show\n(noise table: %s); '~': not significant.\n", labels[0],
	       noise->source);
}

static void print_columns(char **labels, int nr)
{
	printf("\n%-18s %-4s", "benchmark", "unit");
	for (int i = 0; i < nr; i++)
		printf(" %*.*s", LABEL_WIDTH, LABEL_WIDTH, labels[i]);
	printf(" %6s", "noise");
	for (int i = 1; i < nr; i++)
		printf(" %*.*s", LABEL_WIDTH - 2, LABEL_WIDTH - 2, labels[i]);
	printf("\n");
}

/*
 * One benchmark's line; adds its percentages to sum[] unless it is a
 * control, and counts the significant ones (not the controls either) in
 * faster[] and slower[].
 */
static void print_row(const struct kb_result *res, int nr, const struct kb_row *a,
		      double noise, struct tally *t)
{
	printf("%-18s %-4s %*.4g", a->name, a->unit, LABEL_WIDTH, a->median);
	for (int i = 1; i < nr; i++) {
		const struct kb_row *b = result_find(&res[i], a->name);

		if (b)
			printf(" %*.4g", LABEL_WIDTH, b->median);
		else
			printf(" %*s", LABEL_WIDTH, "-");
	}
	printf(" %5.1f%%", noise);
	for (int i = 1; i < nr; i++) {
		const struct kb_row *b = result_find(&res[i], a->name);
		double pct;
		int sig;

		if (!b) {
			printf(" %*s", LABEL_WIDTH - 2, "-");
			continue;
		}
		/* An event none of one kernel's samples had: no ratio to give. */
		if (!speedup_defined(a, b)) {
			printf(" %*s", LABEL_WIDTH - 2, "n/a");
			continue;
		}
		pct = speedup_pct(a->unit, a->median, b->median);
		sig = diff_significant(a, b, noise);
		printf(" %+*.1f%%%c", LABEL_WIDTH - 4, pct, sig ? '*' : '~');
		if (!strcmp(a->group, "mem"))
			continue;
		t->sum[i] += pct;
		t->count[i]++;
		if (sig)
			(pct > 0 ? t->faster : t->slower)[i]++;
	}
	printf("\n");
}

static void print_totals(const struct tally *t, int nr)
{
	printf("%-*s", 18 + 5 + nr * (LABEL_WIDTH + 1) + 7, "average (all but the controls)");
	for (int i = 1; i < nr; i++)
		printf(" %+*.1f%% ", LABEL_WIDTH - 4, t->count[i] ? t->sum[i] / t->count[i] : 0.0);
	printf("\n%-*s", 18 + 5 + nr * (LABEL_WIDTH + 1) + 7,
	       "significant, faster/slower (ditto)");
	for (int i = 1; i < nr; i++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%d/%d", t->faster[i], t->slower[i]);
		printf(" %*s ", LABEL_WIDTH - 3, buf);
	}
	printf("\n");
}

static void print_table(const struct kb_result *res, char **labels, int nr,
			const struct kb_noise *noise)
{
	struct tally t = {
		xcalloc((size_t)nr, sizeof(double)), xcalloc((size_t)nr, sizeof(int)),
		xcalloc((size_t)nr, sizeof(int)), xcalloc((size_t)nr, sizeof(int)),
	};
	const char *group = NULL;

	print_header(res, labels, nr, noise);
	print_columns(labels, nr);
	for (size_t r = 0; r < res[0].nr; r++) {
		const struct kb_row *a = &res[0].rows[r];

		if (!group || strcmp(group, a->group)) {
			printf("%s\n", group_title(a->group));
			group = a->group;
		}
		print_row(res, nr, a, noise_threshold(noise, a->name), &t);
	}
	for (int i = 1; i < nr; i++)
		for (size_t r = 0; r < res[i].nr; r++)
			if (!result_find(&res[0], res[i].rows[r].name))
				printf("%-18s (only in %s: not compared)\n", res[i].rows[r].name,
				       labels[i]);
	if (nr > 1)
		print_totals(&t, nr);
	free(t.sum);
	free(t.count);
	free(t.faster);
	free(t.slower);
}

struct compare_opts {
	const char *chart, *json, *noise;
	int metric;		/* KB_METRICS, or -1: the rows' own figures */
	int trained;		/* --trained given: train holds it */
	struct kb_train train;
	char **files;
	int nr;
};

static int parse_compare_options(struct compare_opts *o, int argc, char **argv)
{
	const char *v;

	for (int i = 1; i < argc; i++) {
		if ((v = opt_arg(argc, argv, &i, "-o")) || (v = opt_arg(argc, argv, &i, "--output")))
			o->chart = v;
		else if ((v = opt_arg(argc, argv, &i, "--json")))
			o->json = v;
		else if ((v = opt_arg(argc, argv, &i, "--noise")))
			o->noise = v;
		else if ((v = opt_arg(argc, argv, &i, "--metric"))) {
			o->metric = metric_named(v);
			if (o->metric < 0)
				return usage_error("--metric is cycles, instructions or an "
					"event (loads, stores, l1i_misses, l1d_misses, "
					"l2_misses, llc_misses, branches, branch_misses), "
					"not '%s'", v);
		}
		else if ((v = opt_arg(argc, argv, &i, "--trained"))) {
			if (train_option(&o->train, v, "--trained"))
				return -1;
			o->trained = 1;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("compare: unknown option '%s'", argv[i]);
		else
			o->files[o->nr++] = argv[i];
	}
	if (o->nr < 2)
		return usage_error("compare needs two result files or more");
	if (o->trained && o->nr != 2)
		return usage_error("compare --trained takes two result files, not %d", o->nr);
	return 0;
}

/* After the table: what the rows trained on and the held-out rows gained. */
static void print_gains(const struct kb_result *res, const struct kb_noise *noise,
			const struct kb_train *train)
{
	struct kb_gains g;

	gains_compute(&res[0], &res[1], noise, train, &g);
	printf("\n");
	gains_print(&g);
}

/* The table, the chart (-o) and the JSON (--json) of loaded results. */
static int report(const struct kb_result *res, char **labels, const struct compare_opts *o,
		  const struct kb_noise *noise)
{
	const char *const *l = (const char *const *)labels;
	int ret = KB_OK, nr = o->nr;

	print_table(res, labels, nr, noise);
	if (o->trained)
		print_gains(res, noise, &o->train);
	fflush(stdout);
	if (o->chart && write_chart(o->chart, res, l, nr, noise))
		ret = KB_TROUBLE;
	else if (o->chart)
		note("chart in %s", o->chart);
	if (o->json && write_compare_json(o->json, res, l, nr, noise,
					 o->trained ? &o->train : NULL))
		ret = KB_TROUBLE;
	return ret;
}

static int metric_noise(struct kb_noise *noise, const struct compare_opts *o, const char *clock)
{
	return noise_for(noise, o->noise, clock, o->metric < 0 ? NULL : kb_metric_names[o->metric],
			 0);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .files = xcalloc((size_t)argc, sizeof(char *)), .metric = -1 };
	char **files = o.files, **labels;
	struct kb_result *res;
	struct kb_noise noise = { 0 };
	int nr, ret = KB_OK;

	if (parse_compare_options(&o, argc, argv))
		return free(files), KB_USAGE;
	nr = o.nr;
	res = xcalloc((size_t)nr, sizeof(*res));
	for (int i = 0; i < nr && ret == KB_OK; i++)
		if (result_load(&res[i], files[i]) ||
		    (o.metric >= 0 && result_use_metric(&res[i], o.metric, files[i])))
			ret = KB_TROUBLE;
	if (ret == KB_OK && (check_clocks(res, files, nr) || check_units(res, files, nr) ||
			     metric_noise(&noise, &o, res[0].clock)))
		ret = KB_TROUBLE;
	labels = make_labels(files, nr);
	if (ret == KB_OK)
		warn_programs(res, files, nr);
	if (ret == KB_OK)
		ret = report(res, labels, &o, &noise);
	for (int i = 0; i < nr; i++) {
		result_release(&res[i]);
		free(labels[i]);
	}
	noise_release(&noise);
	free(labels);
	free(res);
	free(files);
	return ret;
}
