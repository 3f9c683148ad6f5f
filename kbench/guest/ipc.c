// SPDX-License-Identifier: GPL-2.0
/*
 * Communication: round-trip latency of one byte between two processes
 * over a pipe pair, an AF_UNIX stream socket and TCP over loopback; TCP
 * connection setup; and bandwidth over the same three.
 */
#include "bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BW_CHUNK (64 << 10)

/*
 * The TCP rows choose every port themselves, from the row's own range
 * (arg2 up to ports_end()), each socket the next one.  The kernel's
 * choice for port 0 or an unbound connect() starts at a hash keyed by its
 * random secret, and its random pool is seeded with the build's identity
 * (utsname: host, user, time): two kernels with the same code then probe
 * other ports, allocate other bind buckets, and every row after the TCP
 * rows found the allocator otherwise (issue 24).  Each row runs in a
 * process of its own, so the count starts again per row; the ranges are
 * disjoint, so no port waits in TIME_WAIT from an earlier row.  Past the
 * end of its range (only with --runs near 99) a row lets the kernel choose.
 */
static long port_next, port_last;

static void ports_for(const struct bench *b, long last)
{
	if (!port_next) {
		port_next = b->arg2;
		port_last = last;
	}
}

/* Bind s to 127.0.0.1 and the next port of the row (0 once they are used up). */
static int bind_next(int s)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (port_next && port_next <= port_last)
		a.sin_port = htons((unsigned short)port_next++);
	return bind(s, (struct sockaddr *)&a, sizeof(a));
}

/* Two connected descriptors: the parent's end and the child's end. */
struct chan {
	int prd, pwr;	/* parent reads / writes */
	int crd, cwr;	/* child reads / writes */
};

static void chan_close(struct chan *c)
{
	int *fds[] = { &c->prd, &c->pwr, &c->crd, &c->cwr };

	for (size_t i = 0; i < 4; i++) {
		if (*fds[i] < 0)
			continue;
		/* A socket is both ends' read and write side: close it once. */
		for (size_t j = i + 1; j < 4; j++)
			if (*fds[j] == *fds[i])
				*fds[j] = -1;
		close(*fds[i]);
		*fds[i] = -1;
	}
}

static int chan_pipe(struct chan *c)
{
	int a[2], b[2];

	if (kb_pipe_pair(a, b))
		return -1;
	c->pwr = a[1], c->crd = a[0];
	c->cwr = b[1], c->prd = b[0];
	return 0;
}

static int chan_unix(struct chan *c)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return kb_fail_errno("socketpair AF_UNIX");
	c->prd = c->pwr = sv[0];
	c->crd = c->cwr = sv[1];
	return 0;
}

/* A listening TCP socket on 127.0.0.1 and the row's next port. */
static int tcp_listen(struct sockaddr_in *addr, int backlog)
{
	socklen_t len = sizeof(*addr);
	int one = 1;
	int s = socket(AF_INET, SOCK_STREAM, 0);

	if (s < 0)
		return kb_fail_errno("socket AF_INET");
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind_next(s) ||
	    listen(s, backlog) || getsockname(s, (struct sockaddr *)addr, &len)) {
		close(s);
		return kb_fail_errno("bind/listen on 127.0.0.1");
	}
	return s;
}

static int chan_tcp(struct chan *c)
{
	struct sockaddr_in addr;
	int one = 1;
	int l = tcp_listen(&addr, 1), a, s;

	if (l < 0)
		return -1;
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || bind_next(s) || connect(s, (struct sockaddr *)&addr, sizeof(addr))) {
		kb_fail_errno("connect to 127.0.0.1");
		goto fail;
	}
	a = accept(l, NULL, NULL);
	if (a < 0) {
		kb_fail_errno("accept");
		goto fail;
	}
	close(l);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->prd = c->pwr = s;
	c->crd = c->cwr = a;
	return 0;
fail:
	if (s >= 0)
		close(s);
	close(l);
	return -1;
}

static int chan_open(struct chan *c, long kind)
{
	static int (*const open_fn[])(struct chan *) = { chan_pipe, chan_unix, chan_tcp };

	c->prd = c->pwr = c->crd = c->cwr = -1;
	return open_fn[kind](c);
}

/* Fork a child that runs fn on its ends of c; the parent keeps its ends. */
static pid_t chan_fork(struct chan *c, void (*fn)(struct chan *c, long arg), long arg)
{
	pid_t pid = fork();

	if (pid < 0) {
		kb_fail_errno("fork");
		return -1;
	}
	/* The two sides' descriptors are never the same ones. */
	if (!pid) {
		close(c->prd);
		if (c->pwr != c->prd)
			close(c->pwr);
		fn(c, arg);
		_exit(0);
	}
	close(c->crd);
	if (c->cwr != c->crd)
		close(c->cwr);
	c->crd = c->cwr = -1;
	return pid;
}

