/* SPDX-License-Identifier: GPL-2.0 */
/* A vCPU's last-branch record and its samples (lbr.c). */
#ifndef KBENCH_MODEL_LBR_H
#define KBENCH_MODEL_LBR_H

#include <stddef.h>
#include <stdint.h>

/* As many branches as Intel's LBR keeps from Skylake on. */
#define LBR_ENTRIES 32
/* A sample's line at most: the IP and every entry, 2 addresses of 18 and 10 more. */
#define LBR_LINE_MAX (20 + LBR_ENTRIES * 48)

struct lbr {
	uint64_t from[LBR_ENTRIES], to[LBR_ENTRIES];
	unsigned head, n;
	uint64_t period, countdown, samples;
};

void lbr_init(struct lbr *r, uint64_t period);
/* A taken branch from -> to; 1 when it makes a sample. */
int lbr_branch(struct lbr *r, uint64_t from, uint64_t to);
/*
 * The record as one line of `perf script -F ip,brstack`: ip, then each
 * entry newest first.  Its length, or 0 if size is too small.
 */
size_t lbr_format(const struct lbr *r, uint64_t ip, char *buf, size_t size);

#endif
