/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The streaming line reader: big read()s into one buffer, handed out as
 * chunks of whole lines so the driver can find line ends with memchr and
 * run cheap whole-chunk prefilters.  Memory is the buffer plus the longest
 * line.
 */
#ifndef ASMFIX_READER_H
#define ASMFIX_READER_H

#include <stddef.h>
#include <sys/types.h>

#define READER_CHUNK (1u << 20)
#define READER_MAX_LINE (64u << 20)

struct line_reader {
	int fd;
	char *buf;
	size_t alloc, start, end;
	int eof;
};

void asmfix_reader_init(struct line_reader *r, int fd);
void asmfix_reader_release(struct line_reader *r);
/*
 * The next chunk of whole lines, newline included (the last line of the
 * input may lack one).  Returns its length, 0 at the end of input, -1 on
 * a read error (errno set), -2 for a line longer than READER_MAX_LINE.
 */
ssize_t asmfix_reader_chunk(struct line_reader *r, const char **chunk);

#endif
