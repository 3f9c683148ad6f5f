// SPDX-License-Identifier: GPL-2.0
/*
 * lavacli's identity file (identity.h), read line by line: it is a
 * two-level mapping of short scalars, which is all PyYAML writes for it
 * (lavacli's yaml.safe_dump with default_flow_style=False), plus the flow
 * form and quoting people write by hand.  Only the wanted identity is
 * read strictly; the others are skipped whatever they hold, so a key that
 * another tool keeps in the same file refuses nothing.  No message ever
 * quotes a value: a bad line is named by its number.
 */
#include "identity.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IDENTITY_MAX_SIZE (1 << 20)

enum { K_URI, K_USERNAME, K_TOKEN, K_NR };
static const char *const key_names[K_NR] = { "uri", "username", "token" };

struct reader {
	const char *file;
	const char *want;		/* the identity's name */
	unsigned long line;		/* of the line being read */
	const char *err;		/* why the line cannot be read */
	int in_want;			/* reading the wanted identity's lines */
	unsigned long found;		/* the line of its name, 0: not yet */
	int child_indent;		/* of its keys; -1: none read yet */
	int last_key;			/* its key whose value may go on (plain), or -1 */
	int skip_deeper;		/* the last key's value is not ours (unknown key) */
	char *val[K_NR];
	unsigned long val_line[K_NR];
};

