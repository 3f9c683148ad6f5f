// SPDX-License-Identifier: GPL-2.0
/*
 * Context switches: a ring of processes passes a token through pipes;
 * each one sums its own array of the given size before passing it on, so
 * the switch also has to bring that working set back.  The figure is the
 * time per hand-over, the pipe transfer included.  Where the scheduler's
 * tick falls moves a short sample by several percent, so even the quick
 * samples of the bigger rings span many ticks.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile long ctx_sink;

static void touch(const long *mem, size_t words)
{
	long sum = 0;

	for (size_t i = 0; i < words; i++)
		sum += mem[i];
	ctx_sink = sum;
}

/* Member i of the ring: read the token, work, pass it on, until EOF. */
static void member(int rd, int wr, size_t words)
{
	long *mem = words ? calloc(words, sizeof(long)) : NULL;
	char token;

	if (words && !mem)
		_exit(1);
	while (kb_read_full(rd, &token, 1) == 0) {
		touch(mem, words);
		if (kb_write_full(wr, &token, 1))
			break;
	}
	_exit(0);
}

static void close_pipes(int (*fds)[2], int from, int to)
{
	for (int i = from; i < to; i++) {
		if (fds[i][0] >= 0)
			close(fds[i][0]);
		if (fds[i][1] >= 0)
			close(fds[i][1]);
		fds[i][0] = fds[i][1] = -1;
	}
}

/* Pipe i feeds member i; the parent is member 0. */
static int start_ring(int (*fds)[2], pid_t *pids, int procs, size_t words)
{
	for (int i = 0; i < procs; i++) {
		if (pipe(fds[i])) {
			close_pipes(fds, 0, i);
			return kb_fail_errno("pipe");
		}
	}
	for (int i = 1; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return kb_fail_errno("fork");
		if (!pids[i]) {
			int rd = fds[i][0], wr = fds[(i + 1) % procs][1];

			for (int j = 0; j < procs; j++) {
				if (fds[j][0] != rd)
					close(fds[j][0]);
				if (fds[j][1] != wr)
					close(fds[j][1]);
			}
			member(rd, wr, words);
		}
	}
	return 0;
}

static int ring(const struct bench *b, long rounds, double *out)
{
	int procs = (int)b->arg1;
	size_t words = (size_t)b->arg2 * 1024 / sizeof(long);
	int (*fds)[2] = calloc((size_t)procs, sizeof(*fds));
	pid_t *pids = calloc((size_t)procs, sizeof(*pids));
	long *mem = words ? calloc(words, sizeof(long)) : NULL;
	char token = 'k';
	double t0;
	int ret;

	if (!fds || !pids || (words && !mem)) {
		ret = kb_fail("out of memory");
		goto out;
	}
	ret = start_ring(fds, pids, procs, words);
	if (ret)
		goto stop;
	t0 = kb_sample_begin();
	for (long r = 0; r < rounds && !ret; r++) {
		if (kb_write_full(fds[1 % procs][1], &token, 1) ||
		    kb_read_full(fds[0][0], &token, 1))
			ret = kb_fail_errno("passing the token");
		touch(mem, words);
	}
	*out = (kb_sample_end((double)rounds * procs) - t0) / ((double)rounds * procs);
stop:
	/* EOF ends every member; one that failed is killed instead. */
	close_pipes(fds, 0, procs);
	for (int i = 1; i < procs; i++) {
		if (pids[i] <= 0)
			continue;
		if (ret)
			kb_kill(pids[i]);
		else
			ret = kb_wait_ok(pids[i], "ring member");
	}
out:
	free(fds);
	free(pids);
	free(mem);
	return ret;
}

/* The rows: rows.h. */
const struct bench kb_ctx[] = {
	KB_ROWS_CTX(KB_BENCH)
	KB_BENCH_END
};
