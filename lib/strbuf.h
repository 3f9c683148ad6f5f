/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Growable strings and string vectors, after git's strbuf.h/strvec.h.
 * Every ccd-suite program builds text and argv arrays with these, never
 * with ad-hoc realloc code.  Allocation failure is fatal (die()).
 */
#ifndef CCD_STRBUF_H
#define CCD_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * buf is always a NUL-terminated string: an empty strbuf (alloc == 0)
 * points at the shared strbuf_slopbuf, never at NULL, so callers read
 * buf without checks.  Only alloc tells whether buf is owned.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { strbuf_slopbuf, 0, 0 }

void strbuf_init(struct strbuf *sb);

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_reset(struct strbuf *sb);
/* Free the buffer; sb is left empty and ready for reuse. */
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (malloc'ed, never NULL) and empty sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Append everything left to read from fd (through EINTR); 0, or -1 with errno. */
int strbuf_read_fd(struct strbuf *sb, int fd);
/*
 * Append the whole file at path.  0, or -1 with errno and sb as it was;
 * EFBIG if it holds more than max bytes (0: no limit).
 */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);

/* A NULL-terminated vector of owned strings (an argv). */
struct strvec {
	char **v;	/* v[nr] == NULL once anything was pushed */
	size_t nr;
	size_t alloc;
};

#define STRVEC_INIT { NULL, 0, 0 }

void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strvec_pushl(struct strvec *sv, ...);	/* NULL-terminated list */
void strvec_pushv(struct strvec *sv, char *const *argv);
/* Push the blank-separated words of s (no quoting: config values, CCD_CC). */
void strvec_split(struct strvec *sv, const char *s);
void strvec_insert(struct strvec *sv, size_t pos, const char *s);
void strvec_remove(struct strvec *sv, size_t pos);
void strvec_clear(struct strvec *sv);
/* Always a valid NULL-terminated array, even when empty. */
char **strvec_argv(struct strvec *sv);

/* Allocation helpers that die on failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
