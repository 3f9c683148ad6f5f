// SPDX-License-Identifier: GPL-2.0
/* The statement parser: labels, prefixes, directives, operands, comments. */
#include "parse.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

#define I(c) [c] = 1
const unsigned char asmfix_ident_tab[256] = {
	['0' ... '9'] = 1, ['a' ... 'z'] = 1, ['A' ... 'Z'] = 1,
	I('_'), I('.'), I('$'),
};
#undef I

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

void asmfix_lexer_release(struct asm_lexer *lx)
{
	free(lx->scratch);
	lx->scratch = NULL;
	lx->scratch_alloc = 0;
}

int asmfix_str_has_prefix(struct asm_str s, const char *prefix)
{
	size_t n = strlen(prefix);
	return s.len >= n && !memcmp(s.p, prefix, n);
}

static struct asm_str asm_trim(struct asm_str s)
{
	while (s.len && is_space(*s.p))
		s.p++, s.len--;
	while (s.len && is_space(s.p[s.len - 1]))
		s.len--;
	return s;
}

/*
 * Copy the line to scratch with comments blanked.  Returns the length of
 * the code part (a comment truncates it: the target's comment string, or
 * '#' first on the line, which every GAS target takes for one; elsewhere
 * '#' is an immediate's prefix on arm and aarch64).
 */
static size_t clean_line(struct asm_lexer *lx, const char *s, size_t len)
{
	const char *cmt = lx->comment ? lx->comment : "#";
	char *d;
	size_t i, end = len, lead = 0;
	int in_str = 0;

	while (lead < len && (s[lead] == ' ' || s[lead] == '\t'))
		lead++;
	if (lead < len && s[lead] == '#' && !lx->in_comment)
		cmt = "#";

	if (lx->scratch_alloc < len + 1) {
		lx->scratch_alloc = len + 1 > 256 ? len + 1 : 256;
		free(lx->scratch);
		lx->scratch = xmalloc(lx->scratch_alloc);
	}
	d = lx->scratch;
	lx->bad_string = 0;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (lx->in_comment) {
			if (c == '*' && i + 1 < len && s[i + 1] == '/') {
				d[i++] = ' ';
				lx->in_comment = 0;
			}
			d[i] = ' ';
			continue;
		}
		d[i] = c;
		if (in_str) {
			if (c == '\\' && i + 1 < len)
				d[i + 1] = s[i + 1], i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == cmt[0] && (!cmt[1] || (i + 1 < len && s[i + 1] == cmt[1]))) {
			end = i;
			break;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			d[i] = d[i + 1] = ' ';
			i++;
			lx->in_comment = 1;
		} else if (c == '\'' && i + 1 < len) {
			/* GAS character constant: 'c or '\c */
			d[i + 1] = s[i + 1];
			i++;
			if (s[i] == '\\' && i + 1 < len)
				d[i + 1] = s[i + 1], i++;
		}
	}
	if (in_str)
		lx->bad_string = 1;
	d[end < len ? end : len] = 0;
	return end < len ? end : len;
}

void asmfix_skip_line(struct asm_lexer *lx, const char *s, size_t len)
{
	/* Fast when no comment is open and the line opens none. */
	if (!lx->in_comment && !memchr(s, '/', len))
		return;
	clean_line(lx, s, len);
}

static const char *const prefix_words[] = {
	"lock", "rep", "repe", "repz", "repne", "repnz", "data16", "data32",
	"addr16", "addr32", "notrack", "xacquire", "xrelease", "bnd", "rex",
	"rex64", "rex.w", "rex.W", NULL,
};

static int is_prefix_word(const char *p, size_t n)
{
	for (int i = 0; prefix_words[i]; i++)
		if (strlen(prefix_words[i]) == n && !memcmp(prefix_words[i], p, n))
			return 1;
	return 0;
}

/* Length of a label-name token at p (identifier or quoted), 0 if none. */
static size_t name_token(const char *p, const char *end)
{
	const char *q = p;
	if (q < end && *q == '"') {
		for (q++; q < end && *q != '"'; q++)
			if (*q == '\\' && q + 1 < end)
				q++;
		return q < end ? (size_t)(q + 1 - p) : 0;
	}
	while (q < end && asmfix_is_ident((unsigned char)*q))
		q++;
	return (size_t)(q - p);
}

