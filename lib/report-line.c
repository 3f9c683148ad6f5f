// SPDX-License-Identifier: GPL-2.0
#include "report-line.h"
#include "fileio.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void append_report_line(const char *path, const char *what, const char *line, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0) {
		warning("cannot write the %s %s: %s", what, path, strerror(errno));
		return;
	}
	if (write_in_full(fd, line, len) || close(fd))
		warning("cannot write the %s %s: %s", what, path, strerror(errno));
}
