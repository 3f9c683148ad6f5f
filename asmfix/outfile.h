/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing big outputs to files.  A file system that allocates blocks as
 * pages are written (ext4's delayed allocation) spends a quarter of a
 * 300 MB write on bookkeeping per page; blocks reserved up front
 * (fallocate) skip it.  Only ever a hint: any failure changes nothing.
 */
#ifndef ASMFIX_OUTFILE_H
#define ASMFIX_OUTFILE_H

#include <sys/types.h>

/* Outputs smaller than this are not worth the system calls. */
#define OUTFILE_RESERVE_MIN (1 << 20)

/*
 * Reserve blocks for len bytes from fd's offset, if fd is a regular file
 * being written at its end, without changing its size.  Returns where
 * the reservation ends (for outfile_release), or -1 if none was made.
 */
off_t outfile_reserve(int fd, off_t len);

/* Free what outfile_reserve reserved past the end of what was written. */
void outfile_release(int fd, off_t reserved_end);

/* How many bytes remain to be read from fd if it is a regular file; -1 if unknown. */
off_t outfile_input_left(int fd);

/*
 * Copy the rest of from to to: in the kernel where it can
 * (copy_file_range: no copy through this process, shared blocks on file
 * systems that share them), else through a buffer.  0, or -1 with errno.
 */
int outfile_copy(int from, int to);

#endif