static void split_ops(struct asm_stmt *st)
{
	const char *p = st->args.p, *end = p + st->args.len, *start = p;
	int depth = 0, in_str = 0;

	st->nops = 0;
	if (!st->args.len)
		return;
	for (; p <= end; p++) {
		if (p < end && in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (p < end && *p == '"') {
			in_str = 1;
		} else if (p < end && (*p == '(' || *p == '[')) {
			depth++;
		} else if (p < end && (*p == ')' || *p == ']')) {
			if (depth)
				depth--;
		} else if (p == end || (*p == ',' && !depth)) {
			if (st->nops < ASM_MAX_OPS) {
				struct asm_str o = { start, (size_t)(p - start) };
				st->ops[st->nops++] = asm_trim(o);
			} else {
				st->overflow = 1;
			}
			start = p + 1;
		}
	}
}

/* Parse one ';'-free statement [p, end). */
static void parse_stmt(const char *p, const char *end, struct asm_stmt *st,
		       struct asm_str *carry, int *ncarry)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < *ncarry; i++)
		st->prefixes[st->nprefixes++] = carry[i];
	*ncarry = 0;

	for (;;) {
		size_t n;
		while (p < end && is_space(*p))
			p++;
		n = name_token(p, end);
		if (n && p + n < end && p[n] == ':' &&
		    !(p + n + 1 < end && p[n + 1] == ':')) {
			if (st->nlabels < ASM_MAX_LABELS)
				st->labels[st->nlabels++] = (struct asm_str){ p, n };
			else
				st->overflow = 1;
			p += n + 1;
			continue;
		}
		if (!n || p == end)
			break;
		if (*p != '.' && *p != '"' && is_prefix_word(p, n) &&
		    (p + n == end || is_space(p[n]))) {
			if (st->nprefixes < ASM_MAX_PREFIXES)
				st->prefixes[st->nprefixes++] = (struct asm_str){ p, n };
			else
				st->overflow = 1;
			p += n;
			continue;
		}
		st->name = (struct asm_str){ p, n };
		st->kind = *p == '.' ? STMT_DIRECTIVE : STMT_INSN;
		p += n;
		break;
	}
	if (!st->name.len) {
		/* Prefix-only statement ("lock;"): applies to the next one. */
		for (int i = 0; i < st->nprefixes && *ncarry < ASM_MAX_PREFIXES; i++)
			carry[(*ncarry)++] = st->prefixes[i];
		if (st->nlabels)
			st->nprefixes = 0;
		if (p < end) {	/* something we cannot name: keep it as args */
			st->args = asm_trim((struct asm_str){ p, (size_t)(end - p) });
			if (st->args.len)
				st->kind = STMT_INSN;
		}
		return;
	}
	st->args = asm_trim((struct asm_str){ p, (size_t)(end - p) });
	split_ops(st);
}

int asmfix_parse_line(struct asm_lexer *lx, const char *line, size_t len,
		      struct asm_stmt *st, int max)
{
	size_t clen = clean_line(lx, line, len);
	const char *s = lx->scratch, *p = s, *end = s + clen, *start = s;
	struct asm_str carry[ASM_MAX_PREFIXES];
	int ncarry = 0, n = 0, in_str = 0;

