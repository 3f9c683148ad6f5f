// SPDX-License-Identifier: GPL-2.0
#include "respfile.h"
#include "warn.h"

#include <string.h>

static int is_word_sep(char c)
{
	return c && strchr(" \t\n\r\f\v", c);
}

/* Append the word starting at text[i] to word; returns where it ends. */
static size_t split_word(struct strbuf *word, const char *text, size_t i, size_t len)
{
	char quote = 0;

	for (; i < len && text[i]; i++) {
		char c = text[i];

		if (c == '\\') {
			/* A backslash at the very end escapes nothing and is dropped. */
			if (++i < len && text[i])
				strbuf_addch(word, text[i]);
			else
				break;
		} else if (quote) {
			if (c == quote)
				quote = 0;
			else
				strbuf_addch(word, c);
		} else if (is_word_sep(c)) {
			break;
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else {
			strbuf_addch(word, c);
		}
	}
	return i;
}

void respfile_split(struct strvec *out, const char *text, size_t len)
{
	struct strbuf word = STRBUF_INIT;
	size_t i = 0;

	for (;;) {
		while (i < len && is_word_sep(text[i]))
			i++;
		if (i >= len || !text[i])
			break;
		strbuf_reset(&word);
		i = split_word(&word, text, i, len);
		strvec_push(out, word.buf);
	}
	strbuf_release(&word);
}

static int expand_within(struct strvec *out, int argc, char *const *argv, int *budget)
{
	for (int i = 0; i < argc; i++) {
		struct strbuf text = STRBUF_INIT;
		struct strvec words = STRVEC_INIT;
		int ret;

		/* Unreadable (a directory reads as EISDIR): literal, as for gcc. */
		if (argv[i][0] != '@' || strbuf_read_file(&text, argv[i] + 1, 0)) {
			strvec_push(out, argv[i]);
			strbuf_release(&text);	/* a failed read may have grown it */
			continue;
		}
		if (--*budget < 0) {
			strbuf_release(&text);
			return error("%s: more than %d @files expanded (one includes itself?)",
				     argv[i] + 1, RESPFILE_MAX_EXPANSIONS);
		}
		respfile_split(&words, text.buf, text.len);
		strbuf_release(&text);
		ret = expand_within(out, (int)words.nr, strvec_argv(&words), budget);
		strvec_clear(&words);
		if (ret)
			return ret;
	}
	return 0;
}

int respfile_expand(struct strvec *out, int argc, char *const *argv)
{
	int budget = RESPFILE_MAX_EXPANSIONS;

	return expand_within(out, argc, argv, &budget);
}
