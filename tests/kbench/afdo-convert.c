// SPDX-License-Identifier: GPL-2.0
/*
 * afdo-convert IN OUT: kbench's converter (kbench/kbuild/afdo.c) alone, for
 * afdo-test.sh until a kbench command carries it.  Prints what it wrote;
 * exits 0, 2 on usage, 3 when IN cannot be converted (kbench's statuses).
 */
#include "afdo.h"
#include "kbench.h"
#include "warn.h"

#include <inttypes.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct afdo_stats st;

	warn_set_progname("afdo-convert");
	if (argc != 3) {
		error("usage: afdo-convert LLVM-TEXT-PROFILE AFDO-FILE");
		return KB_USAGE;
	}
	if (afdo_from_llvm_text(argv[1], argv[2], &st, &err)) {
		if (err.len)
			error("%s", err.buf);
		strbuf_release(&err);
		return KB_TROUBLE;
	}
	printf("functions=%zu merged=%zu samples=%" PRIu64 "\n", st.functions, st.merged,
	       st.samples);
	return KB_OK;
}
