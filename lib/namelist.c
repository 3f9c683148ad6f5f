// SPDX-License-Identifier: GPL-2.0
#include "namelist.h"
#include "strbuf.h"
#include "warn.h"

#include <string.h>

static int word_is(const char *p, size_t len, const char *s)
{
	return strlen(s) == len && !strncmp(p, s, len);
}

static int unknown(const char *p, size_t len, const char *(*name)(size_t i), size_t n,
		   const char *what)
{
	struct strbuf known = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&known, "%s, ", name(i));
	strbuf_addstr(&known, "all, none");
	error("unknown %s '%.*s' (known: %s)", what, (int)len, p, known.buf);
	strbuf_release(&known);
	return -1;
}

int namelist_parse(const char *list, const char *(*name)(size_t i), size_t n,
		   const char *what, unsigned *mask)
{
	unsigned m = 0;

	for (const char *p = list; *p; p += *p == ',') {
		size_t len = strcspn(p, ","), i;

		if (word_is(p, len, "all")) {
			m |= n < 32 ? (1u << n) - 1 : ~0u;
		} else if (len && !word_is(p, len, "none")) {
			for (i = 0; i < n && !word_is(p, len, name(i)); i++)
				;
			if (i == n) {
				*mask = 0;
				return unknown(p, len, name, n, what);
			}
			m |= 1u << i;
		}
		p += len;
	}
	*mask = m;
	return 0;
}