	for (; p <= end; p++) {
		if (p < end && in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (p < end && *p == '"') {
			in_str = 1;
		} else if (p < end && *p == '\'' && p + 1 < end) {
			p++;
		} else if (p == end || *p == ';') {
			struct asm_stmt tmp, *t = n < max ? &st[n] : &tmp;
			parse_stmt(start, p, t, carry, &ncarry);
			/* Drop empty statements and pure prefixes. */
			if (t->nlabels || t->kind != STMT_NONE)
				n++;
			start = p + 1;
		}
	}
	return n;
}

long asmfix_numeric_label(struct asm_str s)
{
	long v = 0;
	if (!s.len || s.len > 9)
		return -1;
	for (size_t i = 0; i < s.len; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return -1;
		v = v * 10 + (s.p[i] - '0');
	}
	return v;
}

void asmfix_for_each_ref(struct asm_str e, asm_ref_fn cb, void *data)
{
	const char *p = e.p, *end = e.p + e.len;

	while (p < end) {
		const char *q;
		if (*p == '"') {	/* string or quoted symbol: skip */
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			p++;
			continue;
		}
		if (*p == '%') {	/* register */
			for (p++; p < end && asmfix_is_ident((unsigned char)*p); p++)
				;
			continue;
		}
		if (*p == '\'') {
			p += 2;
			continue;
		}
		if (!asmfix_is_ident((unsigned char)*p)) {
			p++;
			continue;
		}
		q = p;
		while (q < end && asmfix_is_ident((unsigned char)*q))
			q++;
		if (*p >= '0' && *p <= '9') {
			/* number, or numeric label reference 661b / 663f */
			const char *d = p;
			while (d < q && *d >= '0' && *d <= '9')
				d++;
			if (d + 1 == q && (*d == 'b' || *d == 'f') && d - p <= 9) {
				struct asm_str n = { p, (size_t)(d - p) };
				cb(data, n, asmfix_numeric_label(n), *d);
			}
		} else if (!(q - p == 1 && *p == '.')) {
			cb(data, (struct asm_str){ p, (size_t)(q - p) }, -1, 0);
		}
		p = q;
	}
}

static const char *const reg_names[][5] = {
	/* 64, 32, 16, 8 low, 8 high */
	{ "rax", "eax", "ax", "al", "ah" },
	{ "rcx", "ecx", "cx", "cl", "ch" },
	{ "rdx", "edx", "dx", "dl", "dh" },
	{ "rbx", "ebx", "bx", "bl", "bh" },
	{ "rsp", "esp", "sp", "spl", NULL },
	{ "rbp", "ebp", "bp", "bpl", NULL },
	{ "rsi", "esi", "si", "sil", NULL },
	{ "rdi", "edi", "di", "dil", NULL },
};

int asmfix_reg(struct asm_str s, int *width)
{
	static const int widths[] = { 8, 4, 2, 1, 1 };
	int w = 0, r = REG_NONE;

	s = asm_trim(s);
	if (s.len < 2 || s.p[0] != '%')
		return REG_NONE;
	s.p++, s.len--;
	for (int i = 0; i < 8 && r == REG_NONE; i++)
		for (int j = 0; j < 5; j++)
			if (reg_names[i][j] && asmfix_str_eq(s, reg_names[i][j])) {
				r = i, w = widths[j];
				break;
			}
	if (r == REG_NONE && s.len >= 2 && s.p[0] == 'r' && s.p[1] >= '0' && s.p[1] <= '9') {
		int n = s.p[1] - '0';
		size_t k = 2;
		if (k < s.len && s.p[k] >= '0' && s.p[k] <= '9')
			n = n * 10 + (s.p[k++] - '0');
		if (n >= 8 && n <= 15) {
			r = REG_R8 + n - 8, w = 8;
			if (k < s.len)
				w = s.p[k] == 'd' ? 4 : s.p[k] == 'w' ? 2 : s.p[k] == 'b' ? 1 : 0;
			if (k + 1 < s.len)
				r = REG_NONE;
		}
	}
	if (r == REG_NONE) {
		for (size_t i = 0; i < s.len; i++)
			if (!asmfix_is_ident((unsigned char)s.p[i]) && s.p[i] != '(' && s.p[i] != ')')
				return REG_NONE;
		r = REG_OTHER;
	}
	if (width)
		*width = w;
	return r;
}

int asmfix_parse_mem(struct asm_str op, struct asm_mem *m)
{
	const char *open, *close, *p, *end;
	struct asm_str part[3];
	int np = 0;

	op = asm_trim(op);
	memset(m, 0, sizeof(*m));
	m->base = m->index = REG_NONE;
	if (op.len && op.p[0] == '*')
		op.p++, op.len--;
	if (op.len && op.p[0] == '%') {	/* segment override */
		const char *c = memchr(op.p, ':', op.len);
		if (!c)
			return 0;
		m->has_seg = 1;
		op.len -= (size_t)(c + 1 - op.p);
		op.p = c + 1;
	}
	if (!op.len || op.p[op.len - 1] != ')')
		return 0;
	close = op.p + op.len - 1;
	open = NULL;
	for (p = close; p >= op.p; p--)
		if (*p == '(') {
			open = p;
			break;
		}
	if (!open || memchr(open + 1, '(', (size_t)(close - open - 1)))
		return 0;
	m->disp = asm_trim((struct asm_str){ op.p, (size_t)(open - op.p) });
	m->base_text = (struct asm_str){ open, (size_t)(close + 1 - open) };
	for (p = open + 1, end = close; p <= end && np < 3; p++) {
		const char *s = p;
		while (p < end && *p != ',')
			p++;
		part[np++] = asm_trim((struct asm_str){ s, (size_t)(p - s) });
	}
	if (np >= 1 && part[0].len) {
		m->base = asmfix_reg(part[0], NULL);
		if (m->base == REG_NONE)
			return 0;
	}
	if (np >= 2 && part[1].len) {
		m->index = asmfix_reg(part[1], NULL);
		if (m->index == REG_NONE)
			return 0;
	}
	return 1;
}

int asmfix_parse_int(struct asm_str s, long long *val)
{
	char buf[32], *end;
	s = asm_trim(s);
	if (!s.len || s.len >= sizeof(buf))
		return -1;
	memcpy(buf, s.p, s.len);
	buf[s.len] = 0;
	*val = strtoll(buf, &end, 0);
	return *end ? -1 : 0;
}
