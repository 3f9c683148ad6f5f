/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A link order from a branch record (link-order.c): the functions the
 * record saw run, hottest clusters of callers and callees first, as the
 * symbol list lkd --lkd-order and ld.lld's --symbol-ordering-file take.
 */
#ifndef KBENCH_LINK_ORDER_H
#define KBENCH_LINK_ORDER_H

#include "branches.h"
#include "strbuf.h"
#include "symbols.h"

struct link_order_stats {
	size_t functions;	/* in the order */
	size_t clusters;
	uint64_t calls;		/* sampled calls between two functions */
};

/* Every function b ran, in order, onto names (one each). */
void link_order(const struct kb_branches *b, const struct kb_funcs *f, struct strvec *names,
		struct link_order_stats *st);

#endif
