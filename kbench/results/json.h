/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (a tree of values) and the string escaping the
 * writers need: enough for kbench's own result files, strict about syntax
 * so that a file that is not one is refused with its line number.
 */
#ifndef KBENCH_JSON_H
#define KBENCH_JSON_H

#include "strbuf.h"
#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double num;		/* JSON_NUMBER, JSON_BOOL (0 or 1) */
	char *str;		/* JSON_STRING */
	struct json **items;	/* JSON_ARRAY, JSON_OBJECT */
	char **keys;		/* JSON_OBJECT */
	size_t nr;
};

/*
 * Parse text[0..len).  NULL on a syntax error, described in err
 * ("line 3: expected ':'").
 */
struct json *json_parse(const char *text, size_t len, struct strbuf *err);
void json_free(struct json *j);
/* The member key of an object, or NULL (also when j is not an object). */
const struct json *json_get(const struct json *j, const char *key);
/* The string member key, or NULL if absent or not a string. */
const char *json_get_str(const struct json *j, const char *key);

/* Append s as a JSON string literal, quotes included. */
void json_add_string(struct strbuf *sb, const char *s);
/* Append a number in a form JSON accepts (no inf/nan: null instead). */
void json_add_number(struct strbuf *sb, double v);

#endif
