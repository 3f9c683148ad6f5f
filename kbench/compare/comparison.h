/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One comparison of kernels' results: every figure that `kbench compare`
 * shows (the table, the SVG chart of -o, the JSON of --json) and that
 * `kbench pgo` puts in its summary, computed once by comparison_load()
 * (comparison.c) into struct comparison.  The views (table.c, chart.c,
 * compare-json.c) only read it; none calls another, and report.c shows
 * them in compare's order.
 */
#ifndef KBENCH_COMPARISON_H
#define KBENCH_COMPARISON_H

#include "noise.h"
#include "result.h"
#include "strbuf.h"
#include "train.h"

/* What is compared, and how. */
struct comparison_spec {
	char **files;		/* the result files; the first is the reference */
	int nr;
	const char *noise;	/* --noise: a file, "none", or NULL (the built-in table) */
	int metric;		/* KB_METRICS, or -1: the rows' own figures */
	const struct kb_train *train;	/* two kernels, plain and profile-guided; or NULL */
};

/* One later kernel against the reference on one row. */
struct cmp_cell {
	const struct kb_row *row;	/* the kernel's own; NULL: it has none */
	/*
	 * How much faster it is in percent (for times a/b - 1, for
	 * bandwidths b/a - 1: +10 is 10 % more work per second), and the
	 * spread of that over the samples, from its worst sample against the
	 * reference's best to its best against the worst.  Not defined when
	 * an event count is 0 on one side: no ratio to give.
	 */
	int defined;
	double pct, lo, hi;
	/*
	 * Beyond chance: the spread excludes 0 and the difference is larger
	 * than the row's noise, what kernels with the same code show (noise.h).
	 */
	int significant;
};

/* One row of the reference, against every later kernel. */
struct cmp_row {
	const struct kb_row *ref;
	double noise;		/* its threshold in percent */
	int control;		/* of KB_CONTROL_GROUP: in no average, count or gain */
	/*
	 * One per kernel; of cells[0] only row is set: the reference's row of
	 * that name (the first, should a file hold a name twice).
	 */
	struct cmp_cell *cells;
};

/* A later kernel over every row but the controls. */
struct cmp_total {
	double sum;		/* of the defined percentages */
	int count;
	int faster, slower;	/* the significant ones */
};

/* One half of the rows of two kernels: the mean of its percentages, its significant rows. */
struct kb_gain {
	int rows, faster, slower;
	double mean_pct;	/* 0 without rows */
};

/*
 * What a profile-guided kernel (the second) gained on the rows its
 * training ran, on the held-out rows (what other work can expect), and on
 * the rows of --program (KB_PROGRAM_GROUP), held out by construction (no
 * training runs them) and of work no one here wrote: apart from both.
 */
struct kb_gains {
	struct kb_gain trained, held_out, programs;
};

/*
 * One kernel's scaling from 1 CPU to N (a sweep, kbench run --cpus=1,2,4).
 * The guest runs one copy of each row whatever its CPUs, so a row's
 * throughput at N is its own figure at N: speedup is figure at 1 / figure
 * at N for times (and modelled counts), at N / at 1 for MB/s; above 1 the
 * row is faster with N CPUs, below it SMP costs it.  efficiency is
 * speedup / N: the share of N CPUs' ideal the one copy gets.
 */
struct cmp_point {
	const struct kb_row *row;	/* the row at cpus[k]; NULL: not measured there */
	double speedup, efficiency;
};
struct cmp_scale_row {
	const struct kb_row *one;	/* the row at 1 CPU */
	struct cmp_point *at;		/* one per cpus[k], k >= 1 (at[0] unused) */
};
struct cmp_scaling {
	int cpus[KB_MAX_CPUS], nr_cpus;	/* the kernel's CPU counts, ascending */
	struct cmp_scale_row *rows;	/* rows at 1 CPU and at least one other count */
	size_t nr_rows;
};

struct comparison {
	struct kb_result *res;	/* the results; res[0] the reference */
	char **labels;		/* their file names without directory and ".json" */
	int nr;
	struct kb_noise noise;
	const char *metric;	/* "time" (the rows' own figures) or the cost model's metric */
	struct cmp_row *rows;	/* the reference's rows, in its order */
	size_t nr_rows;
	struct cmp_total *totals;	/* one per kernel; totals[0] unused */
	/* Rows a later kernel has and the reference lacks: not compared. */
	struct cmp_only {
		int kernel;
		const struct kb_row *row;
	} *only;
	size_t nr_only;
	int trained;		/* spec->train was given: gains holds the halves */
	struct kb_gains gains;	/* of a sweep: every count's rows together */
	/* A sweep's gains by CPU count (the reference's counts, ascending). */
	struct kb_count_gains {
		int cpus;
		struct kb_gains gains;
	} by_cpus[KB_MAX_CPUS];
	int nr_by_cpus;
	/*
	 * Some result holds rows of a CPU count other than 1 (a sweep): rows
	 * are matched by name and CPUs, ordered by name then CPUs, and the
	 * views show the CPUs.  Single-CPU results look as they always did.
	 */
	int sweep;
	/* Rows at CPU counts the noise table was not measured at took its figures. */
	int noise_other_cpus;
	struct cmp_scaling *scaling;	/* one per kernel when sweep, else NULL */
};

/*
 * Load spec's results (in its metric), check that they can be compared
 * (one clock, the same units), take the noise table, and compute.  KB_OK,
 * or KB_TROUBLE after an error naming the file.  comparison_release() in
 * either case.
 */
int comparison_load(struct comparison *c, const struct comparison_spec *spec);
void comparison_release(struct comparison *c);

/* "Processes (us)" for "proc": the heading of a group of rows. */
const char *group_title(const char *group);

/* The table on standard output, the gains after it when c->trained (table.c). */
void table_print(const struct comparison *c);
/* The SVG bar chart to path (chart.c); 0, or -1 after an error. */
int chart_write(const char *path, const struct comparison *c);
/* The comparison as JSON to path (compare-json.c); 0, or -1 after an error. */
int compare_json_write(const char *path, const struct comparison *c);
/*
 * "trained": GAIN,\n  "held_out": GAIN,\n  "programs": GAIN, and of a sweep
 * "by_cpus": [{"cpus": N, "trained": GAIN, ...}] (compare-json.c).
 */
void compare_json_gains(const struct comparison *c, struct strbuf *sb);

/*
 * What `kbench compare` shows, in its order (report.c): the table, then
 * the chart if chart, the JSON if json.  KB_OK, or KB_TROUBLE if a file
 * could not be written.
 */
int comparison_report(const struct comparison *c, const char *chart, const char *json);

#endif
