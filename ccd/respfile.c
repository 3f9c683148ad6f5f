// SPDX-License-Identifier: GPL-2.0
#include "respfile.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* libiberty gives up after this many expansions (a file including itself). */
#define MAX_EXPANSIONS 2000

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

void respfile_split(struct strvec *out, const char *text, size_t len)
{
	struct strbuf word = STRBUF_INIT;
	size_t i = 0;

	while (i < len) {
		char quote = 0;

		while (i < len && is_blank(text[i]))
			i++;
		if (i >= len)
			break;
		strbuf_reset(&word);
		strbuf_addstr(&word, "");
		for (; i < len; i++) {
			char c = text[i];

			if (!quote && is_blank(c))
				break;
			if (c == '\\' && i + 1 < len) {
				strbuf_addch(&word, text[++i]);
			} else if (quote) {
				if (c == quote)
					quote = 0;
				else
					strbuf_addch(&word, c);
			} else if (c == '\'' || c == '"') {
				quote = c;
			} else {
				strbuf_addch(&word, c);
			}
		}
		strvec_push(out, word.buf);
	}
	strbuf_release(&word);
}

/* Read a regular file; -1 when gcc would leave the @name literal. */
static int read_file(const char *path, struct strbuf *sb)
{
	char buf[8192];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* libiberty skips directories: "@dir" stays an argument. */
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		if (!n)
			break;
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

static int expand(struct strvec *out, int argc, char *const *argv, int *budget)
{
	for (int i = 0; i < argc; i++) {
		struct strbuf text = STRBUF_INIT;
		struct strvec words = STRVEC_INIT;
		int ret;

		if (argv[i][0] != '@' || read_file(argv[i] + 1, &text)) {
			strvec_push(out, argv[i]);
			strbuf_release(&text);
			continue;
		}
		if (--*budget < 0) {
			strbuf_release(&text);
			return error("%s: too many nested response files", argv[i] + 1);
		}
		respfile_split(&words, text.buf ? text.buf : "", text.len);
		ret = expand(out, (int)words.nr, strvec_argv(&words), budget);
		strvec_clear(&words);
		strbuf_release(&text);
		if (ret)
			return ret;
	}
	return 0;
}

int respfile_expand(struct strvec *out, int argc, char *const *argv)
{
	int budget = MAX_EXPANSIONS;

	return expand(out, argc, argv, &budget);
}
