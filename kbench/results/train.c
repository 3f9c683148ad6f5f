// SPDX-License-Identifier: GPL-2.0
/* Trained and held-out rows, and what each half gained (pgo-gains.h). */
#include "train.h"
#include "comparison.h"
#include "json.h"
#include "noise.h"

#include <stdio.h>
#include <string.h>

#define HOST_ROW(name, unit, group, train, ...) { name, group, train },
static const struct {
	const char *name, *group;
	int train;
} rows[] = { KB_ROWS(HOST_ROW) };
#undef HOST_ROW

static int same(const char *s, const char *p, size_t len)
{
	return strlen(s) == len && !strncmp(s, p, len);
}

/* Mark the row or the rows of the group p[0..len); 0 if there is none. */
static int mark(struct kb_train *t, const char *p, size_t len)
{
	int found = 0;

	for (size_t r = 0; r < KB_NR_ROWS; r++)
		if (same(rows[r].name, p, len) || same(rows[r].group, p, len))
			t->row[r] = found = 1;
	return found;
}

int train_parse(struct kb_train *t, const char *list, const char *opt, struct strbuf *why)
{
	memset(t, 0, sizeof(*t));
	if (!strcmp(list, "all")) {
		t->all = 1;
		memset(t->row, 1, sizeof(t->row));
		return 0;
	}
	if (!strcmp(list, "none"))
		return 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (!mark(t, p, len)) {
			strbuf_addf(why, "%s: no row or group '%.*s' (all, none, or rows "
				    "and groups, kbench(1))", opt, (int)len, p);
			return -1;
		}
		p += len;
		if (!*p)
			return 0;
	}
}

void train_default(struct kb_train *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t r = 0; r < KB_NR_ROWS; r++)
		t->row[r] = rows[r].train != 0;
}

int train_nr(const struct kb_train *t)
{
	int nr = 0;

	for (size_t r = 0; r < KB_NR_ROWS; r++)
		nr += t->row[r];
	return nr;
}

int train_has(const struct kb_train *t, const char *name)
{
	for (size_t r = 0; r < KB_NR_ROWS; r++)
		if (!strcmp(rows[r].name, name))
			return t->row[r];
	return t->all;
}

static void add_names(const struct kb_train *t, struct strbuf *sb)
{
	const char *sep = "";

	for (size_t r = 0; r < KB_NR_ROWS; r++) {
		if (!t->row[r])
			continue;
		strbuf_addf(sb, "%s%s", sep, rows[r].name);
		sep = ",";
	}
}

void train_only(const struct kb_train *t, struct strbuf *sb)
{
	if (!t->all) {
		add_names(t, sb);
		return;
	}
	/* Every group: shorter on the guest's command line than every row. */
	for (size_t r = 0; r < KB_NR_ROWS; r++)
		if (!r || strcmp(rows[r].group, rows[r - 1].group))
			strbuf_addf(sb, "%s%s", r ? "," : "", rows[r].group);
}

void train_spec(const struct kb_train *t, struct strbuf *sb)
{
	size_t len = sb->len;

	if (t->all) {
		strbuf_addstr(sb, "all");
		return;
	}
	add_names(t, sb);
	if (sb->len == len)
		strbuf_addstr(sb, "none");
}

void train_json(const struct kb_train *t, struct strbuf *sb)
{
	const char *sep = "";

	strbuf_addch(sb, '[');
	for (size_t r = 0; r < KB_NR_ROWS; r++) {
		if (!t->row[r])
			continue;
		strbuf_addstr(sb, sep);
		json_add_string(sb, rows[r].name);
		sep = ", ";
	}
	strbuf_addch(sb, ']');
}

static void add(struct kb_gain *g, double pct, int sig)
{
	g->rows++;
	g->mean_pct += pct;	/* the sum, until gains_compute() divides */
	if (sig && pct > 0)
		g->faster++;
	else if (sig)
		g->slower++;
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

void gains_compute(const struct kb_result *a, const struct kb_result *b,
		   const struct kb_noise *noise, const struct kb_train *t, struct kb_gains *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t r = 0; r < a->nr; r++) {
		const struct kb_row *ra = &a->rows[r], *rb = result_find(b, ra->name);

		if (!rb || !strcmp(ra->group, KB_CONTROL_GROUP) || !speedup_defined(ra, rb))
			continue;
		add(half(g, t, ra), speedup_pct(ra->unit, ra->median, rb->median),
		    diff_significant(ra, rb, noise_threshold(noise, ra->name)));
	}
	mean(&g->trained);
	mean(&g->held_out);
	mean(&g->programs);
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

void gains_print(const struct kb_gains *g)
{
	print_half("trained on", &g->trained, "the training ran none of the rows compared");
	print_half("held out", &g->held_out, "the training ran every row compared");
	if (g->programs.rows)
		print_half("programs", &g->programs, "");
}

void gains_json(const struct kb_gain *g, struct strbuf *sb)
{
	strbuf_addf(sb, "{\"rows\": %d, \"mean_pct\": ", g->rows);
	json_add_number(sb, g->mean_pct);
	strbuf_addf(sb, ", \"faster\": %d, \"slower\": %d}", g->faster, g->slower);
}
