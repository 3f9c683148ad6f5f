// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's file server (serve.h).  One connection at a time, each
 * socket non-blocking and waited on with ppoll(), which is also the only
 * place SIGINT and SIGTERM are let in: a signal ends the wait at once,
 * whatever the client is doing, and no system call is cut in half.
 */
#include "serve.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

#define HEAD_MAX 8192		/* a request's line and headers */
#define NAME_MAX_LEN 255

int lava_serve_timeout = 30;

static volatile sig_atomic_t stopped;

static void on_stop(int sig)
{
	stopped = sig;
}

struct client {
	int fd;
	const sigset_t *waitmask;	/* ours, with SIGINT and SIGTERM let in */
	char addr[NI_MAXHOST + NI_MAXSERV + 4];
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Wait until fd is ready for events or the deadline (ms, -1: none)
 * passes.  1 ready, 0 timed out, -1 stopped by a signal or failed.
 */
static int wait_fd(int fd, short events, long long deadline, const sigset_t *waitmask)
{
	struct pollfd pfd = { fd, events, 0 };
	struct timespec ts, *tp;
	long long left;
	int n;

	for (;;) {
		if (stopped)
			return -1;
		tp = NULL;
		if (deadline >= 0) {
			left = deadline - now_ms();
			if (left <= 0)
				return 0;
			ts.tv_sec = left / 1000;
			ts.tv_nsec = (left % 1000) * 1000000;
			tp = &ts;
		}
		n = ppoll(&pfd, 1, tp, waitmask);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

static long long idle_deadline(void)
{
	return now_ms() + (long long)lava_serve_timeout * 1000;
}

/* Write all of buf to the client, each wait no longer than the timeout.  0 or -1. */
static int send_all(struct client *c, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(c->fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
			return -1;
		} else if (wait_fd(c->fd, POLLOUT, idle_deadline(), c->waitmask) <= 0) {
			return -1;
		}
	}
	return 0;
}

/* The file's bytes: sendfile, the kernel copies.  The count sent. */
static long long send_body(struct client *c, int fd, off_t size)
{
	off_t off = 0;
	ssize_t n;

	while (off < size) {
		size_t chunk = size - off > (1 << 20) ? (1 << 20) : (size_t)(size - off);

		n = sendfile(c->fd, fd, &off, chunk);
		if (n == 0)
			break;		/* the file shrank */
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			break;
		if (n < 0 && wait_fd(c->fd, POLLOUT, idle_deadline(), c->waitmask) <= 0)
			break;
	}
	return (long long)off;
}

/* The request's line and headers, to the blank line; -1 for a client that gave none. */
static int read_head(struct client *c, char *buf, size_t *len)
{
	long long deadline = idle_deadline();	/* for all of it: no drip-feeding */
	ssize_t n;

	*len = 0;
	for (;;) {
		buf[*len] = '\0';
		if (strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n"))
			return 0;
		if (*len == HEAD_MAX)
			return 1;	/* too long: 400 */
		n = recv(c->fd, buf + *len, HEAD_MAX - *len, 0);
		if (n > 0) {
			if (memchr(buf + *len, '\0', (size_t)n))
				return 1;
			*len += (size_t)n;
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			return -1;
		} else if (wait_fd(c->fd, POLLIN, deadline, c->waitmask) <= 0) {
			return -1;
		}
	}
}

/* s made printable for a log line (a client chooses its path). */
static void add_printable(struct strbuf *sb, const char *s)
{
	size_t start = sb->len;

	for (; *s && sb->len - start < 200; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < ' ' || ch >= 0x7f || ch == '\\')
			strbuf_addf(sb, "\\x%02x", ch);
		else
			strbuf_addch(sb, ch);
	}
	if (*s)
		strbuf_addstr(sb, "...");
}

static void add_http_date(struct strbuf *sb, const char *header, time_t t)
{
	char date[64];
	struct tm tm;

	if (gmtime_r(&t, &tm) && strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm))
		strbuf_addf(sb, "%s: %s\r\n", header, date);
}

/* A status line and headers; the body is Content-Length bytes (sent or not: HEAD). */
static int send_head(struct client *c, int status, const char *reason, const char *type,
		     long long length, const struct stat *st, const char *extra)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "HTTP/1.1 %d %s\r\nServer: kbench\r\n", status, reason);
	add_http_date(&sb, "Date", time(NULL));
	if (st)
		add_http_date(&sb, "Last-Modified", st->st_mtime);
	strbuf_addf(&sb, "Content-Type: %s\r\nContent-Length: %lld\r\n%sConnection: close\r\n\r\n",
		    type, length, extra ? extra : "");
	ret = send_all(c, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/* An error reply, with a one-line body for people (not for HEAD), and its log line. */
static void refuse(struct client *c, int head_only, int status, const char *reason,
		   const char *what, const char *why)
{
	struct strbuf body = STRBUF_INIT, log = STRBUF_INIT;

	strbuf_addf(&body, "%d %s\n", status, reason);
	if (!send_head(c, status, reason, "text/plain; charset=utf-8", (long long)body.len, NULL,
		       status == 405 ? "Allow: GET, HEAD\r\n" : NULL) && !head_only)
		send_all(c, body.buf, body.len);
	add_printable(&log, what);
	note("refused %s to %s: %d (%s)", log.buf, c->addr, status, why);
	strbuf_release(&body);
	strbuf_release(&log);
}

static int unhex(char ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 :
	       ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/*
 * The file name a request target names: "/NAME" (a query dropped),
 * %-decoded.  NULL with why if it is not one name directly in the
 * directory (400) or a hidden one (*hidden: 404).
 */
static const char *target_name(const char *target, char *name, const char **why, int *hidden)
{
	size_t n = 0;
	const char *p;

	*hidden = 0;
	if (*target != '/') {
		*why = "not a path";
		return NULL;
	}
	for (p = target + 1; *p && *p != '?' && *p != '#'; p++) {
		char ch = *p;

		if (ch == '%') {
			if (unhex(p[1]) < 0 || unhex(p[2]) < 0) {
				*why = "bad %-escape";
				return NULL;
			}
			ch = (char)(unhex(p[1]) << 4 | unhex(p[2]));
			p += 2;
		}
		if (ch == '/' || ch == '\0' || n == NAME_MAX_LEN) {
			*why = ch == '/' ? "not a file directly in the directory" : "not a file name";
			return NULL;
		}
		name[n++] = ch;
	}
	name[n] = '\0';
	if (!strcmp(name, ".") || !strcmp(name, "..")) {
		*why = "not a file directly in the directory";
		return NULL;
	}
	if (name[0] == '.' || !n) {
		*hidden = 1;
		*why = n ? "a dotfile" : "no file named";
		return NULL;
	}
	return name;
}

/*
 * Open name in dirfd for reading without leaving it: openat2's
 * RESOLVE_BENEATH lets symlinks that stay inside through and no other;
 * where the kernel has no openat2, no symlink at all.
 */
static int open_beneath(int dirfd, const char *name)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;	/* a FIFO must not block us */
#ifdef SYS_openat2
	struct open_how how = { .flags = (unsigned long long)flags,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
	long fd = syscall(SYS_openat2, dirfd, name, &how, sizeof(how));

	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return (int)fd;
#endif
	return openat(dirfd, name, flags | O_NOFOLLOW);
}

/* The file for GET or HEAD, or the error reply. */
static void answer_file(struct client *c, int dirfd, int head_only, const char *target)
{
	char buf[NAME_MAX_LEN + 1];
	const char *name, *why;
	struct strbuf log = STRBUF_INIT;
	struct stat st;
	long long sent;
	int fd, hidden;

	if (!(name = target_name(target, buf, &why, &hidden))) {
		if (hidden)
			refuse(c, head_only, 404, "Not Found", target, why);
		else
			refuse(c, head_only, 400, "Bad Request", target, why);
		return;
	}
	fd = open_beneath(dirfd, name);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		why = fd >= 0 ? "not a regular file" : errno == EXDEV || errno == ELOOP ?
		      "a symlink leading out of the directory" : strerror(errno);
		refuse(c, head_only, fd < 0 && errno == EACCES ? 403 : 404,
		       fd < 0 && errno == EACCES ? "Forbidden" : "Not Found", target, why);
		if (fd >= 0)
			close(fd);
		return;
	}
	add_printable(&log, name);
	if (send_head(c, 200, "OK", "application/octet-stream", (long long)st.st_size, &st, NULL)) {
		note("sending %s to %s failed: the client is gone", log.buf, c->addr);
	} else if (head_only) {
		note("served %s (HEAD, %lld bytes) to %s", log.buf, (long long)st.st_size, c->addr);
	} else if ((sent = send_body(c, fd, st.st_size)) < (long long)st.st_size) {
		note("sending %s to %s stopped after %lld of %lld bytes", log.buf, c->addr, sent,
		     (long long)st.st_size);
	} else {
		note("served %s (%lld bytes) to %s", log.buf, sent, c->addr);
	}
	close(fd);
	strbuf_release(&log);
}

/*
 * Let the client read the reply before it is closed: a close with its
 * unread request bytes still queued would reset the connection, and the
 * reply with it.  A second at most.
 */
static void linger(struct client *c)
{
	long long deadline = now_ms() + 1000;
	char buf[4096];
	size_t total = 0;
	ssize_t n;

	shutdown(c->fd, SHUT_WR);
	while (total < 65536 && wait_fd(c->fd, POLLIN, deadline, c->waitmask) > 0) {
		n = recv(c->fd, buf, sizeof(buf), 0);
		if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR)))
			break;
		if (n > 0)
			total += (size_t)n;
	}
}

