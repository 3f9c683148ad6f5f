// SPDX-License-Identifier: GPL-2.0
/* The build row's compiler and sources (build-row.h). */
#include "build-row.h"
#include "elfdeps.h"
#include "program.h"
#include "protocol.h"
#include "warn.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int build_cc_resolve(struct kb_build_cc *b, const char *opt, const struct kb_machine *m)
{
	char *found;
	uint64_t bytes = 0;

	b->path = NULL;
	b->files = (struct strvec)STRVEC_INIT;
	if (!opt)
		return 0;
	found = program_find(opt);
	if (!found)
		return error("--build-cc: no command '%s' in PATH", opt);
	if (machine_check_program(m, found, "--build-cc:", "a compiler for the kernel's machine") ||
	    elf_closure(m, found, &b->files, &bytes)) {
		free(found);
		strvec_clear(&b->files);
		return -1;
	}
	free(found);
	b->path = xstrdup(b->files.v[0]);
	return 0;
}

/* name is one of list's comma-separated words. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len;
		if (!*p)
			return 0;
	}
}

/* "smp": the row's group (rows.h). */
int build_row_wanted(const char *only)
{
	return !only || listed(only, KB_BUILD_ROW) || listed(only, "smp");
}

int build_row_named(const char *only)
{
	return only && listed(only, KB_BUILD_ROW);
}

/*
 * A list of nodes walked by functions that branch, do arithmetic and call
 * one another, and a table of strings: what a compiler's front end and
 * code generator spend their time on, about 900 lines a file.  i makes
 * the names and constants its own.
 */
#define FUNCTIONS 24

void build_source(int i, struct strbuf *sb)
{
	static const char *const ops[] = { "+", "-", "^", "|", "&", "+" };

	strbuf_addf(sb, "/* kbench's build row, source %d: made by kbench, needs no header. */\n",
		    i);
	strbuf_addf(sb, "struct node%d {\n\tint key;\n\tlong val;\n\tstruct node%d *next;\n};\n\n",
		    i, i);
	strbuf_addf(sb, "static const char *const names%d[] = {\n", i);
	for (int k = 0; k < 32; k++)
		strbuf_addf(sb, "\t\"name-%d-%d\",\n", i, k);
	strbuf_addstr(sb, "};\n\n");
	for (int f = 0; f < FUNCTIONS; f++) {
		strbuf_addf(sb, "long f%d_%d(struct node%d *n, int k)\n{\n\tlong s = %d;\n\n",
			    i, f, i, i * 31 + f);
		strbuf_addstr(sb, "\tfor (; n; n = n->next) {\n\t\tswitch ((n->key + k) % 7) {\n");
		for (int c = 0; c < 6; c++)
			strbuf_addf(sb, "\t\tcase %d:\n\t\t\ts %s= n->val %s %d;\n\t\t\tbreak;\n", c,
				    ops[c], c % 2 ? ">>" : "*", (f + c) % 5 + 1);
		strbuf_addstr(sb, "\t\tdefault:\n\t\t\ts--;\n\t\t}\n");
		if (f)
			strbuf_addf(sb, "\t\tif (s > %ld)\n\t\t\ts -= f%d_%d(n->next, k + 1);\n",
				    1000L * (f + 1), i, f - 1);
		strbuf_addf(sb, "\t\tif (names%d[(s & 31)][0] == 'x')\n\t\t\treturn -1;\n\t}\n", i);
		strbuf_addstr(sb, "\treturn s;\n}\n\n");
	}
	strbuf_addf(sb, "long run%d(struct node%d *n)\n{\n\treturn f%d_%d(n, %d);\n}\n", i, i, i,
		    FUNCTIONS - 1, i);
}

void build_cc_release(struct kb_build_cc *b)
{
	free(b->path);
	b->path = NULL;
	strvec_clear(&b->files);
}
