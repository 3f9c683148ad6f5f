// SPDX-License-Identifier: GPL-2.0
/* LLVM's text sample profile to gcc 12's AFDO file (kbench/kbuild/afdo.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "afdo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reading an AFDO file back in the order gcc 12 reads it (auto-profile.cc). */
struct reader {
	const unsigned char *p, *end;
	int bad;
	const char **names;
	uint32_t nr_names;
};

static uint32_t rd32(struct reader *r)
{
	uint32_t v = 0;

	if (r->end - r->p < 4) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, 4);
	r->p += 4;
	return v;
}

static uint64_t rd64(struct reader *r)
{
	uint64_t lo = rd32(r);

	return lo | (uint64_t)rd32(r) << 32;
}

/* A length in bytes, NUL included, then the bytes: nothing pads them. */
static const char *rdstr(struct reader *r)
{
	uint32_t len = rd32(r);
	const char *s = (const char *)r->p;

	if (!len || r->end - r->p < (ptrdiff_t)len || r->p[len - 1]) {
		r->bad = 1;
		return "?";
	}
	r->p += len;
	return s;
}

static const char *name_of(struct reader *r, uint64_t i)
{
	if (i >= r->nr_names) {
		r->bad = 1;
		return "?";
	}
	return r->names[i];
}

static void rd_fn(struct reader *r, struct strbuf *sb, int depth)
{
	const char *name = name_of(r, rd32(r));
	uint32_t nr_pos = rd32(r), nr_sites = rd32(r);

	strbuf_addf(sb, "%s\n", name);
	for (uint32_t i = 0; i < nr_pos && !r->bad; i++) {
		uint32_t off = rd32(r), nr_targets = rd32(r);

		strbuf_addf(sb, "%*s%u.%u: %" PRIu64, depth + 1, "", off >> 16, off & 0xffff,
			    rd64(r));
		for (uint32_t t = 0; t < nr_targets && !r->bad; t++) {
			uint32_t kind = rd32(r);
			const char *target = name_of(r, rd64(r));

			strbuf_addf(sb, " %s:%" PRIu64 "/%u", target, rd64(r), kind);
		}
		strbuf_addch(sb, '\n');
	}
	for (uint32_t i = 0; i < nr_sites && !r->bad; i++) {
		uint32_t off = rd32(r);

		strbuf_addf(sb, "%*s%u.%u: ", depth + 1, "", off >> 16, off & 0xffff);
		rd_fn(r, sb, depth + 1);
	}
}

/* n words: the first in hex (a magic number or a tag), the others decimal. */
static void words(struct reader *r, struct strbuf *sb, int n)
{
	strbuf_addf(sb, "%08x", rd32(r));
	while (--n)
		strbuf_addf(sb, " %u", rd32(r));
	strbuf_addch(sb, '\n');
}

/* The file as text: header words, names, functions; "BAD" if it does not read. */
static char *decode(const struct strbuf *file)
{
	struct reader r = { (const unsigned char *)file->buf,
			    (const unsigned char *)file->buf + file->len, 0, NULL, 0 };
	struct strbuf sb = STRBUF_INIT;
	uint32_t nr_fns;

	words(&r, &sb, 3);
	words(&r, &sb, 2);
	r.nr_names = rd32(&r);
	r.names = calloc(r.nr_names + 1, sizeof(*r.names));
	for (uint32_t i = 0; i < r.nr_names && !r.bad; i++)
		strbuf_addf(&sb, "[%s]", r.names[i] = rdstr(&r));
	strbuf_addch(&sb, '\n');
	words(&r, &sb, 2);
	nr_fns = rd32(&r);
	for (uint32_t i = 0; i < nr_fns && !r.bad; i++) {
		strbuf_addf(&sb, "head %" PRIu64 " ", rd64(&r));
		rd_fn(&r, &sb, 0);
	}
	words(&r, &sb, 3);
	free(r.names);
	if (r.bad || r.p != r.end)
		strbuf_addstr(&sb, "BAD\n");
	return strbuf_detach(&sb, NULL);
}