/* One request: "METHOD TARGET HTTP/1.x", the headers (unread), the reply. */
static void serve_client(struct client *c, int dirfd)
{
	char head[HEAD_MAX + 1], *method, *target, *version, *eol, *save;
	size_t len;
	int r = read_head(c, head, &len);

	if (r < 0)
		return;		/* silent, gone or stopped: nothing to answer */
	eol = strchr(head, '\n');
	if (eol)
		*eol = '\0';
	method = strtok_r(head, " \r", &save);
	target = method ? strtok_r(NULL, " \r", &save) : NULL;
	version = target ? strtok_r(NULL, " \r", &save) : NULL;
	if (r || !version || strtok_r(NULL, " \r", &save) || strncmp(version, "HTTP/1.", 7)) {
		refuse(c, 0, 400, "Bad Request", method ? method : "", "not an HTTP/1 request");
	} else if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		refuse(c, !strcmp(method, "HEAD"), 405, "Method Not Allowed", method,
		       "only GET and HEAD");
	} else {
		answer_file(c, dirfd, !strcmp(method, "HEAD"), target);
	}
	linger(c);
}

/* A listening socket on host:port; its port in *bound. */
static int listen_on(const char *host, int port, int *bound)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
				  .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	char serv[16], num[NI_MAXSERV];
	int fd = -1, err, one = 1, saved = 0;

	snprintf(serv, sizeof(serv), "%d", port);
	if ((err = getaddrinfo(host, serv, &hints, &res)))
		return error("cannot serve on %s: %s", host, gai_strerror(err));
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			    ai->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 16)) {
			saved = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0) {
		errno = saved;
		return error_errno("cannot listen on %s port %d", host, port);
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) ||
	    getnameinfo((struct sockaddr *)&ss, sslen, NULL, 0, num, sizeof(num), NI_NUMERICSERV)) {
		close(fd);
		return error_errno("cannot tell the port listened on");
	}
	*bound = atoi(num);
	return fd;
}

