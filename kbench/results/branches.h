/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The branch record a run keeps (kbench run --record-branches): the
 * plugin's samples, each the last taken branches of a vCPU into the
 * kernel, newest first (model/lbr.c), read and written in the formats the
 * profile tools read:
 *
 *   perf     `perf script -F ip,brstack` lines (llvm-profgen --perfscript),
 *            after one comment line of kbench's naming the kernel's build
 *            ID, the sampling period and the samples
 *   autofdo  autofdo's text profile (create_gcov, create_llvm_prof
 *            --profiler=text): the ranges run straight through between
 *            two branches, the sampled addresses and the branches, counted,
 *            each address less base (as autofdo's perf reader makes them)
 */
#ifndef KBENCH_BRANCHES_H
#define KBENCH_BRANCHES_H

#include <stddef.h>
#include <stdint.h>

struct kb_branch {
	uint64_t from, to;
};

struct kb_branches {
	char *build_id;		/* the kernel's, hex, or NULL (unknown) */
	char *kernel;		/* the image it was taken on, or NULL */
	unsigned long long period;
	/* autofdo's addresses count from where the binary's code maps its file */
	uint64_t base;
	size_t nr;		/* samples */
	uint64_t *ip;		/* each sample's address */
	size_t *first;		/* where each sample's branches begin in br; nr + 1 of them */
	struct kb_branch *br;	/* newest first within a sample */
	size_t nr_br, alloc_br, alloc;
};

void branches_init(struct kb_branches *b);
void branches_release(struct kb_branches *b);
/*
 * The sample lines of text (the plugin's, or a perf file's after its
 * comment lines) onto b; -1 after an error naming path and line.
 */
int branches_add_text(struct kb_branches *b, const char *path, const char *text);
/* A record file kbench wrote in the perf format; -1 after an error naming it. */
int branches_read(struct kb_branches *b, const char *path);
/* b to path atomically: "perf" or "autofdo"; -1 after an error. */
int branches_write(const struct kb_branches *b, const char *path, const char *format);
/* The format names branches_write knows: 1 if name is one. */
int branches_format_known(const char *name);

#endif