/* text converted in memory: its decoded file, or "ERROR: message". */
static char *convert(const char *text, struct afdo_stats *st)
{
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT;
	struct afdo_profile p;
	struct afdo_stats dummy;
	char *ret;

	afdo_init(&p);
	if (afdo_parse(&p, text, strlen(text), "in.txt", &err)) {
		strbuf_addstr(&file, "ERROR: ");
		strbuf_addstr(&file, err.buf);
		ret = strbuf_detach(&file, NULL);
	} else {
		afdo_merge(&p, st ? st : &dummy);
		afdo_encode(&p, &file);
		ret = decode(&file);
	}
	afdo_release(&p);
	strbuf_release(&err);
	strbuf_release(&file);
	return ret;
}

static void expect(const char *text, const char *want)
{
	char *got = convert(text, NULL);

	assert_string_equal(got, want);
	free(got);
}

/* Sections' lengths in bytes, as gcc 12 counts records. */
#define HEAD "67636461 2 0\n"

/* A function with lines, calls and an inlined copy, read back as gcc reads it. */
static void test_nested(void **state)
{
	struct afdo_stats st;
	char *got;

	(void)state;
	got = convert("main:5000:10\n"
		      " 1: 10\n"
		      " 3: 2500 hot:2400 cold:3\n"
		      " 4: hot:1234\n"
		      "  1: 1200\n"
		      "  2: 30 foo:30\n"
		      "  7: leaf:4\n"
		      "   0: 4\n"
		      " 5: 1\n"
		      "hot:300:20\n"
		      " 0: 20\n",
		      &st);
	assert_string_equal(got, HEAD
			    "aa000000 52\n"
			    "[][main][hot][cold][foo][leaf]\n"
			    "ac000000 248\n"
			    "head 10 main\n"
			    " 1.0: 10\n"
			    " 3.0: 2500 hot:2400/3 cold:3/3\n"
			    " 5.0: 1\n"
			    " 4.0: hot\n"
			    "  1.0: 1200\n"
			    "  2.0: 30 foo:30/3\n"
			    "  7.0: leaf\n"
			    "   0.0: 4\n"
			    "head 20 hot\n"
			    " 0.0: 20\n"
			    "ae000000 4 0\n");
	free(got);
	assert_int_equal(st.functions, 2);
	assert_int_equal(st.merged, 0);
	assert_int_equal(st.samples, 5300);
}

/*
 * The bytes themselves: strings are a byte count with the NUL and no
 * padding (gcc 11's word counts and padding make gcc 12 crash), counters
 * two words low first, index 0 a name of no function.
 */
static void test_exact_bytes(void **state)
{
	static const uint32_t want_words_head[] = {
		0x67636461, 2, 0, 0xaa000000, 4 + 5 + 7 + 7, 3,
	};
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT;
	struct afdo_profile p;
	struct afdo_stats st;
	const char *text = "ab:7:5\n 2: cd:3\n";
	const char *names;
	unsigned char fn[64];
	size_t at, n = 0;
	uint32_t w;

	(void)state;
	afdo_init(&p);
	assert_int_equal(afdo_parse(&p, text, strlen(text), "in.txt", &err), 0);
	afdo_merge(&p, &st);
	afdo_encode(&p, &file);
	assert_memory_equal(file.buf, want_words_head, sizeof(want_words_head));
	names = file.buf + sizeof(want_words_head);
	assert_memory_equal(names, "\1\0\0\0\0" "\3\0\0\0ab\0" "\3\0\0\0" "cd\0", 5 + 7 + 7);
	at = sizeof(want_words_head) + 19;
	/* the function section: tag, length, one function */
#define W(v) (w = (v), memcpy(fn + n, &w, 4), n += 4)
	W(0xac000000);
	W(4 + 8 + 12 + 4 + 12);
	W(1);
	W(5), W(0);		/* head */
	W(1), W(0), W(1);	/* ab, no lines, one site */
	W(2 << 16);		/* at line 2 */
	W(2), W(0), W(0);	/* cd, nothing */
	W(0xae000000), W(4), W(0);
#undef W
	assert_int_equal(file.len, at + n);
	assert_memory_equal(file.buf + at, fn, n);
	afdo_release(&p);
	strbuf_release(&file);
}

