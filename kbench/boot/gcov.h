/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile files a kbench_gcov=1 guest sends (protocol.h), decoded and
 * checked as they come, and written out laid out for ccd's profile use:
 * the object's path relative to its build tree, '/' written '#'
 * (kernel/fork.gcda -> DIR/kernel#fork.gcda), which is where gcc looks
 * under -fprofile-use=DIR -fprofile-prefix-path=BUILD-TREE.
 */
#ifndef KBENCH_GCOV_H
#define KBENCH_GCOV_H

#include "strbuf.h"

struct gcov_file {
	char *path;		/* as the guest named it: absolute, without '/' */
	struct strbuf data;
};

struct gcov_set {
	struct gcov_file *files;
	size_t nr, alloc;
	struct gcov_file cur;	/* the file being received */
	size_t cur_size;
	int receiving, broken;	/* broken: a line of cur did not decode */
	int bad;		/* files that did not arrive whole */
	int announced;		/* KBENCH-GCOV files=N; -2: never said */
};

void gcov_init(struct gcov_set *g);
/* The protocol lines, rest being what follows the tag. */
void gcov_on_file(struct gcov_set *g, const char *rest);
void gcov_on_data(struct gcov_set *g, const char *rest);
void gcov_on_file_end(struct gcov_set *g, const char *rest);
void gcov_on_summary(struct gcov_set *g, const char *rest);
/*
 * Give every file the object summary the kernel leaves out (one run, the
 * largest arc counter of all files), without which gcc ignores a profile.
 */
void gcov_add_summaries(struct gcov_set *g);
/*
 * Write every file below objtree (an absolute path) into dir; files from
 * elsewhere are counted and skipped.  The number written, or -1 (error).
 */
int gcov_write(const struct gcov_set *g, const char *dir, const char *objtree);
void gcov_release(struct gcov_set *g);

#endif
