/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One kernel's results: what `kbench run` writes and `kbench compare`
 * reads.  The file is JSON:
 *
 *   {"clock": "icount"|"kvm", "kernel": PATH, "compiler": TEXT,
 *    "version": TEXT, "runs": N, "quick": BOOL, "append": TEXT,
 *    "benchmarks": [{"name", "unit", "group", "cpus", "samples": [...], "median"}]}
 *
 * "cpus" is the number of CPUs the guest booted with (kbench run --cpus); a
 * file without it was measured on one.  A sweep (--cpus=1,2,4) holds each
 * row once per count: rows are keyed by name and cpus.
 *
 * "clock" is "board" for rows a lab's real board measured in real time,
 * and "machine": {"device_type", "device", "worker", "job", "lab"} then
 * names where a LAVA lab ran them (kbench lava fetch).
 *
 * "qemu": {"path": PATH, "version": TEXT or null} is the QEMU that ran the
 * boots (kbench run chose it, or --qemu named it); a file without it is
 * older, and compare needs none.
 *
 * Under the cost model (kbench run --model) the file also says "model":
 * PROFILE-NAME, and each benchmark "cycles" (the median per operation),
 * "events" ({EVENT: median per operation}) and "model_samples" ({METRIC:
 * [per operation, one per sample]}), the metrics of KB_METRICS.
 */
#ifndef KBENCH_RESULT_H
#define KBENCH_RESULT_H

#include "strbuf.h"
#include <stddef.h>

/* The cost model's metrics: cycles, then the events (model/sim.h's counters). */
#define KB_METRICS(X) X(cycles) X(instructions) X(loads) X(stores) X(l1i_misses) \
	X(l1d_misses) X(l2_misses) X(llc_misses) X(coherence_misses) X(branches) \
	X(branch_misses) X(fetch_windows) X(taken_branches) X(btb_misses) X(itlb_misses) \
	X(dtlb_misses) X(page_walks) X(opcache_misses)
#define KB_METRIC_ENUM(m) KB_M_##m,
enum kb_metric { KB_METRICS(KB_METRIC_ENUM) KB_NR_METRICS };
extern const char *const kb_metric_names[KB_NR_METRICS];
/* The metric of that name, or -1. */
int metric_named(const char *name);

/* The most CPUs kbench run boots a guest with. */
#define KB_MAX_CPUS 64

struct kb_row {
	char *name, *unit, *group;
	int cpus;		/* the guest's CPUs */
	double *samples;
	size_t nr;
	double median;
	/* Per operation, one per sample (nr each); all NULL without the model. */
	double *model[KB_NR_METRICS];
	double model_median[KB_NR_METRICS];
};

struct kb_result {
	char *clock;		/* "icount" or "kvm" */
	char *kernel;		/* the image booted */
	char *compiler;		/* from /proc/version */
	char *version;		/* /proc/version's first line */
	char *append;		/* extra kernel arguments */
	char *model;		/* the cost model's profile, or NULL */
	char *qemu, *qemu_version;	/* the QEMU run used ("10.0.2"; NULL: it said none) */
	/* kbench lava fetch: where the rows ran ("machine"); NULL: here */
	char *lab_device_type, *lab_device, *lab_worker, *lab_job, *lab_url;
	const char *metric;	/* result_use_metric()'s, or NULL: the rows' own figures */
	int runs, quick;
	struct kb_row *rows;
	size_t nr, alloc;
};

void result_init(struct kb_result *r);
void result_release(struct kb_result *r);
/* Add a row from the protocol's "s1,s2,..." list; -1 if it is malformed. */
int result_add_row(struct kb_result *r, const char *name, const char *unit,
		   const char *group, const char *samples);
/*
 * Move src's rows (one boot's) to the end of dst, measured on cpus CPUs,
 * and its kernel's version, compiler and model where dst has none yet.
 */
void result_take_rows(struct kb_result *dst, struct kb_result *src, int cpus);
/* Give row the model's figures: values[metric] has row->nr numbers, taken over. */
void result_set_model(struct kb_row *row, double *values[KB_NR_METRICS]);
/*
 * Make metric (KB_METRICS) every row's figures: its samples, median and
 * unit ("cyc" for cycles, "/op" for an event).  A row the model ran
 * without a figure (not a time per operation) is dropped; -1 after an
 * error naming path when the result has no model figures.
 */
int result_use_metric(struct kb_result *r, int metric, const char *path);
/* What the figures of r are, for titles: "cycles per operation (cost model: NAME)" etc. */
const char *result_metric_text(const struct kb_result *r);
/* The row of name measured on cpus CPUs, or NULL. */
const struct kb_row *result_find(const struct kb_result *r, const char *name, int cpus);
/* The CPU counts of r's rows, ascending, into cpus (room for KB_MAX_CPUS); how many. */
int result_cpu_counts(const struct kb_result *r, int *cpus);

/* 1 when smaller is better (us, ns), 0 for bandwidths. */
int unit_smaller_is_better(const char *unit);
double median_of(const double *v, size_t nr);

/* The JSON text of r. */
void result_to_json(const struct kb_result *r, struct strbuf *out);
/*
 * Read a result file; on failure print an error naming path (not JSON,
 * not kbench's) and return -1.
 */
int result_load(struct kb_result *r, const char *path);

/* "gcc (Debian 12.2.0-14) 12.2.0" out of a /proc/version line, or NULL. */
char *compiler_from_version(const char *version);

#endif
