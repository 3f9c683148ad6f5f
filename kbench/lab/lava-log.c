// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a LAVA job's log (lava-log.h).  Each record is a YAML flow
 * mapping on one line; it is turned into JSON (its double-quoted scalars
 * decoded, tags dropped) and read with kbench's JSON reader.
 */
#include "lava-log.h"
#include "json.h"
#include "warn.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct yscan {
	const char *p, *end;
	struct strbuf *out;
	const char *why;
};

static void skip_blanks(struct yscan *y)
{
	while (y->p < y->end && (*y->p == ' ' || *y->p == '\t'))
		y->p++;
}

static void add_utf8(struct strbuf *sb, unsigned long c)
{
	if (c < 0x80) {
		strbuf_addch(sb, (int)c);
	} else if (c < 0x800) {
		strbuf_addch(sb, 0xc0 | (int)(c >> 6));
		strbuf_addch(sb, 0x80 | (int)(c & 0x3f));
	} else if (c < 0x10000) {
		strbuf_addch(sb, 0xe0 | (int)(c >> 12));
		strbuf_addch(sb, 0x80 | (int)((c >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (int)(c & 0x3f));
	} else {
		strbuf_addch(sb, 0xf0 | (int)(c >> 18));
		strbuf_addch(sb, 0x80 | (int)((c >> 12) & 0x3f));
		strbuf_addch(sb, 0x80 | (int)((c >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (int)(c & 0x3f));
	}
}

/* \xXX, \uXXXX, \UXXXXXXXX: n hex digits at y->p. */
static int hex_escape(struct yscan *y, int n, struct strbuf *sb)
{
	unsigned long c = 0;

	for (int i = 0; i < n; i++, y->p++) {
		if (y->p >= y->end || !isxdigit((unsigned char)*y->p))
			return y->why = "a bad \\x, \\u or \\U escape", -1;
		c = c * 16 + (unsigned long)(isdigit((unsigned char)*y->p) ? *y->p - '0' :
					      (tolower((unsigned char)*y->p) - 'a' + 10));
	}
	if (c > 0x10ffff)
		return y->why = "an escape beyond Unicode", -1;
	/* A NUL would end the line early here: the console's own bytes never hold one. */
	if (c)
		add_utf8(sb, c);
	return 0;
}

/* The escapes of YAML's double-quoted scalars that stand for one character. */
static const char simple_from[] = "0abt\tnvfre \"/\\";
static const char simple_to[] = "\0\a\b\t\t\n\v\f\r\033 \"/\\";

static int escape(struct yscan *y, struct strbuf *sb)
{
	char e = *y->p++;
	const char *k = strchr(simple_from, e);

	if (e && k) {
		if (simple_to[k - simple_from])
			strbuf_addch(sb, simple_to[k - simple_from]);
		return 0;
	}
	switch (e) {
	case 'x':
		return hex_escape(y, 2, sb);
	case 'u':
		return hex_escape(y, 4, sb);
	case 'U':
		return hex_escape(y, 8, sb);
	case 'N':
		return add_utf8(sb, 0x85), 0;
	case '_':
		return add_utf8(sb, 0xa0), 0;
	case 'L':
		return add_utf8(sb, 0x2028), 0;
	case 'P':
		return add_utf8(sb, 0x2029), 0;
	}
	return y->why = "an unknown escape in a quoted string", -1;
}

static int dq_scalar(struct yscan *y)
{
	struct strbuf sb = STRBUF_INIT;

	y->p++;
	while (y->p < y->end && *y->p != '"') {
		if (*y->p != '\\') {
			strbuf_addch(&sb, *y->p++);
		} else if (++y->p >= y->end || escape(y, &sb)) {
			if (!y->why)
				y->why = "a quoted string ends in a backslash";
			strbuf_release(&sb);
			return -1;
		}
	}
	if (y->p >= y->end) {
		strbuf_release(&sb);
		return y->why = "a quoted string does not end", -1;
	}
	y->p++;
	json_add_string(y->out, sb.buf);
	strbuf_release(&sb);
	return 0;
}

/* An unquoted scalar, up to the flow's next punctuation: a string here. */
static int plain_scalar(struct yscan *y)
{
	const char *start = y->p;
	char *s;

	while (y->p < y->end && !strchr(",:}]", *y->p))
		y->p++;
	if (y->p == start)
		return y->why = "a value is missing", -1;
	s = xstrndup(start, (size_t)(y->p - start));
	for (size_t n = strlen(s); n && s[n - 1] == ' '; n--)
		s[n - 1] = '\0';
	json_add_string(y->out, s);
	free(s);
	return 0;
}

static int value(struct yscan *y, int depth);

/* A flow mapping ('{' ... '}') or sequence ('[' ... ']'). */
static int collection(struct yscan *y, int depth)
{
	char close = *y->p == '{' ? '}' : ']';
	int mapping = close == '}', first = 1;

	strbuf_addch(y->out, *y->p++);
	for (;;) {
		skip_blanks(y);
		if (y->p < y->end && *y->p == close)
			break;
		if (!first) {
			if (y->p >= y->end || *y->p != ',')
				return y->why = "a ',' is missing", -1;
			strbuf_addch(y->out, *y->p++);
			skip_blanks(y);
		}
		first = 0;
		if (value(y, depth + 1))
			return -1;
		if (!mapping)
			continue;
		skip_blanks(y);
		if (y->p >= y->end || *y->p != ':')
			return y->why = "a ':' is missing", -1;
		strbuf_addch(y->out, *y->p++);
		if (value(y, depth + 1))
			return -1;
	}
	strbuf_addch(y->out, *y->p++);
	return 0;
}

static int value(struct yscan *y, int depth)
{
	if (depth > 32)
		return y->why = "nested too deep", -1;
	skip_blanks(y);
	/* A tag (!!int "5") says what the scalar is: here every scalar is a string. */
	if (y->p < y->end && *y->p == '!') {
		while (y->p < y->end && *y->p != ' ')
			y->p++;
		skip_blanks(y);
	}
	if (y->p >= y->end)
		return y->why = "a value is missing", -1;
	if (*y->p == '"')
		return dq_scalar(y);
	if (*y->p == '{' || *y->p == '[')
		return collection(y, depth);
	return plain_scalar(y);
}

/* One record's line, without its "- ", as JSON; NULL and *why if it is none. */
static struct json *record(const char *line, size_t len, const char **why)
{
	struct strbuf json = STRBUF_INIT, err = STRBUF_INIT;
	struct yscan y = { line, line + len, &json, NULL };
	struct json *j = NULL;

	if (!value(&y, 0)) {
		skip_blanks(&y);
		if (y.p != y.end)
			y.why = "text after the record";
		else if (!(j = json_parse(json.buf, json.len, &err)))
			y.why = "not a record";
	}
	if (j && j->type != JSON_OBJECT) {
		json_free(j);
		j = NULL;
		y.why = "not a mapping";
	}
	*why = y.why;
	strbuf_release(&json);
	strbuf_release(&err);
	return j;
}

/* A results record of LAVA's QEMU boot carries the version LAVA found. */
static void find_qemu_version(const struct json *j, struct lava_log *log, int depth)
{
	const char *v = json_get_str(j, "qemu_version");

	if (v && !log->qemu_version)
		log->qemu_version = xstrdup(v);
	if (depth < 4 && j->type == JSON_OBJECT)
		for (size_t i = 0; i < j->nr; i++)
			find_qemu_version(j->items[i], log, depth + 1);
}

/*
 * A target line: LAVA took out carriage returns and escape characters
 * and wrote each '"' as '\"'; the rest is the console's.
 */
static void feed_target(struct console *c, const char *msg)
{
	struct strbuf line = STRBUF_INIT;

	for (const char *p = msg; *p; p++)
		if (!(p[0] == '\\' && p[1] == '"'))
			strbuf_addch(&line, *p);
	strbuf_addch(&line, '\n');
	console_feed(c, line.buf, line.len);
	strbuf_release(&line);
}

static void set(char **field, const char *value)
{
	free(*field);
	*field = value ? xstrdup(value) : NULL;
}

static void on_record(const struct json *j, struct console *c, struct lava_log *log)
{
	const char *lvl = json_get_str(j, "lvl"), *msg = json_get_str(j, "msg");

	log->records++;
	if (!lvl)
		return;
	if ((!strcmp(lvl, "target") || !strcmp(lvl, "feedback")) && msg) {
		log->target++;
		feed_target(c, msg);
	} else if (!strcmp(lvl, "results") && json_get(j, "msg")) {
		const struct json *r = json_get(j, "msg");
		const char *v = json_get_str(r, "case");

		find_qemu_version(r, log, 0);
		if (v && !strcmp(v, "job") && json_get_str(r, "definition") &&
		    !strcmp(json_get_str(r, "definition"), "lava")) {
			set(&log->job_result, json_get_str(r, "result"));
			set(&log->error_type, json_get_str(r, "error_type"));
			set(&log->error_msg, json_get_str(r, "error_msg"));
		}
	} else if (!strcmp(lvl, "error") && msg) {
		free(log->last_error);
		log->last_error = xstrdup(msg);
	}
}

int lava_log_feed(const char *text, size_t len, const char *job, struct console *c,
		  struct lava_log *log)
{
	const char *p = text, *end = text + len;
	unsigned long lineno = 0;

	memset(log, 0, sizeof(*log));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *why = NULL;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), step = n + (nl != NULL);
		struct json *j;

		lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		if (n) {
			if (n < 2 || strncmp(p, "- ", 2))
				return error("job %s: its log is not LAVA's: line %lu is not a record "
					     "('- {...}')", job, lineno);
			if (!(j = record(p + 2, n - 2, &why)))
				return error("job %s: its log is not LAVA's: line %lu: %s", job,
					     lineno, why ? why : "not a record");
			on_record(j, c, log);
			json_free(j);
		}
		p += step;
	}
	console_flush(c);
	return 0;
}

void lava_log_release(struct lava_log *log)
{
	free(log->qemu_version);
	free(log->last_error);
	free(log->job_result);
	free(log->error_type);
	free(log->error_msg);
	memset(log, 0, sizeof(*log));
}
