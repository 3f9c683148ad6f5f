// SPDX-License-Identifier: GPL-2.0
#include "warn.h"
#include "fileio.h"
#include "strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *progname = "ccd-suite";
static int out_fd = 2;
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
	out_fd = fd;
}

void warn_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

/* One write() per message so parallel builds never interleave lines. */
static void emit(struct strbuf *sb)
{
	int saved = errno;

	/* Nowhere to report a failure to report. */
	if (write_in_full(out_fd, strbuf_str(sb), sb->len))
		errno = saved;
	strbuf_release(sb);
}

static void report(const char *kind, const char *fmt, va_list ap, int err)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, progname);
	strbuf_addstr(&sb, ": ");
	if (kind)
		strbuf_addf(&sb, "%s: ", kind);
	strbuf_vaddf(&sb, fmt, ap);
	if (err)
		strbuf_addf(&sb, ": %s", strerror(err));
	strbuf_addch(&sb, '\n');
	emit(&sb);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, 0);
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
	report("error", fmt, ap, err);
	va_end(ap);
	if (die_hook)
		die_hook();
	exit(die_status);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, err);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap, 0);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(NULL, fmt, ap, 0);
	va_end(ap);
}

void vdiag_at(const char *file, unsigned long line, const char *topic,
	      const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, file ? file : "<stdin>");
	if (line)
		strbuf_addf(&sb, ":%lu", line);
	strbuf_addstr(&sb, ": ");
	if (topic)
		strbuf_addf(&sb, "%s: ", topic);
	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addch(&sb, '\n');
	emit(&sb);
}

void diag_at(const char *file, unsigned long line, const char *topic,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(file, line, topic, fmt, ap);
	va_end(ap);
}