/* LLVM's suffixes go: gcc knows foo only; the copies' samples add up. */
static void test_suffixes_merged(void **state)
{
	struct afdo_stats st;
	char *got;

	(void)state;
	got = convert("work.llvm.42:100:1\n"
		      " 2: 60 cb.llvm.9:60\n"
		      "cb.__uniq.77:5:5\n"
		      " 0: 5\n"
		      "work.__uniq.123:30:2\n"
		      " 2: 25 cb:20\n"
		      " 3: 5\n"
		      "work:7:0\n"
		      " 9: 7\n",
		      &st);
	assert_string_equal(got, HEAD
			    "aa000000 25\n"
			    "[][work][cb]\n"
			    "ac000000 128\n"
			    "head 3 work\n"
			    " 2.0: 85 cb:80/3\n"
			    " 3.0: 5\n"
			    " 9.0: 7\n"
			    "head 5 cb\n"
			    " 0.0: 5\n"
			    "ae000000 4 0\n");
	free(got);
	assert_int_equal(st.functions, 2);
	assert_int_equal(st.merged, 2);
	assert_int_equal(st.samples, 142);
}

/*
 * gcc 12 reads a line's records as one and keeps the last: a line's
 * discriminators become one record with the hottest one's count (equal
 * discriminators, as of merged copies, add first) and all their calls.
 */
static void test_discriminators(void **state)
{
	(void)state;
	expect("f:1000:1\n"
	       " 5: 99999\n"
	       " 5.1: 2 g:2\n"
	       " 5.3: 40 g:1 h:7\n"
	       " 5.3: 70000\n"
	       " 6.2: 9\n",
	       HEAD
	       "aa000000 27\n"
	       "[][f][g][h]\n"
	       "ac000000 96\n"
	       "head 1 f\n"
	       " 5.0: 99999 g:3/3 h:7/3\n"
	       " 6.0: 9\n"
	       "ae000000 4 0\n");
	expect("f:1000:1\n"
	       " 5: 10\n"
	       " 5.1: 2\n"
	       " 5.1: 9\n",
	       HEAD
	       "aa000000 15\n"
	       "[][f]\n"
	       "ac000000 40\n"
	       "head 1 f\n"
	       " 5.0: 11\n"
	       "ae000000 4 0\n");
}

/* gcc 12 finds an inlined copy by line and callee: copies at one line merge. */
static void test_sites_merged(void **state)
{
	(void)state;
	expect("f:100:1\n"
	       " 4.1: g:10\n"
	       "  1: 10\n"
	       " 4.2: g.llvm.5:20\n"
	       "  1: 15\n"
	       "  2: 5\n"
	       " 4: h:3\n"
	       "  0: 3\n",
	       HEAD
	       "aa000000 27\n"
	       "[][f][g][h]\n"
	       "ac000000 104\n"
	       "head 1 f\n"
	       " 4.0: g\n"
	       "  1.0: 25\n"
	       "  2.0: 5\n"
	       " 4.0: h\n"
	       "  0.0: 3\n"
	       "ae000000 4 0\n");
}

/*
 * Names LLVM writes unmangled hold colons and blanks: a target's name ends
 * at a colon followed by a count; a header's and a callee's at the last
 * colons.  Comments, blank lines and metadata are skipped, and metadata
 * ends an inlined copy like any shallower line.
 */
