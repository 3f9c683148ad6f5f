// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark initramfs: /init is the static guest, busybox is the
 * shell of the fork+sh row, and the optional workload and post programs
 * go where the guest looks for them; --program's programs, with their
 * interpreters and libraries, at their own paths, and their list; the
 * build row's compiler likewise, and its sources.
 */
#include "initramfs.h"
#include "build-row.h"
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
#include <stdio.h>
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

/* Files at their paths (the loader looks there), each once (done: those in already). */
static int add_files(struct cpio *c, struct strvec *dirs, struct strvec *done,
		     const struct strvec *files)
{
	for (size_t f = 0; f < files->nr; f++) {
		const char *name = files->v[f] + 1;

		if (listed(done, name))
			continue;
		strvec_push(done, name);
		if (add_parents(c, dirs, name) || cpio_file(c, name, 0755, name - 1))
			return -1;
	}
	return 0;
}

/* Each program's files, and the list. */
static int add_programs(struct cpio *c, struct strvec *dirs, struct strvec *done,
			const struct kb_programs *ps)
{
	struct strbuf list = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < ps->nr && !ret; i++)
		ret = add_files(c, dirs, done, &ps->v[i].files);
	programs_list(ps, &list);
	if (!ret)
		ret = cpio_data(c, &KB_PROGRAMS_PATH[1], 0644, list.buf, list.len);
	strbuf_release(&list);
	return ret ? -1 : 0;
}

/* The build row's compiler, its path in KB_BUILD_DIR, and the sources there. */
static int add_build(struct cpio *c, struct strvec *dirs, struct strvec *done,
		     const struct kb_build_cc *b)
{
	struct strbuf sb = STRBUF_INIT;
	char name[64];
	int ret = add_files(c, dirs, done, &b->files) || cpio_dir(c, &KB_BUILD_DIR[1], 0755);

	strbuf_addf(&sb, "%s\n", b->path);
	if (!ret)
		ret = cpio_data(c, (KB_BUILD_DIR "/" KB_BUILD_CC) + 1, 0644, sb.buf, sb.len);
	for (int i = 0; i < KB_BUILD_SOURCES && !ret; i++) {
		strbuf_reset(&sb);
		build_source(i, &sb);
		snprintf(name, sizeof(name), "%s/%d.c", KB_BUILD_DIR + 1, i);
		ret = cpio_data(c, name, 0644, sb.buf, sb.len);
	}
	strbuf_release(&sb);
	return ret ? -1 : 0;
}

static int add_extras(struct cpio *c, const struct initramfs_opts *o)
{
	struct strvec dirs = STRVEC_INIT, done = STRVEC_INIT;
	int ret = 0;

	for (size_t i = 0; i < sizeof(tree_dirs) / sizeof(*tree_dirs); i++)
		strvec_push(&dirs, tree_dirs[i]);
	if (o->programs && o->programs->nr)
		ret = add_programs(c, &dirs, &done, o->programs);
	if (!ret && o->build && o->build->path)
		ret = add_build(c, &dirs, &done, o->build);
	strvec_clear(&dirs);
	strvec_clear(&done);
	return ret;
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
	if (add_extras(&c, o))
		return -1;
	return cpio_finish(&c);
}
