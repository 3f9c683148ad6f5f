// SPDX-License-Identifier: GPL-2.0
/* The rows a training ran (train.h). */
#include "train.h"
#include "json.h"

#include <string.h>

#define HOST_ROW(name, unit, group, train, ...) { name, group, train },
static const struct {
	const char *name, *group;
	int train;
} known_rows[] = { KB_ROWS(HOST_ROW) };
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
		if (same(known_rows[r].name, p, len) || same(known_rows[r].group, p, len))
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
		t->row[r] = known_rows[r].train != 0;
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
		if (!strcmp(known_rows[r].name, name))
			return t->row[r];
	return t->all;
}

static void add_names(const struct kb_train *t, struct strbuf *sb)
{
	const char *sep = "";

	for (size_t r = 0; r < KB_NR_ROWS; r++) {
		if (!t->row[r])
			continue;
		strbuf_addf(sb, "%s%s", sep, known_rows[r].name);
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
		if (!r || strcmp(known_rows[r].group, known_rows[r - 1].group))
			strbuf_addf(sb, "%s%s", r ? "," : "", known_rows[r].group);
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
		json_add_string(sb, known_rows[r].name);
		sep = ", ";
	}
	strbuf_addch(sb, ']');
}
