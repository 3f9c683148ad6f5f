// SPDX-License-Identifier: GPL-2.0
/* Writing a file whole or not at all (atomic-file.h). */
#include "atomic-file.h"
#include "fileio.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_create(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	struct strbuf sb = STRBUF_INIT;
	int fd;

	if (slash)
		strbuf_add(&sb, path, (size_t)(slash - path + 1));
	strbuf_addf(&sb, ".%s.XXXXXX", slash ? slash + 1 : path);
	*tmp = strbuf_detach(&sb, NULL);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot create a file beside %s", path);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	tempfile_register(*tmp);
	return fd;
}

int atomic_commit(int fd, char *tmp, const char *path, int failed)
{
	if (!failed && fchmod(fd, 0644))
		failed = error_errno("cannot write %s", path);
	if (close(fd) && !failed)
		failed = error_errno("cannot write %s", path);
	if (!failed && rename(tmp, path))
		failed = error_errno("cannot rename %s to %s", tmp, path);
	if (failed)
		tempfile_remove(tmp);
	else
		tempfile_forget(tmp);
	free(tmp);
	return failed ? -1 : 0;
}

int write_atomically(const char *path, const char *text, size_t len)
{
	char *tmp;
	int fd, failed = 0;

	if (!strcmp(path, "-")) {
		if (write_in_full(1, text, len))
			return error_errno("cannot write the standard output");
		return 0;
	}
	fd = atomic_create(path, &tmp);
	if (fd < 0)
		return -1;
	if (write_in_full(fd, text, len))
		failed = error_errno("cannot write %s", path);
	return atomic_commit(fd, tmp, path, failed);
}
