// SPDX-License-Identifier: GPL-2.0
#include "llvm.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

char *llvm_tool(const char *tool)
{
	const char *v = getenv("LLVM");
	struct strbuf sb = STRBUF_INIT;

	if (!v || !*v)
		return NULL;
	if (v[strlen(v) - 1] == '/')
		strbuf_addf(&sb, "%s%s", v, tool);
	else if (v[0] == '-')
		strbuf_addf(&sb, "%s%s", tool, v);
	else
		strbuf_addstr(&sb, tool);
	return strbuf_detach(&sb, NULL);
}
