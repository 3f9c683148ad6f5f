// SPDX-License-Identifier: GPL-2.0
/*
 * A lexer for GNU ld scripts that knows only structure: comments, quoted
 * strings, the punctuation that delimits commands and words.  Expressions
 * are not parsed; the output section is recognised by its shape (a name,
 * then up to its '{' a ':' and no ';' or '=').
 */
#include "ldscript.h"

#include <string.h>

enum tok_kind { T_END, T_WORD, T_STRING, T_PUNCT };

struct token {
	enum tok_kind kind;
	size_t start, end;	/* text[start, end) */
};

struct lexer {
	const char *s;
	size_t len, pos;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_punct(char c)
{
	return c && strchr("{}();:,=", c);
}

static int comment_at(const struct lexer *lx, size_t i)
{
	return i + 1 < lx->len && lx->s[i] == '/' && lx->s[i + 1] == '*';
}

static void lex_next(struct lexer *lx, struct token *t)
{
	const char *s = lx->s;

	for (;;) {
		while (lx->pos < lx->len && is_blank(s[lx->pos]))
			lx->pos++;
		if (!comment_at(lx, lx->pos))
			break;
		/* An unterminated comment runs to the end, as ld would fail on it. */
		lx->pos += 2;
		while (lx->pos < lx->len && !(s[lx->pos] == '*' && lx->pos + 1 < lx->len &&
					      s[lx->pos + 1] == '/'))
			lx->pos++;
		lx->pos = lx->pos < lx->len ? lx->pos + 2 : lx->len;
	}
	t->start = lx->pos;
	if (lx->pos >= lx->len) {
		t->kind = T_END;
	} else if (s[lx->pos] == '"') {
		t->kind = T_STRING;
		lx->pos++;
		while (lx->pos < lx->len && s[lx->pos] != '"')
			lx->pos++;
		if (lx->pos < lx->len)
			lx->pos++;
	} else if (is_punct(s[lx->pos])) {
		t->kind = T_PUNCT;
		lx->pos++;
	} else {
		t->kind = T_WORD;
		while (lx->pos < lx->len && !is_blank(s[lx->pos]) && !is_punct(s[lx->pos]) &&
		       s[lx->pos] != '"' && !comment_at(lx, lx->pos))
			lx->pos++;
	}
	t->end = lx->pos;
}

static int tok_punct(const struct lexer *lx, const struct token *t, char c)
{
	return t->kind == T_PUNCT && lx->s[t->start] == c;
}

static int tok_word(const struct lexer *lx, const struct token *t, const char *w)
{
	size_t n = strlen(w);

	return t->kind == T_WORD && t->end - t->start == n && !memcmp(lx->s + t->start, w, n);
}

/*
 * A pattern that takes code in general: .text, or a wildcard of .text*
 * (.text.*, .text.hot.*).  One exact name (KEEP(*(.text.boot))) is a
 * section the script puts where it must be, before the rest.
 */
static int names_text(const struct lexer *lx, const struct token *t)
{
	size_t n = t->end - t->start;
	const char *w = lx->s + t->start;

	if (t->kind != T_WORD || n < 5 || memcmp(w, ".text", 5))
		return 0;
	if (n == 5)
		return 1;
	for (size_t i = 5; i < n; i++)
		if (w[i] == '*' || w[i] == '?' || w[i] == '[')
			return 1;
	return 0;
}

/*
 * Words before '(' in an output section that are not input section
 * descriptions: statements whose parentheses hold an expression.
 */
static int is_statement_word(const struct lexer *lx, const struct token *t)
{
	static const char *const words[] = {
		"PROVIDE", "PROVIDE_HIDDEN", "HIDDEN", "ASSERT", "FILL", "BYTE", "SHORT",
		"LONG", "QUAD", "SQUAD",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (tok_word(lx, t, words[i]))
			return 1;
	return 0;
}

/* Words whose parentheses qualify the description that follows. */
static int is_qualifier(const struct lexer *lx, const struct token *t)
{
	return tok_word(lx, t, "EXCLUDE_FILE") || tok_word(lx, t, "INPUT_SECTION_FLAGS");
}

/*
 * After an output section's name: the offset just past its '{', or -1 if
 * what follows is not an output section's header.
 */
static ssize_t section_body(struct lexer *lx)
{
	struct token t;
	int paren = 0, colon = 0;

	for (lex_next(lx, &t); t.kind != T_END; lex_next(lx, &t)) {
		if (tok_punct(lx, &t, '('))
			paren++;
		else if (tok_punct(lx, &t, ')'))
			paren -= paren > 0;
		else if (paren)
			continue;
		else if (tok_punct(lx, &t, ':'))
			colon = 1;
		else if (tok_punct(lx, &t, '{'))
			return colon ? (ssize_t)t.end : -1;
		else if (tok_punct(lx, &t, ';') || tok_punct(lx, &t, '}') || tok_punct(lx, &t, '='))
			return -1;
	}
	return -1;
}

/*
 * Inside the braces that start at body: the start of the first input
 * section description that takes code in general.  Items end at a ';' or
 * at the ')' that closes a description or statement; assignments (a '='
 * outside parentheses) run to their ';'.
 */
static size_t first_text_description(struct lexer *lx, size_t body)
{
	struct token t, prev = { T_END, 0, 0 }, group_word = { T_END, 0, 0 };
	size_t item = body;
	int paren = 0, braces = 0, assignment = 0, group_text = 0;

	for (lex_next(lx, &t); t.kind != T_END; prev = t, lex_next(lx, &t)) {
		if (paren) {
			if (tok_punct(lx, &t, '(')) {
				paren++;
			} else if (tok_punct(lx, &t, ')')) {
				if (--paren || assignment || is_qualifier(lx, &group_word))
					continue;
				if (group_text && !is_statement_word(lx, &group_word))
					return item;
				item = t.end;
			} else if (names_text(lx, &t)) {
				group_text = 1;
			}
		} else if (tok_punct(lx, &t, '(')) {
			paren = 1;
			group_word = prev;
			group_text = 0;
		} else if (tok_punct(lx, &t, ';')) {
			item = t.end;
			assignment = 0;
		} else if (tok_punct(lx, &t, '=')) {
			assignment = 1;
		} else if (tok_punct(lx, &t, '{')) {
			braces++;
		} else if (tok_punct(lx, &t, '}') && !braces--) {
			break;
		}
	}
	return body;
}

ssize_t ldscript_text_start(const char *text, size_t len)
{
	struct lexer lx = { text, len, 0 };
	struct token t, prev = { T_END, 0, 0 };
	int depth = 0, paren = 0, sections = -1;

	for (lex_next(&lx, &t); t.kind != T_END; prev = t, lex_next(&lx, &t)) {
		if (tok_punct(&lx, &t, '(')) {
			paren++;
		} else if (tok_punct(&lx, &t, ')')) {
			paren -= paren > 0;
		} else if (tok_punct(&lx, &t, '{')) {
			if (tok_word(&lx, &prev, "SECTIONS") && sections < 0)
				sections = depth + 1;
			depth++;
		} else if (tok_punct(&lx, &t, '}')) {
			depth -= depth > 0;
			if (depth < sections)
				sections = -1;
		} else if (depth == sections && !paren && tok_word(&lx, &t, ".text") &&
			   !tok_punct(&lx, &prev, ':') &&
			   !(prev.kind == T_WORD && text[prev.end - 1] == '>')) {
			/* A phdr (":text") or region (">text") is not a section name. */
			struct lexer body = lx;
			ssize_t at = section_body(&body);

			if (at >= 0)
				return (ssize_t)first_text_description(&body, (size_t)at);
		}
	}
	return -1;
}

static int separator_line(const char *line, size_t n)
{
	if (n < 20)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (line[i] != '=')
			return 0;
	return 1;
}

int ldscript_from_verbose(struct strbuf *script, const char *out, size_t len)
{
	const char *start = NULL;

	for (size_t i = 0; i < len;) {
		const char *nl = memchr(out + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (out + i)) : len - i;

		if (separator_line(out + i, n)) {
			if (start) {
				strbuf_add(script, start, (size_t)(out + i - start));
				return 0;
			}
			start = out + i + n + (nl != NULL);
		}
		i += n + 1;
	}
	return -1;
}