static void test_names_comments_metadata(void **state)
{
	(void)state;
	expect("# made by hand\n"
	       "\n"
	       "ns::f(int):50:3\n"
	       " 1: 20 _M_construct<char *>:12 view<a<b> >:8\n"
	       "   \n"
	       " 2: x::g:9\n"
	       "  1: 9\n"
	       "  !CFGChecksum: 12\n"
	       " !CFGChecksum: 34\n"
	       "    # an indented comment\n",
	       HEAD
	       "aa000000 74\n"
	       "[][ns::f(int)][_M_construct<char *>][view<a<b> >][x::g]\n"
	       "ac000000 112\n"
	       "head 3 ns::f(int)\n"
	       " 1.0: 20 _M_construct<char *>:12/3 view<a<b> >:8/3\n"
	       " 2.0: x::g\n"
	       "  1.0: 9\n"
	       "ae000000 4 0\n");
	/* a body line after metadata of a copy belongs to the shallower function */
	expect("f:9:0\n"
	       " 1: g:4\n"
	       "  0: 4\n"
	       "  !CFGChecksum: 1\n"
	       " 2: 5\n",
	       HEAD
	       "aa000000 21\n"
	       "[][f][g]\n"
	       "ac000000 72\n"
	       "head 0 f\n"
	       " 2.0: 5\n"
	       " 1.0: g\n"
	       "  0.0: 4\n"
	       "ae000000 4 0\n");
}

