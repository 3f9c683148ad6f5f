/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing path atomically: atomic_create() opens a temp file beside it
 * (removed on every exit path); atomic_commit() closes it and renames it
 * over path, or removes it when failed is set or anything goes wrong.
 * So no reader ever sees a partial file: a result, a chart, an archive.
 */
#ifndef KBENCH_ATOMIC_FILE_H
#define KBENCH_ATOMIC_FILE_H

#include <stddef.h>

int atomic_create(const char *path, char **tmp);
int atomic_commit(int fd, char *tmp, const char *path, int failed);
/* The whole of text to path that way; "-" is standard output. */
int write_atomically(const char *path, const char *text, size_t len);

#endif
