// SPDX-License-Identifier: GPL-2.0
/* Reading ccd's profile report (pgo-report.h). */
#include "pgo-report.h"
#include "strbuf.h"
#include "warn.h"

#include <string.h>

const char *const pgo_status_word[PGO__COUNT] = {
	[PGO_OFF] = "off",
	[PGO_NONE] = "none",
	[PGO_UNSUPPORTED] = "unsupported",
	[PGO_USED] = "used",
	[PGO_STALE] = "stale",
	[PGO_MISMATCH] = "mismatch",
	[PGO_FAILED] = "failed",
};

static int pgo_status_of(const char *word, size_t len)
{
	for (int i = PGO_NONE; i < PGO__COUNT; i++)
		if (len == strlen(pgo_status_word[i]) && !strncmp(word, pgo_status_word[i], len))
			return i;
	return -1;
}

int pgo_report_read(const char *path, struct pgo_counts *c)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long lineno = 0;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (strbuf_read_file(&sb, path, 0))
		return error_errno("cannot read %s", path);
	for (const char *p = sb.buf; *p && !ret;) {
		size_t len = strcspn(p, "\n"), w = strcspn(p, " \n");
		int st = pgo_status_of(p, w);

		lineno++;
		if (st < 0 || w + 1 >= len) {
			diag_at(path, lineno, "error", "not a profile report line: '%.*s'",
				(int)len, p);
			ret = -1;
		} else {
			c->n[st]++;
			c->objects++;
		}
		p += len + (p[len] == '\n');
	}
	strbuf_release(&sb);
	return ret;
}
