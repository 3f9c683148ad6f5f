// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/respfile.c, the @file expansion ccd and lkd share.
 * The expected words are what gcc 12's driver (libiberty) makes of the
 * same text: `gcc -### -c x.c @file` shows them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "respfile.h"
#include "strbuf.h"

static char dir[] = "/tmp/ccd-test-rspXXXXXX";

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	struct strbuf cmd = STRBUF_INIT;
	(void)state;

	/* Only files this test made, in its own mkdtemp directory. */
	strbuf_addf(&cmd, "%s/", dir);
	for (const char *n = "abcdefgh"; *n; n++) {
		strbuf_setlen(&cmd, strlen(dir) + 1);
		strbuf_addch(&cmd, *n);
		unlink(cmd.buf);
	}
	strbuf_setlen(&cmd, strlen(dir) + 1);
	strbuf_addstr(&cmd, "sub");
	rmdir(cmd.buf);
	strbuf_release(&cmd);
	return rmdir(dir);
}

/* <dir>/<name> holding text; returns "@<dir>/<name>" (static). */
static const char *rsp(const char *name, const char *text, size_t len)
{
	static char arg[4][128];
	static int next;
	char *a = arg[next++ % 4];
	FILE *f;

	snprintf(a, sizeof(arg[0]), "@%s/%s", dir, name);
	f = fopen(a + 1, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return a;
}

#define RSP(name, text) rsp(name, text, sizeof(text) - 1)

/* The words as "[w1] [w2] ..." for one readable comparison. */
static char *joined(const struct strvec *sv)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sv->nr; i++)
		strbuf_addf(&sb, "%s[%s]", i ? " " : "", sv->v[i]);
	return strbuf_detach(&sb, NULL);
}

static void check_split(const char *text, size_t len, const char *want)
{
	struct strvec sv = STRVEC_INIT;
	char *got;

	respfile_split(&sv, text, len);
	got = joined(&sv);
	assert_string_equal(got, want);
	free(got);
	strvec_clear(&sv);
}

#define SPLIT(text, want) check_split(text, sizeof(text) - 1, want)

static void test_split_words(void **state)
{
	(void)state;
	SPLIT(" a\tb\nc\r\nd\fe\vf  ", "[a] [b] [c] [d] [e] [f]");
	SPLIT("", "");
	SPLIT(" \n\t ", "");
	SPLIT("'' \"\" x''", "[] [] [x]");
	SPLIT("'a b' \"c d\" e' 'f\"g\"h", "[a b] [c d] [e fgh]");
	SPLIT("'a\"b' \"c'd\"", "[a\"b] [c'd]");
}

static void test_split_backslash(void **state)
{
	(void)state;
	/* Outside quotes and inside both kinds: the next character, literally. */
	SPLIT("a\\ b c\\\\d \\'e", "[a b] [c\\d] ['e]");
	SPLIT("'a\\b' \"c\\d\" \"e\\\"f\" 'g\\'h'", "[ab] [cd] [e\"f] [g'h]");
	/* Backslash-newline is a newline in the word, not a continuation. */
	SPLIT("a\\\nb c", "[a\nb] [c]");
	/* At the very end it escapes nothing and is dropped. */
	SPLIT("a b\\", "[a] [b]");
}

static void test_split_ends(void **state)
{
	(void)state;
	/* A quote left open runs to the end, whitespace and all. */
	SPLIT("a \"b c\n d", "[a] [b c\n d]");
	/* The text ends at a NUL, as for gcc (it reads a C string). */
	SPLIT("a\0b c", "[a]");
	/* len is respected: no read past it. */
	check_split("abc def", 5, "[abc] [d]");
}

static char *expand(int argc, const char **argv, int *ret)
{
	struct strvec out = STRVEC_INIT;
	char *got;

	*ret = respfile_expand(&out, argc, (char *const *)argv);
	got = joined(&out);
	strvec_clear(&out);
	return got;
}

static void test_expand_nested(void **state)
{
	const char *inner = RSP("a", "-c 'x y.c'\n");
	char outer_text[256];
	const char *argv[4];
	char *got;
	int ret;
	(void)state;

	snprintf(outer_text, sizeof(outer_text), "-O2 %s -o \"o 1.o\"\n", inner);
	argv[0] = "gcc";
	argv[1] = rsp("b", outer_text, strlen(outer_text));
	argv[2] = RSP("c", "");		/* empty: no words */
	argv[3] = "last";
	got = expand(4, argv, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(got, "[gcc] [-O2] [-c] [x y.c] [-o] [o 1.o] [last]");
	free(got);
}

static void test_expand_literal(void **state)
{
	char missing[128], sub[128], *got;
	const char *argv[5];
	int ret;
	(void)state;

	snprintf(missing, sizeof(missing), "@%s/nonexistent", dir);
	snprintf(sub, sizeof(sub), "@%s/sub", dir);
	assert_int_equal(mkdir(sub + 1, 0700), 0);
	argv[0] = missing;	/* missing: stays */
	argv[1] = sub;		/* a directory: stays */
	argv[2] = "@";		/* no name: stays */
	argv[3] = "a@b";	/* '@' not first: an ordinary argument */
	argv[4] = RSP("d", "@/nonexistent/deeper");	/* unreadable inside a file too */
	got = expand(5, argv, &ret);
	assert_int_equal(ret, 0);
	{
		struct strbuf want = STRBUF_INIT;

		strbuf_addf(&want, "[%s] [%s] [@] [a@b] [@/nonexistent/deeper]", missing, sub);
		assert_string_equal(got, want.buf);
		strbuf_release(&want);
	}
	free(got);
}

static void test_expand_limit(void **state)
{
	const char **argv = calloc(RESPFILE_MAX_EXPANSIONS + 1, sizeof(*argv));
	const char *one = RSP("e", "w");
	char self_text[160];
	const char *self[1];
	char *got;
	int ret;
	(void)state;

	/* As many expansions as gcc allows, side by side: fine. */
	for (int i = 0; i < RESPFILE_MAX_EXPANSIONS; i++)
		argv[i] = one;
	got = expand(RESPFILE_MAX_EXPANSIONS, argv, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(strlen(got), RESPFILE_MAX_EXPANSIONS * 4 - 1);
	free(got);
	/* One more: an error, not a hang. */
	argv[RESPFILE_MAX_EXPANSIONS] = one;
	got = expand(RESPFILE_MAX_EXPANSIONS + 1, argv, &ret);
	assert_int_equal(ret, -1);
	free(got);
	free(argv);
	/* A file that includes itself: an error, after the same count. */
	snprintf(self_text, sizeof(self_text), "x @%s/f", dir);
	self[0] = rsp("f", self_text, strlen(self_text));
	got = expand(1, self, &ret);
	assert_int_equal(ret, -1);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_split_backslash),
		cmocka_unit_test(test_split_ends),
		cmocka_unit_test(test_expand_nested),
		cmocka_unit_test(test_expand_literal),
		cmocka_unit_test(test_expand_limit),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
