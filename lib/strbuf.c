// SPDX-License-Identifier: GPL-2.0
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* What every empty strbuf points at; only ever holds its '\0'. */
char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_slopbuf;
	sb->len = sb->alloc = 0;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	int fresh = !sb->alloc;

	if (need < sb->len)
		die("strbuf overflow");
	if (need <= sb->alloc)
		return;
	/* Not realloc'ed: the slopbuf (or NULL, in a zeroed struct) is not ours. */
	if (fresh)
		sb->buf = NULL;
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < need)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

/* The one read-everything loop; max bytes at most (SIZE_MAX: no limit). */
static int read_fd_max(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (sb->len - start > max) {
			errno = EFBIG;
			return -1;
		}
	}
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	return read_fd_max(sb, fd, SIZE_MAX);
}

int strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	size_t old = sb->len;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -1;
	if (!read_fd_max(sb, fd, max ? max : SIZE_MAX)) {
		close(fd);
		return 0;
	}
	err = errno;
	close(fd);
	strbuf_setlen(sb, old);
	errno = err;
	return -1;
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("vsnprintf failed");
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > sb->len)
		die("strbuf_setlen beyond end");
	sb->len = len;
	/* A zeroed struct strbuf (calloc) has no buffer until it grows. */
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	strbuf_grow(sb, 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}

static void strvec_grow(struct strvec *sv)
{
	if (sv->nr + 2 <= sv->alloc)
		return;
	sv->alloc = sv->alloc ? 2 * sv->alloc : 16;
	sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
}

void strvec_push(struct strvec *sv, const char *s)
{
	strvec_grow(sv);
	sv->v[sv->nr++] = xstrdup(s);
	sv->v[sv->nr] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_grow(sv);
	sv->v[sv->nr++] = strbuf_detach(&sb, NULL);
	sv->v[sv->nr] = NULL;
}

void strvec_pushl(struct strvec *sv, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

void strvec_pushv(struct strvec *sv, char *const *argv)
{
	for (; argv && *argv; argv++)
		strvec_push(sv, *argv);
}

void strvec_split(struct strvec *sv, const char *s)
{
	while (s && *s) {
		size_t n;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (n) {
			strvec_grow(sv);
			sv->v[sv->nr++] = xstrndup(s, n);
			sv->v[sv->nr] = NULL;
		}
		s += n;
	}
}

void strvec_insert(struct strvec *sv, size_t pos, const char *s)
{
	if (pos > sv->nr)
		die("strvec_insert beyond end");
	strvec_grow(sv);
	memmove(sv->v + pos + 1, sv->v + pos, (sv->nr - pos + 1) * sizeof(*sv->v));
	sv->v[pos] = xstrdup(s);
	sv->nr++;
}

void strvec_remove(struct strvec *sv, size_t pos)
{
	if (pos >= sv->nr)
		die("strvec_remove beyond end");
	free(sv->v[pos]);
	memmove(sv->v + pos, sv->v + pos + 1, (sv->nr - pos) * sizeof(*sv->v));
	sv->nr--;
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = sv->alloc = 0;
}

char **strvec_argv(struct strvec *sv)
{
	if (!sv->v) {
		strvec_grow(sv);
		sv->v[0] = NULL;
	}
	return sv->v;
}