static void echo(struct chan *c, long arg)
{
	char byte;

	(void)arg;
	while (kb_read_full(c->crd, &byte, 1) == 0)
		if (kb_write_full(c->cwr, &byte, 1))
			break;
}

static int latency(const struct bench *b, long n, double *out)
{
	struct chan c;
	double t0;
	char byte = 'k';
	pid_t pid;
	int ret = 0;

	ports_for(b, b->arg2 + 999);
	if (chan_open(&c, b->arg1))
		return -1;
	pid = chan_fork(&c, echo, 0);
	if (pid < 0) {
		chan_close(&c);
		return -1;
	}
	t0 = kb_sample_begin();
	for (long i = 0; i < n && !ret; i++)
		if (kb_write_full(c.pwr, &byte, 1) || kb_read_full(c.prd, &byte, 1))
			ret = kb_fail_errno("round trip");
	*out = (kb_sample_end(n) - t0) / n;
	chan_close(&c);
	if (ret) {
		kb_kill(pid);
		return ret;
	}
	return kb_wait_ok(pid, "echo child");
}

static void sink(struct chan *c, long total)
{
	char *buf = malloc(BW_CHUNK);
	long got = 0;

	if (!buf)
		_exit(1);
	while (got < total) {
		ssize_t n = read(c->crd, buf, BW_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);
		got += n;
	}
	/* One byte back: the parent's clock stops when all arrived. */
	if (kb_write_full(c->cwr, "k", 1))
		_exit(1);
}

/* MB/s (2^20 bytes) from the parent to a child that reads it all. */
static int bandwidth(const struct bench *b, long n, double *out)
{
	long total = n * (long)BW_CHUNK;
	char *buf = malloc(BW_CHUNK);
	struct chan c;
	double t0, mb;
	char byte;
	pid_t pid;
	int ret = 0;

	if (!buf)
		return kb_fail("out of memory");
	memset(buf, 'k', BW_CHUNK);
	ports_for(b, b->arg2 + 999);
	if (chan_open(&c, b->arg1)) {
		free(buf);
		return -1;
	}
	pid = chan_fork(&c, sink, total);
	if (pid < 0) {
		free(buf);
		chan_close(&c);
		return -1;
	}
	t0 = kb_sample_begin();
	for (long i = 0; i < n && !ret; i++)
		if (kb_write_full(c.pwr, buf, BW_CHUNK))
			ret = kb_fail_errno("write");
	if (!ret && kb_read_full(c.prd, &byte, 1))
		ret = kb_fail_errno("reading the reader's acknowledgement");
	mb = total / (double)(1 << 20);
	*out = mb / ((kb_sample_end(mb) - t0) / 1e6);
	free(buf);
	chan_close(&c);
	if (ret) {
		kb_kill(pid);
		return ret;
	}
	return kb_wait_ok(pid, "reading child");
}

/*
 * A new TCP connection over loopback: connect (the handshake completes
 * inside the call), accept, and close both ends, the client's with a reset
 * (SO_LINGER 0).  One process: a server process would run wherever the
 * tick preempts the client, a little earlier or later in two kernels whose
 * instruction counts differ by a few.  The reset: an orderly close leaves
 * one socket per connection in TIME_WAIT, thousands per row in the
 * established hash, whose buckets follow the kernel's random secret; two
 * kernels with the same code would walk other chains (issue 24).
 */
static int tcp_connect(const struct bench *b, long n, double *out)
{
	struct linger reset = { 1, 0 };
	struct sockaddr_in addr;
	double t0;
	int l, ret = 0;

	ports_for(b, 65535);
	l = tcp_listen(&addr, 16);
	if (l < 0)
		return -1;
	t0 = kb_sample_begin();
	for (long i = 0; i < n && !ret; i++) {
		int s = socket(AF_INET, SOCK_STREAM, 0), a = -1;

		if (s < 0 || bind_next(s) || connect(s, (struct sockaddr *)&addr, sizeof(addr)))
			ret = kb_fail_errno("connect to 127.0.0.1");
		else if ((a = accept(l, NULL, NULL)) < 0)
			ret = kb_fail_errno("accept");
		if (s >= 0) {
			setsockopt(s, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
			close(s);
		}
		if (a >= 0)
			close(a);
	}
	*out = (kb_sample_end(n) - t0) / n;
	close(l);
	return ret;
}

enum { PIPE, UNIX, TCP };

/* The rows: rows.h. */
const struct bench kb_ipc[] = {
	KB_ROWS_IPC(KB_BENCH)
	KB_BENCH_END
};
