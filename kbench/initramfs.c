// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark initramfs: /init is the static guest, busybox is the
 * shell of the fork+sh row, and the optional workload and post programs
 * go where the guest looks for them.
 */
#include "kbench.h"
#include "machine.h"
#include "cpio.h"
#include "protocol.h"
#include "fileio.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int add_tree(struct cpio *c)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "tmp" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		if (cpio_dir(c, dirs[i], strcmp(dirs[i], "tmp") ? 0755 : 01777))
			return -1;
	if (cpio_chardev(c, "dev/console", 0600, 5, 1) ||
	    cpio_chardev(c, "dev/null", 0666, 1, 3) ||
	    cpio_chardev(c, "dev/zero", 0666, 1, 5))
		return -1;
	return 0;
}

int write_initramfs(int fd, const char *path, const struct initramfs_opts *o)
{
	const char *busybox = o->busybox;
	struct cpio c;

	cpio_init(&c, fd, path);
	if (add_tree(&c) || cpio_file(&c, "init", 0755, o->guest))
		return -1;
	/* Without a shell only the fork+sh row fails; say so now. */
	if (access(busybox, X_OK)) {
		warning("no %s (busybox-static): the fork_sh row will fail", busybox);
	} else if (cpio_file(&c, "bin/busybox", 0755, busybox) ||
		   cpio_symlink(&c, "bin/sh", "busybox")) {
		return -1;
	}
	if (o->workload && cpio_file(&c, &KB_WORKLOAD_PATH[1], 0755, o->workload))
		return -1;
	if (o->post && cpio_file(&c, &KB_POST_PATH[1], 0755, o->post))
		return -1;
	return cpio_finish(&c);
}

/* kbench initramfs [-o FILE] [--guest=P] [--busybox=P] [--workload=F] [--post=F] */
int cmd_initramfs(int argc, char **argv)
{
	struct initramfs_opts o = { NULL, NULL, NULL, NULL };
	const struct kb_machine *m = machine_host();
	const char *out = NULL, *v;
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
		else if ((v = opt_arg(argc, argv, &i, "--arch"))) {
			if (!(m = machine_named(v)))
				return machine_arch_error(v);
		} else
			return usage_error("initramfs: unexpected argument '%s'", argv[i]);
	}
	if (!out)
		return usage_error("initramfs: -o FILE is required");
	o.guest = guest_path(o.guest, m);
	o.busybox = busybox_path(o.busybox, m);
	if (machine_check_program(m, o.guest, "the guest", "--guest=FILE"))
		return KB_TROUBLE;
	fd = atomic_create(out, &tmp);
	if (fd < 0)
		return KB_TROUBLE;
	ret = write_initramfs(fd, tmp, &o);
	if (atomic_commit(fd, tmp, out, ret))
		ret = -1;
	return ret ? KB_TROUBLE : KB_OK;
}
