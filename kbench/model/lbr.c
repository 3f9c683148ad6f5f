// SPDX-License-Identifier: GPL-2.0
/*
 * The branch record: what a last-branch record (Intel's LBR) would hold,
 * kept for each vCPU from every taken branch the plugin sees.  Every
 * period-th branch recorded makes a sample: the record, newest first, as
 * `perf script -F ip,brstack` prints one, so that the tools which read
 * perf's branch samples read it as it is.  Counting branches, not time,
 * makes the same run give the same samples.
 */
#include "lbr.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void lbr_init(struct lbr *r, uint64_t period)
{
	memset(r, 0, sizeof(*r));
	r->period = period ? period : 1;
	r->countdown = r->period;
}

int lbr_branch(struct lbr *r, uint64_t from, uint64_t to)
{
	r->head = (r->head + 1) % LBR_ENTRIES;
	r->from[r->head] = from;
	r->to[r->head] = to;
	if (r->n < LBR_ENTRIES)
		r->n++;
	if (--r->countdown)
		return 0;
	r->countdown = r->period;
	r->samples++;
	return 1;
}

size_t lbr_format(const struct lbr *r, uint64_t ip, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, " %" PRIx64, ip);

	for (unsigned k = 0; k < r->n && n < size; k++) {
		unsigned i = (r->head + LBR_ENTRIES - k) % LBR_ENTRIES;

		n += (size_t)snprintf(buf + n, size - n, " 0x%" PRIx64 "/0x%" PRIx64 "/P/-/-/0",
				      r->from[i], r->to[i]);
	}
	if (n + 1 >= size)
		return 0;
	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}