/* "ADDR:PORT" of a client, for the log. */
static void name_client(struct client *c, const struct sockaddr_storage *ss, socklen_t len)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo((const struct sockaddr *)ss, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(c->addr, sizeof(c->addr), "?");
	else if (strchr(host, ':'))
		snprintf(c->addr, sizeof(c->addr), "[%s]:%s", host, serv);
	else
		snprintf(c->addr, sizeof(c->addr), "%s:%s", host, serv);
}

struct saved_signals {
	struct sigaction act[3];
	sigset_t mask;
};

static const int signals[3] = { SIGINT, SIGTERM, SIGPIPE };

/* Ours: SIGINT and SIGTERM stop the loop (blocked but in ppoll), SIGPIPE ignored. */
static void catch_signals(struct saved_signals *old, sigset_t *waitmask)
{
	struct sigaction sa;
	sigset_t block;
	int i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old->mask);
	for (i = 0; i < 3; i++) {
		sigaction(signals[i], NULL, &old->act[i]);
		/* A signal ignored when we start (nohup, a shell's background job) stays so. */
		if (old->act[i].sa_handler == SIG_IGN)
			continue;
		sa.sa_handler = signals[i] == SIGPIPE ? SIG_IGN : on_stop;
		sigaction(signals[i], &sa, NULL);
	}
	*waitmask = old->mask;
	sigdelset(waitmask, SIGINT);
	sigdelset(waitmask, SIGTERM);
}

static void restore_signals(const struct saved_signals *old)
{
	int i;

	/* The mask first: a signal still pending meets our handler, not the caller's. */
	sigprocmask(SIG_SETMASK, &old->mask, NULL);
	for (i = 0; i < 3; i++)
		sigaction(signals[i], &old->act[i], NULL);
}

static int accept_loop(int lfd, int dirfd, const sigset_t *waitmask)
{
	struct client c;
	struct sockaddr_storage ss;
	socklen_t len;

	while (!stopped) {
		if (wait_fd(lfd, POLLIN, -1, waitmask) < 0)
			return stopped ? 0 : error_errno("cannot wait for clients");
		len = sizeof(ss);
		c.fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (c.fd < 0) {
			if (errno == EMFILE || errno == ENFILE)
				usleep(100000);	/* until one closes, not a busy loop */
			continue;
		}
		c.waitmask = waitmask;
		name_client(&c, &ss, len);
		serve_client(&c, dirfd);
		close(c.fd);
	}
	return 0;
}

int lava_serve(const char *dir, const char *host, int port,
	       int (*ready)(int port, void *arg), void *arg)
{
	struct saved_signals old;
	sigset_t waitmask;
	int dirfd, lfd, bound = 0, ret = -1;

	if (!host)
		host = "127.0.0.1";
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return error_errno("cannot open directory %s", dir);
	lfd = listen_on(host, port, &bound);
	if (lfd < 0) {
		close(dirfd);
		return -1;
	}
	stopped = 0;
	catch_signals(&old, &waitmask);
	if (!ready || !ready(bound, arg))
		ret = accept_loop(lfd, dirfd, &waitmask);
	restore_signals(&old);
	close(lfd);
	close(dirfd);
	return ret;
}
