// SPDX-License-Identifier: GPL-2.0
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

off_t fd_bytes_left(int fd)
{
	struct stat st;
	off_t at;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	return st.st_size > at ? st.st_size - at : 0;
}

off_t fd_reserve(int fd, off_t len)
{
#ifdef FALLOC_FL_KEEP_SIZE
	struct stat st;
	off_t at;

	if (len < FD_RESERVE_MIN || fstat(fd, &st) || !S_ISREG(st.st_mode))
		return -1;
	/*
	 * Only past the end: inside the file a reservation would fill its
	 * holes (more disk used) and an O_APPEND writer is elsewhere anyway.
	 */
	at = lseek(fd, 0, SEEK_CUR);
	if (at < 0 || at != st.st_size)
		return -1;
	/* Out of space: part may be reserved all the same; release frees it. */
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, at, len) && errno != ENOSPC)
		return -1;
	return at + len;
#else
	(void)fd;
	(void)len;
	return -1;
#endif
}

void fd_unreserve(int fd, off_t reserved_end)
{
	struct stat st;
	off_t at;

	if (reserved_end < 0 || fstat(fd, &st) || (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return;
	/*
	 * Blocks past the size stay reserved until a truncate; one to the
	 * size the file has (no data changes) frees them.  Not if someone
	 * else wrote past us.
	 */
	if (at != st.st_size || at >= reserved_end)
		return;
	if (ftruncate(fd, at))
		return;	/* a hint: nothing to undo */
}

int write_in_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (!k)
				errno = EIO;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int copy_through_buffer(int from, int to)
{
	char buf[1 << 16];

	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (write_in_full(to, buf, (size_t)n))
			return -1;
	}
}

int copy_fd(int from, int to)
{
	off_t left = fd_bytes_left(from), reserved;
	int moved = 0;

	reserved = fd_reserve(to, left);
	while (left > 0) {
		ssize_t n = copy_file_range(from, NULL, to, NULL, (size_t)left, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Not between these files (other file systems, old kernel): by hand. */
			if (n < 0 && !moved && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
						errno == EOPNOTSUPP || errno == EBADF))
				break;
			if (!n)
				errno = EIO;	/* the file shrank under us */
			return -1;
		}
		moved = 1;
		left -= n;
	}
	if (left && copy_through_buffer(from, to))
		return -1;
	fd_unreserve(to, reserved);
	return 0;
}
