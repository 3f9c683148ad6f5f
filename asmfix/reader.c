// SPDX-License-Identifier: GPL-2.0
/* The streaming line reader. */
#include "reader.h"
#include "strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void asmfix_reader_init(struct line_reader *r, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->alloc = READER_CHUNK;
	r->buf = xmalloc(r->alloc);
}

void asmfix_reader_release(struct line_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

/* Read once into the free space; 0 at EOF, -1 on error. */
static ssize_t fill(struct line_reader *r)
{
	for (;;) {
		ssize_t n = read(r->fd, r->buf + r->end, r->alloc - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			r->end += (size_t)n;
		else if (!n)
			r->eof = 1;
		return n;
	}
}

ssize_t asmfix_reader_chunk(struct line_reader *r, const char **chunk)
{
	size_t scanned;

	/* Move the incomplete last line to the front. */
	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	scanned = 0;
	for (;;) {
		char *nl = NULL;
		/* Search backwards from the end for the last newline. */
		for (size_t i = r->end; i > scanned; i--)
			if (r->buf[i - 1] == '\n') {
				nl = r->buf + i - 1;
				break;
			}
		if (nl) {
			r->start = (size_t)(nl + 1 - r->buf);
			*chunk = r->buf;
			return (ssize_t)r->start;
		}
		scanned = r->end;
		if (r->eof) {
			r->start = r->end;
			*chunk = r->buf;
			return (ssize_t)r->end;
		}
		if (r->end == r->alloc) {
			if (r->alloc >= READER_MAX_LINE)
				return -2;
			r->alloc *= 2;
			r->buf = xrealloc(r->buf, r->alloc);
		}
		if (fill(r) < 0)
			return -1;
	}
}