/* Bad input: the file and line, what is wrong; never a profile. */
static void test_bad_input(void **state)
{
	static const struct {
		const char *text, *error;
	} cases[] = {
		{ "", "ERROR: in.txt: no function's samples in it" },
		{ "# nothing\n\n", "ERROR: in.txt: no function's samples in it" },
		{ " 1: 10\n", "ERROR: in.txt:1: a line of samples before any function's header" },
		{ "main\n", "ERROR: in.txt:1: expected a function's header NAME:TOTAL:HEAD" },
		{ "main:10\n", "ERROR: in.txt:1: expected a function's header NAME:TOTAL:HEAD" },
		{ "main:x:1\n", "ERROR: in.txt:1: expected a function's header NAME:TOTAL:HEAD" },
		{ "main:1:1 \n", "ERROR: in.txt:1: expected a function's header NAME:TOTAL:HEAD" },
		{ ":1:1\n", "ERROR: in.txt:1: an empty function name (before its first '.')" },
		{ ".llvm.1:1:1\n", "ERROR: in.txt:1: an empty function name" },
		{ "[main:1 @ f]:10:1\n", "ERROR: in.txt:1: a context-sensitive profile" },
		{ "m:1:1\n 65536: 1\n", "ERROR: in.txt:2: expected a line offset (0 to 65535)" },
		{ "m:1:1\n -1: 1\n", "ERROR: in.txt:2: expected a line offset (0 to 65535)" },
		{ "m:1:1\n 1.x: 1\n", "ERROR: in.txt:2: expected a discriminator (0 to" },
		{ "m:1:1\n 1.4294967296: 1\n", "ERROR: in.txt:2: expected a discriminator" },
		{ "m:1:1\n 1 1\n", "ERROR: in.txt:2: expected ': ' after the line offset" },
		{ "m:1:1\n 1:1\n", "ERROR: in.txt:2: expected ': ' after the line offset" },
		{ "m:1:1\n 1: 9223372036854775808\n",
		  "ERROR: in.txt:2: expected a count (0 to 9223372036854775807)" },
		{ "m:1:1\n 1: 5x\n", "ERROR: in.txt:2: expected a count" },
		{ "m:1:1\n 1: 5 f\n", "ERROR: in.txt:2: expected call targets NAME:COUNT" },
		{ "m:1:1\n 1: 5 :3\n", "ERROR: in.txt:2: expected call targets NAME:COUNT" },
		{ "m:1:1\n 1: 5 f:x\n", "ERROR: in.txt:2: expected call targets NAME:COUNT" },
		{ "m:1:1\n 1: 5 .cold:3\n", "ERROR: in.txt:2: an empty function name" },
		{ "m:1:1\n 1: g\n", "ERROR: in.txt:2: expected an inlined call site CALLEE:TOTAL" },
		{ "m:1:1\n 1: g:1x\n", "ERROR: in.txt:2: expected an inlined call site" },
		{ "m:1:1\n 1: :1\n", "ERROR: in.txt:2: an empty function name" },
		{ "m:1:1\n  1: 1\n", "ERROR: in.txt:2: indented 2 spaces where at most 1 can be" },
		{ "m:1:1\n 1: g:1\n  1: 1\n   2: 2\n",
		  "ERROR: in.txt:4: indented 3 spaces where at most 2" },
		{ "m:1:1\n 1: 1\n\tx\n", "ERROR: in.txt:3: expected a function's header" },
		{ "m:1:1\r\n", "ERROR: in.txt:1: expected a function's header" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = convert(cases[i].text, NULL);

		if (strncmp(got, cases[i].error, strlen(cases[i].error)))
			fail_msg("case %zu: got '%s', want '%s...'", i, got, cases[i].error);
		free(got);
	}
}

/* A NUL byte (a binary profile) and an inline stack deeper than any real one. */
static void test_bad_binary_and_depth(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct afdo_profile p;

	(void)state;
	afdo_init(&p);
	assert_int_equal(afdo_parse(&p, "m:1:1\n 1: 1\0\n", 13, "in.txt", &err), -1);
	assert_string_equal(err.buf, "in.txt:2: a NUL byte: not a text profile "
				     "(llvm-profdata merge --sample --text makes one)");
	afdo_release(&p);
	strbuf_reset(&err);
	strbuf_addstr(&text, "m:1:1\n");
	for (int d = 1; d <= 257; d++)
		strbuf_addf(&text, "%*s1: g:1\n", d, "");
	afdo_init(&p);
	assert_int_equal(afdo_parse(&p, text.buf, text.len, "in.txt", &err), -1);
	assert_string_equal(err.buf, "in.txt:258: calls inlined more than 256 deep");
	afdo_release(&p);
	/* 256 deep is fine */
	strbuf_setlen(&text, text.len - strlen("1: g:1\n") - 257);
	strbuf_reset(&err);
	afdo_init(&p);
	assert_int_equal(afdo_parse(&p, text.buf, text.len, "in.txt", &err), 0);
	afdo_release(&p);
	strbuf_release(&text);
	strbuf_release(&err);
}

static char dir[] = "/tmp/test-afdo.XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Files: the output whole; a failure leaves none, not even an older one. */
static void test_files(void **state)
{
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT, in = STRBUF_INIT, out = STRBUF_INIT;
	struct afdo_stats st;
	struct stat sb;

	(void)state;
	assert_non_null(mkdtemp(dir));
	strbuf_addf(&in, "%s/prof.txt", dir);
	strbuf_addf(&out, "%s/prof.afdo", dir);
	put(in.buf, "f:10:1\n 1: 10\n");
	assert_int_equal(afdo_from_llvm_text(in.buf, out.buf, &st, &err), 0);
	assert_int_equal(err.len, 0);
	assert_int_equal(st.functions, 1);
	assert_int_equal(st.samples, 10);
	assert_int_equal(strbuf_read_file(&file, out.buf, 0), 0);
	assert_int_equal(file.len, 4 * 3 + 4 * 3 + 5 + 6 + 4 * 3 + 8 + 12 + 16 + 12);
	put(in.buf, "f:10:1\n 1: 1o\n");
	assert_int_equal(afdo_from_llvm_text(in.buf, out.buf, &st, &err), -1);
	assert_string_equal(err.buf + in.len, ":2: expected a count (0 to 9223372036854775807)");
	assert_int_equal(stat(out.buf, &sb), -1);
	assert_int_equal(errno, ENOENT);
	strbuf_reset(&err);
	strbuf_addstr(&in, ".missing");
	assert_int_equal(afdo_from_llvm_text(in.buf, out.buf, &st, &err), -1);
	assert_non_null(strstr(err.buf, "cannot read "));
	assert_non_null(strstr(err.buf, ".missing: No such file or directory"));
	unlink(in.buf);
	strbuf_setlen(&in, in.len - strlen(".missing"));
	unlink(in.buf);
	assert_int_equal(rmdir(dir), 0);
	strbuf_release(&err);
	strbuf_release(&file);
	strbuf_release(&in);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_exact_bytes),
		cmocka_unit_test(test_suffixes_merged),
		cmocka_unit_test(test_discriminators),
		cmocka_unit_test(test_sites_merged),
		cmocka_unit_test(test_names_comments_metadata),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_binary_and_depth),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
