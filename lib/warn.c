// SPDX-License-Identifier: GPL-2.0
#include "warn.h"
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *progname = "ccd-suite";
static int warn_fd = 2;
static void (*die_hook)(void);
int die_status = 1;

void warn_set_progname(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0 && *argv0)
		progname = slash ? slash + 1 : argv0;
}

const char *warn_progname(void)
{
	return progname;
}

void warn_set_fd(int fd)
{
	warn_fd = fd;
}

void warn_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

/*
 * A message is formatted into a fixed buffer on the stack, never a strbuf:
 * strbuf dies when memory runs out, and dying must not need memory.  A
 * longer message is cut and ends in "...".
 */
#define MSG_MAX 16384

struct msg {
	size_t len;		/* at most MSG_MAX */
	int cut;
	char buf[MSG_MAX + sizeof("...\n")];
};

static void msg_vadd(struct msg *m, const char *fmt, va_list ap)
{
	size_t room = MSG_MAX + 1 - m->len;	/* with vsnprintf's NUL */
	int n = vsnprintf(m->buf + m->len, room, fmt, ap);

	/* A conversion that fails (EOVERFLOW) ends the message there. */
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		m->len = MSG_MAX;
		m->cut = 1;
	} else {
		m->len += (size_t)n;
	}
}

__attribute__((format(printf, 2, 3)))
static void msg_add(struct msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vadd(m, fmt, ap);
	va_end(ap);
}

/* One write() per message so parallel builds never interleave lines. */
static void warn_emit(struct msg *m)
{
	int saved = errno;

	if (m->cut) {
		memcpy(m->buf + m->len, "...", 3);
		m->len += 3;
	}
	m->buf[m->len++] = '\n';
	/* Nowhere to report a failure to report. */
	if (write_in_full(warn_fd, m->buf, m->len))
		errno = saved;
}

static void warn_report(const char *kind, const char *fmt, va_list ap, int err)
{
	struct msg m;

	m.len = 0;
	m.cut = 0;
	msg_add(&m, "%s: ", progname);
	if (kind)
		msg_add(&m, "%s: ", kind);
	msg_vadd(&m, fmt, ap);
	if (err)
		msg_add(&m, ": %s", strerror(err));
	warn_emit(&m);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_report("error", fmt, ap, 0);
	va_end(ap);
	if (die_hook)
		die_hook();
	exit(die_status);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	warn_report("error", fmt, ap, err);
	va_end(ap);
	if (die_hook)
		die_hook();
	exit(die_status);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_report("error", fmt, ap, 0);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	warn_report("error", fmt, ap, err);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_report("warning", fmt, ap, 0);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_report(NULL, fmt, ap, 0);
	va_end(ap);
}

void vdiag_at(const char *file, unsigned long line, const char *topic,
	      const char *fmt, va_list ap)
{
	struct msg m;

	m.len = 0;
	m.cut = 0;
	msg_add(&m, "%s", file ? file : "<stdin>");
	if (line)
		msg_add(&m, ":%lu", line);
	msg_add(&m, ": ");
	if (topic)
		msg_add(&m, "%s: ", topic);
	msg_vadd(&m, fmt, ap);
	warn_emit(&m);
}

void diag_at(const char *file, unsigned long line, const char *topic,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(file, line, topic, fmt, ap);
	va_end(ap);
}