/* A double-quoted escape: YAML's are JSON's and a few more. */
static int unescape(const char **p, const char *end, struct strbuf *out)
{
	static const char from[] = "\"\\/bfnrt0 ae", to[] = "\"\\/\b\f\n\r\t\0 \a\x1b";
	const char *e;
	unsigned long cp;
	int n;
	char hex[9], *stop;

	if (*p >= end)
		return -1;
	e = memchr(from, **p, sizeof(from) - 1);
	if (e) {
		strbuf_addch(out, to[e - from]);
		(*p)++;
		return 0;
	}
	n = **p == 'x' ? 2 : **p == 'u' ? 4 : **p == 'U' ? 8 : 0;
	if (!n || end - *p <= n)
		return -1;
	memcpy(hex, *p + 1, (size_t)n);
	hex[n] = '\0';
	cp = strtoul(hex, &stop, 16);
	if (*stop || cp > 0x10ffff)
		return -1;
	*p += n + 1;
	if (cp < 0x80) {
		strbuf_addch(out, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(out, (int)(0xc0 | cp >> 6));
		strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(out, (int)(0xe0 | cp >> 12));
		strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(out, (int)(0xf0 | cp >> 18));
		strbuf_addch(out, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	}
	return 0;
}

static int quoted(const char **p, const char *end, struct strbuf *out, const char **err)
{
	char q = *(*p)++;

	while (*p < end) {
		char c = *(*p)++;

		if (c == q && q == '\'' && *p < end && **p == '\'') {
			strbuf_addch(out, '\'');
			(*p)++;
		} else if (c == q) {
			return 0;
		} else if (c == '\\' && q == '"') {
			if (unescape(p, end, out)) {
				*err = "bad escape in a double-quoted string";
				return -1;
			}
		} else {
			strbuf_addch(out, c);
		}
	}
	*err = "unterminated quoted string (one line only)";
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* What a plain scalar cannot start with here: YAML we do not read. */
static const char *bad_start(const char *p, const char *end)
{
	if (strchr("&*!|>%@`", *p))
		return "anchors, aliases, tags and block scalars (| >) are not read here";
	if (*p == '[' || (*p == '-' && (p + 1 == end || is_blank(p[1]))))
		return "a sequence where a scalar was expected";
	if (*p == '{')
		return "a nested mapping where a scalar was expected";
	return NULL;
}

/*
 * A plain scalar from *p: to the end (a comment cut), in flow context also
 * to a ',' or '}'.  Trailing blanks dropped.
 */
static void plain(const char **p, const char *end, int flow, struct strbuf *out)
{
	const char *s = *p, *e = s;

	while (e < end && !(flow && (*e == ',' || *e == '}')) &&
	       !(*e == '#' && e > s && is_blank(e[-1])))
		e++;
	*p = e;
	while (e > s && is_blank(e[-1]))
		e--;
	strbuf_add(out, s, (size_t)(e - s));
}

/*
 * A scalar from *p (blanks before it skipped): quoted or plain.  After a
 * quoted one only blanks, a comment or (flow) ',' / '}' may follow.
 * *is_plain says which it was.
 */
static int scalar(const char **p, const char *end, int flow, struct strbuf *out,
		  int *is_plain, const char **err)
{
	*p = skip_blanks(*p, end);
	*is_plain = 0;
	if (*p < end && (**p == '"' || **p == '\'')) {
		if (quoted(p, end, out, err))
			return -1;
		*p = skip_blanks(*p, end);
		if (*p < end && **p != '#' && !(flow && (**p == ',' || **p == '}'))) {
			*err = "text after a quoted string";
			return -1;
		}
		if (*p < end && **p == '#')
			*p = end;
		return 0;
	}
	if (*p < end && (*err = bad_start(*p, end)))
		return -1;
	*is_plain = 1;
	plain(p, end, flow, out);
	return 0;
}

/* A YAML null (or nothing): the key is as good as absent. */
static int is_null(const char *s, int was_plain)
{
	return was_plain && (!*s || !strcmp(s, "~") || !strcmp(s, "null") ||
			     !strcmp(s, "Null") || !strcmp(s, "NULL"));
}

/*
 * A mapping key and its ':' from *p.  Plain keys end at the first ':'
 * followed by a blank, the end or (flow) ',' / '}'.
 */
static int key(const char **p, const char *end, int flow, struct strbuf *out,
	       const char **err)
{
	const char *s;

	*p = skip_blanks(*p, end);
	if (*p < end && (**p == '"' || **p == '\'')) {
		if (quoted(p, end, out, err))
			return -1;
		*p = skip_blanks(*p, end);
	} else {
		if (*p < end && (*err = bad_start(*p, end)))
			return -1;
		for (s = *p; *p < end; (*p)++) {
			if (**p == ':' && (*p + 1 == end || is_blank((*p)[1]) ||
					   (flow && ((*p)[1] == ',' || (*p)[1] == '}'))))
				break;
			if (**p == '#' && *p > s && is_blank((*p)[-1]))
				break;
		}
		strbuf_add(out, s, (size_t)(*p - s));
		while (out->len && is_blank(out->buf[out->len - 1]))
			strbuf_setlen(out, out->len - 1);
	}
	if (*p >= end || **p != ':' || !out->len) {
		*err = "expected 'key: value'";
		return -1;
	}
	(*p)++;
	return 0;
}

static int known_key(const char *k)
{
	int i;

	for (i = 0; i < K_NR; i++)
		if (!strcmp(k, key_names[i]))
			return i;
	return -1;
}

/* Keep the wanted identity's value of key k (absent if null). */
static int set_value(struct reader *r, int k, struct strbuf *v, int was_plain)
{
	if (r->val_line[k]) {
		r->err = NULL;
		return error("%s:%lu: '%s' given twice in identity '%s' (also line %lu)",
			     r->file, r->line, key_names[k], r->want, r->val_line[k]);
	}
	r->val_line[k] = r->line;
	if (!is_null(v->buf, was_plain))
		r->val[k] = strbuf_detach(v, NULL);
	return 0;
}

/* "{k: v, k: v}": the wanted identity's flow mapping, joined into one line. */
static int flow_mapping(struct reader *r, const char *p, const char *end)
{
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	int was_plain, n, ret = -1;

	p = skip_blanks(p + 1, end);
	while (p < end && *p != '}') {
		strbuf_reset(&k);
		strbuf_reset(&v);
		if (key(&p, end, 1, &k, &r->err) || scalar(&p, end, 1, &v, &was_plain, &r->err))
			goto out;
		n = known_key(k.buf);
		if (n >= 0 && set_value(r, n, &v, was_plain))
			goto out;
		p = skip_blanks(p, end);
		if (p < end && *p == ',')
			p = skip_blanks(p + 1, end);
		else if (p >= end || *p != '}')
			break;
	}
	if (p >= end || *p != '}') {
		r->err = "expected ',' or '}' in a flow mapping";
		goto out;
	}
	p = skip_blanks(p + 1, end);
	if (p < end && *p != '#') {
		r->err = "text after a flow mapping";
		goto out;
	}
	ret = 0;
out:
	explicit_bzero(v.buf, v.len);
	strbuf_release(&k);
	strbuf_release(&v);
	return ret;
}

/* A line of the wanted identity's block mapping, at its keys' indent. */
static int block_line(struct reader *r, const char *p, const char *end)
{
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	int was_plain, n, ret = -1;

	if (key(&p, end, 0, &k, &r->err))
		goto out;
	n = known_key(k.buf);
	r->last_key = -1;
	r->skip_deeper = n < 0;
	if (n < 0) {	/* someone else's key: its value is not read */
		ret = 0;
		goto out;
	}
	if (scalar(&p, end, 0, &v, &was_plain, &r->err) || set_value(r, n, &v, was_plain))
		goto out;
	if (was_plain)
		r->last_key = n;	/* a plain scalar may go on, indented, below */
	ret = 0;
out:
	explicit_bzero(v.buf, v.len);
	strbuf_release(&k);
	strbuf_release(&v);
	return ret;
}

/* Append line text to value k, folded with a blank (YAML's plain scalars). */
static void fold_into(struct reader *r, int k, const struct strbuf *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->val[k] && *r->val[k]) {
		strbuf_addstr(&sb, r->val[k]);
		strbuf_addch(&sb, ' ');
		explicit_bzero(r->val[k], strlen(r->val[k]));
	}
	free(r->val[k]);
	strbuf_add(&sb, v->buf, v->len);
	r->val[k] = strbuf_detach(&sb, NULL);
}

/* A line indented below a key: its plain scalar going on, or a value we skip. */
static int continuation(struct reader *r, const char *p, const char *end)
{
	struct strbuf v = STRBUF_INIT;
	const char *c;

	if (r->skip_deeper)
		return 0;
	if (r->last_key < 0) {
		r->err = "unexpected indentation";
		return -1;
	}
	if ((r->err = bad_start(p, end)))
		return -1;
	for (c = p; c < end && *c != '#'; c++)
		if (*c == ':' && (c + 1 == end || is_blank(c[1]))) {
			r->err = "a nested mapping where a scalar was expected";
			return -1;
		}
	plain(&p, end, 0, &v);
	fold_into(r, r->last_key, &v);
	explicit_bzero(v.buf, v.len);
	strbuf_release(&v);
	return 0;
}

/*
 * A flow mapping from *pos (its '{') to its '}', over as many lines as it
 * takes, joined with blanks and comments dropped; *pos goes to the end of
 * its last line.  Quoted strings stay on one line.
 */
static int gather(struct reader *r, const char **pos, const char *bufend, struct strbuf *out)
{
	const char *p = *pos;
	unsigned long first = r->line;
	int depth = 0;
	char q = 0;

	for (; p < bufend; p++) {
		char c = *p;

		if (c == '\r' && (p + 1 == bufend || p[1] == '\n'))
			continue;
		if (c == '\n') {
			if (q) {
				r->err = "unterminated quoted string (one line only)";
				return -1;
			}
			if (depth == 0)
				break;
			r->line++;
			strbuf_addch(out, ' ');
			while (p + 1 < bufend && is_blank(p[1]))
				p++;
			continue;
		}
		if (q) {
			if (c == '\\' && q == '"' && p + 1 < bufend && p[1] != '\n')
				strbuf_addch(out, *p++);
			else if (c == q)
				q = 0;
		} else if (c == '"' || c == '\'') {
			q = c;
		} else if (c == '#' && out->len && is_blank(out->buf[out->len - 1])) {
			while (p + 1 < bufend && p[1] != '\n')
				p++;
			continue;
		} else if (c == '{') {
			depth++;
		} else if (c == '}') {
			depth--;
		}
		strbuf_addch(out, c);
	}
	if (depth > 0 || q) {
		r->err = q ? "unterminated quoted string (one line only)" : "unterminated flow mapping";
		r->line = q ? r->line : first;	/* where it opened */
		return -1;
	}
	*pos = p < bufend ? p + 1 : bufend;
	return 0;
}

/* A line that is "---" or "..." (document markers). */
static int marker(const char *p, const char *end, const char *m)
{
	return end - p >= 3 && !memcmp(p, m, 3) && (end - p == 3 || is_blank(p[3]));
}

/*
 * A top-level line: an identity's name and, on the same line, nothing, a
 * null, or its flow mapping (which may take the following lines: *pos).
 */
static int top_line(struct reader *r, const char *p, const char *end, const char **pos,
		    const char *bufend)
{
	struct strbuf k = STRBUF_INIT, flow = STRBUF_INIT, v = STRBUF_INIT;
	int was_plain, ret = -1;

	if (key(&p, end, 0, &k, &r->err))
		goto out;
	r->in_want = !strcmp(k.buf, r->want);
	if (r->in_want && r->found) {
		r->err = NULL;
		error("%s:%lu: identity '%s' given twice (also line %lu)", r->file, r->line,
		      r->want, r->found);
		goto out;
	}
	if (r->in_want) {
		r->found = r->line;
		r->child_indent = -1;
		r->last_key = -1;
	}
	r->skip_deeper = 0;
	p = skip_blanks(p, end);
	if (p < end && *p == '{') {
		*pos = p;
		if (gather(r, pos, bufend, &flow))
			goto out;
		if (r->in_want && flow_mapping(r, flow.buf, flow.buf + flow.len))
			goto out;
		r->child_indent = 0;	/* no indented line may follow */
	} else if (r->in_want && p < end && *p != '#') {
		if (scalar(&p, end, 0, &v, &was_plain, &r->err))
			goto out;
		if (!is_null(v.buf, was_plain)) {
			r->err = "an identity is a mapping (uri, username, token), not a scalar";
			goto out;
		}
		r->child_indent = 0;
	}
	ret = 0;
out:
	explicit_bzero(flow.buf, flow.len);
	explicit_bzero(v.buf, v.len);
	strbuf_release(&k);
	strbuf_release(&flow);
	strbuf_release(&v);
	return ret;
}

/* An indented line: the wanted identity's key, a value going on, or skipped. */
static int inner_line(struct reader *r, int indent, const char *p, const char *end)
{
	if (!r->in_want)
		return 0;
	if (r->child_indent < 0)
		r->child_indent = indent;
	if (r->child_indent == 0 || indent < r->child_indent) {
		r->err = "unexpected indentation";
		return -1;
	}
	if (indent == r->child_indent)
		return block_line(r, p, end);
	return continuation(r, p, end);
}

static int parse(struct reader *r, const char *buf, size_t len)
{
	const char *pos = buf, *bufend = buf + len;
	int keys = 0;

	while (pos < bufend) {
		const char *line = pos, *p = pos, *end = memchr(pos, '\n', (size_t)(bufend - pos));
		int indent;

		end = end ? end : bufend;
		pos = end < bufend ? end + 1 : bufend;
		r->line++;
		if (end > p && end[-1] == '\r')
			end--;
		while (p < end && *p == ' ')
			p++;
		indent = (int)(p - line);
		if (p < end && *p == '\t') {
			r->err = "a tab in the indentation";
			goto bad;
		}
		if (p == end || *p == '#')
			continue;
		if (indent == 0 && marker(p, end, "..."))
			break;
		if (indent == 0 && (marker(p, end, "---") || *p == '%')) {
			if (keys) {
				r->err = "a second YAML document";
				goto bad;
			}
			continue;
		}
		if (indent == 0) {
			keys++;
			if (top_line(r, p, end, &pos, bufend))
				goto bad;
			continue;
		}
		if (!keys) {
			r->err = "an indented line before any identity";
			goto bad;
		}
		if (inner_line(r, indent, p, end))
			goto bad;
	}
	return 0;
bad:
	if (r->err)
		error("%s:%lu: %s", r->file, r->line, r->err);
	return -1;
}

/* $XDG_CONFIG_HOME/lavacli.yaml, else ~/.config/lavacli.yaml (lavacli's choice). */
static char *default_file(void)
{
	const char *dir = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;
	struct passwd *pw;

	if (dir && *dir) {
		strbuf_addf(&sb, "%s/lavacli.yaml", dir);
		return strbuf_detach(&sb, NULL);
	}
	if (!home || !*home) {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home) {
		error("no home directory to find ~/.config/lavacli.yaml in (set HOME or XDG_CONFIG_HOME)");
		return NULL;
	}
	strbuf_addf(&sb, "%s/.config/lavacli.yaml", home);
	return strbuf_detach(&sb, NULL);
}

/*
 * The file's text, if only its owner may read or write it (as ssh
 * wants of its keys): a token others can read is a token others have.
 * The mode is the open file's, so the file checked is the file read.
 */
static int read_private(const char *file, struct strbuf *text)
{
	struct stat st;
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		if (errno == ENOENT)
			return error("no identity file %s (lavacli identities add writes one)", file);
		return error_errno("cannot open identity file %s", file);
	}
	if (fstat(fd, &st)) {
		error_errno("cannot stat identity file %s", file);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		error("identity file %s is not a regular file", file);
		goto fail;
	}
	if (st.st_mode & (S_IRGRP | S_IROTH)) {
		error("identity file %s is readable by others: chmod 600 %s", file, file);
		goto fail;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		error("identity file %s is writable by others: chmod 600 %s", file, file);
		goto fail;
	}
	if (st.st_size > IDENTITY_MAX_SIZE) {
		error("identity file %s is too big (%lld bytes) to be lavacli's", file,
		      (long long)st.st_size);
		goto fail;
	}
	if (strbuf_read_fd(text, fd)) {
		error_errno("cannot read identity file %s", file);
		goto fail;
	}
	close(fd);
	return 0;
fail:
	close(fd);
	return -1;
}

static int unhex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* s[0..n) with %XX decoded (a URL's user information). */
static char *pct_decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && unhex(s[i + 1]) >= 0 && unhex(s[i + 2]) >= 0) {
			*o++ = (char)(unhex(s[i + 1]) << 4 | unhex(s[i + 2]));
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/*
 * lavacli's "https://USER:TOKEN@host/RPC2": user and token go where their
 * keys did not, and out of the uri, which is then safe to print.
 */
static void split_userinfo(struct reader *r)
{
	char *uri = r->val[K_URI], *auth, *at = NULL, *colon, *s;
	struct strbuf sb = STRBUF_INIT;

	if (!uri || !(auth = strstr(uri, "://")))
		return;
	auth += 3;
	for (s = auth; *s && *s != '/' && *s != '?' && *s != '#'; s++)
		if (*s == '@')
			at = s;
	if (!at)
		return;
	colon = memchr(auth, ':', (size_t)(at - auth));
	if (!r->val[K_USERNAME] && (colon ? colon : at) > auth)
		r->val[K_USERNAME] = pct_decode(auth, (size_t)((colon ? colon : at) - auth));
	if (!r->val[K_TOKEN] && colon && at > colon + 1)
		r->val[K_TOKEN] = pct_decode(colon + 1, (size_t)(at - colon - 1));
	strbuf_add(&sb, uri, (size_t)(auth - uri));
	strbuf_addstr(&sb, at + 1);
	explicit_bzero(uri, strlen(uri));
	free(uri);
	r->val[K_URI] = strbuf_detach(&sb, NULL);
}

/* A token goes into an HTTP header: visible ASCII only, so no header can be forged. */
static int token_ok(const char *t)
{
	for (; *t; t++)
		if ((unsigned char)*t <= ' ' || (unsigned char)*t >= 0x7f)
			return 0;
	return 1;
}

static int check(struct reader *r)
{
	const char *uri = r->val[K_URI];

	if (!r->found)
		return error("no identity '%s' in %s", r->want, r->file);
	split_userinfo(r);
	uri = r->val[K_URI];
	if (!uri || !*uri)
		return error("identity '%s' in %s has no uri", r->want, r->file);
	if (strncmp(uri, "http://", 7) && strncmp(uri, "https://", 8))
		return error("the uri of identity '%s' in %s is not http:// or https://", r->want,
			     r->file);
	if (!r->val[K_TOKEN] || !*r->val[K_TOKEN])
		return error("identity '%s' in %s has no token (lavacli identities add --token)",
			     r->want, r->file);
	if (!token_ok(r->val[K_TOKEN]))
		return error("the token of identity '%s' in %s has a blank or a character that "
			     "cannot go in an HTTP header", r->want, r->file);
	return 0;
}

static void wipe_free(char *s)
{
	if (s)
		explicit_bzero(s, strlen(s));
	free(s);
}

int lava_identity_load(struct lava_identity *id, const char *file, const char *name)
{
	struct reader r = { 0 };
	struct strbuf text = STRBUF_INIT;
	char *path = file ? xstrdup(file) : default_file();
	size_t skip;
	int i, ret = -1;

	memset(id, 0, sizeof(*id));
	if (!path)
		return -1;
	r.file = path;
	r.want = name ? name : "default";
	r.child_indent = -1;
	r.last_key = -1;
	if (read_private(path, &text))
		goto out;
	skip = text.len >= 3 && !memcmp(text.buf, "\xef\xbb\xbf", 3) ? 3 : 0;	/* a BOM */
	if (parse(&r, text.buf + skip, text.len - skip) || check(&r))
		goto out;
	id->name = xstrdup(r.want);
	id->uri = r.val[K_URI];
	id->username = r.val[K_USERNAME];
	id->token = r.val[K_TOKEN];
	memset(r.val, 0, sizeof(r.val));
	ret = 0;
out:
	for (i = 0; i < K_NR; i++)
		wipe_free(r.val[i]);
	explicit_bzero(text.buf, text.len);
	strbuf_release(&text);
	free(path);
	return ret;
}

void lava_identity_release(struct lava_identity *id)
{
	free(id->name);
	free(id->uri);
	free(id->username);
	wipe_free(id->token);
	memset(id, 0, sizeof(*id));
}
