// SPDX-License-Identifier: GPL-2.0
/* GAS's section stack (obj_elf_section/pushsection/popsection/previous). */
#include "section.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static unsigned hash_str(const char *s, size_t len)
{
	unsigned h = 2166136261u;
	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

void asmfix_sec_names_init(struct sec_names *sn)
{
	memset(sn, 0, sizeof(*sn));
	sn->hash_size = 64;
	sn->hash = xmalloc(sizeof(int) * (size_t)sn->hash_size);
	memset(sn->hash, -1, sizeof(int) * (size_t)sn->hash_size);
}

void asmfix_sec_names_release(struct sec_names *sn)
{
	for (int i = 0; i < sn->nr; i++)
		free(sn->name[i]);
	free(sn->name);
	free(sn->exec);
	free(sn->hash);
	memset(sn, 0, sizeof(*sn));
}

static int guess_exec(const char *n)
{
	size_t len = strlen(n);
	if (!strncmp(n, ".text", 5) || (len >= 5 && !strcmp(n + len - 5, ".text")) ||
	    !strncmp(n, ".altinstr_replacement", 21) || !strncmp(n, ".altinstr_aux", 13) ||
	    !strncmp(n, ".fixup", 6) || !strncmp(n, ".init.text", 10) ||
	    !strncmp(n, ".exit.text", 10))
		return 1;
	if (!strncmp(n, ".data", 5) || !strncmp(n, ".bss", 4) || !strncmp(n, ".rodata", 7) ||
	    !strncmp(n, ".debug", 6) || !strncmp(n, ".alt", 4) || !strncmp(n, ".note", 5) ||
	    !strncmp(n, ".smp_locks", 10) || !strncmp(n, "__", 2))
		return 0;
	return 2;
}

static void rehash(struct sec_names *sn)
{
	int size = sn->hash_size * 2;
	int *h = xmalloc(sizeof(int) * (size_t)size);
	memset(h, -1, sizeof(int) * (size_t)size);
	for (int i = 0; i < sn->nr; i++) {
		unsigned k = hash_str(sn->name[i], strlen(sn->name[i])) & (unsigned)(size - 1);
		while (h[k] >= 0)
			k = (k + 1) & (unsigned)(size - 1);
		h[k] = i;
	}
	free(sn->hash);
	sn->hash = h;
	sn->hash_size = size;
}

int asmfix_sec_intern(struct sec_names *sn, const char *name, size_t len)
{
	unsigned k = hash_str(name, len) & (unsigned)(sn->hash_size - 1);

	for (; sn->hash[k] >= 0; k = (k + 1) & (unsigned)(sn->hash_size - 1)) {
		const char *n = sn->name[sn->hash[k]];
		if (!strncmp(n, name, len) && !n[len])
			return sn->hash[k];
	}
	if (sn->nr == sn->alloc) {
		sn->alloc = sn->alloc ? sn->alloc * 2 : 16;
		sn->name = xrealloc(sn->name, sizeof(char *) * (size_t)sn->alloc);
		sn->exec = xrealloc(sn->exec, (size_t)sn->alloc);
	}
	sn->name[sn->nr] = xstrndup(name, len);
	sn->exec[sn->nr] = (unsigned char)guess_exec(sn->name[sn->nr]);
	sn->hash[k] = sn->nr;
	if (++sn->nr * 2 > sn->hash_size)
		rehash(sn);
	return sn->nr - 1;
}

const char *asmfix_sec_name(const struct sec_names *sn, int id)
{
	return id >= 0 && id < sn->nr ? sn->name[id] : "(none)";
}

int asmfix_sec_is_exec(const struct sec_names *sn, int id)
{
	return id >= 0 && id < sn->nr && sn->exec[id] == 1;
}

void asmfix_sec_state_init(struct sec_state *ss, struct sec_names *sn)
{
	memset(ss, 0, sizeof(*ss));
	ss->cur.sec = asmfix_sec_intern(sn, ".text", 5);
	ss->prev.sec = -1;
}

void asmfix_sec_state_release(struct sec_state *ss)
{
	free(ss->stack);
	memset(ss, 0, sizeof(*ss));
}

void asmfix_sec_state_copy(struct sec_state *dst, const struct sec_state *src)
{
	struct sec_frame *stack = dst->stack;
	int alloc = dst->alloc;

	if (alloc < src->depth) {
		alloc = src->depth;
		stack = xrealloc(stack, sizeof(*stack) * (size_t)alloc);
	}
	*dst = *src;
	dst->stack = stack;
	dst->alloc = alloc;
	if (src->depth)
		memcpy(stack, src->stack, sizeof(*stack) * (size_t)src->depth);
}

enum sec_op asmfix_sec_op_of(struct asm_str n)
{
	if (n.len < 4 || n.p[0] != '.')
		return SEC_NONE;
	switch (n.p[1]) {
	case 's':
		if (asmfix_str_eq(n, ".section"))
			return SEC_SECTION;
		if (asmfix_str_eq(n, ".subsection"))
			return SEC_SUBSECTION;
		break;
	case 'p':
		if (asmfix_str_eq(n, ".pushsection"))
			return SEC_PUSH;
		if (asmfix_str_eq(n, ".popsection"))
			return SEC_POP;
		if (asmfix_str_eq(n, ".previous"))
			return SEC_PREVIOUS;
		break;
	case 't':
		if (asmfix_str_eq(n, ".text"))
			return SEC_TEXT;
		break;
	case 'd':
		if (asmfix_str_eq(n, ".data"))
			return SEC_DATA;
		break;
	case 'b':
		if (asmfix_str_eq(n, ".bss"))
			return SEC_BSS;
		break;
	}
	return SEC_NONE;
}

struct asm_str asmfix_sec_arg_name(const struct asm_stmt *st)
{
	struct asm_str s = st->nops ? st->ops[0] : st->args;
	if (s.len >= 2 && s.p[0] == '"' && s.p[s.len - 1] == '"')
		s.p++, s.len -= 2;
	return s;
}

static long sub_arg(const struct asm_stmt *st, int i)
{
	long long v;
	if (st->nops > i && !asmfix_parse_int(st->ops[i], &v))
		return (long)v;
	return 0;
}

/* Record "x" in the flags string of a .section directive. */
static void note_flags(struct sec_names *sn, int id, const struct asm_stmt *st)
{
	struct asm_str f;
	if (st->nops < 2)
		return;
	f = st->ops[1];
	if (f.len < 2 || f.p[0] != '"')
		return;
	sn->exec[id] = memchr(f.p, 'x', f.len) ? 1 : 0;
}

static void change(struct sec_state *ss, int sec, long sub)
{
	ss->prev = ss->cur;	/* obj_elf_section_change_hook() */
	ss->cur.sec = sec;
	ss->cur.sub = sub;
}

int asmfix_sec_apply(struct sec_state *ss, struct sec_names *sn, const struct asm_stmt *st)
{
	enum sec_op op = asmfix_sec_op_of(st->name);
	struct asm_str name;
	int id;

	switch (op) {
	case SEC_NONE:
		return 0;
	case SEC_SECTION:
	case SEC_PUSH:
		name = asmfix_sec_arg_name(st);
		if (!name.len)
			return -1;
		id = asmfix_sec_intern(sn, name.p, name.len);
		note_flags(sn, id, st);
		if (op == SEC_PUSH) {
			if (ss->depth == ss->alloc) {
				ss->alloc = ss->alloc ? ss->alloc * 2 : 8;
				ss->stack = xrealloc(ss->stack, sizeof(*ss->stack) * (size_t)ss->alloc);
			}
			ss->stack[ss->depth].cur = ss->cur;
			ss->stack[ss->depth].prev = ss->prev;
			ss->depth++;
			/* .pushsection name, subsection (when numeric) */
			change(ss, id, st->nops == 2 && st->ops[1].p[0] != '"' ? sub_arg(st, 1) : 0);
		} else {
			change(ss, id, 0);
		}
		return 0;
	case SEC_POP:
		if (!ss->depth) {
			ss->bad_pop = 1;
			return -1;
		}
		ss->depth--;
		ss->prev = ss->stack[ss->depth].prev;
		ss->cur = ss->stack[ss->depth].cur;
		return 0;
	case SEC_PREVIOUS: {
		struct sec_pos p = ss->prev;
		if (p.sec < 0)
			return -1;
		change(ss, p.sec, p.sub);
		return 0;
	}
	case SEC_TEXT:
		change(ss, asmfix_sec_intern(sn, ".text", 5), sub_arg(st, 0));
		return 0;
	case SEC_DATA:
		change(ss, asmfix_sec_intern(sn, ".data", 5), sub_arg(st, 0));
		return 0;
	case SEC_BSS:
		change(ss, asmfix_sec_intern(sn, ".bss", 4), sub_arg(st, 0));
		return 0;
	case SEC_SUBSECTION:
		change(ss, ss->cur.sec, sub_arg(st, 0));
		return 0;
	}
	return 0;
}
