/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rows a profile's training ran (kbench pgo --train-rows) and, by
 * that, the rows held out (compare --trained): a profile fits what it was
 * trained on, so the comparison judges both halves apart (comparison.h).
 */
#ifndef KBENCH_TRAIN_H
#define KBENCH_TRAIN_H

#include "rows.h"
#include "strbuf.h"

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

#endif
