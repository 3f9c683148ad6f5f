// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: compare Linux kernels built by different compilers with
 * LMBench-style tables.  main() only dispatches: each subcommand is a file
 * of cmd/ (`run` boots one kernel in QEMU and records its results,
 * `compare` prints the table of several results and draws the chart,
 * `config` prints the kernel configuration every compared kernel is built
 * from, ...); README.md draws the path of one run through the folders.
 */
#include "cmd.h"
#include "run-command.h"
#include "warn.h"
#include "ccd-config.h"

#include <stdio.h>
#include <string.h>

/* The subcommands, one file of cmd/ each. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "run", cmd_run }, { "compare", cmd_compare },
	{ "config", cmd_config }, { "initramfs", cmd_initramfs },
	{ "backends", cmd_backends },
	{ "pgo", cmd_pgo }, { "calibrate", cmd_calibrate },
	{ "validate", cmd_validate }, { "profile", cmd_profile }, { "lava", cmd_lava },
};

static int (*command(const char *name))(int, char **)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++)
		if (!strcmp(name, cmds[i].name))
			return cmds[i].fn;
	return NULL;
}

int main(int argc, char **argv)
{
	warn_set_progname("kbench");
	run_command_init();
	/* die() is for kbench's own trouble (out of memory, say). */
	die_status = KB_TROUBLE;
	if (argc < 2)
		return usage_error("no command (run, compare, backends, pgo, profile, calibrate, validate, lava, config)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage();
		return KB_OK;
	}
	/* `kbench run --help` as well: the one page covers every command kbench has. */
	if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help")) && command(argv[1])) {
		usage();
		return KB_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("kbench (ccd-suite) %s\n", CCD_VERSION);
		return KB_OK;
	}
	if (command(argv[1]))
		return command(argv[1])(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (run, compare, backends, pgo, profile, calibrate, validate, lava, config)",
			   argv[1]);
}
