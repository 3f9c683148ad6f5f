// SPDX-License-Identifier: GPL-2.0
/*
 * The pass table and what users call the passes: one place to register a
 * pass (its struct asmfix_pass in passes/, one row here).
 */
#include "internal.h"
#include "namelist.h"
#include "strbuf.h"
#include "warn.h"

#include <string.h>

/* The one pass table, in execution order. */
const struct asmfix_pass *const asmfix_passes[NPASSES] = {
	&asmfix_pass_common,
	&asmfix_pass_used_accessors,
	&asmfix_pass_lockfix,
	&asmfix_pass_altinstr,
};
_Static_assert(NPASSES <= ASMFIX_MAX_PASSES, "too many passes");

size_t asmfix_pass_count(void) { return NPASSES; }

const char *asmfix_pass_name(size_t i)
{
	return i < NPASSES ? asmfix_passes[i]->name : NULL;
}

const char *asmfix_pass_help(size_t i)
{
	return i < NPASSES ? asmfix_passes[i]->help : NULL;
}

unsigned asmfix_target_passes(const char *target)
{
	const struct target *t = target ? target_named(target) : target_named("x86_64");
	unsigned mask = 0;

	if (!t) {
		error("unknown target '%s' (known: %s, or their triples)", target, target_names());
		return 0;
	}
	for (size_t i = 0; i < NPASSES; i++)
		if (!asmfix_passes[i]->arches || (asmfix_passes[i]->arches & (1u << t->arch)))
			mask |= 1u << i;
	return mask;
}

unsigned asmfix_all_passes(void)
{
	return (1u << NPASSES) - 1;
}

int asmfix_parse_passes(const char *list, unsigned *mask)
{
	return namelist_parse(list, asmfix_pass_name, NPASSES, "pass", mask);
}

void asmfix_format_passes(unsigned mask, char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < NPASSES; i++)
		if (mask & (1u << i)) {
			if (sb.len)
				strbuf_addch(&sb, ',');
			strbuf_addstr(&sb, asmfix_passes[i]->name);
		}
	if (!sb.len)
		strbuf_addstr(&sb, "none");
	if (size) {
		size_t n = sb.len < size - 1 ? sb.len : size - 1;
		memcpy(buf, sb.buf, n);
		buf[n] = 0;
	}
	strbuf_release(&sb);
}
