// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark initramfs: /init is the static guest, busybox is the
 * shell of the fork+sh row, and the optional workload and post programs
 * go where the guest looks for them; --program's programs, with their
 * interpreters and libraries, at their own paths, and their list.
 */
#include "initramfs.h"
#include "cpio.h"
#include "program.h"
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

static const char *const tree_dirs[] = { "bin", "dev", "proc", "tmp" };

static int add_tree(struct cpio *c)
{
	for (size_t i = 0; i < sizeof(tree_dirs) / sizeof(*tree_dirs); i++)
		if (cpio_dir(c, tree_dirs[i], strcmp(tree_dirs[i], "tmp") ? 0755 : 01777))
			return -1;
	if (cpio_chardev(c, "dev/console", 0600, 5, 1) ||
	    cpio_chardev(c, "dev/null", 0666, 1, 3) ||
	    cpio_chardev(c, "dev/zero", 0666, 1, 5))
		return -1;
	return 0;
}

static int listed(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* The directories above name (no leading slash) that are not in the archive yet. */
static int add_parents(struct cpio *c, struct strvec *dirs, const char *name)
{
	for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(name, (size_t)(slash - name));
		int ret = 0;

		if (!listed(dirs, dir)) {
			strvec_push(dirs, dir);
			ret = cpio_dir(c, dir, 0755);
		}
		free(dir);
		if (ret)
			return -1;
	}
	return 0;
}

/* Each program's files at their paths (the loader looks there), each once, and the list. */
static int add_programs(struct cpio *c, const struct kb_programs *ps)
{
	struct strvec dirs = STRVEC_INIT, done = STRVEC_INIT;
	struct strbuf list = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < sizeof(tree_dirs) / sizeof(*tree_dirs); i++)
		strvec_push(&dirs, tree_dirs[i]);
	for (size_t i = 0; i < ps->nr && !ret; i++) {
		for (size_t f = 0; f < ps->v[i].files.nr && !ret; f++) {
			const char *name = ps->v[i].files.v[f] + 1;

			if (listed(&done, name))
				continue;
			strvec_push(&done, name);
			ret = add_parents(c, &dirs, name) || cpio_file(c, name, 0755, name - 1);
		}
	}
	programs_list(ps, &list);
	if (!ret)
		ret = cpio_data(c, &KB_PROGRAMS_PATH[1], 0644, list.buf, list.len);
	strbuf_release(&list);
	strvec_clear(&dirs);
	strvec_clear(&done);
	return ret ? -1 : 0;
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
	if (o->programs && o->programs->nr && add_programs(&c, o->programs))
		return -1;
	return cpio_finish(&c);
}
