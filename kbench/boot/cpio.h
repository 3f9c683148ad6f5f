/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a newc ("070701") cpio archive, the format the kernel unpacks
 * as an initramfs.  Every entry is owned by root with mtime 0, so the
 * same inputs give the same archive byte for byte.
 */
#ifndef KBENCH_CPIO_H
#define KBENCH_CPIO_H

#include <stddef.h>

struct cpio {
	int fd;
	const char *path;	/* for messages */
	unsigned long ino;
};

void cpio_init(struct cpio *c, int fd, const char *path);
/* Each returns 0, or -1 after printing an error. */
int cpio_dir(struct cpio *c, const char *name, unsigned mode);
int cpio_chardev(struct cpio *c, const char *name, unsigned mode,
		 unsigned major, unsigned minor);
int cpio_symlink(struct cpio *c, const char *name, const char *target);
int cpio_data(struct cpio *c, const char *name, unsigned mode,
	      const void *data, size_t len);
/* A regular file with the contents of the host file src. */
int cpio_file(struct cpio *c, const char *name, unsigned mode, const char *src);
/* The trailer; the archive is complete after it. */
int cpio_finish(struct cpio *c);

#endif
