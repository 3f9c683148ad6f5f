// SPDX-License-Identifier: GPL-2.0
/*
 * The check report (check.h).  An object of gcc's kind is the backend's
 * own "-c" object when the text as read is the backend's own -S text (no
 * pass changed it) and as ran as the driver would run it for this very
 * command line: the same program and the same words, asked of the driver
 * with "-###".  The per-file and kernel oracles show that those two
 * conditions give identical objects; the report lets one build stand for
 * the comparison where a second, plain build costs hours.
 */
#include "check.h"
#include "backend.h"
#include "report-line.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const check_word[CHECK__COUNT] = {
	[CHECK_SAME] = "same",
	[CHECK_OWN] = "own",
	[CHECK_REPAIRED] = "repaired",
	[CHECK_FALLBACK] = "fallback",
	[CHECK_UNKNOWN] = "unknown",
	[CHECK_DIFFERS] = "differs",
};

void check_report(const char *path, enum check_status st, const char *obj, const char *detail)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s %s%s%s\n", check_word[st], obj, detail ? " " : "",
		    detail ? detail : "");
	append_report_line(path, "check report", line.buf, line.len);
	strbuf_release(&line);
}

/* A program's real path: a bare name found in PATH first. */
static char *real_program(const char *prog)
{
	char *found = strchr(prog, '/') ? xstrdup(prog) : find_backend_in_path(prog);
	char *real = found ? realpath(found, NULL) : NULL;

	free(found);
	return real ? real : xstrdup(prog);
}

static void join(struct strbuf *sb, const struct strvec *v, size_t from)
{
	for (size_t i = from; i < v->nr; i++)
		strbuf_addf(sb, "%s%s", i > from ? " " : "", v->v[i]);
}

char *check_as_differs(const struct strvec *ours, const struct strvec *driver)
{
	struct strbuf sb = STRBUF_INIT;
	char *a = real_program(ours->v[0]), *b = real_program(driver->v[0]);
	int same = !strcmp(a, b) && ours->nr == driver->nr;

	for (size_t i = 1; same && i < ours->nr; i++)
		same = !strcmp(ours->v[i], driver->v[i]);
	if (!same) {
		strbuf_addf(&sb, "as: ccd '%s ", a);
		join(&sb, ours, 1);
		strbuf_addf(&sb, "', driver '%s ", b);
		join(&sb, driver, 1);
		strbuf_addch(&sb, '\'');
	}
	free(a);
	free(b);
	return same ? NULL : strbuf_detach(&sb, NULL);
}

static int status_of(const char *word, size_t len)
{
	for (int i = 0; i < CHECK__COUNT; i++)
		if (len == strlen(check_word[i]) && !strncmp(word, check_word[i], len))
			return i;
	return -1;
}

int check_summary(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long n[CHECK__COUNT] = { 0 }, lineno = 0, objects = 0;
	int ret = 0;

	if (strbuf_read_file(&sb, path, 0)) {
		error_errno("cannot read %s", path);
		return 2;
	}
	for (const char *p = sb.buf; *p && ret != 2;) {
		size_t len = strcspn(p, "\n"), w = strcspn(p, " \n");
		int st = status_of(p, w);

		lineno++;
		if (st < 0 || w + 1 >= len) {
			diag_at(path, lineno, "error", "not a check report line: '%.*s'", (int)len, p);
			ret = 2;
		} else {
			n[st]++;
			objects++;
			if (st == CHECK_DIFFERS)
				fprintf(stderr, "%s:%lu: %.*s\n", path, lineno, (int)len, p);
		}
		p += len + (p[len] == '\n');
	}
	strbuf_release(&sb);
	if (ret)
		return ret;
	printf("%lu objects: %lu the backend's own by construction (%lu assembled as its "
	       "driver would, %lu by itself), %lu repaired, %lu fallback, %lu unknown, "
	       "%lu differ\n", objects, n[CHECK_SAME] + n[CHECK_OWN], n[CHECK_SAME], n[CHECK_OWN],
	       n[CHECK_REPAIRED], n[CHECK_FALLBACK], n[CHECK_UNKNOWN], n[CHECK_DIFFERS]);
	if (fflush(stdout))
		return 2;
	return n[CHECK_DIFFERS] ? 1 : 0;
}
