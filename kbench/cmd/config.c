// SPDX-License-Identifier: GPL-2.0
/* kbench config: the kernel configuration fragment every compared kernel is built from. */
#include "cmd.h"
#include "machine.h"
#include "fileio.h"
#include "warn.h"

#include <string.h>

/*
 * --tiny: the fragment without that block, and what tinyconfig chose
 * said outright, so that it holds on any base configuration.  arm64 and
 * s390 have no uniprocessor kernel (their SMP is not a choice).
 */
static int write_tiny(const struct kb_machine *m)
{
	const char *block = strstr(m->config, KB_PEOPLE_RUN);
	size_t len = block ? (size_t)(block - m->config) : strlen(m->config);
	int smp_only = !strcmp(m->kernel_arch, "arm64") || !strcmp(m->kernel_arch, "s390");
	const char *up = smp_only ? "# tinyconfig's kernel: -Os\n" :
		"# tinyconfig's kernel: uniprocessor, -Os\n# CONFIG_SMP is not set\n";

	if (write_in_full(1, m->config, len) ||
	    write_in_full(1, up, strlen(up)) ||
	    write_in_full(1, "CONFIG_CC_OPTIMIZE_FOR_SIZE=y\n", 30) ||
	    write_in_full(1, "# CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE is not set\n", 48))
		return -1;
	return 0;
}

int cmd_config(int argc, char **argv)
{
	const struct kb_machine *m = machine_host();
	const char *v;
	int tiny = 0, err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tiny")) {
			tiny = 1;
			continue;
		}
		if (!(v = opt_arg(argc, argv, &i, "--arch")))
			return usage_error("config: unexpected argument '%s'", argv[i]);
		if (!(m = arch_option(v)))
			return KB_USAGE;
	}
	err = tiny ? write_tiny(m) : write_in_full(1, m->config, strlen(m->config));
	/*
	 * What kbench's own builds add too (x86_64's CONFIG_64BIT): tinyconfig
	 * on an x86 host is 32-bit unless the fragment says otherwise.
	 */
	if (err || write_in_full(1, m->extra_config, strlen(m->extra_config)))
		return error_errno("cannot write the standard output"), KB_TROUBLE;
	return KB_OK;
}
