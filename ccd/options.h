/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gcc option table, as data (after ccache's compopt.cpp).  The
 * classifier needs to know which options swallow the next argument, so an
 * option value (-o x.c, -include foo.h, -MF x.d) is never taken for an
 * input, and which options change what the driver does.
 */
#ifndef CCD_OPTIONS_H
#define CCD_OPTIONS_H

enum opt_flags {
	OPT_SEP = 1 << 0,	/* "-x val": the next argv element is the value */
	OPT_JOINED = 1 << 1,	/* "-xval" is the same option with a value */
	OPT_PASS = 1 << 2,	/* ccd passes the whole command through */
	OPT_QUERY = 1 << 3,	/* a query: nothing is compiled, nothing preprocessed */
	OPT_PREFIX = 1 << 4,	/* name is a prefix ("-print-", "-fdump-") */
};

struct gcc_option {
	const char *name;
	unsigned flags;
	unsigned dest;		/* enum arg_dest bits besides the backend: TO_CPP, TO_AS, TO_DEPS */
	const char *why;	/* why it is in the table (OPT_PASS rows) */
};

/*
 * Look arg up.  Exact names win over JOINED/PREFIX matches, longer
 * prefixes over shorter.  NULL for an option the table does not know (a
 * plain flag).  Reads only the rows that share arg's second character.
 */
const struct gcc_option *option_lookup(const char *arg);

#endif
