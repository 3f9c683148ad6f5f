// SPDX-License-Identifier: GPL-2.0
/* kbench initramfs: the benchmark initramfs kbench run boots, into a file. */
#include "cmd.h"
#include "atomic-file.h"
#include "initramfs.h"
#include "machine.h"
#include "program.h"
#include "build-row.h"

#include <stddef.h>

/*
 * kbench initramfs [-o FILE] [--guest=P] [--busybox=P] [--workload=F] [--post=F]
 * [--program=S] [--build-cc=CC]
 */
int cmd_initramfs(int argc, char **argv)
{
	struct kb_programs programs = { NULL, 0, 0 };
	struct kb_build_cc build = { NULL, STRVEC_INIT };
	struct initramfs_opts o = { NULL, NULL, NULL, NULL, &programs, &build };
	const struct kb_machine *m = machine_host();
	const char *out = NULL, *build_cc = NULL, *v;
	char *tmp;
	int fd, ret;

	for (int i = 1; i < argc; i++) {
		if ((v = opt_arg(argc, argv, &i, "-o")) || (v = opt_arg(argc, argv, &i, "--output")))
			out = v;
		else if ((v = opt_arg(argc, argv, &i, "--guest")))
			o.guest = v;
		else if ((v = opt_arg(argc, argv, &i, "--busybox")))
			o.busybox = v;
		else if ((v = opt_arg(argc, argv, &i, "--workload")))
			o.workload = v;
		else if ((v = opt_arg(argc, argv, &i, "--post")))
			o.post = v;
		else if ((v = opt_arg(argc, argv, &i, "--build-cc")))
			build_cc = v;
		else if ((v = opt_arg(argc, argv, &i, "--program"))) {
			if (program_option(&programs, v))
				goto usage;
		} else if ((v = opt_arg(argc, argv, &i, "--arch"))) {
			if (!(m = arch_option(v)))
				goto usage;
		} else {
			usage_error("initramfs: unexpected argument '%s'", argv[i]);
			goto usage;
		}
	}
	if (!out) {
		usage_error("initramfs: -o FILE is required");
		goto usage;
	}
	o.guest = guest_path(o.guest, m);
	o.busybox = busybox_path(o.busybox, m);
	ret = -1;
	if (machine_check_program(m, o.guest, "the guest", "--guest=FILE") ||
	    programs_resolve(&programs, m) || build_cc_resolve(&build, build_cc, m))
		goto out;
	fd = atomic_create(out, &tmp);
	if (fd < 0)
		goto out;
	ret = write_initramfs(fd, tmp, &o);
	if (atomic_commit(fd, tmp, out, ret))
		ret = -1;
out:
	programs_release(&programs);
	build_cc_release(&build);
	return ret ? KB_TROUBLE : KB_OK;
usage:
	programs_release(&programs);
	return KB_USAGE;
}
