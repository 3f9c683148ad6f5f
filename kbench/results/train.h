/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a profile-guided kernel gains on the rows its training ran and on
 * the rows it did not (held out).  A profile fits what it was trained
 * on: the trained rows' gain says how well, the held-out rows' gain is
 * what other work can expect.  `kbench compare --trained` prints both,
 * `kbench pgo` has compare print them and puts them in its summary.
 */
#ifndef KBENCH_TRAIN_H
#define KBENCH_TRAIN_H

#include "result.h"
#include "rows.h"
#include "strbuf.h"

struct kb_noise;

#define KB_ROW_ONE(...) + 1
enum { KB_NR_ROWS = 0 KB_ROWS(KB_ROW_ONE) };

/* The rows a training ran, in the order of rows.h. */
struct kb_train {
	int all;	/* every row, also those this kbench does not know */
	unsigned char row[KB_NR_ROWS];
};

/*
 * LIST of --train-rows or --trained (opt names it in messages): "all",
 * "none", or row and group names separated by commas.  0, or -1 with
 * what is not a row or group in why.
 */
int train_parse(struct kb_train *t, const char *list, const char *opt, struct strbuf *why);
/* The default: rows.h's split, about half of the rows. */
void train_default(struct kb_train *t);
/* How many of rows.h's rows the training ran. */
int train_nr(const struct kb_train *t);
/* Whether the training ran row name. */
int train_has(const struct kb_train *t, const char *name);
/* The rows as `kbench run --only` takes them (empty for none). */
void train_only(const struct kb_train *t, struct strbuf *sb);
/* The rows as --trained takes them: "all", "none" or their names. */
void train_spec(const struct kb_train *t, struct strbuf *sb);
/* A JSON array of the trained rows' names. */
void train_json(const struct kb_train *t, struct strbuf *sb);

/* One half: the mean of its percentages and its significant rows. */
struct kb_gain {
	int rows, faster, slower;
	double mean_pct;	/* 0 without rows */
};

/*
 * The three groups: the rows the training ran, the held-out rows, and the
 * rows of --program (KB_PROGRAM_GROUP), held out by construction (no
 * training runs them) and of work no one here wrote: apart from both.
 */
struct kb_gains {
	struct kb_gain trained, held_out, programs;
};

/*
 * b against a on the rows both have, but the controls: percentages and
 * significance as compare's (compare.h) with the thresholds of noise,
 * into trained or held_out by t, or programs by their group.
 */
void gains_compute(const struct kb_result *a, const struct kb_result *b,
		   const struct kb_noise *noise, const struct kb_train *t, struct kb_gains *g);
/* The lines on standard output: trained, held out, and programs when there are some. */
void gains_print(const struct kb_gains *g);
/* {"rows": N, "mean_pct": X, "faster": A, "slower": B} */
void gains_json(const struct kb_gain *g, struct strbuf *sb);

#endif
