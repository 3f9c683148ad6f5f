// SPDX-License-Identifier: GPL-2.0
#include "cpio.h"
#include "fileio.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char zeros[4];

void cpio_init(struct cpio *c, int fd, const char *path)
{
	c->fd = fd;
	c->path = path;
	c->ino = 1;
}

static int put(struct cpio *c, const void *buf, size_t len)
{
	if (write_in_full(c->fd, buf, len))
		return error_errno("cannot write %s", c->path);
	return 0;
}

/* newc pads the header+name and the data to multiples of four bytes. */
static int pad(struct cpio *c, size_t len)
{
	return put(c, zeros, (4 - len % 4) % 4);
}

static int header(struct cpio *c, const char *name, unsigned mode,
		  size_t size, unsigned rmajor, unsigned rminor)
{
	struct strbuf sb = STRBUF_INIT;
	size_t namesize = strlen(name) + 1;
	int ret;

	strbuf_addf(&sb, "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X",
		    c->ino++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u,
		    (unsigned long)size, 0u, 0u, rmajor, rminor,
		    (unsigned long)namesize, 0u);
	strbuf_add(&sb, name, namesize);
	ret = put(c, sb.buf, sb.len);
	if (!ret)
		ret = pad(c, sb.len);
	strbuf_release(&sb);
	return ret;
}

int cpio_dir(struct cpio *c, const char *name, unsigned mode)
{
	return header(c, name, S_IFDIR | mode, 0, 0, 0);
}

int cpio_chardev(struct cpio *c, const char *name, unsigned mode,
		 unsigned major, unsigned minor)
{
	return header(c, name, S_IFCHR | mode, 0, major, minor);
}

int cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	return cpio_data(c, name, S_IFLNK | 0777, target, strlen(target));
}

int cpio_data(struct cpio *c, const char *name, unsigned mode,
	      const void *data, size_t len)
{
	if (!(mode & S_IFMT))
		mode |= S_IFREG;
	if (header(c, name, mode, len, 0, 0) || put(c, data, len))
		return -1;
	return pad(c, len);
}

int cpio_file(struct cpio *c, const char *name, unsigned mode, const char *src)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int ret;

	if (fd < 0)
		return error_errno("cannot open %s", src);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("%s: not a regular file", src);
	}
	ret = header(c, name, S_IFREG | mode, (size_t)st.st_size, 0, 0);
	if (!ret && copy_fd(fd, c->fd))
		ret = error_errno("cannot copy %s into %s", src, c->path);
	if (!ret)
		ret = pad(c, (size_t)st.st_size);
	close(fd);
	return ret;
}

int cpio_finish(struct cpio *c)
{
	return header(c, "TRAILER!!!", 0, 0, 0, 0);
}
