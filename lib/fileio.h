/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File descriptors: writing all of a buffer, copying one file to another,
 * and reserving blocks for big outputs.  A file system that allocates
 * blocks as pages are written (ext4's delayed allocation) spends a
 * quarter of a 300 MB write on bookkeeping per page; blocks reserved up
 * front (fallocate) skip it.  A reservation is only ever a hint: any
 * failure changes nothing.
 */
#ifndef CCD_FILEIO_H
#define CCD_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * write() all of [buf, buf + len), through short writes and EINTR.  0, or
 * -1 with errno (EIO for a write that wrote nothing).
 */
int write_in_full(int fd, const void *buf, size_t len);

/* Outputs smaller than this are not worth the system calls. */
#define FD_RESERVE_MIN (1 << 20)

/*
 * Reserve blocks for len bytes from fd's offset, if fd is a regular file
 * being written at its end, without changing its size.  Returns where
 * the reservation ends (for fd_unreserve), or -1 if none was made.
 */
off_t fd_reserve(int fd, off_t len);

/* Free what fd_reserve reserved past the end of what was written. */
void fd_unreserve(int fd, off_t reserved_end);

/* How many bytes remain to be read from fd if it is a regular file; -1 if unknown. */
off_t fd_bytes_left(int fd);

/*
 * Copy the rest of from to to (reserving blocks for it): in the kernel
 * where it can (copy_file_range: no copy through this process, shared
 * blocks on file systems that share them), else through a buffer.  0, or
 * -1 with errno.
 */
int copy_fd(int from, int to);

#endif
