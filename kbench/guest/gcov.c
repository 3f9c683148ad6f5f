// SPDX-License-Identifier: GPL-2.0
/*
 * Profile collection: the kernel's gcov counters (CONFIG_GCOV_KERNEL),
 * one file per instrumented object under debugfs's gcov/, mirroring the
 * object's absolute path in the build tree.  Each file goes out on the
 * console in base64 lines (protocol.h), with its size and an FNV-1a hash
 * so that the host keeps only files that arrived whole.
 */
#include "bench.h"
#include "protocol.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEBUGFS "/kbench-debugfs"
#define GCOV_ROOT DEBUGFS "/gcov"
/* Bytes per data line: 57 make 76 base64 characters. */
#define CHUNK 57

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void encode(const unsigned char *in, size_t len, char *out)
{
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = in[i] << 16 | (i + 1 < len ? in[i + 1] << 8 : 0) |
			     (i + 2 < len ? in[i + 2] : 0);

		*out++ = b64[v >> 18 & 63];
		*out++ = b64[v >> 12 & 63];
		*out++ = i + 1 < len ? b64[v >> 6 & 63] : '=';
		*out++ = i + 2 < len ? b64[v & 63] : '=';
	}
	*out = '\0';
}

/* The whole file; debugfs gcov files have no size in stat, so read to EOF. */
static unsigned char *slurp(const char *path, size_t *len)
{
	size_t alloc = 16384;
	unsigned char *buf = malloc(alloc);
	int fd = open(path, O_RDONLY);

	*len = 0;
	if (!buf || fd < 0)
		goto fail;
	for (;;) {
		ssize_t n;

		if (*len == alloc) {
			unsigned char *p = realloc(buf, alloc * 2);

			if (!p)
				goto fail;
			buf = p;
			alloc *= 2;
		}
		n = read(fd, buf + *len, alloc - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (!n)
			break;
		*len += (size_t)n;
	}
	close(fd);
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* rel: the path below gcov/ (the object's absolute path without '/'). */
static int send_file(const char *path, const char *rel)
{
	char line[CHUNK / 3 * 4 + 1];
	unsigned char *data;
	size_t len;

	data = slurp(path, &len);
	if (!data) {
		kb_line("kbench-guest: cannot read %s: %s", path, strerror(errno));
		return 0;
	}
	kb_line(KB_TAG_FILE " %zu %s", len, rel);
	for (size_t off = 0; off < len; off += CHUNK) {
		encode(data + off, len - off < CHUNK ? len - off : CHUNK, line);
		kb_line(KB_TAG_DATA " %s", line);
	}
	kb_line(KB_TAG_FILE_END " %08x", (unsigned)kb_fnv1a(data, len));
	free(data);
	return 1;
}

static int walk(const char *dir, size_t root_len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			continue;
		/* The .gcno entries are symlinks into the build tree: skipped. */
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			n += walk(path, root_len);
		else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(e->d_name + len - 5, ".gcda"))
			n += send_file(path, path + root_len + 1);
	}
	closedir(d);
	return n;
}

int kb_gcov_dump(void)
{
	mkdir(DEBUGFS, 0700);
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) && errno != EBUSY) {
		kb_line("kbench-guest: mount debugfs: %s", strerror(errno));
		return -1;
	}
	if (access(GCOV_ROOT, F_OK)) {
		kb_line("kbench-guest: no " GCOV_ROOT ": a kernel without CONFIG_GCOV_KERNEL");
		return -1;
	}
	return walk(GCOV_ROOT, strlen(GCOV_ROOT));
}
