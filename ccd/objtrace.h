/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traces a pass's repair leaves in an object, read off the object
 * the backend assembled itself (ELF, either class and byte order).
 */
#ifndef CCD_OBJTRACE_H
#define CCD_OBJTRACE_H

enum {
	OBJTRACE_COMMON = 1 << 0,	/* a common symbol (or -fdata-sections' local one in .bss) */
	OBJTRACE_ACCESSOR = 1 << 1,	/* a symbol named with the keep-alive prefix */
	OBJTRACE_RECORDS = 1 << 2,	/* an alternative-instruction record section */
	OBJTRACE_ALL = 7,		/* what a file ccd cannot read counts as */
};

struct objtrace_opts {
	const char *keep_prefix;	/* NULL or "": no accessor trace */
	int data_sections;		/* the compile had -fdata-sections */
	int records;			/* look for record sections (x86) */
};

/* The traces in the object at path. */
unsigned objtrace_read(const char *path, const struct objtrace_opts *o);
/* The asmfix passes (mask of the pass table) that repair those traces. */
unsigned objtrace_passes(unsigned traces);

#endif
