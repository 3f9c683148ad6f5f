// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/warn.c: message layout, long messages, and die()
 * when memory has run out.  Linked with -Wl,--wrap=malloc,--wrap=realloc
 * so a test can make every allocation in lib/ fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "strbuf.h"
#include "warn.h"

void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_realloc(void *p, size_t n);

static int fail_alloc;

void *__wrap_malloc(size_t n)
{
	return fail_alloc ? NULL : __real_malloc(n);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_alloc ? NULL : __real_realloc(p, n);
}

/* Everything written to fd since it was made; fd is rewound and emptied. */
static size_t take(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	assert_true(n >= 0);
	buf[n] = '\0';
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return (size_t)n;
}

static int scratch_fd(void)
{
	char path[] = "/tmp/ccd-test-warnXXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

static void test_layout(void **state)
{
	char buf[256];
	int fd = scratch_fd();
	(void)state;

	warn_set_progname("/usr/bin/prog");
	warn_set_fd(fd);
	assert_int_equal(error("bad %s", "thing"), -1);
	take(fd, buf, sizeof(buf));
	assert_string_equal(buf, "prog: error: bad thing\n");
	errno = ENOENT;
	assert_int_equal(error_errno("cannot open '%s'", "x"), -1);
	take(fd, buf, sizeof(buf));
	assert_string_equal(buf, "prog: error: cannot open 'x': No such file or directory\n");
	warning("w%d", 1);
	note("n");
	take(fd, buf, sizeof(buf));
	assert_string_equal(buf, "prog: warning: w1\nprog: n\n");
	diag_at("f.s", 12, "lockfix", "m");
	diag_at(NULL, 0, NULL, "m");
	take(fd, buf, sizeof(buf));
	assert_string_equal(buf, "f.s:12: lockfix: m\n<stdin>: m\n");
	warn_set_fd(2);
	close(fd);
}

/* A message longer than the buffer is cut, marked, and still one line. */
static void test_long_message(void **state)
{
	static char big[100000], out[sizeof(big) + 256];
	int fd = scratch_fd();
	size_t n;
	(void)state;

	memset(big, 'x', sizeof(big) - 1);
	warn_set_progname("prog");
	warn_set_fd(fd);
	warning("%s", big);
	n = take(fd, out, sizeof(out));
	warn_set_fd(2);
	close(fd);
	assert_true(n > 4096 && n < 20000);
	assert_memory_equal(out, "prog: warning: xxx", 18);
	assert_string_equal(out + n - 5, "x...\n");
	assert_ptr_equal(strchr(out, '\n'), out + n - 1);
}

/*
 * die() when nothing can be allocated: the message still comes out and
 * the exit status is die's.  (Formatting through a strbuf recursed here:
 * xmalloc -> die -> strbuf -> xrealloc -> die ... until the stack ran out.)
 */
static void test_die_out_of_memory(void **state)
{
	char buf[256];
	int fd = scratch_fd(), status;
	pid_t pid;
	(void)state;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		warn_set_progname("prog");
		warn_set_fd(fd);
		fail_alloc = 1;
		(void)xmalloc(100);
		_exit(99);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	take(fd, buf, sizeof(buf));
	close(fd);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_string_equal(buf, "prog: error: out of memory (100 bytes)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_long_message),
		cmocka_unit_test(test_die_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
