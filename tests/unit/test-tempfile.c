// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/tempfile.c's own cleanup: a program that only makes
 * temp files (asmfix) calls no init function, yet a fatal signal or die()
 * removes them, and the process still dies of the signal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tempfile.h"
#include "warn.h"

static char dir[] = "/tmp/ccd-test-sigXXXXXX";

static int make_dir(void **state)
{
	/*
	 * Default dispositions to start from: a test run in the background
	 * of a non-interactive shell inherits SIGINT and SIGQUIT ignored.
	 */
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		signal(sigs[i], SIG_DFL);
	if (!mkdtemp(dir))
		return -1;
	return setenv("TMPDIR", dir, 1);
}

static int remove_dir(void **state)
{
	(void)state;
	return rmdir(dir);
}

/* How many files the directory holds; with unlink_them, removing them. */
static int files_in_dir(int unlink_them)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (unlink_them)
			unlink(path);
	}
	closedir(d);
	return n;
}

/* A child that makes a temp file and an output, then ends by how(). */
static int child_status(void (*how)(int), int arg)
{
	char out[64];
	const char *path;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		warn_set_fd(open("/dev/null", O_WRONLY));
		if (tempfile_create("t", ".s", &path) < 0)
			_exit(98);
		snprintf(out, sizeof(out), "%s/out.o", dir);
		close(creat(out, 0666));
		tempfile_register(out);
		how(arg);
		_exit(99);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void by_signal(int sig)
{
	kill(getpid(), sig);
}

static void by_die(int unused)
{
	(void)unused;
	die("failing on purpose");
}

static void test_signal_removes(void **state)
{
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	(void)state;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
		int status = child_status(by_signal, sigs[i]);

		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_int_equal(files_in_dir(0), 0);
	}
}

static void test_die_removes(void **state)
{
	int status = child_status(by_die, 0);
	(void)state;

	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_int_equal(files_in_dir(0), 0);
}

/* An ignored signal (nohup) stays ignored: the file is kept, no death. */
static void test_ignored_signal(void **state)
{
	int status;
	(void)state;

	signal(SIGHUP, SIG_IGN);
	status = child_status(by_signal, SIGHUP);
	signal(SIGHUP, SIG_DFL);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 99);
	assert_int_equal(files_in_dir(1), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_removes),
		cmocka_unit_test(test_die_removes),
		cmocka_unit_test(test_ignored_signal),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
