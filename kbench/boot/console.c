// SPDX-License-Identifier: GPL-2.0
#include "console.h"
#include "protocol.h"
#include "warn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough for a boot log and the table; the rest of a runaway log is dropped. */
#define LOG_LIMIT (4 << 20)

void console_init(struct console *c, struct kb_result *res)
{
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->line);
	strbuf_init(&c->log);
	c->res = res;
	c->workload_status = -1;
	c->ns_per_insn = 1;
	gcov_init(&c->gcov);
}

void console_release(struct console *c)
{
	strvec_clear(&c->fails);
	strvec_clear(&c->ops);
	strvec_clear(&c->output);
	free(c->last_row);
	free(c->panic);
	free(c->qemu_error);
	strbuf_release(&c->line);
	strbuf_release(&c->log);
	gcov_release(&c->gcov);
}

/* The words of a protocol line after its tag: at most max, the last one the rest. */
static int split(char *s, char **w, int max)
{
	int n = 0;

	while (*s && n < max) {
		s += strspn(s, " ");
		if (!*s)
			break;
		w[n++] = s;
		if (n == max)
			break;
		s += strcspn(s, " ");
		if (*s)
			*s++ = '\0';
	}
	return n;
}

static void on_row(struct console *c, char *rest)
{
	char *w[4];
	const struct kb_row *row;

	if (split(rest, w, 4) != 4 || result_add_row(c->res, w[0], w[1], w[2], w[3])) {
		strvec_pushf(&c->fails, "%s: malformed result line", split(rest, w, 1) ? w[0] : "?");
		return;
	}
	row = &c->res->rows[c->res->nr - 1];
	free(c->last_row);
	c->last_row = xstrdup(row->name);
	if (!c->quiet)
		note("%-16s %10.4g %-4s (median of %zu)", row->name, row->median, row->unit,
		     row->nr);
}

static void on_fail(struct console *c, char *rest)
{
	char *w[2];
	int n = split(rest, w, 2);

	strvec_pushf(&c->fails, "%s: %s", n > 0 ? w[0] : "?", n > 1 ? w[1] : "failed");
	if (!c->quiet)
		note("%s failed: %s", n > 0 ? w[0] : "?", n > 1 ? w[1] : "failed");
}

static void on_protocol(struct console *c, char *tag)
{
	size_t len = strcspn(tag, " ");
	char *rest = tag + len + (tag[len] == ' ');

	tag[len] = '\0';
	if (!strcmp(tag, KB_TAG_BEGIN)) {
		c->begun = 1;
		c->bad_version = strncmp(rest, "v=1 ", 4) != 0;
		/* A guest older than the field divides by nothing. */
		if (strstr(rest, " ns_per_insn="))
			c->ns_per_insn = atof(strstr(rest, " ns_per_insn=") + 13);
		/* Nor does one older than cpus= say what it saw. */
		if (strstr(rest, " cpus="))
			c->cpus = atoi(strstr(rest, " cpus=") + 6);
	} else if (!strcmp(tag, KB_TAG_KERNEL)) {
		free(c->res->version);
		c->res->version = xstrdup(rest);
		free(c->res->compiler);
		c->res->compiler = compiler_from_version(rest);
		if (!c->res->compiler)
			c->res->compiler = xstrdup("unknown");
	} else if (!strcmp(tag, KB_TAG_ROW)) {
		on_row(c, rest);
	} else if (!strcmp(tag, KB_TAG_OPS)) {
		strvec_push(&c->ops, rest);
	} else if (!strcmp(tag, KB_TAG_OUTPUT)) {
		strvec_push(&c->output, rest);
	} else if (!strcmp(tag, KB_TAG_FAIL)) {
		on_fail(c, rest);
	} else if (!strcmp(tag, KB_TAG_WORKLOAD)) {
		c->workload_status = strncmp(rest, "exit=", 5) ? 1 : atoi(rest + 5);
	} else if (!strcmp(tag, KB_TAG_DATA)) {
		gcov_on_data(&c->gcov, rest);
	} else if (!strcmp(tag, KB_TAG_FILE)) {
		gcov_on_file(&c->gcov, rest);
	} else if (!strcmp(tag, KB_TAG_FILE_END)) {
		gcov_on_file_end(&c->gcov, rest);
	} else if (!strcmp(tag, KB_TAG_GCOV)) {
		gcov_on_summary(&c->gcov, rest);
	} else if (!strcmp(tag, KB_TAG_END)) {
		c->ended = 1;
		c->end_ok = !strncmp(rest, "ok", 2);
	}
}

static void on_line(struct console *c, char *s)
{
	/* Kernel messages may share the line: the tag need not start it. */
	char *tag = strstr(s, "KBENCH-");

	if (tag) {
		on_protocol(c, tag);
		return;
	}
	if (!c->panic && strstr(s, "Kernel panic"))
		c->panic = xstrdup(s);
	if (!c->qemu_error && !strncmp(s, "qemu", 4) && strchr(s, ':'))
		c->qemu_error = xstrdup(s);
}

static void end_line(struct console *c)
{
	while (c->line.len && c->line.buf[c->line.len - 1] == '\r')
		strbuf_setlen(&c->line, c->line.len - 1);
	/* Profile data would crowd out what a failed boot's message needs. */
	if (c->log.len < LOG_LIMIT && !strstr(c->line.buf, KB_TAG_DATA " ")) {
		strbuf_add(&c->log, c->line.buf, c->line.len);
		strbuf_addch(&c->log, '\n');
	}
	on_line(c, c->line.buf);
	strbuf_reset(&c->line);
}

void console_feed(struct console *c, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n')
			end_line(c);
		else if (c->line.len < 65536)
			strbuf_addch(&c->line, buf[i]);
	}
}

void console_flush(struct console *c)
{
	if (c->line.len)
		end_line(c);
}

void console_tail(const struct console *c, int lines)
{
	const char *start = c->log.buf, *p;
	int n = 0;

	if (!c->log.len) {
		fprintf(stderr, "  | (the console stayed empty)\n");
		return;
	}
	p = start + c->log.len;
	if (p > start && p[-1] == '\n')
		p--;
	while (p > start && n < lines)
		if (*--p == '\n')
			n++;
	if (*p == '\n')
		p++;
	while (*p) {
		size_t len = strcspn(p, "\n");

		while (len && p[len - 1] == '\r')
			len--;
		fprintf(stderr, "  | %.*s\n", (int)len, p);
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
}
