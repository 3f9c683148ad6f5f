// SPDX-License-Identifier: GPL-2.0
/* Unit tests for lib/: strbuf, strvec, config, tempfile, run-command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "namelist.h"
#include "settings.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* An empty strbuf is a valid empty string, without a check for NULL. */
	assert_string_equal(sb.buf, "");
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d:%s", 42, "x");
	assert_string_equal(sb.buf, "abc-42:x");
	assert_int_equal(sb.len, 8);
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	assert_int_equal(sb.len, 8 + 4000);
	assert_memory_equal(sb.buf + sb.len - 4, "0999", 4);
	strbuf_setlen(&sb, 3);
	assert_string_equal(sb.buf, "abc");
	strbuf_release(&sb);
	assert_string_equal(sb.buf, "");	/* released: empty again, reusable */
	assert_int_equal(sb.len, 0);
	/* Detaching what nothing was added to gives "", not uninitialised bytes. */
	{
		char *p = strbuf_detach(&sb, NULL);

		assert_string_equal(p, "");
		free(p);
	}
}

static char *write_tmp(const char *content);

static void test_strbuf_read_file(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = write_tmp("line 1\nline 2\n");
	(void)state;

	strbuf_addstr(&sb, ">");
	assert_int_equal(strbuf_read_file(&sb, p, 0), 0);
	assert_string_equal(sb.buf, ">line 1\nline 2\n");
	/* Too big, or missing: -1, errno says which, sb as it was. */
	assert_int_equal(strbuf_read_file(&sb, p, 5), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(strbuf_read_file(&sb, "/nonexistent/x", 0), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(strbuf_read_file(&sb, "/", 0), -1);
	assert_string_equal(sb.buf, ">line 1\nline 2\n");
	assert_int_equal(strbuf_read_file(&sb, p, 14), 0);
	assert_int_equal(sb.len, 29);
	unlink(p);
	free(p);
	strbuf_release(&sb);
}

static void test_strvec(void **state)
{
	struct strvec sv = STRVEC_INIT;
	(void)state;

	assert_null(strvec_argv(&sv)[0]);
	strvec_pushl(&sv, "a", "b", NULL);
	strvec_pushf(&sv, "-o%s", "x");
	strvec_insert(&sv, 0, "first");
	strvec_remove(&sv, 2);
	assert_int_equal(sv.nr, 3);
	assert_string_equal(sv.v[0], "first");
	assert_string_equal(sv.v[1], "a");
	assert_string_equal(sv.v[2], "-ox");
	assert_null(sv.v[3]);
	strvec_clear(&sv);
	strvec_split(&sv, "  distcc \t gcc-12 ");
	strvec_split(&sv, NULL);
	strvec_split(&sv, "   ");
	assert_int_equal(sv.nr, 2);
	assert_string_equal(sv.v[0], "distcc");
	assert_string_equal(sv.v[1], "gcc-12");
	assert_null(sv.v[2]);
	strvec_clear(&sv);
}

static int skip_first_bin(const char *path)
{
	return !strcmp(path, "/usr/bin/sh");
}

static void test_find_in_path(void **state)
{
	char *old = strdup(getenv("PATH"));
	char *p;
	(void)state;

	setenv("PATH", "/nonexistent:/usr/bin:/bin", 1);
	p = find_in_path("sh");
	assert_string_equal(p, "/usr/bin/sh");
	free(p);
	p = find_in_path_skip("sh", skip_first_bin);
	assert_string_equal(p, "/bin/sh");
	free(p);
	assert_null(find_in_path("no-such-program-ccd"));
	assert_null(find_in_path("bin/sh"));
	setenv("PATH", old, 1);
	free(old);
}

static char *write_tmp(const char *content)
{
	char *path = strdup("/tmp/ccd-test-confXXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static const char *fruit(size_t i)
{
	static const char *const names[] = { "apple", "pear", "plum" };

	return names[i];
}

static void test_namelist(void **state)
{
	static const struct {
		const char *list;
		int ret;
		unsigned mask;
	} t[] = {
		{ "all", 0, 7 }, { "none", 0, 0 }, { "", 0, 0 }, { "pear", 0, 2 },
		{ "plum,apple", 0, 5 }, { "none,plum", 0, 4 }, { "all,pear", 0, 7 },
		{ ",pear,,", 0, 2 }, { "pea", -1, 0 }, { "pear,plums", -1, 0 }, { "ALL", -1, 0 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		unsigned mask = 99;

		print_message("%s\n", t[i].list);
		assert_int_equal(namelist_parse(t[i].list, fruit, 3, "fruit", &mask), t[i].ret);
		assert_int_equal(mask, t[i].mask);
	}
}

static void test_config_file(void **state)
{
	struct config cfg = { .keys = &ccd_keys };
	char *p = write_tmp("# comment\n\n  cc = distcc gcc  \nverbose=yes\nassem = both\n"
			    "ld = ld.gold\n[profile x]\nnot_a_ccd_key = 1\n[global]\npasses = none\n");
	(void)state;

	assert_int_equal(config_read_file(&cfg, p), 0);
	assert_string_equal(config_get(&cfg, CCD_KEY_CC), "distcc gcc");
	assert_true(config_bool(&cfg, CCD_KEY_VERBOSE));
	assert_string_equal(config_get(&cfg, CCD_KEY_ASSEM), "both");
	assert_non_null(strstr(config_origin(&cfg, CCD_KEY_CC), ":3"));
	/* lkd's key skipped, a section skipped without a handler, [global] back */
	assert_string_equal(config_get(&cfg, CCD_KEY_PASSES), "none");
	unlink(p);
	free(p);
	config_release(&cfg);
}

static void test_config_errors(void **state)
{
	struct config cfg = { .keys = &lkd_keys };
	char *bad_key = write_tmp("cc = gcc\nno_such_key = 1\n");
	char *bad_bool = write_tmp("lkd_quiet = perhaps\n");
	char *bad_enum = write_tmp("altinstr_layout = linux3\n");
	char *no_eq = write_tmp("just words\n");
	(void)state;

	assert_int_equal(config_read_file(&cfg, bad_key), -1);
	assert_int_equal(config_read_file(&cfg, bad_bool), -1);
	assert_int_equal(config_read_file(&cfg, bad_enum), -1);
	assert_int_equal(config_read_file(&cfg, no_eq), -1);
	assert_int_equal(config_read_file(&cfg, "/nonexistent/ccd.conf"), 0);
	unlink(bad_key); unlink(bad_bool); unlink(bad_enum); unlink(no_eq);
	free(bad_key); free(bad_bool); free(bad_enum); free(no_eq);
	config_release(&cfg);
}

static void test_config_precedence(void **state)
{
	struct config cfg = { .keys = &ccd_keys }, lcfg = { .keys = &lkd_keys };
	char dir[] = "/tmp/ccd-test-xdgXXXXXX";
	char path[256];
	char *sys = write_tmp("cc = sysgcc\npasses = none\nld = sysld\n");
	FILE *f;
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ccd", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/ccd/ccd.conf", dir);
	f = fopen(path, "w");
	fputs("cc = usergcc\npasses = common\n", f);
	fclose(f);
	setenv("CCD_SYSTEM_CONFIG", sys, 1);
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("CCD_PASSES", "lockfix", 1);
	unsetenv("CCD_CC");
	unsetenv("LKD_LD");
	assert_int_equal(config_load(&cfg), 0);
	assert_int_equal(config_load(&lcfg), 0);
	assert_string_equal(config_get(&lcfg, LKD_KEY_LD), "sysld");	/* system beats default */
	config_release(&lcfg);
	assert_string_equal(config_get(&cfg, CCD_KEY_CC), "usergcc");	/* user beats system */
	assert_string_equal(config_get(&cfg, CCD_KEY_PASSES), "lockfix");	/* env beats user */
	assert_string_equal(config_origin(&cfg, CCD_KEY_PASSES), "CCD_PASSES");
	assert_string_equal(config_get(&cfg, CCD_KEY_KEEP_PREFIX), "__ccd_keep_");	/* default */
	unsetenv("CCD_PASSES");
	unsetenv("CCD_SYSTEM_CONFIG");
	unsetenv("XDG_CONFIG_HOME");
	unlink(path);
	snprintf(path, sizeof(path), "%s/ccd", dir);
	rmdir(path);
	rmdir(dir);
	unlink(sys);
	free(sys);
	config_release(&cfg);
}

static void test_tempfile(void **state)
{
	char dir[] = "/tmp/ccd-test-tmpXXXXXX";
	const char *path;
	struct stat st;
	int fd;
	(void)state;

	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	fd = tempfile_create("ccd", ".s", &path);
	assert_true(fd >= 0);
	assert_int_equal(strncmp(path, dir, strlen(dir)), 0);
	assert_int_equal(strcmp(path + strlen(path) - 2, ".s"), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	close(fd);
	char copy[4096];
	strcpy(copy, path);
	tempfile_remove(path);
	assert_int_equal(access(copy, F_OK), -1);
	/* cleanup_all never unlinks a non-regular file */
	assert_int_equal(tempfile_register("/dev/null"), 0);
	tempfile_cleanup_all();
	assert_int_equal(access("/dev/null", F_OK), 0);
	unsetenv("TMPDIR");
	assert_int_equal(rmdir(dir), 0);
}

static void test_run_command(void **state)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int status;
	(void)state;

	strvec_pushl(&cp.args, "sh", "-c", "echo hello; exit 3", NULL);
	status = capture_command(&cp, &out);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_string_equal(out.buf, "hello\n");
	assert_false(status_ok(status));
	child_process_clear(&cp);

	strvec_pushl(&cp.args, "sh", "-c", "kill -SEGV $$", NULL);
	status = run_command(&cp);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	child_process_clear(&cp);

	strvec_push(&cp.args, "/nonexistent/program");
	assert_int_equal(run_command(&cp), -1);
	child_process_clear(&cp);
	strbuf_release(&out);
}

static void test_quote_argv(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *argv[] = { "gcc", "-DX=a b", "it's", "-o", "x.o", NULL };
	(void)state;

	quote_argv(&sb, argv);
	assert_string_equal(sb.buf, "gcc '-DX=a b' 'it'\\''s' -o x.o");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_strbuf_read_file),
		cmocka_unit_test(test_strvec),
		cmocka_unit_test(test_namelist),
		cmocka_unit_test(test_config_file),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_config_precedence),
		cmocka_unit_test(test_tempfile),
		cmocka_unit_test(test_run_command),
		cmocka_unit_test(test_quote_argv),
		cmocka_unit_test(test_find_in_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
