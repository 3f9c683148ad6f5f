// SPDX-License-Identifier: GPL-2.0
/* kbench config: the kernel configuration fragment every compared kernel is built from. */
#include "cmd.h"
#include "machine.h"
#include "fileio.h"
#include "warn.h"

#include <string.h>

int cmd_config(int argc, char **argv)
{
	const struct kb_machine *m = machine_host();
	const char *v;

	for (int i = 1; i < argc; i++) {
		if (!(v = opt_arg(argc, argv, &i, "--arch")))
			return usage_error("config: unexpected argument '%s'", argv[i]);
		if (!(m = arch_option(v)))
			return KB_USAGE;
	}
	/*
	 * What kbench's own builds add too (x86_64's CONFIG_64BIT): tinyconfig
	 * on an x86 host is 32-bit unless the fragment says otherwise.
	 */
	if (write_in_full(1, m->config, strlen(m->config)) ||
	    write_in_full(1, m->extra_config, strlen(m->extra_config)))
		return error_errno("cannot write the standard output"), KB_TROUBLE;
	return KB_OK;
}
