/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs as rows (kbench run --program='NAME=COMMAND ARGS...'): a host
 * program, dynamically linked as Debian ships it, carried into the
 * initramfs with its interpreter and libraries (elfdeps.h) at their own
 * paths; the guest runs it as row NAME of the group "programs", each
 * sample one run of the command, timed.  The guest learns them from
 * KB_PROGRAMS_PATH (protocol.h), one program a line:
 *
 *   NAME PATH ARG0 ARG1 ...
 *
 * PATH the command's absolute path, ARG0 the command as given; no word
 * holds a blank (the spec is split on blanks, without a shell's quoting).
 */
#ifndef KBENCH_PROGRAM_H
#define KBENCH_PROGRAM_H

#include "machine.h"
#include "result.h"
#include "strbuf.h"

#include <stdint.h>

struct kb_program {
	char *name;
	char *path;		/* resolved by programs_resolve() */
	struct strvec argv;	/* the command and its arguments, as given */
	struct strvec files;	/* path, its interpreter and libraries */
	uint64_t bytes;		/* their size */
};

struct kb_programs {
	struct kb_program *v;
	size_t nr;
	uint64_t bytes;		/* of every file, each counted once */
};

/* command as the shell finds it: itself with a slash, else the first in PATH; NULL if nowhere. */
char *program_find(const char *command);
/* One --program spec added; 0, or -1 with what is wrong with it in why. */
int programs_add(struct kb_programs *ps, const char *spec, struct strbuf *why);
/*
 * Find each command (in PATH when it has no slash) and the files it needs
 * on m; 0, or -1 after an error naming the program and the file (not an
 * ELF program, another machine's, a library that is nowhere).
 */
int programs_resolve(struct kb_programs *ps, const struct kb_machine *m);
/* The guest's list (KB_PROGRAMS_PATH). */
void programs_list(const struct kb_programs *ps, struct strbuf *sb);
/* Every program has its row in res; else an error naming the first missing, -1. */
int programs_check_rows(const struct kb_programs *ps, const struct kb_result *res,
			const char *kernel);
void programs_release(struct kb_programs *ps);

#endif
