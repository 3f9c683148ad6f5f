// SPDX-License-Identifier: GPL-2.0
/* A small string-keyed hash map with open addressing. */
#include "symset.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s, size_t len)
{
	size_t h = 14695981039346656037u;
	while (len--)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

void asmfix_symset_release(struct symset *s)
{
	for (size_t i = 0; i < s->size; i++)
		free(s->tab[i].name);
	free(s->tab);
	memset(s, 0, sizeof(*s));
}

static struct sym_entry *slot(const struct symset *s, const char *name, size_t len)
{
	size_t k = hash(name, len) & (s->size - 1);
	for (;; k = (k + 1) & (s->size - 1)) {
		struct sym_entry *e = &s->tab[k];
		if (!e->name || (e->len == len && !memcmp(e->name, name, len)))
			return e;
	}
}

struct sym_entry *asmfix_symset_get(const struct symset *s, const char *name, size_t len)
{
	struct sym_entry *e;
	if (!s->nr)
		return NULL;
	e = slot(s, name, len);
	return e->name ? e : NULL;
}

static void grow(struct symset *s)
{
	struct symset n = { NULL, s->size ? s->size * 2 : 32, 0 };
	n.tab = xcalloc(n.size, sizeof(*n.tab));
	for (size_t i = 0; i < s->size; i++)
		if (s->tab[i].name) {
			*slot(&n, s->tab[i].name, s->tab[i].len) = s->tab[i];
			n.nr++;
		}
	free(s->tab);
	*s = n;
}

struct sym_entry *asmfix_symset_add(struct symset *s, const char *name, size_t len)
{
	struct sym_entry *e;
	if ((s->nr + 1) * 2 > s->size)
		grow(s);
	e = slot(s, name, len);
	if (!e->name) {
		e->name = xstrndup(name, len);
		e->len = len;
		s->nr++;
	}
	return e;
}
