// SPDX-License-Identifier: GPL-2.0
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct parser {
	const char *p, *end, *start;
	struct strbuf *err;
	int failed;
};

static int line_of(const struct parser *ps)
{
	int line = 1;

	for (const char *q = ps->start; q < ps->p; q++)
		line += *q == '\n';
	return line;
}

static struct json *fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		strbuf_addf(ps->err, "line %d: %s", line_of(ps), what);
	ps->failed = 1;
	return NULL;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct json *new_value(enum json_type type)
{
	struct json *j = xcalloc(1, sizeof(*j));

	j->type = type;
	return j;
}

static int hex4(const char *p, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return -1;
		*out = *out * 16 + (unsigned)(isdigit((unsigned char)p[i]) ?
			p[i] - '0' : (tolower((unsigned char)p[i]) - 'a' + 10));
	}
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | cp >> 6));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xe0 | cp >> 12));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

static int parse_escape(struct parser *ps, struct strbuf *sb)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned cp;

	if (ps->p >= ps->end)
		return -1;
	e = strchr(from, *ps->p);
	if (*ps->p && e) {
		strbuf_addch(sb, to[e - from]);
		ps->p++;
		return 0;
	}
	/* \uXXXX; surrogate pairs are not needed for kbench's files. */
	if (*ps->p != 'u' || ps->end - ps->p < 5 || hex4(ps->p + 1, &cp))
		return -1;
	add_utf8(sb, cp);
	ps->p += 5;
	return 0;
}

static char *parse_string_raw(struct parser *ps)
{
	struct strbuf sb = STRBUF_INIT;

	ps->p++;	/* the opening quote */
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char ch = (unsigned char)*ps->p;

		if (ch < 0x20) {
			strbuf_release(&sb);
			fail(ps, "control character in a string");
			return NULL;
		}
		ps->p++;
		if (ch != '\\') {
			strbuf_addch(&sb, ch);
		} else if (parse_escape(ps, &sb)) {
			strbuf_release(&sb);
			fail(ps, "bad escape in a string");
			return NULL;
		}
	}
	if (ps->p >= ps->end) {
		strbuf_release(&sb);
		fail(ps, "unterminated string");
		return NULL;
	}
	ps->p++;
	return strbuf_detach(&sb, NULL);
}

static struct json *parse_number(struct parser *ps)
{
	char buf[64], *end;
	size_t len = strspn(ps->p, "+-0123456789.eE");
	struct json *j;

	if (len == 0 || len >= sizeof(buf) || ps->p + len > ps->end)
		return fail(ps, "bad number");
	memcpy(buf, ps->p, len);
	buf[len] = '\0';
	errno = 0;
	j = new_value(JSON_NUMBER);
	j->num = strtod(buf, &end);
	if (*end || errno || buf[0] == '+' || !isfinite(j->num)) {
		free(j);
		return fail(ps, "bad number");
	}
	ps->p += len;
	return j;
}

static struct json *parse_value(struct parser *ps, int depth);

static void push(struct json *j, char *key, struct json *item)
{
	j->items = xrealloc(j->items, (j->nr + 1) * sizeof(*j->items));
	j->items[j->nr] = item;
	if (j->type == JSON_OBJECT) {
		j->keys = xrealloc(j->keys, (j->nr + 1) * sizeof(*j->keys));
		j->keys[j->nr] = key;
	}
	j->nr++;
}

/* The members of an array or object, after its opening bracket. */
static struct json *parse_members(struct parser *ps, struct json *j, int depth)
{
	char close = j->type == JSON_ARRAY ? ']' : '}';

	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return j;
	}
	for (;;) {
		char *key = NULL;
		struct json *item;

		skip_ws(ps);
		if (j->type == JSON_OBJECT) {
			if (ps->p >= ps->end || *ps->p != '"')
				break;
			key = parse_string_raw(ps);
			skip_ws(ps);
			if (!key || ps->p >= ps->end || *ps->p != ':') {
				free(key);
				fail(ps, "expected ':' after a member name");
				break;
			}
			ps->p++;
		}
		item = parse_value(ps, depth + 1);
		if (!item) {
			free(key);
			break;
		}
		push(j, key, item);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return j;
		}
		break;
	}
	close = j->type == JSON_ARRAY;
	json_free(j);
	return fail(ps, close ? "expected ',' or ']'" : "expected ',' or '}'");
}

static struct json *parse_word(struct parser *ps, const char *word, enum json_type type, double v)
{
	size_t len = strlen(word);
	struct json *j;

	if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len))
		return fail(ps, "unexpected character");
	ps->p += len;
	j = new_value(type);
	j->num = v;
	return j;
}

static struct json *parse_value(struct parser *ps, int depth)
{
	struct json *j;

	skip_ws(ps);
	if (depth > MAX_DEPTH)
		return fail(ps, "nested too deeply");
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of file");
	switch (*ps->p) {
	case '{':
	case '[':
		j = new_value(*ps->p == '{' ? JSON_OBJECT : JSON_ARRAY);
		ps->p++;
		return parse_members(ps, j, depth);
	case '"':
		j = new_value(JSON_STRING);
		j->str = parse_string_raw(ps);
		if (!j->str) {
			free(j);
			return NULL;
		}
		return j;
	case 't':
		return parse_word(ps, "true", JSON_BOOL, 1);
	case 'f':
		return parse_word(ps, "false", JSON_BOOL, 0);
	case 'n':
		return parse_word(ps, "null", JSON_NULL, 0);
	default:
		return parse_number(ps);
	}
}

struct json *json_parse(const char *text, size_t len, struct strbuf *err)
{
	struct parser ps = { text, text + len, text, err, 0 };
	struct json *j = parse_value(&ps, 0);

	if (!j)
		return NULL;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		json_free(j);
		return fail(&ps, "text after the value");
	}
	return j;
}

void json_free(struct json *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->nr; i++) {
		json_free(j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
	free(j);
}

const struct json *json_get(const struct json *j, const char *key)
{
	if (!j || j->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < j->nr; i++)
		if (!strcmp(j->keys[i], key))
			return j->items[i];
	return NULL;
}

const char *json_get_str(const struct json *j, const char *key)
{
	const struct json *v = json_get(j, key);

	return v && v->type == JSON_STRING ? v->str : NULL;
}

void json_add_string(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			strbuf_addf(sb, "\\%c", ch);
		else if (ch < 0x20)
			strbuf_addf(sb, "\\u%04x", ch);
		else
			strbuf_addch(sb, ch);
	}
	strbuf_addch(sb, '"');
}

void json_add_number(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.6g", v);
	else
		strbuf_addstr(sb, "null");
}
